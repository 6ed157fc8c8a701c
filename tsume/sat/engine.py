"""The SAT engine's queries on one tsume position, and ``sat_solve`` for the CLI."""

from __future__ import annotations

import time

from ..arguments import check_max_length, check_search_arguments
from ..errors import TsumeError
from ..limits import Limits, check_limits
from ..outcome import Status
from ..position import Move as EngineMove
from ..position import Position
from ..problem import Problem, require_problem
from ..render import plies
from ..solve import Result
from .budget import (DEFAULT_LIMITS, Budget, SatLimit, SatMemoryLimit, SatTimeout, line_bytes,
                     longest_line)
from .cegar import Abstraction
from .encode import CPos
from .oracle import Move, Oracle
from .rules import rules_for

__all__ = ["SatEngine", "sat_solve", "SatError", "SatLimit", "SatTimeout", "SatMemoryLimit", "cpos_of", "engine_move",
           "move_order"]


class SatError(TsumeError):
    """Bad input for the SAT engine (e.g. no length bound)."""


def cpos_of(pos: Position) -> CPos:
    """A position of the engine in the SAT engine's own numbering (its faces
    from the variant's data, matched to the engine's pieces by letter)."""
    r = rules_for(pos.variant, pos.n)
    faces = {r.letter(f): f for f in range(1, r.nfaces + 1)}
    board = (0, *(0 if p is None else faces[p.letter] << 1 | int(p.colour) for p in pos.board()))
    return board, (tuple(pos.hand_counts(0)), tuple(pos.hand_counts(1))), int(pos.turn)


def engine_move(pos: Position, m: Move) -> EngineMove:
    """The engine's :class:`~tsume.position.Move` of a SAT move (from, to, face) in ``pos``'s game."""
    frm, to, face = m
    if not face:
        return EngineMove(frm, to)
    return EngineMove(None, to, drop=rules_for(pos.variant, pos.n).letter(face))


def move_order(m: Move) -> tuple[int, int, int]:
    """The order the engine lists moves in (render.canonical_order): by dropped face, to-, from-square."""
    return m[2], m[1], m[0]


class SatEngine:
    """Queries on a tsume position (attacker to move) answered with SAT.

    Lengths count every ply, interpositions included (the raw game; see
    docs/sat.md).  ``history`` holds the concrete positions of the line before
    this one, for the repetition rule.  ``limits.time`` (seconds) raises
    :class:`SatTimeout` when exceeded, ``limits.memory`` (what the engine
    holds, see :mod:`tsume.sat.budget`) :class:`SatMemoryLimit`; engines sharing
    one ``budget`` share both limits.
    """

    def __init__(self, pos: Position, *, history: tuple[CPos, ...] = (), limits: Limits = DEFAULT_LIMITS,
                 budget: Budget | None = None,
                 oracle: Oracle | None = None, expand_concrete: bool = True, per_node: int = 1) -> None:
        self.pos = pos
        #: expand attacker nodes at concrete positions over their legal checks (False:
        #: encode every attacker node symbolically; slower, used by tests)
        self.expand_concrete = expand_concrete
        #: counterexamples added per defender node and refinement (0: every reply)
        self.per_node = per_node
        self.rules = rules_for(pos.variant, pos.n)
        self.budget = budget or Budget(limits)
        if oracle is None:
            oracle = Oracle(self.rules, on_grow=self.budget.check)
            self.budget.track(oracle)
        self.oracle = oracle
        self.root = cpos_of(pos)
        self.history = history
        self._abs: dict[int, Abstraction] = {}
        self.sizes: dict[int, tuple[int, int]] = {}

    def abstraction(self, n: int) -> Abstraction:
        """The incremental abstraction for mates within ``n`` (odd) plies."""
        a = self._abs.get(n)
        if a is None:
            a = self._abs[n] = Abstraction(self.rules, self.oracle, self.root, n, self.history, self.budget,
                                           expand_concrete=self.expand_concrete, per_node=self.per_node)
        return a

    def _run(self, n: int, assumptions_of, need: int = 1) -> bool:
        a = self.abstraction(n)
        try:
            return a.solve(assumptions_of(a), need)
        finally:
            self.sizes[n] = a.size()

    @staticmethod
    def _odd(n: int) -> int:
        return n if n % 2 else n - 1

    # --- the queries ---------------------------------------------------------------------

    def first_moves(self) -> list[Move]:
        """The attacker's legal checks, in move-int order."""
        return sorted((m for m, _ in self.oracle.checks(self.root)), key=move_order)

    def mate_within(self, n: int) -> bool:
        """Does the attacker mate within ``n`` plies?"""
        n = self._odd(n)
        return n >= 1 and self._run(n, lambda a: [a.any_lit])

    def shortest(self, max_length: int) -> int | None:
        """The shortest mate length (plies) up to ``max_length``, or None."""
        for n in range(1, max_length + 1, 2):
            self._release_below(n)
            if self.mate_within(n):
                return n
        return None

    def _release_below(self, n: int) -> None:
        """Free the abstractions for fewer than ``n`` plies: a query for n never
        goes back to them, and what they hold counts against the memory budget."""
        for k in [k for k in self._abs if k < n]:
            self._abs.pop(k).close()

    def mates_with(self, move: Move, n: int) -> bool:
        """Does the first move ``move`` mate within ``n`` plies (an assumption on its choice literal)?"""
        n = self._odd(n)
        if n < 1:
            return False
        a = self.abstraction(n)
        lit = a.choice.get(move)
        return lit is not None and self._run(n, lambda a: [lit])

    def first_move_lengths(self, max_length: int) -> dict[Move, int | None]:
        """Every legal checking first move with its shortest mate length within ``max_length`` (None: none)."""
        out: dict[Move, int | None] = {m: None for m in self.first_moves()}
        for n in range(1, max_length + 1, 2):
            open_moves = [m for m, v in out.items() if v is None]
            if not open_moves:
                break
            self._release_below(n)
            for m in open_moves:
                if self.mates_with(m, n):
                    out[m] = n
        return out

    def has_two_winning_moves(self, n: int) -> bool:
        """Do at least two first moves mate within ``n`` plies (a cardinality constraint)?"""
        n = self._odd(n)
        return n >= 1 and self._run(n, lambda a: [a.two_lit], need=2)

    def close(self) -> None:
        for a in self._abs.values():
            a.close()
        self._abs.clear()

    # --- a main line ------------------------------------------------------------------------

    def _sub(self, cpos: CPos, history: tuple[CPos, ...]) -> "SatEngine":
        board, hands, turn = cpos
        r, t = self.rules, self.pos.t
        pieces = [(s, None if not v else t.piece(r.letter(v >> 1) if v & 1 == 0 else r.letter(v >> 1).lower()))
                  for s, v in enumerate(board) if s]
        p = self.pos.with_changes(pieces, [list(hands[0]), list(hands[1])], turn)
        return SatEngine(p, history=history, budget=self.budget, oracle=self.oracle,
                         expand_concrete=self.expand_concrete, per_node=self.per_node)

    def main_line(self, length: int) -> list[Move]:
        """The main line of a mate of exactly ``length`` plies, chosen as the solvers do
        (docs/solver.md, convention 4, every interposition counted): the attacker takes
        the shortest, then the most pieces left in hand; the defender the longest, then the
        fewest; ties go to the lowest move int."""
        moves, _left = self._attacker_line(self, length, ())
        return moves

    def _mates(self, cpos: CPos, b: int, history: tuple[CPos, ...], memo: dict) -> bool:
        key = (cpos, b, history)
        if key not in memo:
            sub = self._sub(cpos, history)
            try:
                memo[key] = sub.mate_within(b)
            finally:
                sub.close()
        return memo[key]

    def _attacker_line(self, eng: "SatEngine", b: int, history: tuple[CPos, ...], memo: dict | None = None):
        memo = {} if memo is None else memo
        root = eng.root
        hist = history + (root,)
        best = None
        for m, after in sorted(self.oracle.checks(root), key=lambda x: move_order(x[0])):
            if self._defended(after, b - 1, hist, memo):
                moves, left = self._defender_line(after, b - 1, hist, memo)
                if best is None or left > best[1]:
                    best = ([m] + moves, left)
        if best is None:
            raise RuntimeError("internal error: no mating move at the proven length")
        return best

    def _defended(self, cpos: CPos, b: int, history: tuple[CPos, ...], memo: dict) -> bool:
        if cpos in history:
            return False
        replies = self.oracle.replies(cpos)
        if not replies:
            return True
        hist = history + (cpos,)
        for _m, after, _w in replies:
            if b - 1 < 1 or after in hist or not self._mates(after, b - 1, hist, memo):
                return False
        return True

    def _defender_line(self, cpos: CPos, b: int, history: tuple[CPos, ...], memo: dict):
        replies = sorted(self.oracle.replies(cpos), key=lambda x: move_order(x[0]))
        attacker = cpos[2] ^ 1
        if not replies:
            return [], sum(cpos[1][attacker])
        hist = history + (cpos,)
        best = None
        for m, after, _w in replies:
            v = next(v for v in range(1, b, 2) if self._mates(after, v, hist, memo))
            sub = self._sub(after, hist)
            moves, left = self._attacker_line(sub, v, hist, memo)
            cand = (1 + v, -left)
            if best is None or cand > best[0]:
                best = (cand, [m] + moves, left)
        assert best is not None  # replies is not empty
        return best[1], best[2]


def _size(nbytes: float) -> str:
    return f"{nbytes / 1e9:,.0f} GB" if nbytes >= 1e10 else f"{nbytes / 1e9:,.1f} GB" if nbytes >= 1e9 \
        else f"{nbytes / 1e6:,.0f} MB"


def _check_encodable(max_length: int, squares: int, memory_limit_mb: float) -> None:
    """Refuse a length bound whose one line alone would not fit in the memory budget
    (:func:`~tsume.sat.budget.line_bytes`), before anything is built."""
    need = line_bytes(max_length, squares)
    if need > memory_limit_mb * 1e6:
        most = longest_line(int(memory_limit_mb * 1e6), squares)
        raise SatError(f"--max-length {max_length} is too long for the SAT engine: about {_size(need)} of "
                       f"clauses; at most {plies(most)} with --memory {memory_limit_mb:g}")


def sat_solve(
    problem: Problem,
    *,
    max_length: int | None = None,
    all_first_moves: bool = False,
    mainline: bool = True,
    limits: Limits | None = None,
) -> Result:
    """Solve a tsume with the SAT engine: the same :class:`~tsume.solve.Result` fields
    as ``solve()`` (``status``, ``length``, ``mainline``, ``first_moves`` ...), lengths
    counting every interposition.  ``max_length`` is required.

    ``problem`` is a :class:`~tsume.problem.Problem`, as for ``solve()``.
    ``limits`` (:class:`~tsume.limits.Limits`: ``time`` in seconds, and
    ``memory``, the megabytes the engine may hold: clauses, variables, the
    oracle's move lists; by default :data:`~tsume.sat.budget.DEFAULT_LIMITS`,
    :data:`~tsume.sat.budget.DEFAULT_MEMORY_MB` and no time limit) stop the
    run with status ``unknown`` and the limit as ``reason``; it takes no
    node limit."""
    tsume = require_problem(problem, "sat_solve")
    limits = check_limits(limits, DEFAULT_LIMITS)
    if limits.nodes is not None:
        raise SatError("the SAT engine takes no node limit (its limits are time and memory)")
    max_length = check_max_length(max_length)
    check_search_arguments(all_first_moves=all_first_moves, mainline=mainline)
    if max_length is None:
        raise SatError("the SAT engine needs a length bound: give --max-length N (N >= 1)")
    pos = tsume.position()
    if limits.memory is not None:
        _check_encodable(max_length, pos.n, limits.memory)
    started = time.perf_counter()
    cpu = time.process_time()
    eng = SatEngine(pos, limits=limits)
    result = Result(status=Status.UNKNOWN, position=tsume.fen, variant=tsume.variant.spec)
    try:
        if all_first_moves:
            firsts = eng.first_move_lengths(max_length)
            lengths = [v for v in firsts.values() if v is not None]
            length = min(lengths) if lengths else None
            result.first_moves = [
                {"move": str(engine_move(pos, m)), "status": Status.MATE if v is not None else Status.NOMATE, "length": v}
                for m, v in firsts.items()
            ]
        else:
            length = eng.shortest(max_length)
        if length is None:
            result.status = Status.NOMATE
        else:
            result.length = length
            if mainline:
                moves = [engine_move(pos, m) for m in eng.main_line(length)]
                p = pos.copy()
                for m in moves:
                    result.mainline.append(str(m))
                    result.readable.append(p.move_readable(m))
                    p.push(m)
                result.leftover = p.hand_string(pos.turn)
            result.status = Status.MATE
    except SatLimit as exc:
        result.reason = str(exc)
    finally:
        eng.close()
    result.stats = {
        "engine": "sat",
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu,
        "variables": {str(n): s[0] for n, s in sorted(eng.sizes.items())},
        "clauses": {str(n): s[1] for n, s in sorted(eng.sizes.items())},
        "oracle_positions": eng.oracle.evaluations,
        "memory_mb": round(eng.budget.peak_bytes / 1e6, 1),
    }
    return result
