"""Exception types.  Every message is one line naming what is wrong and where."""

from __future__ import annotations

__all__ = [
    "TsumeError",
    "VariantError",
    "PositionError",
    "MoveError",
    "IllegalMoveError",
]


class TsumeError(ValueError):
    """Base class of every error this package raises for bad input."""


class VariantError(TsumeError):
    """An unknown variant, switch or malformed variant description."""


class PositionError(TsumeError):
    """A position string that cannot be read or describes an impossible position."""


class MoveError(TsumeError):
    """A move string that cannot be read."""


class IllegalMoveError(MoveError):
    """A well-formed move that is not legal in the position."""
