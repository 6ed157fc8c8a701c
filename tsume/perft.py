"""Perft: count the leaf nodes of the legal move tree, making and unmaking every move."""

from __future__ import annotations

from .arguments import check_depth
from .errors import ArgumentError
from .interrupt import check_signals
from .position import Position

__all__ = ["perft", "divide"]


def _checked(pos: object, depth: object) -> tuple[Position, int]:
    # The public functions take ``object`` so that compiled code reports a
    # wrong argument as a TsumeError, as the pure-Python engine does, not a TypeError.
    if not isinstance(pos, Position):
        raise ArgumentError(f"perft needs a Position, not {type(pos).__name__}")
    return pos, check_depth(depth)


def perft(pos: object, depth: object) -> int:
    """The number of move sequences of length ``depth`` (>= 0) from ``pos``.

    Every move, leaves included, is made and unmade (no bulk counting), and
    the game repetition rule applies when the variant has it.
    """
    return _perft(*_checked(pos, depth))


def _perft(pos: Position, depth: int) -> int:
    if depth <= 0:
        return 1
    n = 0
    # Calls to pos.push and pos.pop, not bound methods kept in locals: compiled,
    # those would be generic Python calls.
    if depth == 1:
        for m in pos.legal_moves():
            pos.push(m)
            n += 1
            pos.pop()
        return n
    for m in pos.legal_moves():
        pos.push(m)
        n += _perft(pos, depth - 1)
        pos.pop()
        if depth == 2:
            check_signals()  # compiled code never runs signal handlers by itself
    return n


def divide(pos: object, depth: object) -> dict[str, int]:
    """Perft split by first move: ``{move string: count}`` (empty at depth 0)."""
    p, d = _checked(pos, depth)
    out: dict[str, int] = {}
    if d == 0:
        return out
    for m in p.legal_moves():
        p.push(m)
        out[p.move_str(m)] = _perft(p, d - 1)
        p.pop()
    return out
