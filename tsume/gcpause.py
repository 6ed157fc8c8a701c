"""The cyclic garbage collector, paused while a search runs.

A df-pn table holds hundreds of thousands of small objects (entries, the
children lists of the move cache), all alive until the search ends and none
in a reference cycle.  Python's cyclic collector does not know that: every
few hundred allocations it runs, and its full collections walk the whole
table again.  Profiled with py-spy on the slowest verification of
bench-ito (``ito-L01-0001``, a 243,000-entry table) it took a quarter of the
time; paused, the verification went from 25.7 s to 15.3 s with the same
379,191 nodes (docs/performance.md, "Verify").

The searches create no cycles (measured: ``gc.collect()`` after a
verification with the collector off finds nothing), so pausing it frees no
less memory.  Reference counting still frees everything as usual.
"""

from __future__ import annotations

import gc

__all__ = ["PausedGC"]


class PausedGC:
    """``with PausedGC():`` -- the collector is off inside, and back on after
    if it was on before (nested uses leave it to the outermost)."""

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> "PausedGC":
        self._was_enabled = gc.isenabled()
        if self._was_enabled:
            gc.disable()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._was_enabled:
            gc.enable()
