"""Writing certificates (docs/certificates.md) from the engine's proofs.

The writer asks the df-pn engine, walking its lines so that repetitions count
as in the verifier, for a proof of the mate, the refutations behind the
length, and a defender strategy against every other check on the main line;
the checker (:mod:`tsume.certificate.check`) shares none of this code.  A
certificate the checker would not accept is never written: the writer checks
its own output and raises :class:`CertificateError` instead.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..conventions import interposition_square, ranged_checkers, recaptures
from ..arguments import check_positive_int
from ..errors import ArgumentError, TsumeError
from ..limits import Limits, check_limits
from ..outcome import Verdict
from ..position import Move, Position, SquareSet
from ..problem import Problem, require_problem
from ..render import plies
from ..search import OverBudget, Search, SearchLimit
from ..verify import Report
from .check import CLAIMS, FORMAT, VERSION, check_certificate

__all__ = ["write_certificate", "certificate_for", "pack", "CertificateError"]

#: The search's memory for the writer's hypothetical positions (a useless
#: interposition's capture with the piece handed back): small proofs.
_SIDE_MEMORY = 16.0
#: How deep the writer walks one search's line (the engine stops at 500 plies).
_WALK_LIMIT = 400
#: The most nodes a certificate's refutations and strategies may have by
#: default (``max_nodes``): past it the problem is not certified, as the
#: checker's time grows with them (ito-c0162's 23,543 check in 2.2 s).
MAX_NODES = 100_000
#: The node budgets a strategy's defences are asked within, in turn (None: no budget).
_ESCAPE_BUDGETS = (2_000, 50_000, None)


class CertificateError(TsumeError):
    """A problem that cannot be certified (not sound, or a proof the
    certificate cannot express); the message says why, in one line."""


class _Ctx:
    """One search and the walk along its current line, with the position and
    the line's positions (``keys``, the current one last) in step."""

    def __init__(self, search: Search, pos: Position) -> None:
        self.search, self.pos, self.keys = search, pos, [pos.key()]

    @contextmanager
    def at(self, m: Move) -> Iterator[None]:
        self.search.walk(m)
        self.pos.push(m)
        self.keys.append(self.pos.key())
        try:
            yield
        finally:
            self.keys.pop()
            self.search.unwalk()
            self.pos.pop()


class _Writer:
    def __init__(self, attacker: Any, limits: Limits, max_nodes: int | None) -> None:
        self.attacker = attacker
        self.limits = limits
        self.max_nodes = max_nodes
        self.mate: dict[int, list] = {}          # id -> node
        self.mate_memo: dict[tuple, tuple[int, int]] = {}  # key -> (id, bound)
        self.next_id = 0
        self.main: set[int] = set()
        self.refute: list[list] = []
        self.refute_memo: dict[tuple, list[tuple[int, int]]] = {}
        self.refute_log: list[tuple] = []  # the memo's keys in the order added, to undo
        self.strategy: list[list] = []
        self.strategy_memo: dict[tuple, int] = {}

    # the proof of mate -------------------------------------------------------

    def _new(self, key: tuple, b: int, node: list) -> tuple[int, bool]:
        """The node id for a position proven within ``b``, and whether it is new."""
        known = self.mate_memo.get(key)
        if known is not None:
            if known[0] in self.main and known[1] > b:
                raise CertificateError("a variation needs a main-line position proven in fewer plies")
            self.mate_memo[key] = (known[0], b)
            return known[0], False
        i = self.next_id
        self.next_id += 1
        self.mate_memo[key] = (i, b)
        self.mate[i] = node
        return i, True

    def attacker_node(self, ctx: _Ctx, b: int) -> int:
        key = ctx.pos.key()
        known = self.mate_memo.get(key)
        if known is not None and known[1] <= b:
            return known[0]
        if b < 1:
            raise CertificateError(f"no mate within {plies(b)} at {ctx.pos.fen(False)}")
        chosen = None
        for c in ctx.pos.checks():
            with ctx.at(c):
                if ctx.search.mate(b - 1):
                    chosen = c
                    break
        if chosen is None:
            raise CertificateError(f"no mate within {plies(b)} found at {ctx.pos.fen(False)}")
        i, _ = self._new(key, b, ["A", None, None])
        with ctx.at(chosen):
            child = self.defender_node(ctx, b - 1)
        self.mate[i] = ["A", str(chosen), child]
        return i

    def main_node(self, ctx: _Ctx, b: int, rest: list[Move]) -> int:
        """The attacker node of the main line with ``rest`` to play (proven first,
        so that variations coming back to it share it)."""
        i, _ = self._new(ctx.pos.key(), b, ["A", None, None])
        self.main.add(i)
        with ctx.at(rest[0]):
            child = self.defender_node(ctx, b - 1, rest[1:])
        self.mate[i] = ["A", str(rest[0]), child]
        return i

    def defender_node(self, ctx: _Ctx, b: int, rest: list[Move] | None = None) -> int:
        key = ctx.pos.key()
        known = self.mate_memo.get(key)
        if known is not None and known[1] <= b and not rest:
            return known[0]
        i, _ = self._new(key, b, ["D", {}])
        if rest:
            self.main.add(i)
        table: dict[str, Any] = {}
        ranged = ranged_checkers(ctx.pos)
        evasions = ctx.pos.evasions()
        if rest:
            evasions.sort(key=lambda d: d != rest[0])
        for d in evasions:
            if rest and d == rest[0]:
                with ctx.at(d):
                    table[str(d)] = self.main_node(ctx, b - 1, rest[1:])
            elif ctx.search.is_useless(d):
                table[str(d)] = self.useless(ctx, d, interposition_square(ctx.pos, d, ranged))
            else:
                with ctx.at(d):
                    table[str(d)] = self.attacker_node(ctx, b - 1)
        self.mate[i] = ["D", table]
        return i

    def useless(self, ctx: _Ctx, d: Move, checker: int) -> list:
        """``["u", after, capture, handed back, witness]`` for a useless interposition."""
        r = ctx.search.best_other_value()
        if r is None:
            raise CertificateError(f"no value for the other defences at {ctx.pos.fen(False)}")
        witness = None
        if r >= 4:
            # R's lower bound: a defence that does not interpose and lasts R.
            ranged = ranged_checkers(ctx.pos)
            for w in ctx.pos.evasions():
                if interposition_square(ctx.pos, w, ranged):
                    continue
                with ctx.at(w):
                    witness = self._witness(ctx, w, r - 3)
                if witness is not None:
                    break
            if witness is None:
                raise CertificateError(f"the mate: no defence shown to last {plies(r)} "
                                       f"(R of a useless interposition) at {ctx.pos.fen(False)}")
        capture = Move(checker, d.to_square)
        with ctx.at(d):
            after = self.attacker_node(ctx, r + 1)
            backs = [b for b in recaptures(ctx.pos, checker, d.to_square)]
        if not backs:
            raise CertificateError(f"{d} is useless but cannot be taken at {ctx.pos.fen(False)}")
        q = self.hypothetical(backs[0], r)
        return ["u", after, str(capture), q, witness]

    def hypothetical(self, pos: Position, b: int) -> int:
        """A defender node that play never reaches (a capture with the piece
        handed back): its proof, each defence searched from a new search."""
        key = pos.key()
        known = self.mate_memo.get(key)
        if known is not None and known[1] <= b:
            return known[0]
        saved = dict(self.mate_memo)
        i, _ = self._new(key, b, ["D", {}])
        try:
            ranged = ranged_checkers(pos)
            plain = [e for e in pos.evasions() if not interposition_square(pos, e, ranged)]
            values = []
            for e in plain:
                child = pos.copy()
                child.push(e)
                v = Search(child, limits=self._side_limits()).value()
                if v is None:
                    raise CertificateError(f"no mate after {e} at {pos.fen(False)}")
                values.append(1 + v)
            r = max(values, default=0)
            table: dict[str, Any] = {}
            for e in pos.evasions():
                child = pos.copy()
                child.push(e)
                sub = _Ctx(Search(child, limits=self._side_limits()), child)
                checker = interposition_square(pos, e, ranged)
                entry = self._hypothetical_useless(pos, e, checker, r, plain, sub) if checker else None
                table[str(e)] = entry if entry is not None else self.attacker_node(sub, b - 1)
        except CertificateError:
            self.mate_memo = saved  # nothing half-built is shared
            raise
        self.mate[i] = ["D", table]
        return i

    def _hypothetical_useless(self, pos: Position, e: Move, checker: int, r: int, plain: list[Move],
                              sub: _Ctx) -> list | None:
        if not sub.search.mate(r + 1):
            return None
        backs = list(recaptures(sub.pos, checker, e.to_square))
        if not backs:
            return None
        witness = None
        if r >= 4:
            for w in plain:
                child = pos.copy()
                child.push(w)
                wctx = _Ctx(Search(child, limits=self._side_limits()), child)
                witness = self._witness(wctx, w, r - 3)
                if witness is not None:
                    break
            if witness is None:
                return None
        try:
            q = self.hypothetical(backs[0], r)
        except CertificateError:
            return None
        after = self.attacker_node(sub, r + 1)
        return ["u", after, str(Move(checker, e.to_square)), q, witness]

    def _witness(self, ctx: _Ctx, w: Move, k: int) -> list | None:
        """``[w, refutation]`` if no mate within ``k`` follows the defence
        ``w`` (played) and a refutation shows it: one without repetitions
        if there is one, else one that counts those of ``ctx``'s line."""
        if ctx.search.mate(k):
            return None
        for build in (self.refutation, self.line_refutation):
            mark, size = len(self.refute_log), len(self.refute)
            try:
                return [str(w), build(ctx, k)]
            except CertificateError:
                self._undo(mark, size)
        return None

    def _side_limits(self) -> Limits:
        memory = self.limits.memory
        return Limits(time=self.limits.time, nodes=self.limits.nodes,
                      memory=min(memory, _SIDE_MEMORY) if memory else _SIDE_MEMORY)

    # refutations: no mate within a bound ---------------------------------------

    def refutation(self, ctx: _Ctx, k: int) -> int:
        """A node proving, attacker to move, no mate within ``k`` counted plies."""
        key = ctx.pos.key()
        for i, kk in self.refute_memo.get(key, ()):
            if kk >= k:
                return i
        i = self._grow(self.refute)
        self.refute.append(["R", k, {}])
        self.refute_memo.setdefault(key, []).append((i, k))
        self.refute_log.append(key)
        table: dict[str, list] = {}
        if k >= 1:
            for c in ctx.pos.checks():
                with ctx.at(c):
                    table[str(c)] = self._answer(ctx, k)
        self.refute[i][2] = table
        return i

    def line_refutation(self, ctx: _Ctx, k: int) -> int:
        """An "H" node: no mate within ``k``, repetitions of ``ctx``'s line
        counted.  It holds on this line only, so it is never shared."""
        if ctx.keys[-1] in ctx.keys[:-1]:
            raise CertificateError("a refutation repeats its line")
        i = self._grow(self.refute)
        self.refute.append(["H", k, {}])
        table: dict[str, Any] = {}
        if k >= 1:
            for c in ctx.pos.checks():
                with ctx.at(c):
                    table[str(c)] = "rep" if ctx.keys[-1] in ctx.keys[:-1] else self._answer(ctx, k, True)
        self.refute[i][2] = table
        return i

    def _answer(self, ctx: _Ctx, k: int, on_line: bool = False, deep: bool = False) -> list:
        """A reply to the check just played, with the node that refutes a mate
        within ``k`` - 2 after it (repetitions of the line counted if
        ``on_line``; ``deep``: R bounded by "M" nodes too, not only at once)."""
        pos = ctx.pos
        ranged = ranged_checkers(pos)
        candidates, capturable = [], []
        evasions = pos.evasions()
        for d in evasions:
            if _takeable(pos, d, ranged):
                capturable.append(d)  # it might be useless: only as below
            else:
                candidates.append(d)
        if deep:  # the second pass: only the interpositions might count now
            candidates = []
            capturable = [d for d in capturable if not self._mated_after(ctx, d, k - 2)]
        if k - 2 < 1 and candidates:
            return [str(candidates[0])]
        tries: list[tuple[Move, int, list]] = [(d, k - 2, []) for d in candidates]
        # An interposition the checker can take counts if no mate within R + 1
        # follows it, or if after the capture with the piece handed back a
        # defence that does not interpose escapes a mate within R.  R is 0
        # when every defence interposes; on a known line, 2 when each of the
        # others is mated at once (or within what an "M" node shows); else
        # k - 1 will do (R is even: at most k - 1, or at least k + 1, and
        # another defence lasts).
        plain = [e for e in evasions if not interposition_square(pos, e, ranged)]
        mates, bound = self._mates(ctx, plain, k - 4 if deep else 1) if capturable and plain and on_line else (None, 0)
        for d in capturable:
            r = 0 if not plain else min(bound, k - 1) if mates else k - 1
            escape = self._escape_after_capture(pos, d, ranged, r)
            if escape is not None and k - 2 < 1:
                return [str(d), None, mates, escape]
            tries.append((d, k - 2, [mates, escape]) if escape is not None
                         else (d, max(k - 2, r + 1), [mates] if mates else []))
        if on_line:
            for d, _, _ in tries:
                pos.push(d)
                again = pos.key() in ctx.keys
                pos.pop()
                if again:
                    return [str(d), "rep"]
        # The engine's answers count repetitions of the line: a defence is
        # tried, and taken back if no refutation follows (first one without
        # repetitions, which may be shared, then one on this line).
        for d, need, escape in tries:
            with ctx.at(d):
                if ctx.search.mate(need):
                    continue
                for build in (self.refutation, self.line_refutation) if on_line else (self.refutation,):
                    mark, size = len(self.refute_log), len(self.refute)
                    try:
                        return [str(d), build(ctx, need)] + escape
                    except CertificateError:
                        self._undo(mark, size)
        if on_line and capturable and plain and mates is None and not deep and k - 4 > 1:
            return self._answer(ctx, k, on_line, deep=True)
        raise CertificateError(f"no refutation of a mate within {plies(k)} found at {pos.fen(False)}")

    def _mates(self, ctx: _Ctx, plain: list[Move], most: int) -> tuple[dict[str, Any] | None, int]:
        """For each of the defences ``plain`` (all those that do not
        interpose), a check that mates at once (:func:`_mated`) or an "M"
        node mating within ``most``, none of the positions on ``ctx``'s line;
        and the bound on R they show.  (None, 0) if one has none."""
        out: dict[str, Any] = {}
        bound = 2
        for e in plain:
            with ctx.at(e):
                mate: str | int | None = None
                if ctx.keys[-1] not in ctx.keys[:-1]:
                    for x in ctx.pos.checks():
                        ctx.pos.push(x)
                        if _mated(ctx.pos, set(ctx.keys)):
                            mate = str(x)
                        ctx.pos.pop()
                        if mate:
                            break
                for b in range(3, most + 1, 2):
                    if mate is None and ctx.search.mate(b):
                        mate = self.mate_node(ctx, b)
                        bound = max(bound, 1 + b) if mate is not None else bound
            if mate is None:
                return None, 0
            out[str(e)] = mate
        return out, bound

    @staticmethod
    def _mated_after(ctx: _Ctx, d: Move, b: int) -> bool:
        with ctx.at(d):
            return bool(ctx.search.mate(b))

    def mate_node(self, ctx: _Ctx, b: int) -> int | None:
        """An "M" node: mated within ``b`` on ``ctx``'s line, every reply
        counted (a useless interposition too, unless the check mates at once
        as :func:`_mated` says); None if none is found."""
        if b < 1 or ctx.keys[-1] in ctx.keys[:-1]:
            return None
        size = len(self.refute)
        for x in ctx.pos.checks():
            with ctx.at(x):
                if ctx.keys[-1] in ctx.keys[:-1] or not ctx.search.mate(b - 1):
                    continue
                table: dict[str, int] = {}
                complete = _mated(ctx.pos, set(ctx.keys[:-1]))
                if not complete:
                    for d in ctx.pos.evasions():
                        with ctx.at(d):
                            j = self.mate_node(ctx, b - 2)
                        if j is None:
                            break
                        table[str(d)] = j
                    else:
                        complete = True
            if not complete:
                del self.refute[size:]
                continue
            i = self._grow(self.refute)
            self.refute.append(["M", b, str(x), table])
            return i
        return None

    def _escape_after_capture(self, pos: Position, d: Move, ranged: Any, r: int) -> list | None:
        """``[e, refutation]``: after the checker takes the interposition ``d``
        (defender to move in ``pos``), the piece handed back, a defence ``e``
        that counts (no interposition the checker can take with check), and no
        mate within ``r`` - 1 after it."""
        checker = interposition_square(pos, d, ranged)
        pos.push(d)
        try:
            backs = list(recaptures(pos, checker, d.to_square))
        finally:
            pos.pop()
        for q in backs[:1]:
            shield = ranged_checkers(q)
            for e in q.evasions():
                if _takeable(q, e, shield):
                    continue  # it might be useless: it need not count
                if r - 1 < 1:
                    return [str(e), None]
                after = q.copy()
                after.push(e)
                sub = _Ctx(Search(after, limits=self._side_limits()), after)
                if sub.search.mate(r - 1):
                    continue
                mark, size = len(self.refute_log), len(self.refute)
                try:
                    return [str(e), self.refutation(sub, r - 1)]
                except CertificateError:
                    self._undo(mark, size)
        return None

    def _undo(self, mark: int, size: int) -> None:
        while len(self.refute_log) > mark:
            self.refute_memo[self.refute_log.pop()].pop()
        del self.refute[size:]

    def _grow(self, nodes: list) -> int:
        if self.max_nodes is not None and len(self.refute) + len(self.strategy) >= self.max_nodes:
            claim = "uniqueness" if nodes is self.strategy else "the mate"
            raise CertificateError(f"{claim}: more than {self.max_nodes:,} nodes of refutations and strategies")
        return len(nodes)

    # the defender's strategies against the other checks ----------------------

    def _strategy_node(self, ctx: _Ctx, history: set, node: list) -> tuple[int | str, int | None]:
        """The strategy's node for this position, or "rep" for one of the
        line's; and its index if it is new (then ``node`` holds its place)."""
        key = ctx.pos.key()
        if key in self.strategy_memo:
            return self.strategy_memo[key], None
        if key in history:
            return "rep", None
        i = self._grow(self.strategy)
        self.strategy.append(node)
        self.strategy_memo[key] = i
        return i, i

    def strategy_defender(self, ctx: _Ctx, history: set) -> int | str:
        known, i = self._strategy_node(ctx, history, ["SD", None, None])
        if i is None:
            return known
        # A defence that repeats a position, or leaves the attacker no check,
        # needs no search.  Else the fewest checks, and among as few a capture
        # (the attacker's material runs out for good): the strategy stays small.
        ranked = []
        for n, d in enumerate(ctx.pos.evasions()):
            keeps = d.is_drop or ctx.pos.piece_at(d.to_square) is None
            ctx.pos.push(d)
            key2 = ctx.pos.key()
            checks = -1 if key2 in history or key2 in self.strategy_memo else len(ctx.pos.checks())
            ctx.pos.pop()
            ranked.append(((0, checks) if checks <= 0 else (1, checks, keeps), n, d))
        ranked.sort()
        best = self._escape(ctx, [d for _, _, d in ranked], sum(1 for rank, _, _ in ranked if rank[0] == 0))
        if best is None:
            raise CertificateError(f"every defence is mated at {ctx.pos.fen(False)}")
        with ctx.at(best):
            target = self.strategy_attacker(ctx, history)
        self.strategy[i] = ["SD", str(best), target]
        return i

    @staticmethod
    def _escape(ctx: _Ctx, ranked: list[Move], free: int) -> Move | None:
        """The first defence in ``ranked`` not mated at all (the first ``free``
        need no search).  One defence can cost far more to settle than the
        next, so each is asked within a node budget, the budgets growing."""
        if free:
            return ranked[0]
        open_ = list(ranked)
        for budget in _ESCAPE_BUDGETS:
            for d in list(open_):
                with ctx.at(d):
                    ctx.search.set_budget(budget)
                    try:
                        mated = ctx.search.mates_at_all()
                    except OverBudget:
                        continue
                    finally:
                        ctx.search.set_budget(None)
                if not mated:
                    return d
                open_.remove(d)
            if not open_:
                break
        return None

    def strategy_attacker(self, ctx: _Ctx, history: set) -> int | str:
        if ctx.search.walked >= _WALK_LIMIT:
            # The engine's line has a length limit: go on from a new search
            # rooted here.  Its answers, blind to the line above, are only
            # more cautious ("no mate" without repetitions holds with them).
            ctx = _Ctx(Search(ctx.pos.copy(), limits=self._side_limits()), ctx.pos.copy())
        known, i = self._strategy_node(ctx, history, ["SA", {}])
        if i is None:
            return known
        table = {}
        for c in ctx.pos.checks():
            with ctx.at(c):
                table[str(c)] = self.strategy_defender(ctx, history)
        self.strategy[i] = ["SA", table]
        return i


def _mated(pos: Position, line: set) -> bool:
    """Mated at once (defender to move): every legal reply interposes (so R
    is 0) and is useless, the checker taking it with check and leaving no
    legal move, the piece handed back or not; no position played is in
    ``line`` (a repetition fails for the attacker)."""
    if pos.key() in line:
        return False
    ranged = ranged_checkers(pos)
    for d in pos.legal_moves(repetition=False):
        checker = interposition_square(pos, d, ranged)
        if not checker:
            return False
        pos.push(d)
        try:
            if pos.key() in line:
                return False
            for x in pos.checks():
                if x.from_square == checker and x.to_square == d.to_square:
                    pos.push(x)
                    ok = pos.key() not in line and not pos.legal_moves(repetition=False)
                    pos.pop()
                    break
            else:
                return False
            backs = list(recaptures(pos, checker, d.to_square))
        finally:
            pos.pop()
        if not ok or any(b.legal_moves(repetition=False) for b in backs):
            return False
    return True


def _takeable(pos: Position, d: Move, ranged: SquareSet) -> bool:
    """Is the defence ``d`` (defender to move in ``pos``, ``ranged`` its
    ride checkers) an interposition the checker can take at once with check?"""
    checker = interposition_square(pos, d, ranged)
    if not checker:
        return False
    pos.push(d)
    try:
        return any(x.from_square == checker and x.to_square == d.to_square for x in pos.checks())
    finally:
        pos.pop()


def _ordered(mate: dict[int, list]) -> list[list]:
    """The proof's nodes renumbered so that every edge goes to a later node
    (the root first); a cycle means a line could repeat a position."""
    def edges(node: list) -> list[int]:
        if node[0] == "A":
            return [node[2]]
        out = []
        for e in node[1].values():
            out += [e[1], e[3]] if isinstance(e, list) else [e]
        return out

    order: list[int] = []
    state: dict[int, int] = {}
    stack = [(0, iter(edges(mate[0])))]
    state[0] = 1
    while stack:
        i, it = stack[-1]
        j = next(it, None)
        if j is None:
            stack.pop()
            state[i] = 2
            order.append(i)
        elif state.get(j) == 1:
            raise CertificateError("the engine's proof repeats a position on a line")
        elif j not in state:
            state[j] = 1
            stack.append((j, iter(edges(mate[j]))))
    order.reverse()
    number = {i: n for n, i in enumerate(order)}

    def renumber(node: list) -> list:
        if node[0] == "A":
            return ["A", node[1], number[node[2]]]
        table = {m: ([e[0], number[e[1]], e[2], number[e[3]], e[4]] if isinstance(e, list) else number[e])
                 for m, e in node[1].items()}
        return ["D", table]
    return [renumber(mate[i]) for i in order]


def _reached(nodes: list[list], roots: list, edges: Any) -> dict[int, int]:
    """The nodes reached from ``roots`` (ids) along ``edges(node)``, each
    mapped to its new id, in the old order."""
    seen, todo = set(), [i for i in roots if isinstance(i, int)]
    while todo:
        i = todo.pop()
        if i not in seen:
            seen.add(i)
            todo += [j for j in edges(nodes[i]) if isinstance(j, int)]
    return {i: n for n, i in enumerate(sorted(seen))}


def _pruned(mate: list[list], refute: list[list], alternatives: list[list],
            strategy: list[list]) -> tuple[list[list], list[list], list[list]]:
    """The refutations and strategies without the nodes the checker never
    reaches (tried and dropped, or replaced by a shorter proof): from the
    witnesses of the proof and from the alternatives.  Returns the refutations,
    alternatives and strategy renumbered; ``mate`` (fresh from
    :func:`_ordered`) has its witnesses renumbered in place."""
    witnesses = [e[4] for node in mate if node[0] == "D" for e in node[1].values()
                 if isinstance(e, list) and e[4] is not None]

    def refute_edges(node: list) -> list:
        if node[0] == "M":
            return list(node[3].values())
        out = []
        for e in node[2].values():
            if isinstance(e, list):
                out += e[1:2] + (e[3][1:2] if len(e) > 3 and e[3] else [])
                out += list(e[2].values()) if len(e) > 2 and e[2] else []
        return out

    def strategy_edges(node: list) -> list:
        return [node[2]] if node[0] == "SD" else list(node[1].values())

    rn = _reached(refute, [w[1] for w in witnesses], refute_edges)
    sn = _reached(strategy, [a[2] for a in alternatives], strategy_edges)

    def entry(e: Any) -> Any:
        if not isinstance(e, list):
            return e
        e = list(e)
        if len(e) > 1 and isinstance(e[1], int):
            e[1] = rn[e[1]]
        if len(e) > 2 and e[2]:
            e[2] = {m: rn[j] if isinstance(j, int) else j for m, j in e[2].items()}
        if len(e) > 3 and e[3] and isinstance(e[3][1], int):
            e[3] = [e[3][0], rn[e[3][1]]]
        return e

    for node in mate:
        for e in node[1].values() if node[0] == "D" else ():
            if isinstance(e, list) and e[4] is not None:
                e[4] = [e[4][0], rn[e[4][1]]]
    new_refute = [["M", node[1], node[2], {d: rn[j] for d, j in node[3].items()}] if node[0] == "M"
                  else [node[0], node[1], {c: entry(e) for c, e in node[2].items()}]
                  for i, node in enumerate(refute) if i in rn]

    def target(t: Any) -> Any:
        return sn[t] if isinstance(t, int) else t

    new_strategy = [["SD", node[1], target(node[2])] if node[0] == "SD"
                    else ["SA", {c: target(t) for c, t in node[1].items()}]
                    for i, node in enumerate(strategy) if i in sn]
    return new_refute, [[ply, c, target(t)] for ply, c, t in alternatives], new_strategy


def certificate_for(problem: Problem, report: Report, *, limits: Limits | None = None, check: bool = True,
                    max_nodes: int | None = MAX_NODES) -> dict:
    """One problem's certificate, as a JSON-ready dict; with ``check`` (the
    default) the checker accepts it before it is returned (the benchmark
    times the two apart).  ``max_nodes`` bounds its refutations and
    strategies (None: no bound)."""
    tsume = require_problem(problem, "certificate_for")
    limits = check_limits(limits)
    max_nodes = check_positive_int(max_nodes, "max_nodes")
    if not isinstance(report, Report):
        raise ArgumentError(f"report must be a tsume.verify.Report, not {type(report).__name__}")
    if report.position != tsume.fen or report.variant != tsume.variant.spec:
        raise ArgumentError("the report is not this problem's")
    if report.verdict != Verdict.SOUND:
        why = ", ".join(f.kind for f in report.findings if f.severity != "info") or "no findings"
        raise CertificateError(f"not certified: the problem is {report.verdict} ({why})")
    root = tsume.position()
    moves = [m for m in _replay(root, report.mainline)]
    length = len(moves)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        search = Search(root, limits=limits)
        ctx = _Ctx(search, root.copy())
        w = _Writer(root.turn, limits, max_nodes)
        w.main_node(ctx, length, moves)
        alternatives: list[list] = []
        history: set = set()
        walked = 0
        try:
            for ply, m in enumerate(moves, 1):
                history.add(ctx.pos.key())
                if ctx.pos.turn == root.turn:
                    for c in ctx.pos.checks():
                        if c == m:
                            continue
                        with ctx.at(c):
                            alternatives.append([ply, str(c), w.strategy_defender(ctx, history)])
                ctx.search.walk(m)
                ctx.pos.push(m)
                walked += 1
        finally:
            for _ in range(walked):
                ctx.search.unwalk()
                ctx.pos.pop()
    except SearchLimit as exc:
        raise CertificateError(f"not certified: the {exc} stopped the writer") from None
    except RecursionError:
        raise CertificateError("not certified: a proof too deep for the writer") from None
    finally:
        sys.setrecursionlimit(limit)
    mate = _ordered(w.mate)
    refute, alternatives, strategy = _pruned(mate, w.refute, alternatives, w.strategy)
    cert = {
        "id": report.id, "variant": tsume.variant.spec, "position": tsume.fen, "claims": list(CLAIMS),
        "length": length, "mainline": list(report.mainline),
        "stated_length": tsume.length, "stated_solution": list(tsume.solution) if tsume.solution else None,
        "mate": mate, "refute": refute,
        "alternatives": alternatives, "strategy": strategy,
    }
    result = check_certificate(_document([cert])) if check else None
    if result is not None and not result.accepted:
        raise CertificateError(f"not certified: the checker rejects the certificate written ({result.line()})")
    return cert


def _replay(root: Position, mainline: list[str]) -> list[Move]:
    pos = root.copy()
    out = []
    for text in mainline:
        m = pos.parse_move(text)
        pos.push(m)
        out.append(m)
    return out


def _document(certs: list[dict]) -> dict:
    return {"format": FORMAT, "version": VERSION, "problems": certs}


def pack(certs: list[dict]) -> bytes:
    """A certificate file (gzip-compressed JSON) holding these problems' certificates."""
    text = json.dumps(_document(certs), separators=(",", ":"), sort_keys=False)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def write_certificate(problem: Problem, report: Report, *, limits: Limits | None = None,
                      max_nodes: int | None = MAX_NODES) -> bytes:
    """A certificate file for one sound problem (its :func:`tsume.verify.verify` report)."""
    return pack([certificate_for(problem, report, limits=limits, max_nodes=max_nodes)])
