"""The position: board, hands, side to move; make/unmake; attacks; legal moves.

:class:`Position` is the Rust engine's position (``tsume._engine``).  It is
mutable and cheap to copy.  What crosses from the engine are values, as in
python-chess: a :class:`Move` (``str(move)`` is its move string, ``19-18``,
``P*18``), a :class:`Piece` (letter, name, colour), a :class:`Colour`
(:data:`BLACK`, :data:`WHITE`), a :class:`SquareSet`, an :class:`Outcome`.
:meth:`Position.push` and :meth:`Position.pop` make and unmake moves and keep
a Zobrist hash of board, hands and side to move (:attr:`Position.hash`) and
the hands' part of it (:attr:`Position.hand_hash`).

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

from typing import Final

from ._engine import Colour, Move, Outcome, Piece, Position, Setup, SquareSet, Termination
from .tables import BLACK, WHITE

__all__ = ["Position", "Setup", "Move", "Piece", "Colour", "SquareSet", "Outcome", "Termination", "BLACK", "WHITE",
           "COLOUR_NAMES"]

COLOUR_NAMES: Final = ("Black", "White")
