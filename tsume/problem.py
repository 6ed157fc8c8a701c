"""A tsume problem as one value: :class:`Problem` (position, variant, defender's hand, stated length and solution).

A position string alone does not say what the defender holds: an empty
defender hand in ``k1P2H25 b G`` means "the rest of the set" by the
convention of docs/solver.md, while a problem may state that the defender
holds nothing (``defender: none``) or given pieces.  A :class:`Problem`
settles that once, when it is made, and keeps it: its position is the tsume
as the solvers read it (attacker to move, the defender's hand filled in),
and its :class:`DefenderHand` says which rule filled it.  Every entry point
(``solve``, ``verify``, ``sound_report``, ``sat_solve``, ``play_tree``)
takes a Problem and nothing else, so no caller below the one that read the
user's input decides the defender's hand again::

    >>> from tsume import Problem, solve
    >>> p = Problem("f3k1t2+HK6C13 b H 1", defender="none")
    >>> p.defender, p.fen
    (DefenderHand('none'), 'f3k1t2+HK6C13 b H 1')
    >>> solve(p).length
    15

A collection's record makes its problem with
:meth:`tsume.collection.Record.problem`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .arguments import check_defender_hand, check_max_length, check_solution
from .errors import ArgumentError, PositionError, quote
from .position import BLACK, COLOUR_NAMES, Position
from .variant import Variant, get_variant

__all__ = ["Problem", "DefenderHand", "REST", "NONE", "require_problem", "rest_of_set"]


class DefenderHand:
    """What the defender holds in hand: the rest of the set (:data:`REST`),
    nothing (:data:`NONE`), or given pieces (:meth:`held`).

    ``rule`` is ``"rest"``, ``"none"`` or ``"given"``; for ``"given"``,
    ``counts`` holds the number of each kind, in the variant's kind order,
    and ``str()`` the pieces as a hand string (``2PT``).  Immutable."""

    __slots__ = ("rule", "counts", "_letters")

    rule: str
    counts: tuple[int, ...]
    _letters: str

    def __init__(self, rule: str, counts: tuple[int, ...] = (), letters: str = "") -> None:
        if rule not in ("rest", "none", "given") or (rule == "given") != bool(letters):
            raise ArgumentError(f"a defender's hand is 'rest', 'none' or given pieces, not {rule!r}")
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "counts", tuple(counts))
        object.__setattr__(self, "_letters", letters)

    @classmethod
    def held(cls, pos: Position) -> "DefenderHand":
        """The hand the defender (the side not to move) holds in ``pos``, as
        given pieces (:data:`NONE` when it holds nothing)."""
        counts = tuple(pos.hand_counts(pos.turn ^ 1))
        if not any(counts):
            return NONE
        return cls("given", counts, pos.hand_string(pos.turn ^ 1))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a DefenderHand is immutable")

    def __str__(self) -> str:
        return self._letters if self.rule == "given" else self.rule

    def __repr__(self) -> str:
        return f"DefenderHand({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DefenderHand) and (self.rule, self.counts) == (other.rule, other.counts)

    def __hash__(self) -> int:
        return hash((self.rule, self.counts))

    def __reduce__(self) -> tuple:
        return (DefenderHand, (self.rule, self.counts, self._letters))


#: The defender holds every piece of the set that is neither on the board nor
#: in the attacker's hand (the default when a position names no defender piece).
REST: Final = DefenderHand("rest")
#: The defender holds nothing.
NONE: Final = DefenderHand("none")


def rest_of_set(pos: Position) -> list[int]:
    """Per kind, the pieces of the set neither on the board nor in the side to move's hand."""
    t = pos.t
    counts = [t.kind_count[ki] if ki != t.royal_kind else 0 for ki in range(t.nkinds)]
    kinds = t.kind_letters
    for piece in pos.board():
        if piece is not None and not piece.royal:
            counts[kinds.index(piece.kind)] -= 1
    hand = pos.hand_counts(pos.turn)
    for ki in range(t.nkinds):
        counts[ki] -= hand[ki]
    return [max(0, c) for c in counts]


def _read_rule(defender: object) -> "DefenderHand | str | None":
    """The defender option as given: None, a DefenderHand, or a word or letters."""
    if defender is None or isinstance(defender, DefenderHand):
        return defender
    text = check_defender_hand(defender)
    assert text is not None
    word = text.strip().lower()
    return REST if word == "rest" else NONE if word == "none" else text.strip()


# A Problem.replace() argument left out.
_KEEP: Final = object()


class Problem:
    """A tsume: its position with the attacker to move and the defender's hand
    filled in, its variant, the rule that filled the hand, and the length and
    solution the problem states (None if it states none).  Immutable,
    hashable and picklable.

    ``position`` is a position string or a :class:`~tsume.position.Position`
    (attacker to move).  ``variant`` (a name such as ``"ito"`` or
    ``"rutherford:repetition=off"``, or a Variant) defaults to the
    Position's own, else Ito; a Position of another variant is refused.
    ``defender`` is what the defender holds: ``"rest"`` (the rest of the
    set), ``"none"``, letters such as ``"2PT"`` (case ignored), or a
    :class:`DefenderHand`; None (the default) takes the pieces the position
    names for the defender, or the rest of the set when it names none.
    ``length`` is the stated length in plies and ``solution`` the intended
    main line (a sequence of move strings, kept as a tuple), which
    ``verify()`` compares with what it proves.

    Raises :class:`~tsume.errors.PositionError` for a position that cannot
    be read or is no tsume (no defender king, the side not to move in check,
    more pieces than the set holds with the defender's hand) and another
    :class:`~tsume.errors.TsumeError` for an argument of the wrong type.
    """

    __slots__ = ("_position", "_defender", "_length", "_solution")

    _position: Position
    _defender: DefenderHand
    _length: int | None
    _solution: tuple[str, ...] | None

    def __init__(
        self,
        position: "str | Position",
        *,
        variant: "Variant | str | None" = None,
        defender: "DefenderHand | str | None" = None,
        length: int | None = None,
        solution: Sequence[str] | None = None,
    ) -> None:
        rule = _read_rule(defender)
        stated = check_max_length(length, "length")
        moves = check_solution(solution)
        if isinstance(position, Position):
            if variant is not None and get_variant(variant).spec != position.variant.spec:
                raise ArgumentError(f"the position is of variant {position.variant.spec!r}, "
                                    f"not {get_variant(variant).spec!r}")
            pos = position.copy()
        else:
            pos = Position(position, get_variant("ito" if variant is None else variant))
        defender_colour = pos.turn ^ 1
        if pos.king_square(defender_colour) is None:
            raise PositionError(f"the defender ({COLOUR_NAMES[defender_colour]}) has no king on the board")
        if rule is None:
            rule = DefenderHand.held(pos) if any(pos.hand_counts(defender_colour)) else REST
        if isinstance(rule, str):  # letters, read as the defender's
            field = rule.upper() if defender_colour == BLACK else rule.lower()
            counts = pos.t.read_hands(field or "-")[defender_colour]
        elif rule == REST:
            counts = rest_of_set(pos)
        elif rule == NONE:
            counts = [0] * pos.t.nkinds
        else:
            counts = list(rule.counts)
            if len(counts) != pos.t.nkinds:
                raise ArgumentError(f"the defender's hand {rule} is not of a {pos.variant.title} set")
        hands = [pos.hand_counts(0), pos.hand_counts(1)]
        hands[defender_colour] = list(counts)
        pos = pos.with_hands(hands)
        pos.validate()
        object.__setattr__(self, "_position", pos)
        object.__setattr__(self, "_defender", rule if isinstance(rule, DefenderHand) and rule.rule != "given"
                           else DefenderHand.held(pos))
        object.__setattr__(self, "_length", stated)
        object.__setattr__(self, "_solution", moves)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Problem is immutable; replace() makes a changed copy")

    # --- what it holds ------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self._position.variant

    @property
    def defender(self) -> DefenderHand:
        """The rule that filled the defender's hand."""
        return self._defender

    @property
    def length(self) -> int | None:
        """The stated length in plies, if the problem states one."""
        return self._length

    @property
    def solution(self) -> tuple[str, ...] | None:
        """The intended main line as move strings, if the problem states one."""
        return self._solution

    @property
    def fen(self) -> str:
        """The position string of the tsume, the defender's hand written out
        (what the solvers print as the position)."""
        return self._position.fen()

    def position(self) -> Position:
        """The tsume as a new :class:`~tsume.position.Position`: the attacker
        to move, the defender's hand filled in.  Yours to change: the problem
        keeps its own."""
        return self._position.copy()

    def replace(self, *, defender: "DefenderHand | str | object" = _KEEP,
                length: "int | None | object" = _KEEP, solution: "Sequence[str] | None | object" = _KEEP) -> "Problem":
        """A copy with another defender's hand (``"rest"``, ``"none"``,
        letters or a :class:`DefenderHand`), another stated length or another
        stated solution (None: none)."""
        if defender is None:
            raise ArgumentError("replace(defender=...) takes 'rest', 'none', letters or a DefenderHand, not None")
        new_defender = self._defender if defender is _KEEP else defender
        new_length = self._length if length is _KEEP else length
        new_solution = self._solution if solution is _KEEP else solution
        return Problem(self._position, defender=new_defender, length=new_length,  # type: ignore[arg-type]
                       solution=new_solution)  # type: ignore[arg-type]

    # --- a value ------------------------------------------------------------

    def _key(self) -> tuple:
        return (self._position.key(), self.variant.spec, self._defender, self._length, self._solution)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        length = f", length={self._length}" if self._length is not None else ""
        solution = f", solution={self._solution!r}" if self._solution is not None else ""
        return (f"Problem({self.fen!r}, variant={self.variant.spec!r}, defender={str(self._defender)!r}"
                f"{length}{solution})")

    def __reduce__(self) -> tuple:
        # Rebuilt from plain values: a Position need not pickle, and the
        # constructor checks them again on the other side.
        return (_rebuild, (self.fen, self.variant.spec, self._defender, self._length, self._solution))


def _rebuild(fen: str, variant: str, defender: DefenderHand, length: int | None,
             solution: tuple[str, ...] | None) -> Problem:
    return Problem(fen, variant=variant, defender=defender, length=length, solution=solution)


def require_problem(value: object, caller: str) -> Problem:
    """``value``, which the entry point ``caller`` takes: a :class:`Problem`
    and nothing in its place (the problem is made once, where the user's
    input is read).  Anything else is refused with one line saying how to
    make one."""
    if isinstance(value, Problem):
        return value
    kind = type(value).__name__
    if isinstance(value, str):
        how = f"Problem({quote(value)}, variant='ito')"
    elif isinstance(value, Position):
        how = "Problem(position)"
    elif kind == "Record":  # a collection's record (tsume.collection imports this module)
        how = "record.problem()"
    else:
        how = "Problem('k1P2H25 b G', variant='ito')"
    raise ArgumentError(f"{caller} takes a tsume.Problem, not {kind}: {how}")

