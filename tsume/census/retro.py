"""Retrograde analysis of the checks-only game graph, as a tablebase is built.

:func:`analyse` takes positions with the attacker to move and returns, for
each, whether it mates within ``max_plies`` counted plies, its exact length and
**every** optimal first move, all from one pass.  The graph and the pass run in
the engine, in one call for all the positions (``tsume._engine.census_analyse``,
engine/src/census/):

1. **Forward.**  The graph of attacker checks and defender replies is built
   breadth-first from all the positions at once (each position once, by an
   exact key: the position packed into a few bytes, never a hash), attacker
   nodes expanded up to depth ``max_plies - 1``, defender nodes tested for
   mate at any depth and expanded up to depth ``max_plies - 1``: every node of
   a proof of length at most ``max_plies`` is within reach.  Positions that
   leave the family (a drop, a capture) are simply more nodes of the graph.
2. **Backward.**  Mate distances propagate from the mated defender nodes
   (distance 0), in increasing order: an attacker node is won at d + 1 the
   first time one of its checks reaches a defender node won at d (the shortest
   mate); a defender node is won at d + 1 when the last of its replies is won,
   at d (the longest defence).  Nodes never reached stay unwon, and so do nodes
   won in more than ``max_plies`` plies (their ancestors would be won in more
   still).

How each tsume convention (docs/solver.md) is honoured:

- *Shortest mate, longest defence*: the order of the backward pass above.
- *(length, leftover) ordering*: the leftover only chooses among lines of the
  same length; the length of a position is the plain minimax above.  (The
  verifier, which reads lines, applies the ordering: census/classify.py.)
- *Repetition fails for the attacker*: the values are distances to mate, and
  along a line where the attacker keeps to a won distance the distance falls
  at every ply, so no position repeats; a position on a cycle the defender can
  hold is never won.  The backward pass needs no history.
- *Mate*: a defender node with no legal reply (the rules engine's legality,
  Ito's stalemate rule included).
- *Useless interpositions are not counted*: this is where a backward pass over
  plain distances cannot follow the rule, whose verdict compares lengths of
  other lines and of a position with the captured piece handed back.  So every
  defender node with an interposition among its replies (a drop or a move of
  a piece other than the king onto a square strictly between the king and a
  piece checking it along a ride) is **marked**, and the mark spreads to every
  node from which it can be reached; a marked starting position is settled by
  the df-pn solver instead (:func:`solve_dfpn`).  Unmarked positions are
  exact: no interposition is met anywhere their analysis looked.  (A
  position's win or loss never depends on the rule -- a useless interposition
  must still be refuted -- only its length may.)

With ``max_plies`` bounding the search, a position reported ``nomate`` has no
mate within ``max_plies`` plies (as ``solve(max_length=...)`` says it).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from itertools import islice
from dataclasses import dataclass, field

from .._engine import SearchLimit, census_analyse
from ..errors import ArgumentError, TsumeError
from ..limits import Limits
from ..outcome import Status
from ..position import Position
from ..problem import DefenderHand, Problem
from ..solve import solve
from .family import Family

__all__ = ["Solved", "analyse", "solve_shard", "shard_part", "solve_dfpn", "node_key", "CensusLimit", "DFPN_LIMITS"]

#: The limits of a df-pn solve of one position (a marked one, or one checked).
DFPN_LIMITS = Limits(nodes=2_000_000)


class CensusLimit(TsumeError):
    """A limit stopped the census of a shard (graph size, or df-pn's nodes)."""


@dataclass
class Solved:
    """The answer for one position."""

    position: str            # Position.fen()
    status: Status           # MATE or NOMATE (no mate within max_plies)
    length: int | None = None
    first_moves: list[str] = field(default_factory=list)  # every optimal first move
    method: str = "retro"    # "retro", or "dfpn" for a position the backward pass marked
    # The position itself, for the classification in the same process: the
    # string above is for the shard's file, not to be read back.
    pos: Position | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        return {"position": self.position, "status": self.status, "length": self.length,
                "first_moves": self.first_moves, "method": self.method}


def node_key(pos: Position) -> bytes:
    """An exact, compact key of board, hands and side to move (every value is below 256)."""
    return pos.key_bytes()


def analyse(
    positions: Sequence[Position],
    max_plies: int,
    *,
    node_limit: int | None = None,
    dfpn_limits: Limits = DFPN_LIMITS,
) -> tuple[list[Solved], dict]:
    """Solve ``positions`` (attacker to move) by retrograde analysis.

    Returns one :class:`Solved` per position, in order, and statistics
    (``graph_nodes``, ``graph_edges``, ``retro`` and ``dfpn`` counts, seconds
    of each phase).
    ``node_limit`` bounds the graph (:class:`CensusLimit`).  Marked positions
    are solved by df-pn (within ``dfpn_limits``).
    """
    return _analyse(positions, max_plies, node_limit, dfpn_limits)


def _analyse(positions: Sequence[Position], max_plies: int, node_limit: int | None,
             dfpn_limits: Limits) -> tuple[list[Solved], dict]:
    positions = list(positions)
    try:
        answers, graph = census_analyse(positions, max_plies, node_limit)
    except SearchLimit as exc:
        raise CensusLimit(str(exc)) from None
    solved_at = time.perf_counter()
    out: list[Solved] = []
    dfpn = 0
    for pos, (marked, length, firsts) in zip(positions, answers):
        if marked:
            out.append(solve_dfpn(pos, max_plies, dfpn_limits))
            dfpn += 1
        elif length is not None:
            out.append(Solved(pos.fen(), Status.MATE, length, sorted(str(m) for m in firsts), pos=pos))
        else:
            out.append(Solved(pos.fen(), Status.NOMATE))
    done = time.perf_counter()
    stats = {
        "positions": len(positions),
        "graph_nodes": graph["graph_nodes"],
        "graph_edges": graph["graph_edges"],
        "retro": len(positions) - dfpn,
        "dfpn": dfpn,
        "seconds_graph": round(graph["seconds_graph"], 3),
        "seconds_backward": round(graph["seconds_backward"], 3),
        "seconds_dfpn": round(done - solved_at, 3),
    }
    return out, stats


def solve_shard(family: Family, shard: int, max_plies: int, node_limit: int | None = None,
                part: int = 0, parts: int = 1) -> tuple[list[Solved], dict]:
    """Every position of one shard of ``family``, solved (:func:`analyse`);
    with ``parts`` > 1 only part ``part`` of it (:func:`shard_part`)."""
    return analyse(shard_part(family, shard, part, parts), max_plies, node_limit=node_limit)


def shard_part(family: Family, shard: int, part: int = 0, parts: int = 1) -> list[Position]:
    """Part ``part`` (from 0) of ``parts`` of a shard's positions: a run of
    consecutive positions in the family's order, the parts as even as can be.
    Consecutive positions differ in the last men placed, so a part keeps
    most of the positions whose graphs overlap together (a finer cut of the
    same work, not a sample of it)."""
    for name, value, low in (("parts", parts, 1), ("part", part, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ArgumentError(f"{name} must be a whole number >= {low}, not {value!r}")
    if part >= parts:
        raise ArgumentError(f"part must be below parts ({parts}), not {part}")
    if parts == 1:
        return list(family.positions(shard))
    # Only the part is kept: parts exist to bound a task's memory.
    n = _shard_size(family, shard)
    return list(islice(family.positions(shard), part * n // parts, (part + 1) * n // parts))


@functools.lru_cache(maxsize=64)
def _shard_size(family: Family, shard: int) -> int:
    """How many positions a shard holds (counted once a process: every part needs it)."""
    return sum(1 for _ in family.positions(shard))


def solve_dfpn(pos: Position, max_plies: int, limits: Limits = DFPN_LIMITS) -> Solved:
    """One position by the df-pn solver, as the census records it: its length
    within ``max_plies``, and every first move that mates in that length (each
    first move solved in turn).  Used for the positions the backward pass
    marks, and as the reference that checks the backward pass (census/check.py).
    The defender's hand is the one the position holds."""
    problem = Problem(pos, defender=DefenderHand.held(pos))
    r = solve(problem, max_length=max_plies, limits=limits, all_first_moves=True, variations=False)
    if r.status == Status.NOMATE:
        return Solved(pos.fen(), Status.NOMATE, method="dfpn")
    if r.status != Status.MATE:
        raise CensusLimit(f"df-pn could not settle {pos.fen()} (stopped by the {r.reason})")
    firsts = sorted(fm["move"] for fm in (r.first_moves or [])
                    if fm["status"] == Status.MATE and fm["length"] == r.length)
    return Solved(pos.fen(), Status.MATE, r.length, firsts, method="dfpn", pos=pos)
