"""Variants as data: pieces, their moves, the piece set and the rule switches.

Nothing outside this module names a piece.  The rules engine (the Rust crate
in ``engine/``) builds its tables from these descriptions
(:meth:`Variant.description`, :mod:`tsume.tables`), so a third
one-dimensional game needs only a new :class:`Variant` value.  The built-in
games, Ito Shogi and Rutherford's 1-D Shogi, are defined once, in
``engine/variants.json``, which the engine holds (``tsume._engine.BUILTIN_VARIANTS``)
and this module reads from it.
Rutherford's start position there is provisional: the 2002 one is lost, and
this one serves play and perft only.

Directions are relative to the mover: ``+1`` is forward (toward the opponent's
home end), ``-1`` backward.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

from ._engine import BUILTIN_VARIANTS, use_variants
from .errors import VariantError, quote

__all__ = [
    "Ride",
    "Face",
    "PieceKind",
    "Variant",
    "ITO",
    "RUTHERFORD",
    "VARIANTS",
    "get_variant",
]

#: The longest board the engine supports (a square mask is one 64-bit word).
MAX_SQUARES = 64

#: How a ride reaches a square.  ``slide``: the squares before it are empty.
#: ``hop``: exactly one piece (the screen) stands before it.  ``none``: never.
RIDE_MODES = ("slide", "hop", "none")


@dataclass(frozen=True)
class Ride:
    """A repeated move in one direction.

    ``stride`` 2 makes a rider that lands on every second square and ignores the
    squares in between (the Flying Swallow and the Bishops).  ``max_distance`` is
    counted in squares (0 means unlimited).  ``move`` says how the rider reaches
    empty squares and ``capture`` how it reaches an enemy piece: a plain rider is
    ``slide``/``slide``; a Korean cannon ``hop``/``hop``; a Chinese cannon
    ``slide``/``hop``.  Only landing squares count as screens.
    """

    direction: int
    stride: int = 1
    max_distance: int = 0
    move: str = "slide"
    capture: str = "slide"

    def __post_init__(self) -> None:
        if self.direction not in (1, -1):
            raise VariantError(f"ride direction must be +1 or -1, not {self.direction}")
        if self.stride < 1 or self.max_distance < 0:
            raise VariantError("ride stride must be >= 1 and max_distance >= 0")
        if self.move not in RIDE_MODES or self.capture not in RIDE_MODES:
            raise VariantError(f"ride modes must be among {RIDE_MODES}")


@dataclass(frozen=True)
class Face:
    """One face of a piece: its name and its moves.

    ``leaps`` are forward-relative offsets reached whatever stands between
    (a one-square step is a leap of 1).
    """

    name: str
    leaps: tuple[int, ...] = ()
    rides: tuple[Ride, ...] = ()
    #: The one-character kanji of the shogi piece of that name, where shogi or
    #: its large variants have one (diagrams may draw it instead of the
    #: letter); empty when no shogi piece bears the name.
    kanji: str = ""


@dataclass(frozen=True)
class PieceKind:
    """A piece of the set: its letter, its two faces, how many the set holds.

    ``promoted`` is ``None`` for a piece that never flips (the king).
    """

    letter: str
    unpromoted: Face
    promoted: Face | None = None
    royal: bool = False
    count: int = 2


@dataclass(frozen=True)
class Variant:
    """A one-dimensional shogi game.

    ``board_length`` fixes the length, or ``None`` takes it from each position
    within ``min_length``..``max_length``.  The rule switches:

    * ``drop_promoted`` -- a piece may be dropped either side up;
    * ``drop_king_limits`` -- no drop behind one's own king nor at distance < 2
      from it (while that king is on the board);
    * ``drop_mate`` -- a drop may give checkmate;
    * ``stalemate`` -- ``"illegal"``: a move leaving the opponent, not in check,
      without a king-safe move is illegal; ``"loss"``: it is allowed and the
      stalemated side loses;
    * ``repetition`` -- in games, a move making a position (board, hands, side to
      move) occur for the third time is illegal.
    """

    name: str
    title: str
    kinds: tuple[PieceKind, ...]
    board_length: int | None
    min_length: int
    max_length: int
    start: str | None = None
    start_is_provisional: bool = False
    drop_promoted: bool = False
    drop_king_limits: bool = False
    drop_mate: bool = True
    stalemate: str = "illegal"
    repetition: bool = True
    switches: tuple[str, ...] = field(default=("drop_mate", "stalemate", "repetition"))

    def __post_init__(self) -> None:
        letters = [k.letter for k in self.kinds]
        if len(set(letters)) != len(letters):
            raise VariantError(f"variant {self.name}: duplicate piece letters")
        if sum(1 for k in self.kinds if k.royal) != 1:
            raise VariantError(f"variant {self.name}: exactly one royal piece kind needed")
        for k in self.kinds:
            if len(k.letter) != 1 or not k.letter.isalpha() or not k.letter.isupper():
                raise VariantError(f"variant {self.name}: piece letter {k.letter!r} must be one uppercase letter")
            if k.royal and k.promoted is not None:
                raise VariantError(f"variant {self.name}: the royal piece must not flip")
        if self.stalemate not in ("illegal", "loss"):
            raise VariantError(f"variant {self.name}: stalemate must be 'illegal' or 'loss'")
        if self.board_length is not None and not (self.min_length <= self.board_length <= self.max_length):
            raise VariantError(f"variant {self.name}: board_length outside min/max")
        if self.max_length > MAX_SQUARES:
            raise VariantError(f"variant {self.name}: boards longer than {MAX_SQUARES} squares are not supported")

    @property
    def royal_kind(self) -> PieceKind:
        return next(k for k in self.kinds if k.royal)

    def kind(self, letter: str) -> PieceKind:
        """The piece kind with this (uppercase) letter."""
        for k in self.kinds:
            if k.letter == letter:
                return k
        raise VariantError(f"variant {self.name} has no piece {letter!r}")

    def with_options(self, **options: object) -> "Variant":
        """A copy with rule switches changed, e.g. ``ITO.with_options(drop_mate=False)``."""
        for key, value in options.items():
            if key not in self.switches:
                raise VariantError(
                    f"variant {self.name} has no switch {quote(key)} (switches: {', '.join(self.switches)})"
                )
            if key != "stalemate" and not isinstance(value, bool):
                raise VariantError(f"switch {key} takes True or False, not {quote(value)}")
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]

    def description(self) -> str:
        """The variant as JSON, in the shape of ``variants.json`` (what the engine reads)."""
        return json.dumps(dataclasses.asdict(self))

    @property
    def spec(self) -> str:
        """The name with every switch that differs from the default, e.g. ``ito:drop_mate=no``."""
        base = VARIANTS.get(self.name)
        if base is None:
            return self.name
        diffs = []
        for key in self.switches:
            value = getattr(self, key)
            if value != getattr(base, key):
                diffs.append(f"{key}={_format_switch(value)}")
        return self.name + (":" + ",".join(diffs) if diffs else "")


def _format_switch(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _face(d: dict) -> Face:
    rides = tuple(Ride(**r) for r in d.get("rides", ()))
    return Face(d["name"], leaps=tuple(d.get("leaps", ())), rides=rides, kanji=d.get("kanji", ""))


def _variant(d: dict) -> Variant:
    kinds = tuple(
        PieceKind(
            k["letter"],
            _face(k["unpromoted"]),
            _face(k["promoted"]) if "promoted" in k else None,
            royal=k.get("royal", False),
            count=k.get("count", 2),
        )
        for k in d["kinds"]
    )
    rest = {key: value for key, value in d.items() if key != "kinds"}
    if "switches" in rest:
        rest["switches"] = tuple(rest["switches"])
    return Variant(kinds=kinds, **rest)


def _builtin() -> dict[str, Variant]:
    text = BUILTIN_VARIANTS
    return {v.name: v for v in map(_variant, json.loads(text))}


_BUILTIN = _builtin()

#: Ito Shogi (2022).
ITO = _BUILTIN["ito"]
#: Rutherford's 1-dimensional Shogi (2002).
RUTHERFORD = _BUILTIN["rutherford"]

#: The built-in variants by name.
VARIANTS: dict[str, Variant] = {v.name: v for v in (ITO, RUTHERFORD)}

_SWITCH_VALUES = {
    "yes": True, "true": True, "on": True, "1": True, "allowed": True, "allow": True,
    "no": False, "false": False, "off": False, "0": False, "forbidden": False, "forbid": False,
}


def get_variant(spec: object) -> Variant:
    """The variant named by ``spec``: ``NAME`` or ``NAME:switch=value,...``.

    Examples: ``ito``, ``ito:drop_mate=no``, ``ito:stalemate=loss``,
    ``rutherford:repetition=off``.  A :class:`Variant` is returned as it is;
    anything else raises :class:`VariantError`.
    """
    if isinstance(spec, Variant):
        return spec
    if not isinstance(spec, str):
        raise VariantError(f"variant must be a name such as 'ito' or a Variant, not {type(spec).__name__}")
    name, _, opts = spec.strip().partition(":")
    base = VARIANTS.get(name.strip().lower())
    if base is None:
        raise VariantError(f"unknown variant {quote(name)} (known: {', '.join(VARIANTS)})")
    if not opts:
        return base
    options: dict[str, object] = {}
    for item in opts.split(","):
        key, eq, raw = item.partition("=")
        key = key.strip().replace("-", "_").lower()
        raw = raw.strip().lower()
        if not eq or not key:
            raise VariantError(f"variant switch {quote(item)} is not of the form name=value")
        if key not in base.switches:
            raise VariantError(
                f"variant {base.name} has no switch {quote(key)} (switches: {', '.join(base.switches)})"
            )
        if key == "stalemate":
            if raw not in ("illegal", "loss"):
                raise VariantError(f"switch stalemate takes 'illegal' or 'loss', not {quote(raw)}")
            options[key] = raw
        else:
            if raw not in _SWITCH_VALUES:
                raise VariantError(f"switch {key} takes yes or no, not {quote(raw)}")
            options[key] = _SWITCH_VALUES[raw]
    return base.with_options(**options)


# The engine reads positions itself; it resolves a variant= argument (a name, a
# spec with switches, a Variant) through get_variant, given to it here once.
use_variants(get_variant, [ITO, RUTHERFORD])
