"""The stretch: men slid along the one file, so that a line plays longer.

On a one-file board what makes a king walk long is room: the squares
between the king and the edge it is driven to, and the space behind the men
that drive it.  The climb (:mod:`tsume.compose.climb`) adds plies at the
front of a problem two at a time and never moves the men it keeps; the
stretch moves them.  A board is its men in order with **runs** of empty
squares between them (before the first and after the last too); a stretch
takes ``d`` empty squares out of one run and puts them into another, which
slides every man between the two runs ``d`` squares along, the board
otherwise unchanged.  On a board whose length is free (Rutherford's) a run
may also grow or shrink alone, which lengthens or shortens the board.

Sliding by one or two squares finds the neighbours of a problem; sliding
by a whole run moves a group of men as far as it goes, which is how a
13-ply walk becomes a 45-ply one in one step (docs/compose.md).
"""

from __future__ import annotations

from ..position import Piece
from .candidate import Candidate

__all__ = ["runs", "stretches"]


def runs(board: list[Piece | None]) -> tuple[list[Piece], list[int]]:
    """A board (``board[s - 1]``: square ``s``) as its men in order and the
    runs of empty squares around them: ``len(men) + 1`` runs, the first
    before the first man, the last after the last one."""
    men: list[Piece] = []
    gaps = [0]
    for p in board:
        if p is None:
            gaps[-1] += 1
        else:
            men.append(p)
            gaps.append(0)
    return men, gaps


def _board(men: list[Piece], gaps: list[int]) -> tuple[int, list[tuple[int, Piece]]]:
    """The board length and the men's squares of :func:`runs`' inverse."""
    square = 0
    placed = []
    for gap, man in zip(gaps, men):
        square += gap + 1
        placed.append((square, man))
    return square + gaps[-1], placed


def _amounts(room: int) -> list[int]:
    """How far a slide out of a run of ``room`` squares goes: one, two, or
    the whole run."""
    return sorted({d for d in (1, 2, room) if 1 <= d <= room})


def stretches(c: Candidate) -> list[Candidate]:
    """Every stretch of ``c`` (module docstring), each once, in a fixed
    order; the attacker's hand and the defender's hand rule stay.  Some may
    be no valid problem (a piece left where it cannot move): the filters
    say so."""
    v = c.pos.variant
    men, gaps = runs(c.pos.board())
    if not men:
        return []
    shapes: list[list[int]] = []
    for a, room in enumerate(gaps):
        for d in _amounts(room):
            for b in range(len(gaps)):
                if b != a:
                    shape = list(gaps)
                    shape[a] -= d
                    shape[b] += d
                    shapes.append(shape)
    if v.board_length is None:
        # A board of free length: a run grows (up to the longest board) or
        # shrinks (down to the shortest) on its own.
        for a, room in enumerate(gaps):
            for d in _amounts(v.max_length - c.n):
                shapes.append([g + d if i == a else g for i, g in enumerate(gaps)])
            for d in _amounts(min(room, c.n - v.min_length)):
                shapes.append([g - d if i == a else g for i, g in enumerate(gaps)])
    out: dict[str, Candidate] = {}
    hand = c.hand_counts()
    for shape in shapes:
        n, placed = _board(men, shape)
        child = Candidate.build(v, n, placed, hand, c.defender, c.rule)
        out.setdefault(child.fen(), child)
    return list(out.values())
