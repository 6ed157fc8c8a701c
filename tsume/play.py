"""A problem to play: the player makes the attacker's moves, the solver defends.

:func:`play_tree` builds, from proven searches, everything a page needs to
let someone solve a problem move by move without an engine at hand (the
booklet's play mode works offline; the studio uses the same tree):

* one **node** per position the player can reach by right moves, attacker to
  move, with its value (the plies to mate from there), a hint (the solver's
  move there) and every legal move;
* at each node, every **legal check** with its verdict:

  - ``right``: it mates within the node's value (the solver's move, or
    another one as short -- a second solution, which a sound problem does
    not have); the answer is the **longest defence** after it, and the
    position after that answer is the next node;
  - ``mate``: at the last attacker turn, any check that mates at once, as
    tsume convention accepts a final move;
  - ``escapes``: it does not mate within the node's value: the answer is a
    defence after which no mate comes in time (searched, not guessed), with
    whether any mate follows at all;
  - ``unknown``: a limit stopped the searches first.

Every answer comes from a search of that very position, so a player who
leaves the stored main line (a second solution) is answered from the tree
too.  A right answer after the solver's own move is the main line's
defence; after another right move it is the best line :func:`tsume.verify.verify`
reads for that alternative.  An escape is a defence after which
:func:`tsume.solve.solve` proves no mate within the plies left, tried king
moves and other non-interpositions first (an interposition may be useless,
and a useless one is no escape).

The searches solve each position afresh, so a repetition of a position
earlier on the played line is not seen as one (docs/rules.md, tsume
convention 3): in the rare problem that turns on it, a node's value may be
shorter than the line it is on.  The tree then says so (``remaining`` is the
fresh value).

:func:`frames` draws every position of a tree (tsume.svg), keyed as the
page looks them up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .arguments import check_callback, check_positive_int
from .conventions import interposition_square, ranged_checkers
from .limits import Limits, check_limits
from .outcome import Status
from .position import Move, Position
from .problem import DefenderHand, Problem, require_problem
from .solve import solve
from .svg import board
from .variant import get_variant
from .render import canonical_order, sorted_moves

__all__ = ["play_tree", "frames", "frame_keys", "RIGHT", "FINAL_MATE", "ESCAPES", "UNSETTLED", "MAX_TREE_NODES"]

RIGHT, FINAL_MATE, ESCAPES, UNSETTLED = "right", "mate", "escapes", "unknown"

#: The most nodes a tree holds by default: a sound problem's tree is its main
#: line (one node per attacker turn); only second solutions branch.
MAX_TREE_NODES = 200
#: Nodes spent, per escape, on saying whether any mate follows at all.
_AFTER_NODES = 20_000


def _as_given(pos: Position) -> Problem:
    """The position as a problem whose defender holds what it holds there
    (a position met in play: its hand is no longer "the rest of the set")."""
    return Problem(pos, defender=DefenderHand.held(pos))


class _Budget:
    """What is left of the whole tree's limits: its time and nodes run down
    with every search; the memory bounds each search."""

    def __init__(self, limits: Limits) -> None:
        self.deadline = None if limits.time is None else time.monotonic() + limits.time
        self.nodes_left = limits.nodes
        self.memory = limits.memory
        self.spent = 0

    def limits(self, most: int | None = None) -> Limits | None:
        """The limits of the next search (at most ``most`` nodes); None once spent."""
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.monotonic()
            if seconds <= 0:
                return None
        nodes = self.nodes_left
        if nodes is not None and nodes <= 0:
            return None
        if most is not None:
            nodes = most if nodes is None else min(nodes, most)
        return Limits(time=seconds, nodes=nodes, memory=self.memory)

    def spend(self, nodes: int) -> None:
        self.spent += nodes
        if self.nodes_left is not None:
            self.nodes_left -= nodes


class _Builder:
    def __init__(self, budget: _Budget, progress: Callable[[dict], None] | None, max_nodes: int) -> None:
        self.budget = budget
        self.progress = progress
        self.max_nodes = max_nodes
        self.nodes: list[dict[str, Any]] = []
        self.complete = True
        self.started = time.monotonic()

    def solve(self, pos: Position, most: int | None = None, **options: Any):
        """solve() within what is left of the budget; None once it is spent."""
        limits = self.budget.limits(most)
        if limits is None:
            self.complete = False
            return None
        result = solve(_as_given(pos), limits=limits, variations=False, **options)
        self.budget.spend(int(result.stats.get("nodes", 0)))
        if result.status == Status.UNKNOWN and most is None:
            self.complete = False
        return result

    def node(self, pos: Position, value: int, last: str | None) -> int:
        """Add the node of ``pos`` (attacker to move, mated within ``value``)."""
        index = len(self.nodes)
        node: dict[str, Any] = {"position": pos.fen(), "remaining": value, "last": last, "hint": None,
                                "legal": [str(m) for m in sorted_moves(pos)], "checks": []}
        self.nodes.append(node)
        result = self.solve(pos, max_length=value, all_first_moves=True)
        if result is None or result.status != Status.MATE or result.first_moves is None:
            self.complete = False
            node["checks"] = [{"move": str(m), "readable": pos.move_readable(m), "verdict": UNSETTLED}
                              for m in sorted(pos.checks(), key=canonical_order(pos))]
            return index
        value = node["remaining"] = result.length
        node["hint"] = result.mainline[0]
        main_reply = result.mainline[1] if len(result.mainline) > 1 else None
        self._report()
        for first in result.first_moves:
            m = pos.parse_move(first["move"])
            entry: dict[str, Any] = {"move": first["move"], "readable": pos.move_readable(m)}
            node["checks"].append(entry)
            if first["status"] == Status.MATE and value == 1:
                entry["verdict"] = FINAL_MATE
            elif first["status"] == Status.MATE:
                entry["verdict"] = RIGHT
                reply = main_reply if first["move"] == node["hint"] else self._alternative_reply(pos, first["move"])
                pos.push(m)
                try:
                    if reply is None:
                        continue
                    d = pos.parse_move(reply)
                    entry["reply"], entry["reply_readable"] = reply, pos.move_readable(d)
                    if len(self.nodes) >= self.max_nodes:
                        self.complete = False
                        continue
                    pos.push(d)
                    try:
                        entry["next"] = self.node(pos, value - 2, reply)
                    finally:
                        pos.pop()
                finally:
                    pos.pop()
            elif first["status"] == Status.NOMATE:
                entry["verdict"] = ESCAPES
                self._refute(pos, m, value, entry)
            else:
                entry["verdict"] = UNSETTLED
                self.complete = False
        return index

    def _alternative_reply(self, pos: Position, move: str) -> str | None:
        """The longest defence after a right move that is not the solver's: the
        second move of the best line verify() reads for that alternative."""
        from .verify import verify

        limits = self.budget.limits()
        if limits is None:
            self.complete = False
            return None
        report = verify(_as_given(pos), limits=limits)
        self.budget.spend(int(report.stats.get("nodes", 0)))
        for alt in report.alternatives:
            if alt.ply == 1 and alt.move == move and alt.status == Status.MATE and len(alt.line) > 1:
                return alt.line[1]
        self.complete = False
        return None

    def _refute(self, pos: Position, m: Move, value: int, entry: dict[str, Any]) -> None:
        """A defence after the check ``m`` that escapes: no mate within the
        plies left (``value - 2`` after it).  Non-interpositions first."""
        pos.push(m)
        try:
            ranged = ranged_checkers(pos)
            order = canonical_order(pos)
            defences = sorted(pos.legal_moves(), key=lambda d: (interposition_square(pos, d, ranged) != 0, order(d)))
            for d in defences:
                if value - 2 >= 1:
                    pos.push(d)
                    try:
                        result = self.solve(pos, max_length=value - 2)
                    finally:
                        pos.pop()
                    if result is None:
                        break
                    if result.status != Status.NOMATE:
                        continue
                entry["reply"], entry["reply_readable"] = str(d), pos.move_readable(d)
                entry["within"] = max(value - 2, 0)
                pos.push(d)
                try:
                    after = self.solve(pos, most=_AFTER_NODES)
                finally:
                    pos.pop()
                # Whether the attacker mates at all after the escape (None: not settled).
                entry["mate_after"] = (after.length if after is not None and after.status == Status.MATE
                                       else False if after is not None and after.status == Status.NOMATE else None)
                return
            entry["verdict"] = UNSETTLED  # no escape found (the searches ran out)
            self.complete = False
        finally:
            pos.pop()

    def _report(self) -> None:
        if self.progress is not None:
            self.progress({"tree_nodes": len(self.nodes), "nodes": self.budget.spent,
                           "seconds": time.monotonic() - self.started})


def play_tree(
    problem: Problem,
    *,
    limits: Limits | None = None,
    progress: Callable[[dict], None] | None = None,
    max_nodes: int = MAX_TREE_NODES,
) -> dict[str, Any]:
    """The play tree of a problem (module docstring) as plain JSON values.

    ``problem`` is a :class:`~tsume.problem.Problem`, as for
    :func:`tsume.solve`.  ``limits`` (:class:`~tsume.limits.Limits`) bound
    all the searches together: time and nodes run down over the whole
    tree.  ``progress`` is called with ``{"tree_nodes", "nodes",
    "seconds"}`` after each node.  Returns ``{"status", "variant",
    "position", "length", "nodes", "complete", "stats"}``: ``status`` is
    the solver's (``mate``, ``nomate``, ``unknown``); ``nodes[0]`` is the
    start; ``complete`` is false when a limit left some verdict unsettled.
    A bad argument raises a :class:`~tsume.errors.TsumeError`.
    """
    tsume = require_problem(problem, "play_tree")
    limits = check_limits(limits)
    progress = check_callback(progress)
    most = check_positive_int(max_nodes, "max_nodes", "a number of tree nodes") or MAX_TREE_NODES
    pos = tsume.position()
    builder = _Builder(_Budget(limits), progress, most)
    tree: dict[str, Any] = {"status": str(Status.UNKNOWN), "variant": pos.variant.spec, "position": pos.fen(),
                            "length": None, "nodes": [], "complete": False}
    first = builder.solve(pos)
    if first is not None:
        tree["status"] = str(first.status)
        if first.status == Status.MATE:
            tree["length"] = first.length
            builder.node(pos, first.length, None)
            tree["complete"] = builder.complete
    tree["nodes"] = builder.nodes
    tree["stats"] = {"nodes": builder.budget.spent, "seconds": round(time.monotonic() - builder.started, 3)}
    return tree


def frame_keys(tree: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """``(key, start position, moves)`` for every position a page shows: each
    node (``n<i>``), each node after each check (``c<i>:<move>``) and after
    an escape's defence (``r<i>:<move>``)."""
    out: list[tuple[str, str, list[str]]] = []
    for i, node in enumerate(tree["nodes"]):
        out.append((f"n{i}", node["position"], []))
        for check in node["checks"]:
            out.append((f"c{i}:{check['move']}", node["position"], [check["move"]]))
            if check.get("verdict") == ESCAPES and check.get("reply"):
                out.append((f"r{i}:{check['move']}", node["position"], [check["move"], check["reply"]]))
    return out


def frames(tree: dict[str, Any], *, kanji: bool = False) -> dict[str, str]:
    """The SVG diagram of every position of ``tree``, by :func:`frame_keys`'
    key, with the last move played tinted (the page holds
    :data:`tsume.svg.STYLE` once)."""
    variant = get_variant(tree["variant"])
    out: dict[str, str] = {}
    for key, start, moves in frame_keys(tree):
        pos = Position(start, variant)
        last = None
        if not moves and key != "n0":
            node = tree["nodes"][int(key[1:])]
            if node.get("last"):
                last = pos.t.read_move(node["last"])
        for move in moves:
            last = pos.push_str(move)
        out[key] = board(pos, kanji=kanji, lastmove=last, standalone=False)
    return out
