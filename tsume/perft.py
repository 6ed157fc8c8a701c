"""Perft: count the leaf nodes of the legal move tree, making and unmaking every move.

The counting runs in the Rust engine (no bulk counting: leaves are made and
unmade too); it looks for Ctrl-C after every subtree of depth 2.
"""

from __future__ import annotations

from .arguments import check_depth
from .errors import ArgumentError
from .position import Position

__all__ = ["perft", "divide"]


def _checked(pos: object, depth: object) -> tuple[Position, int]:
    if not isinstance(pos, Position):
        raise ArgumentError(f"perft needs a Position, not {type(pos).__name__}")
    return pos, check_depth(depth)


def perft(pos: object, depth: object) -> int:
    """The number of move sequences of length ``depth`` (>= 0) from ``pos``.

    Every move, leaves included, is made and unmade (no bulk counting), and
    the game repetition rule applies when the variant has it.
    """
    p, d = _checked(pos, depth)
    return p.perft(d)


def divide(pos: object, depth: object) -> dict[str, int]:
    """Perft split by first move: ``{move string: count}`` (empty at depth 0)."""
    p, d = _checked(pos, depth)
    return {str(m): n for m, n in p.divide(d)}
