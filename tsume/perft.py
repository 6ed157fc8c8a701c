"""Perft: count the leaf nodes of the legal move tree, making and unmaking every move."""

from __future__ import annotations

from .interrupt import check_signals
from .position import Position

__all__ = ["perft", "divide"]


def perft(pos: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``pos``.

    Every move, leaves included, is made and unmade (no bulk counting), and
    the game repetition rule applies when the variant has it.
    """
    if depth <= 0:
        return 1
    n = 0
    push = pos.push
    pop = pos.pop
    if depth == 1:
        for m in pos.legal_moves():
            push(m)
            n += 1
            pop()
        return n
    for m in pos.legal_moves():
        push(m)
        n += perft(pos, depth - 1)
        pop()
        if depth == 2:
            check_signals()  # compiled code never runs signal handlers by itself
    return n


def divide(pos: Position, depth: int) -> dict[str, int]:
    """Perft split by first move: ``{move string: count}``."""
    out: dict[str, int] = {}
    for m in pos.legal_moves():
        pos.push(m)
        out[pos.move_str(m)] = perft(pos, depth - 1)
        pos.pop()
    return out
