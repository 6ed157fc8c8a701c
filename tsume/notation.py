"""Reading and writing position and move strings (see docs/notation.md).

Position: ``<board> <side> <hands> [<move number>]``.  The board lists squares
1..N; uppercase is Black, lowercase White, ``+`` before a letter marks a
promoted piece and a number stands for that many empty squares.  Hands are
``-`` or SFEN-like (``2PTg``: Black two pawns and a tile general, White a goose).

Move: ``<from>-<to>`` for a board move, ``<L>*<to>`` for a drop and
``+<L>*<to>`` for a promoted-side-up drop (where the variant allows it).

Moves are ints: ``from | to << 7 | face << 14`` with ``from`` 0 for a drop and
``face`` the dropped face (0 for a board move).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import MoveError, PositionError
from .tables import BLACK, WHITE, Tables, tables_for
from .variant import Variant

__all__ = [
    "ParsedPosition",
    "parse_position",
    "format_board",
    "format_hands",
    "parse_move",
    "format_move",
    "make_move",
    "move_from",
    "move_to",
    "move_face",
]


def make_move(frm: int, to: int, face: int = 0) -> int:
    """The int of a board move (``face`` 0) or a drop (``frm`` 0)."""
    return frm | to << 7 | face << 14


def move_from(m: int) -> int:
    return m & 127


def move_to(m: int) -> int:
    return m >> 7 & 127


def move_face(m: int) -> int:
    return m >> 14


@dataclass
class ParsedPosition:
    """The fields of a position string, checked for form but not yet for legality."""

    tables: Tables
    board: list[int]          # index 0 unused
    turn: int
    hands: list[list[int]]    # [colour][kind]
    move_number: int


def _board_length(field: str) -> int:
    n = 0
    for num, piece in re.findall(r"(\d+)|(\+?[A-Za-z])", field):
        n += int(num) if num else 1
    return n


def parse_position(text: object, variant: Variant) -> ParsedPosition:
    """Read a position string for ``variant``.  Raises :class:`PositionError`, a non-string included."""
    if not isinstance(text, str):
        raise PositionError(f"position must be a string, not {type(text).__name__}")
    fields = text.split()
    if len(fields) not in (3, 4):
        raise PositionError(
            f"position {text.strip()!r}: expected '<board> <side> <hands> [<move number>]', "
            f"got {len(fields)} field{'s' if len(fields) != 1 else ''}"
        )
    board_field, side_field, hand_field = fields[:3]
    bad = re.search(r"[^0-9A-Za-z+]", board_field)
    if bad:
        raise PositionError(f"board: unexpected character {bad.group()!r} at column {bad.start() + 1}")
    bad = re.search(r"\+(?![A-Za-z])", board_field)
    if bad:
        raise PositionError(f"board: '+' at column {bad.start() + 1} must be followed by a piece letter")
    n = _board_length(board_field)
    if variant.board_length is not None and n != variant.board_length:
        raise PositionError(
            f"board: {n} squares, but {variant.title} is played on {variant.board_length}"
        )
    if not variant.min_length <= n <= variant.max_length:
        raise PositionError(
            f"board: {n} squares, but {variant.title} needs {variant.min_length} to {variant.max_length}"
        )
    t = tables_for(variant, n)
    letter_face = {t.face_letters[f]: f for f in range(1, len(t.face_letters))}
    board = [0] * (n + 1)
    sq = 1
    i = 0
    while i < len(board_field):
        ch = board_field[i]
        col = i + 1
        if ch.isdigit():
            j = i
            while j < len(board_field) and board_field[j].isdigit():
                j += 1
            count = int(board_field[i:j])
            if count == 0:
                raise PositionError(f"board: empty-square count 0 at column {col}")
            sq += count
            i = j
            continue
        promoted = ch == "+"
        if promoted:
            if i + 1 >= len(board_field) or not board_field[i + 1].isalpha():
                raise PositionError(f"board: '+' at column {col} must be followed by a piece letter")
            i += 1
            ch = board_field[i]
        key = ("+" if promoted else "") + ch.upper()
        face = letter_face.get(key)
        if face is None:
            if promoted and ch.upper() in letter_face:
                raise PositionError(f"board: piece {ch!r} at column {col} (square {sq}) cannot be promoted")
            raise PositionError(
                f"board: unknown piece letter {ch!r} at column {col} (square {sq}); "
                f"{variant.title} uses {''.join(t.kind_letters)}"
            )
        board[sq] = face << 1 | (BLACK if ch.isupper() else WHITE)
        sq += 1
        i += 1

    if side_field not in ("b", "w"):
        raise PositionError(f"side to move: expected 'b' or 'w', got {side_field!r}")
    turn = BLACK if side_field == "b" else WHITE

    hands = parse_hands(hand_field, t)

    move_number = 1
    if len(fields) == 4:
        if not fields[3].isdigit() or int(fields[3]) < 1:
            raise PositionError(f"move number: expected a positive integer, got {fields[3]!r}")
        move_number = int(fields[3])
    return ParsedPosition(t, board, turn, hands, move_number)


def parse_hands(field: str, t: Tables) -> list[list[int]]:
    """Read a hands field (``-`` or e.g. ``2PTg``) into ``[colour][kind]`` counts."""
    hands = [[0] * t.nkinds, [0] * t.nkinds]
    if field == "-":
        return hands
    i = 0
    seen: set[tuple[int, int]] = set()
    while i < len(field):
        col = i + 1
        j = i
        while j < len(field) and field[j].isdigit():
            j += 1
        count = int(field[i:j]) if j > i else 1
        if j >= len(field):
            raise PositionError(f"hands: count at column {col} is not followed by a piece letter")
        ch = field[j]
        if ch == "+":
            raise PositionError(f"hands: '+' at column {j + 1}: pieces in hand are always unpromoted")
        if not ch.isalpha():
            raise PositionError(f"hands: unexpected character {ch!r} at column {j + 1}")
        if ch.upper() not in t.kind_letters:
            raise PositionError(
                f"hands: unknown piece letter {ch!r} at column {j + 1}; "
                f"{t.variant.title} uses {''.join(t.kind_letters)}"
            )
        ki = t.kind_letters.index(ch.upper())
        if ki == t.royal_kind:
            raise PositionError(f"hands: a king cannot be in hand (column {j + 1})")
        if count == 0:
            raise PositionError(f"hands: count 0 for {ch!r} at column {col}")
        colour = BLACK if ch.isupper() else WHITE
        if (colour, ki) in seen:
            raise PositionError(f"hands: {ch!r} listed twice (column {j + 1})")
        seen.add((colour, ki))
        hands[colour][ki] = count
        i = j + 1
    return hands


def format_board(board: list[int], t: Tables) -> str:
    out = []
    empty = 0
    for v in board[1:]:
        if not v:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        letter = t.face_letters[v >> 1]
        out.append(letter if v & 1 == BLACK else letter.lower())
    if empty:
        out.append(str(empty))
    return "".join(out)


def format_hands(hands: list[list[int]], t: Tables) -> str:
    out = []
    for colour in (BLACK, WHITE):
        for ki, count in enumerate(hands[colour]):
            if count:
                letter = t.kind_letters[ki]
                out.append((str(count) if count > 1 else "") + (letter if colour == BLACK else letter.lower()))
    return "".join(out) or "-"


_MOVE_RE = re.compile(r"^(?:(\d+)-(\d+)|(\+?)([A-Za-z])\*(\d+))$")


def parse_move(text: str, t: Tables) -> int:
    """Read a move string (``19-18``, ``P*18``, ``+L*18``) into a move int.

    Only the form is checked here (squares on the board, a known droppable
    letter); :meth:`tsume.position.Position.parse_move` also checks legality.
    """
    s = text.strip()
    mt = _MOVE_RE.match(s)
    if not mt:
        raise MoveError(f"move {text!r}: expected <from>-<to>, <L>*<to> or +<L>*<to>")
    if mt.group(1) is not None:
        frm, to = int(mt.group(1)), int(mt.group(2))
        for what, sq in (("from", frm), ("to", to)):
            if not 1 <= sq <= t.n:
                raise MoveError(f"move {text!r}: {what}-square {sq} is off the board (1..{t.n})")
        if frm == to:
            raise MoveError(f"move {text!r}: from- and to-square are the same")
        return make_move(frm, to)
    promoted, letter, to_s = mt.group(3), mt.group(4).upper(), int(mt.group(5))
    if not 1 <= to_s <= t.n:
        raise MoveError(f"move {text!r}: square {to_s} is off the board (1..{t.n})")
    if letter not in t.kind_letters:
        raise MoveError(f"move {text!r}: unknown piece letter {letter!r}")
    ki = t.kind_letters.index(letter)
    if ki == t.royal_kind:
        raise MoveError(f"move {text!r}: a king cannot be dropped")
    face = t.unpromoted_face[ki] + (1 if promoted else 0)
    if face not in t.drop_faces[ki]:
        raise MoveError(f"move {text!r}: {t.variant.title} does not allow promoted-side-up drops")
    return make_move(0, to_s, face)


def format_move(m: int, t: Tables) -> str:
    """The move string of a move int."""
    frm = m & 127
    to = m >> 7 & 127
    if frm:
        return f"{frm}-{to}"
    return f"{t.face_letters[m >> 14]}*{to}"
