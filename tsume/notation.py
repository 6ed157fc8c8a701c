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
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import MoveError, PositionError, TsumeError, quote
from .tables import BLACK, WHITE, Tables, tables_for
from .variant import VARIANTS, Variant

__all__ = [
    "ParsedPosition",
    "parse_position",
    "parse_hands",
    "ascii_int",
    "is_ascii_digits",
    "format_board",
    "join_board",
    "format_hands",
    "parse_move",
    "format_move",
    "make_move",
]


def make_move(frm: int, to: int, face: int = 0) -> int:
    """The int of a board move (``face`` 0) or a drop (``frm`` 0)."""
    return frm | to << 7 | face << 14


@dataclass
class ParsedPosition:
    """The fields of a position string, checked for form but not yet for legality."""

    tables: Tables
    board: list[int]          # index 0 unused
    turn: int
    hands: list[list[int]]    # [colour][kind]
    move_number: int


#: The most digits a number in a position or move string may have.  No count,
#: square or move number comes near it; the bound keeps ``int()`` away from
#: Python's 4,300-digit limit and from huge ints.
MAX_DIGITS = 9


def is_ascii_digits(text: str) -> bool:
    """True if ``text`` is one or more of the digits 0-9 and nothing else.

    ``str.isdigit`` is not this test: it also accepts ``'²'`` and other
    scripts' digits, which ``int`` then refuses or reads.
    """
    return text.isascii() and text.isdigit()


def ascii_int(
    text: str, what: str, where: str = "", error: type[TsumeError] = PositionError, max_digits: int = MAX_DIGITS
) -> int:
    """The value of ``text``, a whole number written with 1..``max_digits`` ASCII digits.

    The one reader of every number a user types (board runs, hand counts, move
    numbers, move squares, a collection's lengths, the command line's counts).
    Anything else raises ``error`` with one line: ``"<where>: <what>: ..."``.
    """
    prefix = f"{where}: " if where else ""
    if not is_ascii_digits(text):
        raise error(f"{prefix}{what}: expected a whole number in the digits 0-9, got {quote(text)}{letter_o_hint(text)}")
    if len(text) > max_digits:
        raise error(f"{prefix}{what} has {len(text):,} digits (at most {max_digits})")
    return int(text)


def letter_o_hint(text: str) -> str:
    """A hint for the letter O typed for a zero, else ``""``."""
    return " (the letter O is not the digit 0)" if "O" in text or "o" in text else ""


# A board token: a run of empty squares, or a piece letter with its '+'.
_BOARD_TOKEN = re.compile(r"([0-9]+)|(\+?)([A-Za-z])")


def _unknown_letter(promoted: str, letter: str, variant: Variant) -> str | None:
    """Why ``promoted + letter`` is not a piece of ``variant``, or None if it is one."""
    for kind in variant.kinds:
        if kind.letter == letter.upper():
            if promoted and kind.promoted is None:
                return "cannot be promoted"
            return None
    return "unknown"


def _variant_hint(n: int, letters: list[str], variant: Variant) -> str:
    """Name the other built-in variants whose boards take ``n`` squares and these letters."""
    fits = [
        v for v in VARIANTS.values()
        if v.name != variant.name
        and v.min_length <= n <= v.max_length and v.board_length in (None, n)
        and all(_unknown_letter("", letter, v) is None for letter in letters)
    ]
    return "".join(f"; for {v.title} use --variant {v.name}" for v in fits)


def parse_position(text: object, variant: Variant) -> ParsedPosition:
    """Read a position string for ``variant``.  Raises :class:`PositionError`, a non-string included."""
    if not isinstance(text, str):
        raise PositionError(f"position must be a string, not {type(text).__name__}")
    fields = text.split()
    if len(fields) not in (3, 4):
        raise PositionError(
            f"position {quote(text.strip())}: expected '<board> <side> <hands> [<move number>]', "
            f"got {len(fields)} field{'s' if len(fields) != 1 else ''}"
        )
    board_field, side_field, hand_field = fields[:3]
    bad = re.search(r"[^0-9A-Za-z+]", board_field)
    if bad:
        raise PositionError(f"board: unexpected character {bad.group()!r} at column {bad.start() + 1}")
    bad = re.search(r"\+(?![A-Za-z])", board_field)
    if bad:
        raise PositionError(f"board: '+' at column {bad.start() + 1} must be followed by a piece letter")
    # (column, square, run of empty squares or 0, '+' or '', letter or '') per token
    tokens = []
    sq = 1
    for mt in _BOARD_TOKEN.finditer(board_field):
        run, promoted, letter = mt.groups()
        count = 0
        if run is not None:
            count = ascii_int(run, f"empty-square count at column {mt.start() + 1}", "board")
            if count == 0:
                raise PositionError(f"board: empty-square count 0 at column {mt.start() + 1}")
        tokens.append((mt.start() + 1, sq, count, promoted or "", letter or ""))
        sq += count or 1
    n = sq - 1
    letters = [letter for *_, letter in tokens if letter]
    unknown = next(
        (tok for tok in tokens if tok[4] and _unknown_letter(tok[3], tok[4], variant) is not None), None
    )
    hint = _variant_hint(n, letters, variant)
    fits = variant.min_length <= n <= variant.max_length and variant.board_length in (None, n)
    if not fits and (unknown is None or hint):
        if variant.board_length is not None:
            raise PositionError(f"board: {n} squares, but {variant.title} is played on {variant.board_length}{hint}")
        raise PositionError(
            f"board: {n} squares, but {variant.title} needs {variant.min_length} to {variant.max_length}{hint}"
        )
    if unknown is not None:
        col, sq, _, promoted, letter = unknown
        if _unknown_letter(promoted, letter, variant) == "cannot be promoted":
            raise PositionError(f"board: piece {letter!r} at column {col} (square {sq}) cannot be promoted")
        raise PositionError(
            f"board: unknown piece letter {letter!r} at column {col + len(promoted)} (square {sq}); "
            f"{variant.title} uses {''.join(k.letter for k in variant.kinds)}{letter_o_hint(letter)}{hint}"
        )
    t = tables_for(variant, n)
    letter_face = {t.face_letters[f]: f for f in range(1, len(t.face_letters))}
    board = [0] * (n + 1)
    for _, sq, count, promoted, letter in tokens:
        if letter:
            face = letter_face[promoted + letter.upper()]
            board[sq] = face << 1 | (BLACK if letter.isupper() else WHITE)

    if side_field not in ("b", "w"):
        raise PositionError(f"side to move: expected 'b' or 'w', got {quote(side_field)}")
    turn = BLACK if side_field == "b" else WHITE

    hands = parse_hands(hand_field, t)

    move_number = 1
    if len(fields) == 4:
        move_number = ascii_int(fields[3], "move number")
        if move_number < 1:
            raise PositionError(f"move number: expected a positive integer, got {quote(fields[3])}")
    return ParsedPosition(t, board, turn, hands, move_number)


def parse_hands(field: str, t: Tables) -> list[list[int]]:
    """Read a hands field (``-`` or e.g. ``2PTg``) into ``[colour][kind]`` counts.

    The one reader of hands (position strings and stated defender hands): a
    count above the set's number of that kind is refused here, before any
    table indexed by counts sees it.
    """
    hands = [[0] * t.nkinds, [0] * t.nkinds]
    if field == "-":
        return hands
    i = 0
    seen: set[tuple[int, int]] = set()
    while i < len(field):
        col = i + 1
        j = i
        while j < len(field) and "0" <= field[j] <= "9":
            j += 1
        count = ascii_int(field[i:j], f"count at column {col}", "hands") if j > i else 1
        if j >= len(field):
            raise PositionError(f"hands: count at column {col} is not followed by a piece letter")
        ch = field[j]
        if ch == "+":
            raise PositionError(f"hands: '+' at column {j + 1}: pieces in hand are always unpromoted")
        if not (ch.isascii() and ch.isalpha()):
            digit = " (not one of the digits 0-9)" if ch.isdigit() else ""
            raise PositionError(f"hands: unexpected character {ch!r} at column {j + 1}{digit}")
        if ch.upper() not in t.kind_letters:
            raise PositionError(
                f"hands: unknown piece letter {ch!r} at column {j + 1}; "
                f"{t.variant.title} uses {''.join(t.kind_letters)}{letter_o_hint(ch)}"
            )
        ki = t.kind_letters.index(ch.upper())
        if ki == t.royal_kind:
            raise PositionError(f"hands: a king cannot be in hand (column {j + 1})")
        if count == 0:
            raise PositionError(f"hands: count 0 for {ch!r} at column {col}")
        if count > t.kind_count[ki]:
            raise PositionError(
                f"hands: {count} {ch} at column {col}, but the {t.variant.title} set has "
                f"{t.kind_count[ki]} of kind {ch.upper()}"
            )
        colour = BLACK if ch.isupper() else WHITE
        if (colour, ki) in seen:
            raise PositionError(f"hands: {ch!r} listed twice (column {j + 1})")
        seen.add((colour, ki))
        hands[colour][ki] = count
        i = j + 1
    return hands


def join_board(tokens: Iterable[str]) -> str:
    """The board field from one token per square (``""`` for an empty
    square, else a piece such as ``K``, ``+p``): empty runs become numbers."""
    out = []
    empty = 0
    for tok in tokens:
        if not tok:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(tok)
    if empty:
        out.append(str(empty))
    return "".join(out)


def format_board(board: list[int], t: Tables) -> str:
    letters = t.face_letters
    return join_board("" if not v else letters[v >> 1] if v & 1 == BLACK else letters[v >> 1].lower()
                      for v in board[1:])


def format_hands(hands: list[list[int]], t: Tables) -> str:
    out = []
    for colour in (BLACK, WHITE):
        for ki, count in enumerate(hands[colour]):
            if count:
                letter = t.kind_letters[ki]
                out.append((str(count) if count > 1 else "") + (letter if colour == BLACK else letter.lower()))
    return "".join(out) or "-"


_MOVE_RE = re.compile(r"(?:([0-9]+)-([0-9]+)|(\+?)([A-Za-z])\*([0-9]+))")


def parse_move(text: object, t: Tables) -> int:
    """Read a move string (``19-18``, ``P*18``, ``+L*18``) into a move int.

    Only the form is checked here (squares on the board, a known droppable
    letter); :meth:`tsume.position.Position.parse_move` also checks legality.
    """
    if not isinstance(text, str):
        raise MoveError(f"move must be a string, not {type(text).__name__}")
    s = text.strip()
    mt = _MOVE_RE.fullmatch(s)
    where = f"move {quote(s)}"
    if not mt:
        raise MoveError(f"{where}: expected <from>-<to>, <L>*<to> or +<L>*<to>{letter_o_hint(s)}")
    if mt.group(1) is not None:
        frm = ascii_int(mt.group(1), "from-square", where, MoveError)
        to = ascii_int(mt.group(2), "to-square", where, MoveError)
        for what, sq in (("from", frm), ("to", to)):
            if not 1 <= sq <= t.n:
                raise MoveError(f"{where}: {what}-square {sq} is off the board (1..{t.n})")
        if frm == to:
            raise MoveError(f"{where}: from- and to-square are the same")
        return make_move(frm, to)
    promoted, letter = mt.group(3), mt.group(4).upper()
    to_s = ascii_int(mt.group(5), "square", where, MoveError)
    if not 1 <= to_s <= t.n:
        raise MoveError(f"{where}: square {to_s} is off the board (1..{t.n})")
    if letter not in t.kind_letters:
        raise MoveError(f"{where}: unknown piece letter {letter!r}{letter_o_hint(letter)}")
    ki = t.kind_letters.index(letter)
    if ki == t.royal_kind:
        raise MoveError(f"{where}: a king cannot be dropped")
    face = t.unpromoted_face[ki] + (1 if promoted else 0)
    if face not in t.drop_faces[ki]:
        raise MoveError(f"{where}: {t.variant.title} does not allow promoted-side-up drops")
    return make_move(0, to_s, face)


def format_move(m: int, t: Tables) -> str:
    """The move string of a move int."""
    frm = m & 127
    to = m >> 7 & 127
    if frm:
        return f"{frm}-{to}"
    return f"{t.face_letters[m >> 14]}*{to}"
