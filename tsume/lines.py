"""Lines of play as the answers print them: move strings and the hand left.

The lines themselves are read off the search in the engine
(:meth:`tsume.search.Search.best_line`, ``main_line``,
``defender_choices``, ``proof_line``) as lists of :class:`~tsume.position.Move`; these helpers
turn a line from a position into what a :class:`~tsume.solve.Result` or a
:class:`~tsume.verify.Report` holds.
"""

from __future__ import annotations

from .conventions import hand_count
from .position import Colour, Move, Position

__all__ = ["hand_after", "move_strings"]


def hand_after(pos: Position, moves: list[Move], colour: Colour | int) -> tuple[str, int]:
    """A colour's hand after playing ``moves`` from ``pos`` (left as it is): as
    a hand string (``2PT``, ``-``) and as a count of pieces."""
    p = pos.copy()
    for m in moves:
        p.push(m)
    s = p.hand_string(colour)
    return s, hand_count(p, colour)


def move_strings(pos: Position, moves: list[Move]) -> tuple[list[str], list[str]]:
    """The moves of a line from ``pos`` (left as it is) as move strings
    (``G*2``) and in the readable notation (``G*2``, ``k2-1``), each read
    in the position it is played in."""
    p = pos.copy()
    plain, readable = [], []
    for m in moves:
        plain.append(str(m))
        readable.append(p.move_readable(m))
        p.push(m)
    return plain, readable
