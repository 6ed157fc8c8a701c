"""Tsume conventions shared by every solver: interpositions, recaptures, hand counts.

See docs/solver.md.  A tsume position has the attacker to move; how a
problem's defender's hand is filled in is :mod:`tsume.problem`'s
(``rest_of_set`` is importable from here too): a tsume position is
``Problem(...).position()``.
"""

from __future__ import annotations

from collections.abc import Iterator

from .position import Colour, Move, Position, SquareSet
from .problem import rest_of_set

__all__ = [
    "rest_of_set",
    "ranged_checkers",
    "interposition_square",
    "handed_back",
    "recaptures",
    "hand_count",
]


def hand_count(pos: Position, colour: Colour | int) -> int:
    """How many pieces a colour holds in hand."""
    return sum(pos.hand_counts(colour))


def ranged_checkers(pos: Position) -> SquareSet:
    """The pieces checking the side to move along a ride (not by a leap)."""
    return pos.ride_checkers()


def interposition_square(pos: Position, m: Move, ranged: SquareSet) -> int:
    """The checker's square if the defender move ``m`` interposes on its line, else 0.

    An interposition is a drop or a non-king board move onto a square strictly
    between the king and a piece checking it along a ride.
    """
    if not ranged:
        return 0
    k = pos.king_square(pos.turn)
    if k is None or m.from_square == k:
        return 0
    for c in ranged:
        if m.to_square in pos.t.between(c, k):
            return c
    return 0


def recaptures(pos: Position, checker: int, square: int) -> "Iterator[Position]":
    """After an interposition on ``square`` (attacker to move in ``pos``): for every
    legal check by which the piece on ``checker`` captures it, the position after
    that capture with the captured piece handed back to the defender."""
    for x in pos.checks():
        if x.from_square != checker or x.to_square != square:
            continue
        pos.push(x)
        taken = pos.last_capture()
        assert taken is not None
        back = handed_back(pos, pos.t.kind_letters.index(taken.kind))
        pos.pop()
        yield back


def handed_back(pos: Position, kind: int) -> Position:
    """A copy with one piece of kind index ``kind`` moved from the hand of the
    side not to move (the attacker, who just captured it) back to the side to
    move (the defender)."""
    defender = pos.turn
    hands = [pos.hand_counts(0), pos.hand_counts(1)]
    hands[defender ^ 1][kind] -= 1
    hands[defender][kind] += 1
    return pos.with_hands(hands)
