"""When two problems are the same idea, so that a collection holds each once.

Two problems are **the same idea** when any of these holds:

1. **the same board and attacker's hand**: the variant, every man on its
   square, the board's length and the attacker's hand are the same, whatever
   the defender holds -- a problem and its ``defender:`` variant ("the rest"
   against "none", or a hand written out) are one idea, and so are two
   identical problems however they are written;
2. **the same main line up to a shift along the board**: the two solutions
   are the same moves, piece for piece, once every square of one is moved by
   the same number of squares (the boards' lengths may differ) -- one idea
   played elsewhere on the board;
3. **the same shape**: the rating's shape hash is the same
   (:func:`tsume.compose.rating.shape_hash`: the solution tree, main line and
   variations, labelled by kind of move and piece, never by square) -- the
   same play on other squares, whatever the pieces that stand by.

:func:`idea_keys` turns a problem into one key per criterion it can be judged
by (a problem without a stated solution or rating has no key of criteria 2
or 3), and :class:`Ideas` says whether a key was met before and where.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..collection import Problem
from ..problem import Problem as Tsume
from .candidate import Candidate

__all__ = ["Ideas", "idea_keys", "candidate_keys", "problem_keys", "line_key", "CRITERIA"]

#: The criteria, as the keys name them (module docstring, in order).
CRITERIA = {"board": "the same board and attacker's hand", "line": "the same main line shifted along the board",
            "shape": "the same solution shape"}

_NUMBER = re.compile(r"[0-9]+")


def line_key(solution: Iterable[str]) -> str | None:
    """The main line with its squares counted from the lowest it names (0):
    equal for two lines that differ by a shift along the board (None for no
    line)."""
    moves = list(solution)
    numbers = [int(n) for m in moves for n in _NUMBER.findall(m)]
    if not numbers:
        return None
    low = min(numbers)
    return " ".join(_NUMBER.sub(lambda n: str(int(n.group()) - low), m) for m in moves)


def idea_keys(variant: str, position: str, defender: str | None, solution: Iterable[str] | None = None,
              shape: str | None = None) -> list[str]:
    """The keys of a problem, one per criterion it can be judged by (module
    docstring)."""
    pos = Tsume(position, variant=variant, defender=defender).position()
    return candidate_keys(Candidate.from_position(pos, defender), solution, shape)


def candidate_keys(c: Candidate, solution: Iterable[str] | None = None, shape: str | None = None) -> list[str]:
    """The keys of the problem candidate ``c`` states, with its main line
    ``solution`` and its rating's ``shape`` (:func:`idea_keys`)."""
    spec = c.pos.variant.spec
    # Candidate.fen() writes the board and the attacker's hand only.
    keys = [f"board {spec} {c.fen()}"]
    line = line_key(solution or ())
    if line is not None:
        keys.append(f"line {spec} {line}")
    if shape:
        keys.append(f"shape {spec} {shape}")
    return keys


def problem_keys(p: Problem) -> list[str]:
    """The keys of a collection's problem, from what its file states: the
    position, the defender's hand, ``solution:`` and the rating's ``shape``."""
    return idea_keys(p.variant, p.position, p.defender, p.solution, p.fields("rating").get("shape"))


class Ideas:
    """The ideas met so far, each with the name of the problem that brought it."""

    def __init__(self) -> None:
        self._owner: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._owner)

    def match(self, keys: Iterable[str]) -> tuple[str, str] | None:
        """``(criterion, owner)`` of the first key met before, else None."""
        for k in keys:
            if k in self._owner:
                return k.split(" ", 1)[0], self._owner[k]
        return None

    def add(self, keys: Iterable[str], owner: str) -> None:
        """Record ``keys`` as ``owner``'s (a key met before keeps its first owner)."""
        for k in keys:
            self._owner.setdefault(k, owner)
