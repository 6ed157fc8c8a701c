"""The df-pn transposition table, with budget-aware proofs and disproofs.

Entries are keyed on the full position hash (board, both hands, side to
move).  Each holds:

* ``proven_b`` -- the smallest counted length the node is proven mate within
  (valid for every larger bound);
* ``disproven_b`` -- the largest bound it is known not to mate within (valid
  for every smaller bound; :data:`INF` = no mate at all);
* ``rep``/``rep_b`` -- a disproof at bound ``rep_b`` that rests on
  repetitions: the set of positions of the line it relied on.  It is trusted
  only while every one of them is on the current line;
* ``pn``/``dn`` for the bound ``b`` they were computed at, and ``work`` (nodes
  spent below it), which garbage collection keeps the largest of.
"""

from __future__ import annotations

from .position import Position

__all__ = ["HandTable", "Entry", "INF"]

INF = 1 << 40


class Entry:
    __slots__ = ("pn", "dn", "b", "proven_b", "disproven_b", "rep", "rep_b", "work")

    def __init__(self) -> None:
        self.pn = 1
        self.dn = 1
        self.b = -1
        self.proven_b = INF
        self.disproven_b = -1
        self.rep: frozenset[int] | None = None
        self.rep_b = -1
        self.work = 0


class HandTable:
    """Transposition table for one search."""

    def __init__(self, pos: Position, dominance: bool = True) -> None:
        self.entries: dict[int, Entry] = {}
        self.dominance = dominance

    def __len__(self) -> int:
        return len(self.entries)

    def known(self, h: int) -> bool:
        return h in self.entries

    def _entry(self, h: int) -> Entry:
        e = self.entries.get(h)
        if e is None:
            e = self.entries[h] = Entry()
        return e

    # --- lookup ----------------------------------------------------------------

    def lookup(self, pos: Position, b: int, path: dict[int, int]) -> tuple[int, int, int, tuple | None]:
        """``(pn, dn, x, rep)`` of the current position of ``pos`` at bound ``b``.

        ``x`` is the proof length of a proof or the disproven bound of a
        disproof; ``rep`` the positions a repetition disproof rests on.
        """
        return self.lookup_key(pos.hash, b, path)

    def lookup_key(self, h: int, b: int, path: dict[int, int]) -> tuple[int, int, int, tuple | None]:
        e = self.entries.get(h)
        if e is None:
            return 1, 1, 0, None
        if e.proven_b <= b:
            return 0, INF, e.proven_b, None
        if e.disproven_b >= b:
            return INF, 0, e.disproven_b, None
        rep = e.rep
        if rep is not None and e.rep_b >= b:
            for k in rep:
                if k not in path:
                    break
            else:
                return INF, 0, e.rep_b, tuple(rep)
        if e.b == b:
            return e.pn, e.dn, 0, None
        return 1, 1, 0, None

    def is_rep_disproof(self, pos: Position, b: int, path: dict[int, int]) -> bool:
        """Does the disproof of this position at ``b`` rest on the current line?"""
        e = self.entries.get(pos.hash)
        return e is not None and e.disproven_b < b

    # --- store -----------------------------------------------------------------

    def store_proof(self, pos: Position, length: int, work: int) -> None:
        e = self._entry(pos.hash)
        if length < e.proven_b:
            e.proven_b = length
        e.work += work

    def store_disproof(self, pos: Position, bound: int, _unused: object, work: int, no_checks: bool = False) -> None:
        e = self._entry(pos.hash)
        if bound > e.disproven_b:
            e.disproven_b = bound
        e.work += work

    def store_rep_disproof(self, pos: Position, b: int, rep: frozenset[int], work: int) -> None:
        e = self._entry(pos.hash)
        e.rep = rep
        e.rep_b = b
        e.work += work

    def store_unknown(self, pos: Position, b: int, pn: int, dn: int, work: int) -> None:
        e = self._entry(pos.hash)
        e.pn = pn
        e.dn = dn
        e.b = b
        e.work += work

    # --- memory ----------------------------------------------------------------

    def collect(self, keep: int) -> None:
        """Drop all but about ``keep`` entries, keeping those with the most work below them."""
        if len(self.entries) <= keep:
            return
        works = sorted(e.work for e in self.entries.values())
        cut = works[len(works) - keep]
        self.entries = {h: e for h, e in self.entries.items() if e.work > cut}
