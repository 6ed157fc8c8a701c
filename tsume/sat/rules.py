"""The rules of a variant as the SAT encoding needs them, read from the variant data.

Only :mod:`tsume.variant` (the games described as data) is read here: the
piece movements are turned into, for every face and colour, the offsets a
piece may reach and how (a leap, or a ride with its stride and its move and
capture modes).  Nothing comes from the move generator or :mod:`tsume.tables`,
so the SAT engine is a second, independent reading of the rules.

Values follow the position encoding used everywhere in the project: a square
holds 0 (empty) or ``face << 1 | colour``; faces are numbered from 1 in the
variant's piece order, each promoted face straight after its kind; Black is
colour 0 and moves toward square 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..variant import Face, Variant

__all__ = ["BLACK", "WHITE", "Leap", "RideStep", "Rules", "rules_for"]

BLACK, WHITE = 0, 1


@dataclass(frozen=True)
class Leap:
    """Reaches its square whatever stands between."""


@dataclass(frozen=True)
class RideStep:
    """Reaches its square along a ride: ``stride`` apart landing squares; how an
    empty target (``move``) and an enemy target (``capture``) are reached:
    ``slide`` (every landing square between empty), ``hop`` (exactly one
    occupied landing square between) or ``none``."""

    stride: int
    move: str
    capture: str


LEAP = Leap()


class Rules:
    """One variant on one board length, as plain Python tables."""

    def __init__(self, variant: Variant, n: int) -> None:
        self.variant = variant
        self.n = n
        self.nkinds = len(variant.kinds)
        self.face_kind: list[int] = [0]
        self.face_promoted: list[bool] = [False]
        self.face_obj: list[Face | None] = [None]
        self.kind_faces: list[tuple[int, ...]] = []
        for ki, kind in enumerate(variant.kinds):
            faces = [len(self.face_kind)]
            self.face_kind.append(ki)
            self.face_promoted.append(False)
            self.face_obj.append(kind.unpromoted)
            if kind.promoted is not None:
                faces.append(len(self.face_kind))
                self.face_kind.append(ki)
                self.face_promoted.append(True)
                self.face_obj.append(kind.promoted)
            self.kind_faces.append(tuple(faces))
        self.nfaces = len(self.face_kind) - 1
        self.royal_kind = next(i for i, k in enumerate(variant.kinds) if k.royal)
        self.royal_face = self.kind_faces[self.royal_kind][0]
        self.kind_count = [0 if k.royal else k.count for k in variant.kinds]
        # Capture turns a piece over; a piece with one face (the king) never flips.
        self.flip_face = [0] * (self.nfaces + 1)
        for kf in self.kind_faces:
            if len(kf) == 2:
                self.flip_face[kf[0]], self.flip_face[kf[1]] = kf[1], kf[0]
            else:
                self.flip_face[kf[0]] = kf[0]
        # Faces that may be dropped, per kind: unpromoted, or either side up.
        self.drop_faces: list[tuple[int, ...]] = [
            () if ki == self.royal_kind else (faces if variant.drop_promoted else faces[:1])
            for ki, faces in enumerate(self.kind_faces)
        ]
        # geometry[value] = {square delta: (Leap | RideStep, ...)} for a piece of that value.
        self.geometry: dict[int, dict[int, tuple]] = {}
        for f in range(1, self.nfaces + 1):
            for colour in (BLACK, WHITE):
                self.geometry[f << 1 | colour] = self._reach(self.face_obj[f], colour)

    def _reach(self, face, colour: int) -> dict[int, tuple]:
        # "Forward" is toward the opponent's home end: square 1 for Black.
        sign = -1 if colour == BLACK else 1
        out: dict[int, list] = {}
        for off in face.leaps:
            out.setdefault(off * sign, []).append(LEAP)
        for ride in face.rides:
            limit = ride.max_distance or self.n
            for dist in range(ride.stride, min(limit, self.n - 1) + 1, ride.stride):
                out.setdefault(ride.direction * dist * sign, []).append(
                    RideStep(ride.stride, ride.move, ride.capture)
                )
        return {d: tuple(v) for d, v in out.items()}

    def king(self, colour: int) -> int:
        return self.royal_face << 1 | colour

    def flip(self, value: int) -> int:
        return self.flip_face[value >> 1] << 1 | (value & 1)

    def kind_of(self, value: int) -> int:
        return self.face_kind[value >> 1]

    def letter(self, face: int) -> str:
        k = self.variant.kinds[self.face_kind[face]].letter
        return ("+" + k) if self.face_promoted[face] else k


_CACHE: dict[tuple, Rules] = {}


def rules_for(variant: Variant, n: int) -> Rules:
    key = (variant, n)
    r = _CACHE.get(key)
    if r is None:
        r = _CACHE[key] = Rules(variant, n)
    return r
