"""Helpers shared by the hand-checked rule tests: build positions, list moves."""

from __future__ import annotations

from tsume import Position


def board(pieces: dict[int, str], n: int) -> str:
    """A board field of ``n`` squares with ``pieces`` ({square: letter}) and the rest empty."""
    out: list[str] = []
    empty = 0
    for s in range(1, n + 1):
        p = pieces.get(s)
        if p is None:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(p)
    if empty:
        out.append(str(empty))
    return "".join(out)


def moves(p: Position, **kw) -> set[str]:
    return {str(m) for m in p.legal_moves(**kw)}


def moves_from(p: Position, sq: int, **kw) -> set[str]:
    return {s for s in moves(p, **kw) if "-" in s and s.split("-")[0] == str(sq)}


def drops(p: Position, **kw) -> set[str]:
    # The rules do not fix the letter case of a White drop; compare uppercase.
    return {s.upper() for s in moves(p, **kw) if "*" in s}


def targets(sq: int, tos) -> set[str]:
    return {f"{sq}-{t}" for t in tos}
