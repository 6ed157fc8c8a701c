"""Solving a tsume: ``solve()`` and its :class:`Result`.

1. df-pn without a length bound (or with ``max_length``) decides mate / no mate;
2. the least bound within which a mate is proven is the shortest counted
   length;
3. the main line and the variations are read off with the same conventions,
   each step proven by a bounded df-pn search.

The searches run in the Rust engine (:class:`tsume.search.Search`); this
module asks its questions and builds the :class:`Result`.

See docs/solver.md for the conventions and how to read the output.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any

from .arguments import check_max_length, check_search_arguments
from .errors import ArgumentError
from .limits import Limits, check_limits
from .lines import hand_after, move_strings
from .memory import peak_mb
from .outcome import Status
from .position import Move, Position
from .problem import Problem, require_problem
from .search import Options, Search, SearchLimit, check_options

__all__ = ["solve", "Result", "Variation"]


@dataclass
class Variation:
    """A defender alternative at a defender node of the main line."""

    ply: int                 # the main-line ply of the defender move it replaces, counted from 1
    move: str
    readable: str
    useless: bool            # a useless interposition: refuted, not counted
    length: int | None       # total counted length of the problem along it
    leftover: str | None
    line: list[str] = field(default_factory=list)   # from this move to the mate
    #: ``line`` in the readable notation (``k2-1 P*2 k1-3 C*1``), each move read
    #: from the position it is played in, as ``Result.readable`` is.
    readable_line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move": self.move,
            "readable": self.readable,
            "useless": self.useless,
            "length": self.length,
            "leftover": self.leftover,
            "line": self.line,
            "readable_line": self.readable_line,
        }


@dataclass
class Result:
    """The answer to a tsume.

    ``status`` is :attr:`Status.MATE <tsume.outcome.Status.MATE>`,
    ``NOMATE`` (no mate, or none within ``max_length``) or ``UNKNOWN`` (a
    limit stopped the search before the exact answer; when a mate was found,
    ``upper_bound`` then holds its proven but maybe not shortest length and
    ``line``/``readable_line`` a mating line of at most that many plies,
    against the longest defence the proofs knew).
    ``position`` is the problem's position string with the defender's hand
    written out; each of ``first_moves`` has a ``status`` too.
    """

    status: Status
    position: str
    variant: str
    length: int | None = None
    mainline: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)
    leftover: str | None = None
    variations: list[Variation] = field(default_factory=list)
    first_moves: list[dict[str, Any]] | None = None
    upper_bound: int | None = None
    #: With ``upper_bound``: a mating line it bounds (move strings, then readable).
    line: list[str] = field(default_factory=list)
    readable_line: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "position": self.position,
            "variant": self.variant,
            "length": self.length,
            "mainline": self.mainline,
            "readable": self.readable,
            "leftover": self.leftover,
            "variations": [v.to_dict() for v in self.variations],
            "stats": self.stats,
        }
        if self.first_moves is not None:
            out["first_moves"] = self.first_moves
        if self.upper_bound is not None:
            out["upper_bound"] = self.upper_bound
            out["line"] = self.line
            out["readable_line"] = self.readable_line
        if self.reason:
            out["reason"] = self.reason
        return out


def solve(
    problem: Problem,
    *,
    max_length: int | None = None,
    limits: Limits | None = None,
    options: Options | None = None,
    progress: Callable[[dict], None] | None = None,
    progress_interval: float = 1.0,
    all_first_moves: bool = False,
    variations: bool = True,
    lengths: Container[int] | None = None,
) -> Result:
    """Solve a tsume: the shortest forced mate by continuous checks against the longest defence.

    ``problem`` is a :class:`~tsume.problem.Problem` (``Problem("k1P2H25 b
    G")``; a collection's record makes its own with ``record.problem()``).
    ``max_length`` bounds the counted length (plies).  ``limits``
    (:class:`~tsume.limits.Limits`) stop the search with status
    ``unknown``; ``options`` (:class:`~tsume.search.Options`) are the
    search's switches.  ``progress`` is called every ``progress_interval``
    seconds (checked every 1024 nodes) with the statistics so far;
    ``all_first_moves`` also solves after every checking first move;
    ``variations`` false leaves out the defender's alternatives.
    ``lengths`` (None: all) are the mate lengths whose main line is wanted:
    a mate of another length is reported with its exact length alone (no
    main line, leftover or variations), which spares reading the line when
    the length is all a caller sorts by.  A bad argument raises a
    :class:`~tsume.errors.TsumeError`.
    """
    tsume = require_problem(problem, "solve")
    limits = check_limits(limits)
    max_length = check_max_length(max_length)
    check_search_arguments(progress, progress_interval, all_first_moves=all_first_moves, variations=variations)
    check_options(options)
    if lengths is not None and not isinstance(lengths, Container):
        raise ArgumentError(f"lengths must be a container of lengths, not {type(lengths).__name__}")
    root = tsume.position()
    search = Search(root, limits=limits, options=options, progress=progress, progress_interval=progress_interval)
    result = Result(status=Status.UNKNOWN, position=tsume.fen, variant=tsume.variant.spec)
    started = time.perf_counter()
    try:
        if not search.mate(max_length):
            result.status = Status.NOMATE
        else:
            result.upper_bound = upper = search.proof_length(max_length)
            # A mating line of at most that length, read off the proofs now, so
            # that a limit stopping the climb to the shortest still shows one.
            known = search.proof_line(upper) if upper is not None else []
            if known:
                result.line, result.readable_line = move_strings(root, known)
            # The exact length first when only some lengths' lines are
            # wanted (main_line then finds it again in the table).
            length = None if lengths is None else search.value(upper, descend=True)
            if lengths is None or length is None or length in lengths:
                length, moves = search.main_line(max_length)
                result.mainline, result.readable = move_strings(root, moves)
                result.leftover, _ = hand_after(root, moves, root.turn)
                if variations:
                    result.variations = _variations(search, root, moves, length)
            result.upper_bound = None
            result.line, result.readable_line = [], []
            result.length = length
            result.status = Status.MATE
        if all_first_moves:
            result.first_moves = [
                {"move": str(m), "status": Status.NOMATE if n is None else Status.MATE, "length": n}
                for m, n in search.first_moves(max_length)
            ]
    except SearchLimit as exc:
        result.status = Status.UNKNOWN
        result.reason = str(exc)
    secs = time.perf_counter() - started
    stats = search.stats()
    result.stats = {
        "nodes": stats["nodes"],
        "seconds": secs,
        "nodes_per_second": stats["nodes"] / secs if secs > 0 else 0.0,
        "table_entries": stats["table_entries"],
        "gc_runs": stats["gc_runs"],
        "peak_memory_mb": round(peak_mb(), 1),
    }
    return result


def _variations(search: Search, root: Position, moves: list[Move], length: int) -> list[Variation]:
    """Every defender alternative at every defender node of the main line."""
    pos = root.copy()
    attacker = root.turn
    out: list[Variation] = []
    try:
        for ply, m in enumerate(moves):
            if ply % 2 == 1:
                for d, useless, value, line, _left in search.defender_choices(length - ply):
                    if d == m:
                        continue
                    readable = pos.move_readable(d)
                    plain = str(d)
                    if useless:
                        out.append(Variation(ply + 1, plain, readable, True, None, None))
                        continue
                    pos.push(d)
                    line_str, line_readable = move_strings(pos, line)
                    leftover, _ = hand_after(pos, line, attacker)
                    pos.pop()
                    out.append(Variation(ply + 1, plain, readable, False, ply + (value or 0), leftover,
                                         [plain] + line_str, [readable] + line_readable))
            search.walk(m, exact=True)  # a main-line position: its value is length - ply
            pos.push(m)
        # At the mate itself the defender may still have interpositions: all
        # of them useless (else it would not be mate).  They are alternatives too.
        for d, _useless, _value, _line, _left in search.defender_choices(0):
            out.append(Variation(len(moves) + 1, str(d), pos.move_readable(d), True, None, None))
    finally:
        search.rewind()
    return out
