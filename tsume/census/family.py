"""Material families: every legal tsume position of a given material, each once.

A family is written as the composer's material profiles are
(:mod:`tsume.compose.material`), with named men only::

    attacker=G+T, hand=2P, defender=P, defender-hand=none, length=21, promoted=yes

| key | value | default |
|---|---|---|
| ``attacker`` | the attacker's men on the board: letters, ``+`` for a promoted one | none |
| ``defender`` | the defender's men besides its king | none |
| ``hand`` | the attacker's hand (letters with counts, ``2P``) | none |
| ``defender-hand`` | ``rest`` (the rest of the set) or ``none`` | ``rest`` |
| ``length`` | board length (Rutherford; Ito is always 31) | the variant's, else 9 |
| ``promoted`` | ``yes``: each attacker man may also stand on its other face | ``no`` |

The defender (White) has its king and the named men; the attacker (Black) is
to move and has no king, as in tsume.  A position belongs to the family when
it is legal (:class:`~tsume.problem.Problem` accepts it: the defender not in
check, the set not exceeded).

**Canonical form.**  A one-dimensional board has no symmetry (each side plays
one way), so a position is its position string: Black to move, move number 1,
the defender's hand filled in by the family's rule.  Identical men are placed
as combinations (their squares in increasing order), never as permutations, so
each position is enumerated exactly once.

**Shards** are the defender king's squares: independent, deterministic, and
small enough to run as separate tasks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, product

from ..compose.material import parse_material
from ..errors import ArgumentError, PositionError
from ..position import WHITE, Position, build_position
from ..problem import NONE, REST, Problem
from ..tables import tables_for
from ..variant import Variant, get_variant

__all__ = ["Family", "parse_family", "CENSUS_KEYS", "DEFAULT_RUTHERFORD_LENGTH"]

#: The keys a family string may use.
CENSUS_KEYS = ("attacker", "defender", "hand", "defender-hand", "length", "promoted")
#: Rutherford's board length when a family names none: the shortest board.
DEFAULT_RUTHERFORD_LENGTH = 9


@dataclass(frozen=True)
class Family:
    """A material family (see the module docstring)."""

    variant: Variant
    attacker: tuple[str, ...] = ()
    defender: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    defender_hand: str = "rest"
    length: int = 31
    promoted: bool = False

    def spec(self) -> str:
        """The canonical family string (sorted men; every key given), e.g.
        ``ito: attacker=G, defender=-, hand=G, defender-hand=none, length=31, promoted=no``."""
        return (f"{self.variant.spec}: attacker={_men(self.attacker)}, defender={_men(self.defender)}, "
                f"hand={_men(self.hand)}, defender-hand={self.defender_hand}, length={self.length}, "
                f"promoted={'yes' if self.promoted else 'no'}")

    def shards(self) -> list[int]:
        """The shard keys: the defender king's squares, 1 to the board length."""
        return list(range(1, self.length + 1))

    def _attacker_choices(self) -> list[tuple[str, ...]]:
        """The attacker's men as multisets of tokens: one, or with ``promoted``
        every split of each kind between its faces."""
        if not self.promoted:
            return [tuple(self.attacker)]
        kinds = Counter(t.lstrip("+") for t in self.attacker)
        promotable = {k.letter for k in self.variant.kinds if k.promoted is not None}
        per_kind = []
        for letter, n in sorted(kinds.items()):
            if letter in promotable:
                per_kind.append([(letter,) * (n - p) + ("+" + letter,) * p for p in range(n + 1)])
            else:
                per_kind.append([(letter,) * n])
        return [tuple(t for group in split for t in group) for split in product(*per_kind)]

    def positions(self, shard: int) -> Iterator[Position]:
        """Every position of the family with the defender's king on square ``shard``,
        each once, in a deterministic order (attacker to move, defender hand filled in)."""
        if isinstance(shard, bool) or not isinstance(shard, int) or not 1 <= shard <= self.length:
            raise ArgumentError(f"shard must be a square from 1 to {self.length}, not {shard!r}")
        tables = tables_for(self.variant, self.length)
        king = (shard, tables.kind_piece(tables.kind_letters[tables.royal_kind], WHITE))
        hands = [[0] * tables.nkinds, [0] * tables.nkinds]
        for letter in self.hand:
            hands[0][tables.kind_letters.index(letter.upper())] += 1
        rule = NONE if self.defender_hand == "none" else REST
        defender_groups = sorted(Counter(t.lower() for t in self.defender).items())
        for attackers in self._attacker_choices():
            groups = sorted(Counter(attackers).items()) + defender_groups
            pieces = {token: tables.piece(token) for token, _ in groups}
            free = [s for s in range(1, self.length + 1) if s != shard]
            for placement in _place(groups, free):
                men = [(s, pieces[token]) for token, squares in placement for s in squares]
                try:
                    pos = Problem(build_position(self.variant, self.length, [king, *men], hands),
                                  defender=rule).position()
                except PositionError:
                    continue  # not legal: the defender in check, the set exceeded
                yield pos

    def count(self) -> int:
        """How many positions the family holds (by enumerating them)."""
        return sum(1 for s in self.shards() for _ in self.positions(s))


def _man_order(token: str) -> tuple[str, str]:
    """Men sort by letter, the unpromoted face before the promoted one."""
    return token.lstrip("+"), token


def _men(tokens: tuple[str, ...]) -> str:
    """Men as the family string writes them: sorted, with counts (``2S+N``), ``-`` for none."""
    counts = sorted(Counter(tokens).items(), key=lambda item: _man_order(item[0]))
    return "".join(f"{n if n > 1 else ''}{token}" for token, n in counts) or "-"


def _place(groups: list[tuple[str, int]], free: list[int]) -> Iterator[list[tuple[str, tuple[int, ...]]]]:
    """Every way to put each group of identical men (token, count) on distinct
    free squares, a group's squares in increasing order (so never twice)."""
    if not groups:
        yield []
        return
    (token, n), rest = groups[0], groups[1:]
    for squares in combinations(free, n):
        left = [s for s in free if s not in squares]
        for tail in _place(rest, left):
            yield [(token, squares), *tail]


def parse_family(text: str, variant: "str | Variant") -> Family:
    """Read a family string (see the module docstring); a bad one raises
    :class:`~tsume.errors.ArgumentError` naming the field."""
    if not isinstance(text, str):
        raise ArgumentError(f"material must be a string, not {type(text).__name__}")
    v = get_variant(variant)
    given: dict[str, str] = {}
    for part in text.split(","):
        key, eq, value = part.strip().partition("=")
        key = key.strip().lower()
        if not key:
            continue
        if key not in CENSUS_KEYS:
            raise ArgumentError(f"census material: unknown key {key!r} ({', '.join(CENSUS_KEYS)})")
        given[key] = value.strip()
    # The composer's parser reads the men, the length and the hand rule; a
    # census names its men, so an empty or '-' field is "none" and a count is refused.
    promoted = given.pop("promoted", "no").lower()
    if promoted not in ("yes", "no"):
        raise ArgumentError(f"census material promoted={promoted!r}: yes or no")
    men: dict[str, tuple[str, ...]] = {}
    for key in ("attacker", "defender", "hand"):
        value = given.pop(key, "")
        if value in ("", "-", "0", "none"):
            men[key] = ()
        elif value.replace("-", "").isdigit():
            raise ArgumentError(f"census material {key}={value}: name the men (letters), not a count")
        else:
            men[key] = getattr(parse_material(f"{key}={value}", v), f"{key}_pieces")
    rest = ", ".join(f"{k}={val}" for k, val in given.items())
    profile = parse_material(rest, v)
    if v.board_length:
        length = v.board_length
    elif profile.length is not None:
        if profile.length[0] != profile.length[1]:
            raise ArgumentError("census material length: one board length, not a range")
        length = profile.length[0]
    else:
        length = DEFAULT_RUTHERFORD_LENGTH
    # Men in a fixed order, so that a family equals the one its spec() reads back as.
    men = {key: tuple(sorted(tokens, key=_man_order)) for key, tokens in men.items()}
    family = Family(variant=v, attacker=men["attacker"], defender=men["defender"], hand=men["hand"],
                    defender_hand="none" if profile.defender_hand == "none" else "rest", length=length,
                    promoted=promoted == "yes")
    used = Counter(t.lstrip("+").upper() for t in family.attacker + family.defender + family.hand)
    for kind in v.kinds:
        if used.get(kind.letter, 0) > kind.count:
            raise ArgumentError(f"census material: {used[kind.letter]} men of kind {kind.letter} "
                                f"({kind.unpromoted.name}), but the {v.name} set has {kind.count}")
    if len(family.attacker) + len(family.defender) + 1 > length:
        raise ArgumentError(f"census material: {len(family.attacker) + len(family.defender) + 1} men "
                            f"do not fit on {length} squares")
    return family
