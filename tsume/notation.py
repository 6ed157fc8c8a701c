"""Numbers and boards as users type them; the strings themselves are the engine's.

Position, hand and move strings (docs/notation.md) are read and written by
the engine, whose messages point at the column at fault:
``Position(text)``, ``Setup(text)`` (the fields, not yet validated),
``Tables.read_hands``, ``Tables.read_move`` and ``Position.parse_move``.
This module keeps the reader of the other numbers a user types (a
collection's lengths, the command line's counts) and the joining of a board
field from one token per square (the studio's editor).
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import PositionError, TsumeError, quote

__all__ = ["ascii_int", "is_ascii_digits", "letter_o_hint", "join_board", "MAX_DIGITS"]


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

