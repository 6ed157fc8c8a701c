"""Length-bounded df-pn over check-only attacker moves.

``DfPn(pos).search(b)`` answers "does the attacker (side to move) mate within
``b`` counted plies?" with the conventions of docs/solver.md; ``b`` may be
:data:`INF`.  One transposition table serves every bound:

* a proof is stored with the smallest bound it is known for (``proven_b``) and
  holds for every larger bound;
* a disproof is stored with the largest bound it is known for
  (``disproven_b``, :data:`INF` when no mate exists at any length) and holds
  for every smaller one;
* a disproof that rests on a repetition (a repeated position fails for the
  attacker) records the positions of the current line it relied on, and is
  trusted only while all of them are on the line again (no GHI error);
* proof and disproof *hands* let a position whose attacker hand is a superset
  (subset) of a proven (disproven) one reuse the result, with
  KomoringHeights' drop corrections (see :mod:`tsume.hands`).

Enhancements: heuristic initial numbers, a one-ply mate check when an attacker
node is expanded, same-square interposition drops counted once (max instead of
sum), threshold control (the ``second best + 1`` rule), a node/time/memory
bound with garbage collection of the table by subtree size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .conventions import handed_back, interposition_square, ranged_checkers
from .hands import HandTable
from .position import Position

__all__ = ["DfPn", "INF", "SearchLimit", "Options", "PROVEN", "DISPROVEN", "UNKNOWN"]

INF = 1 << 40
PROVEN, DISPROVEN, UNKNOWN = "proven", "disproven", "unknown"


class SearchLimit(Exception):
    """Raised inside the search when a node, time or memory bound is reached."""


@dataclass
class Options:
    """Switches for the enhancements (all on by default; the benchmarks turn them off)."""

    hand_dominance: bool = True
    one_ply_mate: bool = True
    same_square_max: bool = True
    heuristic_init: bool = True


class DfPn:
    """A df-pn search on one position (attacker to move) and its descendants."""

    def __init__(
        self,
        pos: Position,
        *,
        node_limit: int | None = None,
        time_limit: float | None = None,
        memory_limit_mb: float | None = None,
        progress: Callable[[dict], None] | None = None,
        options: Options | None = None,
    ) -> None:
        self.pos = pos.copy()
        self.attacker = self.pos.turn
        self.options = options or Options()
        self.table = HandTable(self.pos, dominance=self.options.hand_dominance)
        self.path: dict[int, int] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = time.perf_counter() + time_limit if time_limit else None
        self.max_entries = int(memory_limit_mb * 1e6 / 400) if memory_limit_mb else None
        self.progress = progress
        self.started = time.perf_counter()
        self._next_progress = self.started + 1.0
        self.gc_runs = 0
        self.useless_cache: dict[tuple[int, int, int], bool] = {}

    # --- public ------------------------------------------------------------

    def search(self, b: int) -> str:
        """Mate within ``b`` counted plies from the current position?  PROVEN, DISPROVEN or UNKNOWN."""
        try:
            return self._solve(b)
        except SearchLimit:
            return UNKNOWN

    def stats(self) -> dict:
        secs = time.perf_counter() - self.started
        return {
            "nodes": self.nodes,
            "seconds": secs,
            "nodes_per_second": self.nodes / secs if secs > 0 else 0.0,
            "table_entries": len(self.table),
            "gc_runs": self.gc_runs,
        }

    # --- driver --------------------------------------------------------------

    def _solve(self, b: int) -> str:
        """Search the current ``self.pos`` to a result (raises SearchLimit)."""
        while True:
            pn, dn = self._probe(b)
            if pn == 0:
                return PROVEN
            if dn == 0:
                return DISPROVEN
            self._mid(b, INF - 1, INF - 1)

    def _probe(self, b: int) -> tuple[int, int]:
        pos = self.pos
        h = pos.hash
        if h in self.path:
            return INF, 0
        pn, dn, _, _ = self.table.lookup(pos, b, self.path)
        return pn, dn

    def _tick(self) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchLimit("node limit")
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            raise SearchLimit("time limit")
        if self.max_entries is not None and len(self.table) > self.max_entries:
            self.table.collect(self.max_entries // 2)
            self.gc_runs += 1
        if self.progress is not None and now >= self._next_progress:
            self._next_progress = now + 1.0
            self.progress(self.stats())

    # --- the search --------------------------------------------------------------

    def _mid(self, b: int, th_pn: int, th_dn: int) -> tuple[int, int]:
        pos = self.pos
        h = pos.hash
        self.nodes += 1
        if not self.nodes & 1023:
            self._tick()
        start_nodes = self.nodes
        table = self.table
        or_node = pos.turn == self.attacker
        if or_node:
            if b < 1:
                table.store_disproof(pos, 0, None, 0)
                return INF, 0
            moves = pos.checks()
            if not moves:
                table.store_disproof(pos, INF, None, 0, no_checks=True)
                return INF, 0
        else:
            moves = pos.evasions()
            if not moves:
                table.store_proof(pos, 0, 0)
                return 0, INF

        path = self.path
        path[h] = 1
        # Children: [move, hash, checker square of an interposition (AND), group]
        kids = []
        ranged = 0 if or_node else ranged_checkers(pos)
        push = pos.push
        pop = pos.pop
        for m in moves:
            push(m)
            kids.append([m, pos.hash, 0, 0])
            pop()
        if not or_node:
            same_square = self.options.same_square_max
            for i, kid in enumerate(kids):
                m = kid[0]
                kid[2] = interposition_square(pos, m, ranged) if ranged else 0
                # Drops onto one square form a group whose numbers count once:
                # they mostly share their fate.
                kid[3] = (m >> 7 & 127) if same_square and not m & 127 else -1 - i
        elif self.options.one_ply_mate:
            for kid in kids:
                if not table.known(kid[1]):
                    push(kid[0])
                    if not pos.evasions():
                        table.store_proof(pos, 0, 0)
                    pop()

        cb = b - 1
        lookup = table.lookup_key
        result: tuple[int, int]
        try:
            while True:
                if or_node:
                    best = -1
                    pn1 = pn2 = INF
                    dn_sum = 0
                    best_dn = 0
                    proof_len = INF
                    dis_b = INF
                    rep: set[int] | None = None
                    for i, kid in enumerate(kids):
                        kh = kid[1]
                        if kh in path:
                            cpn, cdn, cx, crep = INF, 0, INF, (kh,)
                        else:
                            cpn, cdn, cx, crep = lookup(kh, cb, path)
                        if cpn < pn1:
                            pn2 = pn1
                            pn1 = cpn
                            best = i
                            best_dn = cdn
                        elif cpn < pn2:
                            pn2 = cpn
                        dn_sum += cdn
                        if cpn == 0 and cx < proof_len:
                            proof_len = cx
                        if cdn == 0:
                            if crep is not None:
                                rep = set(crep) if rep is None else rep | set(crep)
                            elif cx + 1 < dis_b:
                                dis_b = cx + 1
                    n_pn = pn1
                    n_dn = dn_sum if dn_sum < INF else INF
                    if n_pn == 0:
                        table.store_proof(pos, proof_len + 1, self.nodes - start_nodes)
                        result = (0, INF)
                        break
                    if n_dn == 0:
                        if rep is not None:
                            rep.discard(h)
                        if rep:
                            table.store_rep_disproof(pos, b, frozenset(rep), self.nodes - start_nodes)
                        else:
                            table.store_disproof(pos, dis_b, None, self.nodes - start_nodes)
                        result = (INF, 0)
                        break
                    if n_pn >= th_pn or n_dn >= th_dn:
                        table.store_unknown(pos, b, n_pn, n_dn, self.nodes - start_nodes)
                        result = (n_pn, n_dn)
                        break
                    child_th_pn = min(th_pn, pn2 + 1)
                    child_th_dn = th_dn - n_dn + best_dn
                else:
                    groups: dict[int, int] = {}
                    best = -1
                    dn1 = dn2 = INF
                    best_pn = 0
                    best_group = 0
                    max_len = -1
                    used_useless = False
                    dis_b = INF
                    rep = None
                    disproved = False
                    for i, kid in enumerate(kids):
                        kh = kid[1]
                        if kh in path:
                            cpn, cdn, cx, crep = INF, 0, INF, (kh,)
                        else:
                            cpn, cdn, cx, crep = lookup(kh, cb, path)
                        if cdn == 0 and kid[2]:
                            useless = self._useless(kid[0], kid[2], b)
                            if useless is None:
                                pass  # depends on the line: keep the counted verdict
                            elif useless:
                                cpn, cdn, cx, crep = 0, INF, -1, None
                                used_useless = True
                        if cdn == 0:
                            disproved = True
                            best = i
                            if crep is not None:
                                rep = set(crep)
                                dis_b = INF
                            else:
                                rep = None
                                dis_b = cx + 1
                            break
                        g = kid[3]
                        if cpn > groups.get(g, 0):
                            groups[g] = cpn
                        if cdn < dn1:
                            dn2 = dn1
                            dn1 = cdn
                            best = i
                            best_pn = cpn
                            best_group = g
                        elif cdn < dn2:
                            dn2 = cdn
                        if cpn == 0 and cx > max_len:
                            max_len = cx
                    if disproved:
                        if rep is not None:
                            rep.discard(h)
                        if rep:
                            table.store_rep_disproof(pos, b, frozenset(rep), self.nodes - start_nodes)
                        else:
                            table.store_disproof(pos, dis_b, None, self.nodes - start_nodes)
                        result = (INF, 0)
                        break
                    pn_sum = 0
                    for v in groups.values():
                        pn_sum += v
                    n_pn = pn_sum if pn_sum < INF else INF
                    n_dn = dn1
                    if n_pn == 0:
                        plen = max_len + 1 if max_len >= 0 else 0
                        table.store_proof(pos, b if used_useless else plen, self.nodes - start_nodes)
                        result = (0, INF)
                        break
                    if n_pn >= th_pn or n_dn >= th_dn:
                        table.store_unknown(pos, b, n_pn, n_dn, self.nodes - start_nodes)
                        result = (n_pn, n_dn)
                        break
                    child_th_dn = min(th_dn, dn2 + 1)
                    child_th_pn = th_pn - n_pn + max(groups[best_group], best_pn)
                push(kids[best][0])
                self._mid(cb, child_th_pn, child_th_dn)
                pop()
        finally:
            del path[h]
        return result

    def _useless(self, d: int, checker: int, b: int) -> bool | None:
        """Is the interposition ``d`` (defender to move here) useless with ``b`` plies left?

        None when the answer depends on the current line (not cached then).
        """
        pos = self.pos
        key = (pos.hash, d, b)
        cached = self.useless_cache.get(key)
        if cached is not None:
            return cached
        to = d >> 7 & 127
        dependent = False
        verdict = False
        pos.push(d)
        try:
            for x in pos.checks():
                if x & 127 != checker or x >> 7 & 127 != to:
                    continue
                pos.push(x)
                kind = pos.t.hand_kind[pos._stack[-1][1]]
                back = handed_back(pos, kind)
                pos.pop()
                status, dep = self._nested(back, b)
                dependent |= dep
                if status == PROVEN:
                    status2, dep2 = self._nested(None, b + 1)
                    dependent |= dep2
                    verdict = status2 == PROVEN
                    break
        finally:
            pos.pop()
        if dependent and not verdict:
            return None
        self.useless_cache[key] = verdict
        return verdict

    def _nested(self, other: Position | None, b: int) -> tuple[str, bool]:
        """Search ``other`` (or the current position) to a result; (status, rests on the line)."""
        saved = self.pos
        if other is not None:
            self.pos = other
        try:
            status = self._solve(b)
            dep = status == DISPROVEN and self.table.is_rep_disproof(self.pos, b, self.path)
            return status, dep
        finally:
            self.pos = saved
