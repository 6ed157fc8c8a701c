"""Theme labels: what happens in a sound problem's solution, in words a
composer uses.

:func:`themes_of` reads the labels off a solution tree
(:func:`tsume.compose.rating.solution_tree`); :func:`themes` does it for a
verification report.  Nothing is searched: every label is a property of the
main line, or of the counted variations (useless interpositions never count).
``docs/compose.md`` shows a problem of each.

``sacrifice``
    the defender captures on the main line: the attacker gives a piece away.
``interposition``
    the defender interposes, on the main line or in a counted variation: a
    drop or a move of a piece other than the king onto a square between the
    king and a ranged piece checking it.
``king-walk``
    the defender's king moves on at least :data:`WALK_MOVES` of its
    main-line turns and the squares it stands on span at least
    :data:`WALK_SPAN`: the attacker drives it along the board.
``king-walk-back``
    a king walk in which the king turns back: it moves towards both ends of
    the board in the course of the main line.
``promotion-declined``
    the attacker drops a piece unpromoted side up where the same drop
    promoted side up is also a check (Rutherford's game, whose pieces may be
    dropped either side up).
``unpromotion``
    an attacker's capture on the main line turns a promoted piece back over
    (docs/rules.md: every capture by a piece other than a king flips it).
``re-drop``
    the attacker drops some kind more often than it held at the start: a
    piece captured during the solution comes back as a drop.
``long-range-drop``
    an attacker's drop at least :data:`LONG_RANGE` squares from the
    defender's king, checking from afar.
``quiet-key``
    the first move neither captures nor drops (the rating's ``quiet_key``).
``drop-mate``
    the mating move is a drop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..position import Position

if TYPE_CHECKING:  # networkx is imported only when a tree is made (tsume.compose.rating)
    import networkx as nx

    from ..verify import Report

__all__ = ["THEMES", "LASTING", "themes", "themes_of", "WALK_MOVES", "WALK_SPAN", "LONG_RANGE"]

#: Every label, with what it says (module docstring).
THEMES: dict[str, str] = {
    "sacrifice": "the defender captures on the main line",
    "interposition": "the defender interposes against a ranged check",
    "king-walk": "the king is driven along the board",
    "king-walk-back": "the king is driven along the board and turns back",
    "promotion-declined": "a drop unpromoted side up where promoted would also check",
    "unpromotion": "an attacker's capture turns a promoted piece back",
    "re-drop": "a piece captured during the solution is dropped again",
    "long-range-drop": "a drop that checks from afar",
    "quiet-key": "the first move neither captures nor drops",
    "drop-mate": "the mating move is a drop",
}

#: The labels a problem keeps when it is lengthened at the front (two
#: plies un-moved before its first move, as the reverse method and the
#: climb do): its main line goes on to the same end.  ``quiet-key`` is the
#: first move's, and ``re-drop`` compares with the hand at the start, which
#: the longer problem may hold more of.
LASTING: frozenset[str] = frozenset(THEMES) - {"quiet-key", "re-drop"}

#: A king walk: at least this many king moves on the main line...
WALK_MOVES = 4
#: ... over squares spanning at least this many.
WALK_SPAN = 4
#: A long-range drop lands at least this many squares from the king.
LONG_RANGE = 3


def themes(report: Report, *, position: Position | None = None) -> list[str]:
    """The theme labels of a sound problem's verification ``report``, in the
    order of :data:`THEMES`; ``position`` is the problem's when the caller
    holds it.  Raises :class:`~tsume.errors.ArgumentError` (one line) as
    :func:`~tsume.compose.rating.solution_tree` does."""
    from .rating import solution_line

    tree, line = solution_line(report, position=position)
    return _labels(tree, line.__getitem__)


def themes_of(tree: nx.DiGraph) -> list[str]:
    """The theme labels of a solution tree (module docstring), in the order
    of :data:`THEMES`."""
    main = tree.graph["mainline"]

    def at(ply: int) -> Position:
        # A tree handed in holds its positions as strings only.
        return Position(tree.nodes[main[ply]]["position"], tree.graph["variant"])

    return _labels(tree, at)


def _labels(tree: nx.DiGraph, at: Callable[[int], Position]) -> list[str]:
    """The labels of ``tree``; ``at(i)`` is the position after ``i`` plies of
    the main line."""
    from .rating import ATTACKER, DEFENDER

    main = tree.graph["mainline"]
    edges = [(u, v, tree.edges[u, v]) for u, v in zip(main, main[1:])]
    # (ply, edge) of the attacker's main-line moves.
    attacker = [(i, e) for i, (_, _, e) in enumerate(edges) if e["side"] == ATTACKER]
    found: set[str] = set()
    if any(e["side"] == DEFENDER and e["capture"] for _, _, e in edges):
        found.add("sacrifice")
    if any(e["side"] == DEFENDER and e["interposition"] and not e["useless"]
           for _, _, e in tree.edges(main, data=True)):
        found.add("interposition")
    found.update(_walk([tree.nodes[n]["king"] for n in main]))
    drops = [(i, e) for i, e in attacker if e["drop"]]
    if any(e["piece"][0] != "+" and _promoted_drop_checks(at(i), e) for i, e in drops):
        found.add("promotion-declined")
    if any(e["kind"] == "flip" and e["piece"].startswith("+") for _, e in attacker):
        found.add("unpromotion")
    if _redropped(at(0), [e for _, e in drops]):
        found.add("re-drop")
    if any(abs(e["to"] - tree.nodes[main[i]]["king"]) >= LONG_RANGE for i, e in drops):
        found.add("long-range-drop")
    if edges and edges[0][2]["kind"] == "move":
        found.add("quiet-key")
    if edges and edges[-1][2]["drop"]:
        found.add("drop-mate")
    return [t for t in THEMES if t in found]


def _walk(kings: list[int]) -> set[str]:
    steps = [b - a for a, b in zip(kings, kings[1:]) if b != a]
    if len(steps) < WALK_MOVES or max(kings) - min(kings) < WALK_SPAN:
        return set()
    back = any(s > 0 for s in steps) and any(s < 0 for s in steps)
    return {"king-walk", "king-walk-back"} if back else {"king-walk"}


def _promoted_drop_checks(pos: Position, edge: dict) -> bool:
    promoted = f"+{edge['move']}"
    return any(str(m) == promoted for m in pos.checks())


def _redropped(pos: Position, drops: list[dict]) -> bool:
    held = dict(zip(pos.t.kind_letters, pos.hand_counts(pos.turn)))
    dropped: dict[str, int] = {}
    for e in drops:
        kind = e["piece"].lstrip("+")
        dropped[kind] = dropped.get(kind, 0) + 1
    return any(n > held.get(kind, 0) for kind, n in dropped.items())
