"""What the filters made of a candidate, remembered within one process.

The climb meets the same child again and again: later shards climb from
the same longest parents, and a walk's children overlap the children of
the walks before it.  Those are the costly candidates (a sound child is
verified and economised), so in a run of one worker about a quarter of the
candidates, found again, took some two thirds of the filters' CPU
(docs/performance.md, "Composer").

:func:`considered` runs :func:`~tsume.compose.filters.consider` once per
candidate (its variant, board, attacker's hand and defender's hand rule),
criteria and lengths skipped, and hands the same outcome back afterwards.
The filters search under node limits only, so the outcome is a function of
exactly that key: remembering it changes no result of a seeded run, only
the CPU it takes.  The memory is per process, bounded (least recently used
out first) and guarded by a lock (shards may run as threads).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .candidate import Candidate
from ..solve import Result
from .filters import Criteria, Outcome, consider, mate

__all__ = ["considered", "mated", "forget", "remembered", "CAPACITY"]

#: Outcomes kept per process: a long Ito outcome holds its verify report
#: (a few tens of kilobytes), so some tens of megabytes at most.
CAPACITY = 8192

_outcomes: OrderedDict[tuple, Any] = OrderedDict()
_lock = threading.Lock()
_counts = {"hits": 0, "misses": 0}


def _key(c: Candidate, criteria: Criteria, skip: frozenset[int]) -> tuple:
    return (c.pos.variant.name, c.fen(), c.defender, criteria, skip)


def _recall(key: tuple, work: Callable[[], Any]) -> Any:
    """What ``work()`` gave for ``key`` before, else its value (then kept)."""
    with _lock:
        if key in _outcomes:
            _outcomes.move_to_end(key)
            _counts["hits"] += 1
            return _outcomes[key]
    value = work()
    with _lock:
        _counts["misses"] += 1
        _outcomes[key] = value
        while len(_outcomes) > CAPACITY:
            _outcomes.popitem(last=False)
    return value


def considered(c: Candidate, criteria: Criteria, skip: "frozenset[int] | set[int]" = frozenset()) -> Outcome:
    """``consider(c, criteria, skip)``, from memory when this process has
    filtered the same candidate under the same criteria before."""
    skip = frozenset(skip)
    return _recall(("consider",) + _key(c, criteria, skip), lambda: consider(c, criteria, skip))


def mated(c: Candidate, criteria: Criteria) -> tuple[Result | None, int]:
    """``mate(c, criteria)`` (the length of a parent given by the user,
    solved at every walk that starts from it), from memory likewise.  Only
    its length is wanted: the main line is not read."""
    return _recall(("mate",) + _key(c, criteria, frozenset()), lambda: mate(c, criteria, lengths=()))


def remembered() -> dict[str, int]:
    """How many outcomes are held, and the hits and misses so far."""
    with _lock:
        return {"held": len(_outcomes), **_counts}


def forget() -> None:
    """Drop every outcome held (and the counts)."""
    with _lock:
        _outcomes.clear()
        _counts.update(hits=0, misses=0)
