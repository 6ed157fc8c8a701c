"""Material profiles: what a random candidate is made of, and drawing one.

A profile says which men stand on the board for each side (named pieces, or
a number of pieces drawn from the set), what the attacker holds in hand, how
far from the defender's king the men stand, whether the attacker has a king,
the board length (Rutherford) and the defender's hand rule.  As a string
(``tsume compose --material``), comma-separated ``key=value`` fields::

    attacker=G+T, hand=2P, defender=1-2, spread=5, length=21

| key | value | default |
|---|---|---|
| ``attacker`` | the attacker's men: letters (``G+T``: a Gold and a promoted T) or a count ``N`` / ``N-M`` drawn from the set | ``1-4`` |
| ``defender`` | the defender's men, the same way (letters in any case) | ``0-3`` |
| ``hand`` | the attacker's hand: letters with counts (``2PG``) or a count | ``0-3`` |
| ``spread`` | men stand within this many squares of the defender's king | ``6`` |
| ``king`` | the attacker's king on the board: ``yes``, ``no`` or a probability | ``0.3`` |
| ``king-square`` | the defender king's square, ``N`` or ``N-M`` | near its home end 60% of the time |
| ``promoted`` | probability that a man drawn by count stands promoted | ``0.25`` |
| ``length`` | board length, ``N`` or ``N-M`` (Rutherford; Ito is always 31) | the variant's |
| ``defender-hand`` | ``rest`` (the rest of the set) or ``none`` | ``rest`` |
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..arguments import check_range
from ..errors import ArgumentError
from ..position import BLACK, WHITE, Piece
from ..tables import tables_for
from ..variant import Variant, get_variant
from .candidate import Candidate

__all__ = ["Material", "parse_material", "default_profiles", "sparse_profile"]

Range = tuple[int, int]


@dataclass(frozen=True)
class Material:
    """A material profile (see the module docstring for the string form).

    Named men (``attacker_pieces``, ...) are placed as given; a count range
    (``attacker``, ...) draws that many pieces at random from what the set
    has left.  Tokens are letters with an optional ``+`` (promoted)."""

    attacker: Range = (1, 4)
    defender: Range = (0, 3)
    hand: Range = (0, 3)
    attacker_pieces: tuple[str, ...] | None = None
    defender_pieces: tuple[str, ...] | None = None
    hand_pieces: tuple[str, ...] | None = None
    spread: int = 6
    king: float = 0.3
    king_square: Range | None = None
    promoted: float = 0.25
    length: Range | None = None
    defender_hand: str | None = None  # None: the rest of the set; "none"
    text: str = field(default="", compare=False)

    def draw(self, rng: random.Random, variant: "Variant | str") -> Candidate:
        """A random valid candidate of this material (raises ArgumentError when
        none can be made, e.g. named pieces the set does not have)."""
        v = get_variant(variant)
        for _ in range(200):
            c = self._try(rng, v)
            if c is not None and c.problem() is not None:
                return c
        raise ArgumentError(f"material {self.text or self!r}: no valid position found in 200 tries "
                            "(too many pieces for the board or the set, or the attacker always in check)")

    def _try(self, rng: random.Random, v: Variant) -> Candidate | None:
        if v.board_length:
            n = v.board_length
        elif self.length is not None:
            n = rng.randint(*self.length)
        else:
            n = rng.randint(max(v.min_length, 11), min(v.max_length, 25))
        t = tables_for(v, n)
        king = t.kind_letters[t.royal_kind]
        board: list[Piece | None] = [None] * (n + 1)  # board[s]: square s
        if self.king_square is not None:
            lo, hi = self.king_square
            if hi > n:
                return None
            ksq = rng.randint(lo, hi)
        elif rng.random() < 0.6:
            ksq = rng.randint(1, min(n, 6))  # the defender (White) at its home end
        else:
            ksq = rng.randint(1, n)
        board[ksq] = t.kind_piece(king, WHITE)
        # The set but the kings, by letter in alphabetical order.
        pool = [letter for letter, count in sorted(zip(t.kind_letters, t.kind_count)) if letter != king
                for _ in range(count)]
        rng.shuffle(pool)
        promotable = {k.letter.upper() for k in v.kinds if k.promoted is not None and not k.royal}
        near = [s for s in range(max(1, ksq - self.spread), min(n, ksq + self.spread) + 1) if s != ksq]

        def take(token: str) -> bool:
            letter = token[-1].upper()
            if letter not in pool:
                return False
            pool.remove(letter)
            return True

        def place(tokens: list[str], upper: bool, named: bool) -> bool:
            for tok in tokens:
                free = [s for s in near if board[s] is None]
                if not free or (named and not take(tok)):
                    return False
                body = tok[-1].upper() if upper else tok[-1].lower()
                board[rng.choice(free)] = t.piece(("+" if tok.startswith("+") else "") + body)
            return True

        def drawn(count: Range) -> list[str]:
            # Drawn pieces leave the pool here; named ones when placed (take()).
            out = []
            for _ in range(rng.randint(*count)):
                if not pool:
                    break
                letter = pool.pop()
                out.append(("+" if letter in promotable and rng.random() < self.promoted else "") + letter)
            return out

        for named, upper in ((self.attacker_pieces, True), (self.defender_pieces, False)):
            count = self.attacker if upper else self.defender
            if not place(list(named) if named is not None else drawn(count), upper, named is not None):
                return None
        if rng.random() < self.king:
            free = [s for s in range(1, n + 1) if board[s] is None]
            if free:
                board[rng.choice(free)] = t.kind_piece(king, BLACK)
        named_hand = self.hand_pieces is not None
        letters = list(self.hand_pieces or ()) if named_hand else [p[-1] for p in drawn(self.hand)]
        hand = [0] * t.nkinds
        for letter in letters:
            if named_hand and not take(letter):
                return None
            hand[t.kind_letters.index(letter.upper())] += 1
        pieces = [(s, p) for s, p in enumerate(board) if p is not None]
        return Candidate.build(v, n, pieces, hand, self.defender_hand)


def _range(key: str, value: str, low: int = 0) -> Range:
    return check_range(value, f"material {key}", low)


def _pieces(key: str, value: str, v: Variant) -> tuple[str, ...]:
    letters = {k.letter.upper() for k in v.kinds if not k.royal}
    promotable = {k.letter.upper() for k in v.kinds if k.promoted is not None and not k.royal}
    out: list[str] = []
    count = ""
    plus = False
    for ch in value:
        if ch.isascii() and ch.isdigit():
            count += ch
        elif ch == "+":
            plus = True
        elif ch.upper() in letters:
            if plus and ch.upper() not in promotable:
                raise ArgumentError(f"material {key}={value!r}: {ch.upper()} has no promoted side in {v.name}")
            if key == "hand" and plus:
                raise ArgumentError(f"material hand={value!r}: pieces in hand are never promoted")
            n = int(count) if count else 1
            if n > 99:
                raise ArgumentError(f"material {key}={value!r}: count {n} is too large")
            out.extend([("+" if plus else "") + ch.upper()] * n)
            count, plus = "", False
        else:
            raise ArgumentError(f"material {key}={value!r}: {ch!r} is not a piece letter of {v.name} "
                                f"({', '.join(sorted(letters))})")
    if count or plus:
        raise ArgumentError(f"material {key}={value!r}: a count or '+' with no piece after it")
    return tuple(out)


def _probability(key: str, value: str) -> float:
    if value.lower() in ("yes", "no"):
        return 1.0 if value.lower() == "yes" else 0.0
    try:
        p = float(value)
    except ValueError:
        raise ArgumentError(f"material {key}={value!r}: expected yes, no or a probability") from None
    if not 0.0 <= p <= 1.0:
        raise ArgumentError(f"material {key}={value!r}: a probability is between 0 and 1")
    return p


def parse_material(text: str, variant: "Variant | str") -> Material:
    """Read a material profile string (see the module docstring); a bad one
    raises :class:`~tsume.errors.ArgumentError` naming the field."""
    if not isinstance(text, str):
        raise ArgumentError(f"material must be a string, not {type(text).__name__}")
    v = get_variant(variant)
    kw: dict = {"text": text}
    seen: set[str] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq or not value:
            raise ArgumentError(f"material: expected key=value, got {part!r}")
        if key in seen:
            raise ArgumentError(f"material: {key} given twice")
        seen.add(key)
        if key in ("attacker", "defender", "hand"):
            if value.replace("-", "").isdigit():
                kw[key] = _range(key, value)
            else:
                kw[f"{key}_pieces"] = _pieces(key, value, v)
        elif key == "spread":
            kw["spread"] = _range(key, value, 1)[0]
        elif key == "king":
            kw["king"] = _probability(key, value)
        elif key == "promoted":
            kw["promoted"] = _probability(key, value)
        elif key == "king-square":
            kw["king_square"] = _range(key, value, 1)
        elif key == "length":
            lo, hi = _range(key, value, 1)
            if v.board_length and (lo, hi) != (v.board_length, v.board_length):
                raise ArgumentError(f"material length={value}: {v.name} is always played on {v.board_length} squares")
            if not v.board_length and (lo < v.min_length or hi > v.max_length):
                raise ArgumentError(f"material length={value}: {v.name} boards have {v.min_length} to {v.max_length} squares")
            kw["length"] = (lo, hi)
        elif key == "defender-hand":
            if value.lower() not in ("rest", "none"):
                raise ArgumentError(f"material defender-hand={value!r}: rest or none")
            kw["defender_hand"] = None if value.lower() == "rest" else "none"
        else:
            raise ArgumentError(f"material: unknown key {key!r} (attacker, defender, hand, spread, king, "
                                "king-square, promoted, length, defender-hand)")
    return Material(**kw)


def default_profiles(variant: "Variant | str") -> list[Material]:
    """The rotation of profiles used when no material is given: the
    generator's defaults (mostly short mates), rich attacker material, men
    spread out with more in hand, many men (long boards for Rutherford), and
    sparse material with a long way to run (cheap to search, often long)."""
    v = get_variant(variant)
    long_board = None if v.board_length else (16, min(40, v.max_length))
    sparse_board = None if v.board_length else (14, min(48, v.max_length))
    return [
        Material(text="default"),
        Material(attacker=(2, 5), hand=(2, 6), defender=(0, 3), spread=7, text="rich"),
        Material(attacker=(1, 4), hand=(3, 7), defender=(0, 2), spread=12, promoted=0.35, text="spread"),
        Material(attacker=(2, 6), hand=(1, 5), defender=(1, 4), spread=9, length=long_board, text="crowded"),
        Material(attacker=(1, 3), hand=(1, 3), defender=(0, 2), spread=10, king=0.5, length=sparse_board,
                 text="sparse"),
    ]


def sparse_profile(variant: "Variant | str") -> Material:
    """The sparse profile of :func:`default_profiles`: few men, a long way to run."""
    return default_profiles(variant)[-1]
