"""The composer's rating stage: what makes a sound tsume interesting, as numbers.

:func:`rate` reads the :class:`~tsume.verify.Report` of a problem that
:func:`~tsume.verify.verify` called sound and measures it, from the proof and
from the solution tree (:func:`solution_tree`) alone: nothing is searched
again, every move of the report is replayed on the problem's position.

The position is the one the caller holds (``position=``, the problem's:
the composer passes it), else it is read as ``Position(report.position,
report.variant)``: ``verify()`` stores the problem's position with the
defender's hand filled in, so the string already holds that hand exactly.  Making a
:class:`~tsume.problem.Problem` of it again with no defender rule would be
wrong for a problem whose defender holds nothing (``defender: none``): its
string names no defender piece, which ``Problem()`` reads as "the rest of
the set".

Features
--------
All are computed; none is read from a table of known problems.

``length``
    plies of the main line (``len(report.mainline)``).
``nodes``, and ``stars`` (a field of :class:`Rating`)
    the solver's effort: ``solve_nodes`` when given, else
    ``report.stats["nodes"]`` -- which counts *the whole verification* (the
    solve, then every attacker alternative and every defence proven on the
    main line), so it can be far larger than a plain ``solve()``'s count (seed
    ito-s03-005: 28 nodes to solve, 62,707 to verify); a composer that wants
    the solver's effort passes ``solve()``'s ``stats["nodes"]``.  Stars on a
    decimal log scale: 1 below 100 nodes, 2 for 100-999, 3 for 1,000-9,999,
    4 for 10,000-99,999, 5 from 100,000 on (``floor(log10(nodes))`` clamped
    to 1..5, computed on the integer's digits, so exact at the powers of ten).
``checks``
    the number of legal checks in the problem position: how many first
    moves a solver must consider (1: the key is forced, so obvious).
``sacrifices``
    main-line defender moves that capture (every piece the defender can take
    is the attacker's): attacker pieces given up on the main line.
``drops``
    attacker drops on the main line (either side up, in Rutherford's game).
``flips``
    main-line moves, by *either* side, after which the moved piece shows
    another face than before it moved: the board value on the destination
    after the move is compared with the one on the origin before it.  In both
    games only a capture by a non-king piece turns a piece over
    (docs/rules.md, section 1), so this counts those captures; a drop is never a
    flip (the piece had no face on the board), even a promoted-side-up drop.
``quiet_key``
    1 when the first move is neither a capture nor a drop, else 0.
``king_span``
    the largest minus the smallest square the defender's king stands on
    along the main line, its start included (0 if it never moves).
``variations``
    the counted variations: ``report.variations`` that are not useless
    interpositions (whatever their status).
``interpositions``
    among those, the ones that are interpositions: a drop, or a move of a
    piece other than the king, onto a square strictly between the king and a
    piece checking it along a ride
    (:func:`tsume.conventions.interposition_square` in the position before the
    defence).  Useless interpositions are not counted.
``variety``
    how many different attacker moves, as the shape labels below name them
    (kind and piece face, e.g. ``drop G`` and ``move +N``), the main line
    holds: a line of one repeated manoeuvre has little.
``breadth``
    the most positions at one depth of the counted solution tree.
``forced``
    the plies every mating line of the counted tree goes through: a sink node
    is joined to every mated leaf, and the immediate post-dominators of the
    root (``networkx.immediate_dominators`` on the reversed tree, started at
    the sink) are followed from the root to the sink; ``forced`` is the number
    of tree nodes on that chain, the root left out.  On a tree this is the
    depth of the lowest common ancestor of the mated leaves: the length of
    the main-line stretch before the first counted variation branches off
    (the whole length when there is none).
``shape``
    :func:`shape_hash`: the Weisfeiler-Lehman hash of the counted tree,
    labelled so that the squares do not enter.

The solution tree
-----------------
See :func:`solution_tree`.  Useless interpositions appear in it as leaves
marked ``useless`` (the solution must refute them, so they belong in a
picture of it), but the *counted* tree -- the one ``breadth``, ``forced`` and
``shape`` are read from -- leaves them out: they never lengthen a line, and
whether one exists depends on what the defender happens to hold (by default
the rest of the set), not on the idea of the problem.

The score
---------
Deterministic, rounded to 3 decimals::

    score = 4.0 * log2(1 + length)
          + 1.5 * log2(checks)
          + 3.0 * quiet_key
          + 3.0 * sacrifices
          + 1.0 * flips
          + 0.5 * drops
          + 1.0 * log2(1 + king_span)
          + 1.0 * variations
          + 2.0 * interpositions
          + 1.0 * variety

Why these weights (also in :data:`WEIGHTS`):

* **length, 4 on a log scale.** Longer problems are worth more, but a 51-ply
  king walk repeating one knight move is not 17 times a 3-ply problem: each
  doubling of the length adds 4, about as much as one sacrifice and a bit.
* **checks, 1.5 on a log scale.** The key is harder to find among many
  legal checks; with one check it is forced (log2 1 = 0, nothing added).
  Each doubling of the candidates adds 1.5: less than a quiet key, since
  many checks are discarded at a glance.
* **quiet key, 3.** A first move that neither captures nor drops is the
  classic mark of a hard key (the solver looks at captures and drops first).
* **sacrifices, 3.** Giving material away to drive the king is the most
  prized theme of tsume; it weighs as much as a quiet key.
* **flips, 1.** Turning a piece over changes its powers mid-solution, a
  theme of its own in these games.  Only 1, because a flip usually comes
  with a capture already paid for elsewhere (a sacrifice taken by a
  non-king piece flips the taker).
* **drops, 0.5.** Drops are the everyday material of tsume; they count a
  little for using the hand, not much, or every drop-mate would rank high.
* **king span, 1 on a log scale.** A king driven across the board is a
  theme; the log keeps long mechanical walks from dominating (the length
  already pays them).
* **variations, 1; interpositions, 2 more.** Counted variations are the
  defender's real resources, which make the solution richer; an effective
  interposition is the subtlest of them (a counted defence the attacker must
  have foreseen), so it adds 2 on top of its 1 as a variation.
* **variety, 1.** Different kinds of attacker moves (drops, quiet moves,
  captures, different pieces) make a more varied solution.

``nodes`` (the solver's effort) does not enter the score: it is reported as
``stars``, and the score should not change when the engine gets faster.
``breadth`` and ``forced`` describe the tree and do not enter it either
(``variations`` already counts its branching); ``shape`` is an identity.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

import networkx as nx

from ..conventions import interposition_square, ranged_checkers
from ..errors import ArgumentError, TsumeError, quote
from ..outcome import Status
from ..position import Colour, Position
from ..render import plies
from ..verify import Report

__all__ = ["Rating", "rate", "solution_tree", "solution_line", "shape_hash", "stars_for", "WEIGHTS", "ATTACKER", "DEFENDER"]

#: The ``side`` of a tree edge (who made the move) and ``to_move`` of a tree node.
ATTACKER, DEFENDER = "attacker", "defender"

#: The score's weights (module docstring: what each multiplies and why).
WEIGHTS: dict[str, float] = {
    "length": 4.0,          # times log2(1 + length)
    "checks": 1.5,          # times log2(checks)
    "quiet_key": 3.0,
    "sacrifices": 3.0,
    "flips": 1.0,
    "drops": 0.5,
    "king_span": 1.0,       # times log2(1 + king_span)
    "variations": 1.0,
    "interpositions": 2.0,
    "variety": 1.0,
}


@dataclass
class Rating:
    """The rating of one problem: its ``features`` (module docstring), the
    ``score`` they make, and ``stars`` (1..5) from the solver's effort."""

    features: dict[str, int | float | str]
    score: float
    stars: int


def stars_for(nodes: int) -> int:
    """Stars (1..5) for a solver effort of ``nodes`` df-pn nodes:
    ``floor(log10(nodes))`` clamped to 1..5 (1 below 100 nodes, 5 from 100,000)."""
    return min(5, max(1, len(str(max(nodes, 1))) - 1))


def rate(report: Report, *, solve_nodes: int | None = None, position: Position | None = None) -> Rating:
    """Rate a problem from its sound verification ``report``.

    ``solve_nodes`` is the solver's effort in df-pn nodes; without it,
    ``report.stats["nodes"]`` (the whole verification's) is used.
    ``position`` is the problem's position when the caller holds it (the
    report's position string is then not read again).  A report
    that is not sound is rated from what it shows.  Raises
    :class:`~tsume.errors.ArgumentError` (one line) for anything but a
    :class:`~tsume.verify.Report`, a report without a main line, one whose
    moves do not replay on its position, or a bad ``solve_nodes`` or
    ``position``.
    """
    tree, line = _tree(report, "rate", position)
    if solve_nodes is not None and (
        not isinstance(solve_nodes, int) or isinstance(solve_nodes, bool) or solve_nodes < 0
    ):
        raise ArgumentError(
            f"rate: solve_nodes must be a non-negative int or None, not {type(solve_nodes).__name__} {quote(solve_nodes)}"
        )
    if solve_nodes is None:
        stats = report.stats if isinstance(report.stats, dict) else {}
        nodes = stats.get("nodes")
        if not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 0:
            raise ArgumentError("rate: the report's stats hold no node count (stats['nodes']); pass solve_nodes")
    else:
        nodes = solve_nodes
    main_nodes: list[int] = tree.graph["mainline"]
    main_edges = [tree.edges[u, v] for u, v in zip(main_nodes, main_nodes[1:])]
    start = line[0]
    kings = [tree.nodes[n]["king"] for n in main_nodes]
    counted = [(u, v) for u, v in tree.out_edges(main_nodes)
               if not tree.edges[u, v]["mainline"] and not tree.edges[u, v]["useless"]]
    features: dict[str, int | float | str] = {
        "length": len(main_edges),
        "nodes": nodes,
        "checks": len(start.checks()),
        "sacrifices": sum(1 for e in main_edges if e["side"] == DEFENDER and e["capture"]),
        "drops": sum(1 for e in main_edges if e["side"] == ATTACKER and e["kind"] == "drop"),
        "flips": sum(1 for e in main_edges if e["kind"] == "flip"),
        "quiet_key": int(main_edges[0]["kind"] == "move"),
        "king_span": max(kings) - min(kings),
        "variations": len(counted),
        "interpositions": sum(1 for u, v in counted if tree.edges[u, v]["interposition"]),
        "variety": len({(e["kind"], e["piece"]) for e in main_edges if e["side"] == ATTACKER}),
    }
    features.update(_tree_features(tree))
    return Rating(features, _score(features), stars_for(nodes))


def _score(f: dict[str, Any]) -> float:
    w = WEIGHTS
    total = (
        w["length"] * math.log2(1 + f["length"])
        + w["checks"] * math.log2(max(1, f["checks"]))
        + w["quiet_key"] * f["quiet_key"]
        + w["sacrifices"] * f["sacrifices"]
        + w["flips"] * f["flips"]
        + w["drops"] * f["drops"]
        + w["king_span"] * math.log2(1 + f["king_span"])
        + w["variations"] * f["variations"]
        + w["interpositions"] * f["interpositions"]
        + w["variety"] * f["variety"]
    )
    return round(total, 3)


def _tree_features(tree: nx.DiGraph) -> dict[str, int | str]:
    """``breadth``, ``forced`` and ``shape`` of a solution tree."""
    core = _counted(tree)
    root = tree.graph["root"]
    breadth = max(Counter(d for _, d in core.nodes(data="depth")).values())
    # Post-dominators of the root: dominators in the reversed tree, from a
    # sink joined to every mated leaf.
    sink = -1
    joined = core.copy()
    joined.add_edges_from((n, sink) for n, mate in core.nodes(data="mate") if mate)
    idom = nx.immediate_dominators(joined.reverse(copy=False), sink)
    forced = 0
    n = root
    while n in idom and idom[n] not in (sink, n):
        forced += 1
        n = idom[n]
    return {"breadth": breadth, "forced": forced, "shape": _wl_hash(core)}


def _counted(tree: nx.DiGraph) -> nx.DiGraph:
    """The tree without its useless-interposition leaves."""
    return tree.subgraph(n for n, useless in tree.nodes(data="useless") if not useless)


def _wl_hash(core: nx.DiGraph) -> str:
    """``networkx.weisfeiler_lehman_graph_hash`` of ``core`` taken as an
    undirected graph, with its node and edge ``label``s and ``iterations``
    = its height, computed here over plain lists: the same digests, a few
    times faster than through networkx's graph views (the composer rates
    every problem it takes).  The undirected algorithm is the same across
    the networkx 3.x versions pyproject admits (its directed one changed in
    3.5), and a test holds the two equal."""
    height = max(d for _, d in core.nodes(data="depth"))
    labels = {u: str(label) for u, label in core.nodes(data="label")}
    around: dict[Any, list[tuple[str, Any]]] = {u: [] for u in labels}
    for u, v, label in core.edges(data="label"):
        around[u].append((str(label), v))
        around[v].append((str(label), u))
    counts: list[tuple[str, int]] = []
    for _ in range(max(1, height)):
        labels = {u: _digest(labels[u] + "".join(sorted([e + labels[v] for e, v in around[u]])))
                  for u in labels}
        counts.extend(sorted(Counter(labels.values()).items()))
    return _digest(str(tuple(counts)))


def _digest(text: str) -> str:
    return blake2b(text.encode("ascii"), digest_size=16).hexdigest()


def shape_hash(report: Report) -> str:
    """The shape of a problem's solution, as a 32-digit hex string, for
    finding near-duplicates in a collection.

    It is ``networkx.weisfeiler_lehman_graph_hash`` (computed by
    :func:`_wl_hash`) of the counted solution
    tree (useless interpositions left out) taken as an undirected graph, with
    ``iterations`` = the tree's height, so the root's label covers the whole
    tree.  Node labels: the depth, ``M`` (main line) or ``V`` (a variation),
    and ``#`` on a mated leaf.  Edge labels: who moves (``A``/``D``), the move
    kind -- ``drop``, ``move`` (a board move that captures nothing),
    ``capture`` (one that leaves the mover's face alone: a king's),
    ``flip`` (a capture that turns the mover over) -- and the face of the
    piece moved or dropped (``D flip F``, ``A drop +N``).  No square, distance
    or board length enters, so the same solution played on other squares
    hashes alike; a different sequence of kinds or pieces, or a different
    branching, hashes differently (up to the usual hash collisions).
    """
    return _wl_hash(_counted(_tree(report, "shape_hash")[0]))


def solution_tree(report: Report, *, position: Position | None = None) -> nx.DiGraph:
    """The solution tree of a verified problem, as a ``networkx.DiGraph``.

    Nodes are the positions along the main line and along every variation's
    line, numbered from the root ``0`` (the problem): the main line first,
    then the variations in the report's order.  Node attributes: ``position``
    (its string), ``depth`` (plies from the root), ``to_move`` (``attacker``
    or ``defender``), ``king`` (the defender king's square), ``mainline``,
    ``useless`` (reached by a useless interposition: a leaf, its refutation
    not shown), ``mate`` (the defender is mated here: the end of the main line
    or of a counted variation's line) and ``label`` (the node label of
    :func:`shape_hash`).

    Edges are moves.  Attributes: ``move`` (the move string), ``readable``,
    ``side`` (``attacker``/``defender``: who made it), ``mainline``,
    ``useless``, ``kind`` (``drop``/``move``/``capture``/``flip``, see
    :func:`shape_hash`), ``piece`` (the face moved or dropped, uppercase),
    ``capture`` and ``drop`` (bools), ``frm`` and ``to`` (squares; ``frm`` is 0
    for a drop), ``interposition`` (for a defender move: the square of the
    ranged checker it stands in front of, else 0) and ``label`` (the edge
    label of :func:`shape_hash`).

    Graph attributes: ``variant``, ``position``, ``root`` (``0``) and
    ``mainline`` (the main line's node ids, root first).

    ``position`` is the problem's position when the caller holds it (as
    :func:`rate`).

    Raises :class:`~tsume.errors.ArgumentError` (one line) for anything but a
    :class:`~tsume.verify.Report`, a report without a main line, one whose
    moves do not replay on its position, or a ``position`` that is not the
    report's.
    """
    return _tree(report, "solution_tree", position)[0]


def solution_line(report: Report, *, position: Position | None = None) -> tuple[nx.DiGraph, list[Position]]:
    """:func:`solution_tree` and the positions along its main line, the
    problem's first (index ``i``: after ``i`` plies): for a caller that looks
    at them, so that no node's position string is read back."""
    return _tree(report, "solution_tree", position)


def _tree(report: Report, who: str, position: Position | None = None) -> tuple[nx.DiGraph, list[Position]]:
    """:func:`solution_tree`, its errors naming the public function ``who``,
    and the positions along the main line (the root first)."""
    if not isinstance(report, Report):
        raise ArgumentError(f"{who}: report must be a tsume.verify.Report, not {type(report).__name__} {quote(report)}")
    mainline = report.mainline
    if not isinstance(mainline, list) or not mainline:
        raise ArgumentError(f"{who}: the report has no main line (verdict {quote(report.verdict)}): nothing to rate")
    if report.length is not None and report.length != len(mainline):
        raise ArgumentError(f"{who}: the report's length {quote(report.length)} is not its main line's {plies(len(mainline))}")
    if position is not None:
        if not isinstance(position, Position) or position.fen() != report.position:
            raise ArgumentError(f"{who}: position must be the report's, {quote(report.position)}, "
                                f"not {quote(position.fen() if isinstance(position, Position) else position)}")
        pos = position.copy()
    else:
        try:
            pos = Position(report.position, report.variant)
        except TsumeError as exc:
            raise ArgumentError(f"{who}: the report's position does not read: {exc}") from None
    attacker = pos.turn
    tree = nx.DiGraph(variant=pos.variant.spec, position=pos.fen(), root=0, mainline=[0])
    builder = _Builder(tree, attacker, who)
    builder.node(pos, 0, mainline=True)
    positions = [pos.copy()]
    node = 0
    for i, text in enumerate(mainline):
        node = builder.move(pos, node, text, f"main line, ply {i + 1}", mainline=True)
        tree.graph["mainline"].append(node)
        positions.append(pos.copy())
    if pos.turn == attacker:
        raise ArgumentError(f"{who}: the main line ends with the defender's move (ply {len(mainline)}), not with a mate")
    tree.nodes[node]["mate"] = True
    for v in report.variations:
        where = f"variation {quote(getattr(v, 'move', v))} at ply {quote(getattr(v, 'ply', None))}"
        ply = getattr(v, "ply", None)
        if not isinstance(ply, int) or isinstance(ply, bool) or not 1 <= ply <= len(mainline) + 1:
            raise ArgumentError(f"{who}: {where}: the ply is not on the main line")
        line = list(v.line) if v.line else [v.move]
        if line[0] != v.move:
            raise ArgumentError(f"{who}: {where}: its line starts with {quote(line[0])}")
        p = positions[ply - 1].copy()
        if p.turn == attacker:
            raise ArgumentError(f"{who}: {where}: not a defender turn")
        node = tree.graph["mainline"][ply - 1]
        for j, text in enumerate(line):
            node = builder.move(p, node, text, f"{where}, its move {j + 1}", mainline=False, useless=bool(v.useless))
        if not v.useless and v.line and v.status == Status.MATE and p.turn != attacker:
            tree.nodes[node]["mate"] = True
    for n, data in tree.nodes(data=True):
        data["label"] = f"{data['depth']} {'M' if data['mainline'] else 'V'}{'#' if data['mate'] else ''}"
    return tree, positions


class _Builder:
    """Adds positions and moves to a solution tree."""

    def __init__(self, tree: nx.DiGraph, attacker: Colour, who: str) -> None:
        self.tree = tree
        self.attacker = attacker
        self.who = who

    def node(self, pos: Position, depth: int, *, mainline: bool, useless: bool = False) -> int:
        n = self.tree.number_of_nodes()
        self.tree.add_node(
            n, position=pos.fen(), depth=depth, to_move=ATTACKER if pos.turn == self.attacker else DEFENDER,
            king=pos.king_square(self.attacker ^ 1), mainline=mainline, useless=useless, mate=False,
        )
        return n

    def move(self, pos: Position, parent: int, text: str, where: str, *, mainline: bool, useless: bool = False) -> int:
        """Play ``text`` on ``pos`` (the position of ``parent``) and add the child."""
        try:
            m = pos.parse_move(text)
        except TsumeError as exc:
            raise ArgumentError(f"{self.who}: {where}: {exc}") from None
        side = ATTACKER if pos.turn == self.attacker else DEFENDER
        frm, to = m.from_square or 0, m.to_square
        before = pos.piece_at(frm) if frm else None
        piece = before.letter if before is not None else m.drop
        capture = bool(frm) and pos.piece_at(to) is not None
        interposition = interposition_square(pos, m, ranged_checkers(pos)) if side == DEFENDER else 0
        readable, plain = pos.move_readable(m), str(m)
        pos.push(m)
        after = pos.piece_at(to)
        flip = before is not None and after is not None and after.letter != before.letter
        kind = "drop" if not frm else "flip" if flip else "capture" if capture else "move"
        child = self.node(pos, self.tree.nodes[parent]["depth"] + 1, mainline=mainline, useless=useless)
        self.tree.add_edge(
            parent, child, move=plain, readable=readable, side=side, mainline=mainline, useless=useless,
            kind=kind, piece=piece, capture=capture, drop=not frm, frm=frm, to=to, interposition=interposition,
            label=f"{side[0].upper()} {kind} {piece}",
        )
        return child
