"""Tsume conventions shared by every solver: the problem set-up, interpositions, hand counts.

See docs/solver.md.  A tsume position has the attacker to move.  The
defender holds every piece of the set that is neither on the board nor in the
attacker's hand, unless the problem states the defender's hand.
"""

from __future__ import annotations

from collections.abc import Iterator

from .arguments import check_defender_hand
from .errors import PositionError
from .position import COLOUR_NAMES, Position
from .variant import Variant, get_variant

__all__ = [
    "tsume_position",
    "ranged_checkers",
    "interposition_square",
    "handed_back",
    "recaptures",
    "hand_count",
]


def tsume_position(
    text: object,
    variant: object = "ito",
    *,
    defender_hand: object = None,
) -> Position:
    """The position of a tsume: attacker to move, defender's hand filled in.

    ``defender_hand``: ``None`` -- as the position string says, and if it
    names no defender piece, the rest of the set; ``"rest"`` -- the rest of the
    set; ``"none"`` -- nothing; or explicit letters such as ``"2PT"`` (case
    ignored).  Raises :class:`~tsume.errors.PositionError` if the defender has
    no king, or the stated hand exceeds the set, and a
    :class:`~tsume.errors.TsumeError` for any argument of the wrong type.
    """
    # The arguments are ``object`` so that compiled code reports a wrong type
    # as a TsumeError, as the pure-Python engine does, not a TypeError.
    var = get_variant(variant)
    mode = check_defender_hand(defender_hand)
    pos = text.copy() if isinstance(text, Position) else Position(text, var)
    t = pos.t
    attacker = pos.turn
    defender = attacker ^ 1
    if not pos.kings[defender]:
        raise PositionError(f"the defender ({COLOUR_NAMES[defender]}) has no king on the board")
    if mode is None:
        mode = "rest" if not any(pos.hands[defender]) else "as-given"
    elif mode.strip().lower() in ("rest", "none"):
        mode = mode.strip().lower()
    if mode == "rest":
        pos.hands[defender] = rest_of_set(pos)
    elif mode == "none":
        pos.hands[defender] = [0] * t.nkinds
    elif mode != "as-given":
        from .notation import parse_hands

        letters = mode.strip()
        field = letters.upper() if defender == 0 else letters.lower()
        hands = parse_hands(field or "-", t)
        pos.hands[defender] = hands[defender]
    pos._rebuild()
    pos._validate()
    return pos


def rest_of_set(pos: Position) -> list[int]:
    """Per kind, the pieces of the set neither on the board nor in the side to move's hand."""
    t = pos.t
    counts = [t.kind_count[ki] if ki != t.royal_kind else 0 for ki in range(t.nkinds)]
    for s in range(1, t.n + 1):
        v = pos.board[s]
        if v and not t.royal[v]:
            counts[t.face_kind[v >> 1]] -= 1
    for ki in range(t.nkinds):
        counts[ki] -= pos.hands[pos.turn][ki]
    return [max(0, c) for c in counts]


def hand_count(pos: Position, colour: int) -> int:
    """How many pieces a colour holds in hand."""
    return sum(pos.hands[colour])


def ranged_checkers(pos: Position) -> int:
    """Mask of the pieces checking the side to move along a ride (not by a leap)."""
    return pos.ride_checkers()


def interposition_square(pos: Position, m: int, ranged: int) -> int:
    """The checker's square if the defender move ``m`` interposes on its line, else 0.

    An interposition is a drop or a non-king board move onto a square strictly
    between the king and a piece checking it along a ride.
    """
    if not ranged:
        return 0
    k = pos.kings[pos.turn]
    frm = m & 127
    if frm == k:
        return 0
    to = m >> 7 & 127
    between = pos.t.between
    while ranged:
        low = ranged & -ranged
        ranged ^= low
        c = low.bit_length() - 1
        if between[c][k] >> to & 1:
            return c
    return 0


def recaptures(pos: Position, checker: int, square: int) -> "Iterator[Position]":
    """After an interposition on ``square`` (attacker to move in ``pos``): for every
    legal check by which the piece on ``checker`` captures it, the position after
    that capture with the captured piece handed back to the defender."""
    for x in pos.checks():
        if x & 127 != checker or x >> 7 & 127 != square:
            continue
        pos.push(x)
        kind = pos.t.hand_kind[pos._stack[-1][1]]
        back = handed_back(pos, kind)
        pos.pop()
        yield back


def handed_back(pos: Position, kind: int) -> Position:
    """A copy with one piece of ``kind`` moved from the hand of the side not to move
    (the attacker, who just captured it) back to the side to move (the defender)."""
    p = pos.copy()
    attacker = p.turn ^ 1
    p.hands[attacker][kind] -= 1
    p.hands[p.turn][kind] += 1
    p._rebuild()
    return p
