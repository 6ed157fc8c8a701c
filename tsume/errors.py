"""Exception types.  Every message is one line naming what is wrong and where.

``TsumeError`` (a ``ValueError``) is the base of every error raised for bad
input: ``VariantError``, ``PositionError``, ``MoveError`` (and its
``IllegalMoveError``) and ``ArgumentError``.
"""

from __future__ import annotations

__all__ = [
    "TsumeError",
    "VariantError",
    "PositionError",
    "MoveError",
    "IllegalMoveError",
    "ArgumentError",
    "quote",
]

#: How many characters of a user's text an error message quotes at most.
QUOTE_LIMIT = 40


# The classes are the engine's (created in the Rust crate, which raises them);
# this module is where the package names them.
from ._engine import (  # noqa: E402
    ArgumentError,
    IllegalMoveError,
    MoveError,
    PositionError,
    TsumeError,
    VariantError,
)


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters.

    Messages quote what the user wrote, which may be a megabyte long (and a
    4,300-digit number cannot even be printed as an int): a message stays one
    short line whatever the input, with the full length said when it was cut.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        # repr() of an int over 4,300 digits raises; its size is what matters anyway
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    text = _short_repr(value)
    return text if len(text) <= limit + 3 else text[:limit] + "..."


def _short_repr(value: object) -> str:
    """A bounded repr of any object (a huge list included), never raising."""
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = shortener.maxlong = QUOTE_LIMIT
    try:
        return shortener.repr(value)
    except Exception:  # a broken __repr__ of the caller's object must not hide the real error
        return f"<{type(value).__name__} object>"
