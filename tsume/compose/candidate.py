"""A tsume candidate and the canonical key of a problem.

A :class:`Candidate` holds a :class:`~tsume.position.Position` -- the board
and the attacker's hand, Black (the attacker) to move -- and the rule that
fills the defender's hand in.  It is edited as the engine edits positions
(:meth:`Candidate.changed`, :meth:`Candidate.build`) and searched as the
:class:`~tsume.problem.Problem` it states (:meth:`Candidate.problem`): no
position string is written to be read back.  Its position string
(:meth:`Candidate.fen`) is written only for what leaves the composer: a
collection's record, a parent kept in the run's state.  The attacker is
always Black, as in every problem of this toolkit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from ..errors import TsumeError
from ..position import BLACK, WHITE, Piece, Position, build_position
from ..problem import NONE, REST, DefenderHand, Problem, rest_of_set
from ..variant import Variant

__all__ = ["Candidate", "canonical_key"]

# A Candidate.changed() argument left out.
_KEEP: Final = object()


def _rule(pos: Position, defender: str | None) -> DefenderHand:
    """The defender's hand rule ``defender`` as written (None, ``"rest"``,
    ``"none"`` or letters such as ``"2pt"``), read once, where a candidate
    comes in."""
    if defender is None or defender.strip().lower() == "rest":
        return REST
    if defender.strip().lower() == "none":
        return NONE
    counts = pos.t.read_hands(defender.strip().lower())[WHITE]
    return DefenderHand("given", tuple(counts), defender.strip())


@dataclass(frozen=True)
class Candidate:
    """A tsume candidate: Black (the attacker) to move.

    ``pos`` holds the board and the attacker's hand (the defender's hand
    empty, move number 1); ``defender`` is the defender's hand rule as the
    records write it: ``None`` (the rest of the set), ``"none"`` or the
    pieces it holds (``"2pt"``); ``rule`` is the same, read
    (:class:`~tsume.problem.DefenderHand`; made from ``defender`` when not
    given).  Immutable: :meth:`changed` makes an edited copy.
    """

    pos: Position
    defender: str | None = None
    rule: DefenderHand = field(default=REST, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.defender is not None and self.rule is REST:
            object.__setattr__(self, "rule", _rule(self.pos, self.defender))

    @classmethod
    def from_position(cls, pos: Position, defender: str | None = None,
                      rule: DefenderHand | None = None) -> "Candidate":
        """The candidate of ``pos``'s board and Black's hand; the defender's
        hand is given by ``defender`` (and ``rule``, when the caller has it
        read), not read from ``pos``."""
        hands = [pos.hand_counts(BLACK), [0] * pos.t.nkinds]
        return cls(pos.with_changes([], hands, BLACK, 1), defender, _rule(pos, defender) if rule is None else rule)

    @classmethod
    def build(cls, variant: Variant, n: int, pieces: Iterable[tuple[int, Piece]], hand: list[int],
              defender: str | None = None, rule: DefenderHand | None = None) -> "Candidate":
        """The candidate of ``n`` squares holding ``pieces`` (``(square,
        Piece)``), the attacker holding ``hand`` (counts in the order of
        ``Tables.kind_letters``)."""
        pos = build_position(variant, n, pieces, [hand, [0] * len(hand)])
        return cls(pos, defender, _rule(pos, defender) if rule is None else rule)

    def changed(self, squares: Iterable[tuple[int, Piece | None]] = (), hand: list[int] | None = None,
                defender: "str | None | object" = _KEEP) -> "Candidate":
        """A copy with ``squares`` changed (``(square, Piece or None)``), the
        attacker's hand ``hand`` (counts, when given) and the rule
        ``defender`` (when given: None or ``"none"``)."""
        counts = self.hand_counts() if hand is None else hand
        pos = self.pos.with_changes(list(squares), [counts, [0] * len(counts)], BLACK, 1)
        if defender is _KEEP:
            return Candidate(pos, self.defender, self.rule)
        assert defender is None or isinstance(defender, str)
        return Candidate(pos, defender, _rule(pos, defender))

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.pos.variant.name

    @property
    def n(self) -> int:
        """The board length."""
        return self.pos.n

    def hand_counts(self) -> list[int]:
        """The attacker's hand: a count per kind, in the order of ``Tables.kind_letters``."""
        return self.pos.hand_counts(BLACK)

    @property
    def hand(self) -> dict[str, int]:
        """The attacker's hand: uppercase kind letters to counts (none zero)."""
        return {letter: c for letter, c in zip(self.pos.t.kind_letters, self.hand_counts()) if c}

    def fen(self) -> str:
        """The position string (the attacker's hand only, its kinds in
        alphabetical order, move number 1): what a record holds."""
        hand = "".join((str(c) if c > 1 else "") + k for k, c in sorted(self.hand.items())) or "-"
        return f"{self.pos.t.board_string(self.pos.board())} b {hand} 1"

    def problem(self) -> Problem | None:
        """The problem this candidate states (the defender's hand filled in by
        its rule), or None when it is no valid tsume: a bad position, no
        defender king, or the attacker in check."""
        return self._problem

    @cached_property
    def _problem(self) -> Problem | None:
        # Made once: every filter asks for it.
        try:
            problem = Problem(self.pos, defender=self.rule)
        except TsumeError:
            return None
        return None if problem.position().is_check() else problem

    def position(self) -> Position | None:
        """The tsume position (the defender's hand filled in; a copy of its
        own), or None when the candidate is no valid tsume (:meth:`problem`)."""
        problem = self._problem
        return None if problem is None else problem.position()

    def squares(self, side: str) -> list[int]:
        """Squares of the men of ``side`` (``"attacker"`` or ``"defender"``), kings excluded, in order."""
        colour = BLACK if side == "attacker" else WHITE
        return [s for s, p in enumerate(self.pos.board(), 1) if p is not None and not p.royal and p.colour == colour]

    def king(self, side: str) -> int:
        """The square of ``side``'s king, 0 if it has none."""
        return self.pos.king_square(BLACK if side == "attacker" else WHITE) or 0

    def pool(self) -> list[str]:
        """Uppercase letters of the set's pieces neither on the board nor in
        the attacker's hand (the defender's hand under "the rest"), kings
        aside, in alphabetical order."""
        return [letter for letter, c in sorted(zip(self.pos.t.kind_letters, rest_of_set(self.pos))) for _ in range(c)]


def canonical_key(pos: Position) -> str:
    """What makes two problems the same: the variant, the board (with its
    length), both hands as the solver reads them (so "the rest" and the same
    hand written out are one problem) and the side to move.  The move number
    and how the position was written do not count.  A collection holds each
    *idea* once, a wider notion (:mod:`tsume.compose.idea`)."""
    return f"{pos.variant.spec} {pos.fen(move_number=False)}"
