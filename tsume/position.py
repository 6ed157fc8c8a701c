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
column at fault).  :func:`build_position` makes a position from its pieces
and hands, with no string written to be read back: what the composer and the
census build their positions with.

>>> pos = Position.start()
>>> len(pos.legal_moves())
11
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from ._engine import Colour, Move, Outcome, Piece, Position, Setup, SquareSet, Termination
from .tables import BLACK, WHITE

if TYPE_CHECKING:  # pragma: no cover
    from .variant import Variant

__all__ = ["Position", "Setup", "Move", "Piece", "Colour", "SquareSet", "Outcome", "Termination", "BLACK", "WHITE",
           "COLOUR_NAMES", "build_position"]

COLOUR_NAMES: Final = ("Black", "White")

# The empty board of each (variant spec, length): the one string read, once
# per process; every position built is a copy of it (with_changes).  Keyed by
# the spec: hashing a Variant walks all its fields.
_EMPTY: dict[tuple[str, int], Position] = {}


def build_position(variant: "Variant", n: int, pieces: Iterable[tuple[int, Piece]], hands: list[list[int]],
                   turn: Colour | int = BLACK, move_number: int = 1) -> Position:
    """The position of ``variant`` on ``n`` squares with ``pieces`` (``(square,
    Piece)``, every other square empty), ``hands`` (``[Black's counts,
    White's counts]`` in the order of ``Tables.kind_letters``) and ``turn``
    to move.  Not validated (:meth:`Position.validate`); a square off the
    board or two kings of a side raise :class:`~tsume.errors.PositionError`."""
    key = (variant.spec, n)
    empty = _EMPTY.get(key)
    if empty is None:
        empty = _EMPTY[key] = Position(f"{n} b - 1", variant, validate=False)
    return empty.with_changes(list(pieces), hands, turn, move_number)
