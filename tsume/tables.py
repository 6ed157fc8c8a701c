"""The engine's tables for one variant and board length.

The rules engine is the Rust crate in ``engine/`` (the extension module
``tsume._engine``); it builds its lookup tables from a variant's description
(:meth:`~tsume.variant.Variant.description`).  :func:`tables_for` caches them
per variant and length, so that positions of one game share them and compare
equal only to positions of the same game.

Pieces, moves and squares cross from the engine as values
(:class:`~tsume.position.Piece`, :class:`~tsume.position.Move`,
:class:`~tsume.position.SquareSet`); a hand is a list of counts in the order of
``Tables.kind_letters``.
"""

from __future__ import annotations

from typing import Final

from ._engine import Colour, Tables
from ._engine import tables_for as _tables_for
from .variant import Variant

__all__ = ["BLACK", "WHITE", "Tables", "tables_for"]

BLACK: Final = Colour.BLACK
WHITE: Final = Colour.WHITE


def tables_for(variant: Variant, n: int) -> Tables:
    """The engine's tables for ``variant`` on a board of ``n`` squares (made
    once per variant and length, and shared by every position of that game).

    Raises :class:`~tsume.errors.VariantError` for a description the engine
    cannot use or a length outside the variant's.
    """
    return _tables_for(variant, n)
