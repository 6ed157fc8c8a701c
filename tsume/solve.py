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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .arguments import check_limits, check_search_arguments
from .conventions import hand_count, tsume_position
from .memory import peak_mb
from .position import Position
from .search import Options, Search, SearchLimit
from .variant import Variant

__all__ = ["solve", "Result", "Line", "Variation", "MATE", "NOMATE", "UNKNOWN_STATUS", "line_strings", "leftover_after"]

MATE, NOMATE, UNKNOWN_STATUS = "mate", "nomate", "unknown"


@dataclass
class Line:
    """A line of play from some position: its moves, counted length and what is left."""

    moves: list[str]
    readable: list[str]
    length: int
    leftover: str
    leftover_count: int


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

    ``status`` is ``mate``, ``nomate`` (no mate, or none within
    ``max_length``) or ``unknown`` (a limit stopped the search before the
    exact answer; ``upper_bound`` then holds a proven but maybe not shortest
    length when a mate was found).
    """

    status: str
    position: str
    variant: str
    length: int | None = None
    mainline: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)
    leftover: str | None = None
    variations: list[Variation] = field(default_factory=list)
    first_moves: list[dict[str, Any]] | None = None
    upper_bound: int | None = None
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
            "leftover": self.leftover if self.leftover is not None else None,
            "variations": [v.to_dict() for v in self.variations],
            "stats": self.stats,
        }
        if self.first_moves is not None:
            out["first_moves"] = self.first_moves
        if self.upper_bound is not None:
            out["upper_bound"] = self.upper_bound
        if self.reason:
            out["reason"] = self.reason
        return out


def leftover_after(pos: Position, moves: list[int], colour: int) -> tuple[str, int]:
    """The hand of ``colour`` after ``moves`` from ``pos``: as a string and as a count."""
    p = pos.copy()
    for m in moves:
        p.push(m)
    return p.hand_string(colour), hand_count(p, colour)


def line_strings(pos: Position, moves: list[int]) -> tuple[list[str], list[str]]:
    """``moves`` from ``pos`` as move strings and in the readable form."""
    p = pos.copy()
    plain, readable = [], []
    for m in moves:
        plain.append(p.move_str(m))
        readable.append(p.move_readable(m))
        p.push(m)
    return plain, readable


def solve(
    position: "str | Position",
    *,
    variant: "Variant | str" = "ito",
    max_length: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory_limit_mb: float | None = None,
    progress: Callable[[dict], None] | None = None,
    progress_interval: float = 1.0,
    defender_hand: str | None = None,
    all_first_moves: bool = False,
    variations: bool = True,
    options: Options | None = None,
) -> Result:
    """Solve a tsume: the shortest forced mate by continuous checks against the longest defence.

    ``position`` is a position string (or Position) with the attacker to move;
    the defender holds the rest of the set unless the string names defender
    pieces or ``defender_hand`` says otherwise (``"none"``, ``"rest"``,
    letters).  ``max_length`` bounds the counted length (plies).  Limits stop
    the search with status ``unknown``; ``memory_limit_mb`` sizes the
    search's table (docs/solver.md, "Memory").  ``progress`` is called every
    ``progress_interval`` seconds with the statistics so far.  A bad argument
    raises a :class:`~tsume.errors.TsumeError`.
    """
    time_limit, node_limit, memory_limit_mb, max_length = check_limits(time_limit, node_limit, memory_limit_mb, max_length)
    check_search_arguments(progress, progress_interval, options, all_first_moves=all_first_moves, variations=variations)
    pos = tsume_position(position, variant, defender_hand=defender_hand)
    search = Search(pos, options=options, node_limit=node_limit, time_limit=time_limit,
                    memory_limit_mb=memory_limit_mb, progress=progress, progress_interval=progress_interval)
    result = Result(status=UNKNOWN_STATUS, position=pos.fen(), variant=pos.variant.spec)
    started = time.perf_counter()
    try:
        if not search.mate(max_length):
            result.status = NOMATE
        else:
            result.upper_bound = search.proof_length(max_length)
            length, moves = search.main_line(max_length)
            result.upper_bound = None
            result.length = length
            result.mainline, result.readable = line_strings(pos, moves)
            result.leftover, _ = leftover_after(pos, moves, pos.turn)
            if variations:
                result.variations = _variations(search, pos, moves, length)
            result.status = MATE
        if all_first_moves:
            result.first_moves = [
                {"move": pos.move_str(m), "status": NOMATE if n is None else MATE, "length": n}
                for m, n in search.first_moves(max_length)
            ]
    except SearchLimit as exc:
        result.status = UNKNOWN_STATUS
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


def _variations(search: Search, root: Position, moves: list[int], length: int) -> list[Variation]:
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
                    plain = pos.move_str(d)
                    if useless:
                        out.append(Variation(ply + 1, plain, readable, True, None, None))
                        continue
                    pos.push(d)
                    line_str, line_readable = line_strings(pos, line)
                    leftover, _ = leftover_after(pos, line, attacker)
                    pos.pop()
                    out.append(Variation(ply + 1, plain, readable, False, ply + (value or 0), leftover,
                                         [plain] + line_str, [readable] + line_readable))
            search.walk(m, exact=True)  # a main-line position: its value is length - ply
            pos.push(m)
        # At the mate itself the defender may still have interpositions: all
        # of them useless (else it would not be mate).  They are alternatives too.
        for d, _useless, _value, _line, _left in search.defender_choices(0):
            out.append(Variation(len(moves) + 1, pos.move_str(d), pos.move_readable(d), True, None, None))
    finally:
        search.rewind()
    return out
