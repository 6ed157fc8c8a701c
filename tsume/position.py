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

``Position(text=None, variant=None, *, validate=True)`` reads a position
string (default: the variant's start position; the variant defaults to Ito).
It raises :class:`~tsume.errors.PositionError` for a string that cannot be
read, for anything but a string or None, and, with ``validate``, for a
position that cannot arise (too many pieces, two kings of a side, the side not
to move in check).  The engine reads the string (its messages point at the
column at fault).

>>> pos = Position.start()
>>> len(pos.legal_moves())
11
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ._engine import Position
from .tables import BLACK, WHITE

__all__ = ["Position", "BLACK", "WHITE", "COLOUR_NAMES", "iter_squares"]

COLOUR_NAMES: Final = ("Black", "White")


def iter_squares(mask: int) -> Iterator[int]:
    """The squares of a mask (bit ``s`` for square ``s``), lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
