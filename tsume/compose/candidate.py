"""An editable tsume candidate and the canonical key of a problem.

A :class:`Candidate` is a position as tokens (one per square, ``""`` when
empty), the attacker's hand and the defender's hand rule: easy to edit (move,
add, lift, flip a piece), turned into a :class:`~tsume.position.Position`
only to be searched.  The attacker is always Black, as in every problem of
this toolkit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..conventions import tsume_position
from ..errors import TsumeError
from ..notation import join_board
from ..position import Position
from ..variant import get_variant

__all__ = ["Candidate", "canonical_key"]


@dataclass
class Candidate:
    """A tsume candidate: Black (the attacker) to move.

    ``board[1..n]`` holds tokens such as ``"K"``, ``"+p"`` or ``""``
    (``board[0]`` is unused); ``hand`` maps the attacker's uppercase kind
    letters to counts; ``defender`` is ``None`` (the defender holds the rest
    of the set) or ``"none"``.
    """

    variant: str
    board: list[str]
    hand: dict[str, int]
    defender: str | None = None

    @classmethod
    def from_position(cls, pos: Position, defender: str | None = None) -> "Candidate":
        """The candidate of ``pos`` (Black to move); the defender's hand is
        given by ``defender``, not read from ``pos``."""
        board = [""] + [p.symbol() if p else "" for p in pos.board()]
        letters = pos.t.kind_letters
        hand = {letters[ki]: c for ki, c in enumerate(pos.hand_counts(0)) if c}
        return cls(pos.variant.name, board, hand, defender)

    def copy(self) -> "Candidate":
        # type(self): a subclass stays itself.
        return type(self)(self.variant, self.board[:], dict(self.hand), self.defender)

    @property
    def n(self) -> int:
        """The board length."""
        return len(self.board) - 1

    def fen(self) -> str:
        """The position string (attacker's hand only, move number 1)."""
        hand = "".join((str(c) if c > 1 else "") + k for k, c in sorted(self.hand.items()) if c > 0) or "-"
        return f"{join_board(self.board[1:])} b {hand} 1"

    def position(self) -> Position | None:
        """The tsume position (defender's hand filled in), or None when the
        candidate is not a valid tsume: a bad position, no defender king, or
        the attacker in check."""
        try:
            pos = tsume_position(self.fen(), self.variant, defender_hand=self.defender)
        except TsumeError:
            return None
        return None if pos.is_check() else pos

    def squares(self, side: str) -> list[int]:
        """Squares of the men of ``side`` (``"attacker"`` or ``"defender"``), kings excluded."""
        upper = side == "attacker"
        return [s for s in range(1, self.n + 1)
                if self.board[s] and self.board[s].lstrip("+") not in ("K", "k")
                and self.board[s].lstrip("+").isupper() == upper]

    def king(self, side: str) -> int:
        """The square of ``side``'s king, 0 if it has none."""
        want = "K" if side == "attacker" else "k"
        return next((s for s in range(1, self.n + 1) if self.board[s] == want), 0)

    def pool(self) -> list[str]:
        """Uppercase letters of the set's pieces neither on the board nor in
        the attacker's hand (the defender's hand under "the rest"), kings aside."""
        counts = {k.letter.upper(): k.count for k in get_variant(self.variant).kinds if not k.royal}
        for tok in self.board[1:]:
            letter = tok[-1:].upper()
            if letter in counts:
                counts[letter] -= 1
        for k, c in self.hand.items():
            if k in counts:
                counts[k] -= c
        return [k for k, c in sorted(counts.items()) for _ in range(max(c, 0))]


def canonical_key(pos: Position) -> str:
    """What makes two problems the same: the variant, the board (with its
    length), both hands as the solver reads them (so "the rest" and the same
    hand written out are one problem) and the side to move.  The move number
    and how the position was written do not count.  A collection holds each
    *idea* once, a wider notion (:mod:`tsume.compose.idea`)."""
    return f"{pos.variant.spec} {pos.fen(move_number=False)}"
