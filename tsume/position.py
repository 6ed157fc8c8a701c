"""The position: board, hands, side to move; make/unmake; attacks; legal moves.

:class:`Position` is the Rust engine's position (``tsume._engine``).  It is
mutable and cheap to copy.  Moves are ints (``from | to << 7 | face << 14``,
see :mod:`tsume.notation`); :meth:`Position.push` and :meth:`Position.pop`
make and unmake them and keep a Zobrist hash of board, hands and side to move
(:attr:`Position.hash`) and the hands' part of it (:attr:`Position.hand_hash`).

Generators, all returning lists of legal moves:

* ``legal_moves(repetition=None)`` -- every legal move, with the game
  repetition rule when the variant has it;
* ``checks()`` -- the legal moves that give check;
* ``evasions()`` -- the legal moves when in check.

``checks`` and ``evasions`` never apply the game repetition rule: the tsume
search has its own convention for repeated positions.

``Position(text=None, variant=ITO, *, validate=True)`` reads a position string
(default: the variant's start position).  It raises
:class:`~tsume.errors.PositionError` for a string that cannot be read, for
anything but a string or None, and, with ``validate``, for a position that
cannot arise (too many pieces, two kings of a side, the side not to move in
check).  The string is read here, in Python (:func:`parse_fields`), whose
messages point at the column at fault; everything else runs in Rust.

>>> pos = Position.start()
>>> len(pos.legal_moves())
11
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ._engine import Position, Tables
from .arguments import check_flag
from .errors import PositionError
from .notation import parse_position
from .tables import BLACK, WHITE
from .variant import ITO, get_variant

__all__ = ["Position", "BLACK", "WHITE", "COLOUR_NAMES", "parse_fields", "iter_squares"]

COLOUR_NAMES: Final = ("Black", "White")


def parse_fields(
    text: object = None, variant: object = ITO, *, validate: object = True
) -> tuple[Tables, list[int], int, list[list[int]], int, bool]:
    """What :class:`Position` is built from: ``(tables, board, turn, hands, move number, validate)``.

    ``board`` lists the squares from square 1.  The engine calls this with
    the arguments of ``Position(...)`` as given.
    """
    check = check_flag(validate, "validate")
    var = get_variant(variant)
    if text is None:
        if var.start is None:
            raise PositionError(f"{var.title} has no start position; give one")
        text = var.start
    parsed = parse_position(text, var)
    return parsed.tables, parsed.board[1:], parsed.turn, parsed.hands, parsed.move_number, check


def iter_squares(mask: int) -> Iterator[int]:
    """The squares of a mask (bit ``s`` for square ``s``), lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
