"""Retrograde analysis of the checks-only game graph, as a tablebase is built.

:func:`analyse` takes positions with the attacker to move and returns, for
each, whether it mates within ``max_plies`` counted plies, its exact length and
**every** optimal first move, all from one pass:

1. **Forward.**  The graph of attacker checks and defender replies is built
   breadth-first from all the positions at once (each position once, by an
   exact key), attacker nodes expanded up to depth ``max_plies - 1``, defender
   nodes up to ``max_plies``: every node of a proof of length at most
   ``max_plies`` is within reach.  Positions that leave the family (a drop, a
   capture) are simply more nodes of the graph.
2. **Backward.**  Mate distances propagate from the mated defender nodes
   (distance 0), in increasing order: an attacker node is won at d + 1 the
   first time one of its checks reaches a defender node won at d (the shortest
   mate); a defender node is won at d + 1 when the last of its replies is won,
   at d (the longest defence).  Nodes never reached stay unwon.

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
  defender node with an interposition among its replies is **marked**, and the
  mark spreads to every node from which it can be reached; a marked starting
  position is settled by the df-pn solver instead.  Unmarked positions are
  exact: no interposition is met anywhere their analysis looked.  (A
  position's win or loss never depends on the rule -- a useless interposition
  must still be refuted -- only its length may.)

With ``max_plies`` bounding the search, a position reported ``nomate`` has no
mate within ``max_plies`` plies (as ``solve(max_length=...)`` says it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..conventions import interposition_square
from ..errors import TsumeError
from ..gcpause import PausedGC
from ..limits import Limits
from ..outcome import Status
from ..position import Position
from ..problem import DefenderHand, Problem
from ..solve import solve
from .family import Family

__all__ = ["Solved", "analyse", "solve_shard", "solve_dfpn", "node_key", "CensusLimit", "DFPN_LIMITS"]

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
    of each phase).  ``node_limit`` bounds the graph (:class:`CensusLimit`).
    Marked positions are solved by df-pn (within ``dfpn_limits``).
    """
    # The graph is millions of small lists and no cycle: the cyclic collector
    # would only walk it again and again (tsume.gcpause).  Measured on
    # Rutherford SN+p, hand S (11,490 positions, one worker): 33 s -> 22 s.
    with PausedGC():
        return _analyse(positions, max_plies, node_limit, dfpn_limits)


def _analyse(positions: Sequence[Position], max_plies: int, node_limit: int | None,
             dfpn_limits: Limits) -> tuple[list[Solved], dict]:
    started = time.perf_counter()
    keys: dict[bytes, int] = {}
    attacker: list[bool] = []
    parents: list[list[int]] = []
    pending: list[int] = []       # defender nodes: replies not yet won (-1: never resolves)
    marked: list[bool] = []
    roots: list[int] = []
    root_moves: dict[int, list[tuple[str, int]]] = {}
    mated: list[int] = []

    def node(pos: Position, is_attacker: bool) -> tuple[int, bool]:
        k = node_key(pos)
        i = keys.get(k)
        if i is not None:
            return i, False
        i = len(attacker)
        if node_limit is not None and i >= node_limit:
            raise CensusLimit(f"the census graph needs more than {node_limit:,} nodes")
        keys[k] = i
        attacker.append(is_attacker)
        parents.append([])
        pending.append(-1)
        marked.append(False)
        return i, True

    frontier: list[tuple[int, Position]] = []
    for pos in positions:
        i, new = node(pos, True)
        roots.append(i)
        if new:
            frontier.append((i, pos.copy()))
    edges = 0
    depth = 0
    while frontier:
        nxt: list[tuple[int, Position]] = []
        for i, pos in frontier:
            if attacker[i]:
                if depth >= max_plies:
                    continue  # no check from here can mate within the bound
                moves = pos.checks()
                record = root_moves.setdefault(i, []) if depth == 0 else None
                for m in moves:
                    pos.push(m)
                    c, new = node(pos, False)
                    if new:
                        nxt.append((c, pos.copy()))
                    pos.pop()
                    parents[c].append(i)
                    edges += 1
                    if record is not None:
                        record.append((str(m), c))
            else:
                moves = pos.legal_moves()
                if not moves:
                    pending[i] = 0
                    mated.append(i)
                    continue
                if depth >= max_plies:
                    continue  # not mated, and no reply can be followed within the bound
                ranged = pos.ride_checkers()
                children = set()
                for m in moves:
                    if ranged and interposition_square(pos, m, ranged):
                        marked[i] = True
                    pos.push(m)
                    c, new = node(pos, True)
                    if new:
                        nxt.append((c, pos.copy()))
                    pos.pop()
                    children.add(c)
                for c in children:
                    parents[c].append(i)
                    edges += 1
                pending[i] = len(children)
        frontier = nxt
        depth += 1
    built = time.perf_counter()

    # Backward: distances in increasing order (a bucket queue).
    value = [-1] * len(attacker)
    bucket: list[list[int]] = [mated]
    for i in mated:
        value[i] = 0
    d = 0
    while d < len(bucket):
        for i in bucket[d]:
            for p in parents[i]:
                if value[p] >= 0:
                    continue
                if attacker[p]:
                    value[p] = d + 1  # the first won check found is the shortest
                else:
                    pending[p] -= 1
                    if pending[p] != 0:
                        continue
                    value[p] = d + 1  # the last reply won is the longest defence
                if len(bucket) <= d + 1:
                    bucket.append([])
                bucket[d + 1].append(p)
        d += 1

    # Marks spread to every node from which a marked one can be reached.
    stack = [i for i, m in enumerate(marked) if m]
    while stack:
        i = stack.pop()
        for p in parents[i]:
            if not marked[p]:
                marked[p] = True
                stack.append(p)
    solved_at = time.perf_counter()

    out: list[Solved] = []
    dfpn = 0
    for pos, r in zip(positions, roots):
        if marked[r]:
            out.append(solve_dfpn(pos, max_plies, dfpn_limits))
            dfpn += 1
            continue
        v = value[r]
        if 0 <= v <= max_plies:
            firsts = sorted(mv for mv, c in root_moves.get(r, []) if value[c] == v - 1)
            out.append(Solved(pos.fen(), Status.MATE, v, firsts, pos=pos))
        else:
            out.append(Solved(pos.fen(), Status.NOMATE))
    done = time.perf_counter()
    stats = {
        "positions": len(positions),
        "graph_nodes": len(attacker),
        "graph_edges": edges,
        "retro": len(positions) - dfpn,
        "dfpn": dfpn,
        "seconds_graph": round(built - started, 3),
        "seconds_backward": round(solved_at - built, 3),
        "seconds_dfpn": round(done - solved_at, 3),
    }
    return out, stats


def solve_shard(family: Family, shard: int, max_plies: int, node_limit: int | None = None) -> tuple[list[Solved], dict]:
    """Every position of one shard of ``family``, solved (:func:`analyse`)."""
    positions = list(family.positions(shard))
    return analyse(positions, max_plies, node_limit=node_limit)


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
