"""Lookup tables compiled from a :class:`~tsume.variant.Variant` for one board length.

Pieces are small ints: a *face* is numbered from 1 (each kind has its
unpromoted face and, unless it never flips, a promoted one) and a piece on the
board is ``face << 1 | colour`` with Black = 0 and White = 1; 0 is an empty
square.  Squares are 1..N and square ``s`` is bit ``s`` of the occupancy masks.
Every table is indexed by those ints so the hot paths never look at a name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .variant import Face, Variant

__all__ = ["BLACK", "WHITE", "NONE", "SLIDE", "HOP", "Tables", "tables_for"]

# Final: compiled code inlines these constants (a plain module global is a
# dictionary lookup by name at every use).
BLACK: Final = 0
WHITE: Final = 1
NONE: Final = 0
SLIDE: Final = 1
HOP: Final = 2
_MODE: Final = {"none": NONE, "slide": SLIDE, "hop": HOP}
#: Bits of a Zobrist key (see tables_for: below 2**62, compiled code keeps ints unboxed).
ZOBRIST_BITS: Final = 62
#: Stands for "unlimited" wherever a distance is compared.
FAR: Final = 1 << 10


def forward(colour: int) -> int:
    """The absolute direction of "forward" for a colour: Black moves toward square 1."""
    return -1 if colour == BLACK else 1


@dataclass(eq=False, slots=True)
class Tables:
    """Everything the position needs, precomputed for one variant and board length."""

    variant: Variant
    n: int
    # faces (index 0 unused)
    face_names: list[str]
    face_letters: list[str]          # "P" or "+P"
    face_kind: list[int]             # kind index
    face_promoted: list[bool]
    # per piece value (face << 1 | colour)
    nvalues: int
    flip: list[int]                  # value after it captures
    royal: list[bool]
    hand_kind: list[int]             # kind it becomes in hand
    leap_targets: list[list[tuple[int, ...]]]            # [v][s] -> targets
    ride_paths: list[list[tuple[tuple[tuple[int, ...], int, int], ...]]]  # [v][s] -> (squares, move, capture)
    reach: list[list[int]]           # [v][k] -> mask of squares from which v may attack k
    leap_reach: list[list[int]]      # [v][k] -> the part of reach[v][k] from leaps (occupancy never matters)
    leap_mask: list[list[int]]       # [v][s] -> mask of the leap targets of v on s
    leap_moves: list[list[dict[int, tuple[int, ...]]]]
    #   [v][s] -> {mask of the leap targets holding own pieces: the leap moves, in leap_targets order}
    ride_hits: list[list[dict[int, tuple[tuple[int, int], ...]]]]
    #   [v][s] -> {target: ((mask of the path squares before it, capture mode), ...)}
    # attack detection, per attacking colour
    leap_att: list[list[tuple[tuple[int, int], ...]]]    # [c][k] -> ((p, value mask), ...)
    leap_zone: list[list[int]]        # [c][k] -> mask of the squares p in leap_att[c][k]
    leap_from: list[list[list[int]]]  # [c][k][p] -> the value mask of leap_att[c][k] for p (0 if none)
    ray_att: list[tuple[tuple[list[int], int, list[int], list[int], bool], ...]]
    #   [c] -> ((lattice masks by k, direction, slide ranges by v, hop ranges by v, any hop), ...)
    # kinds
    nkinds: int
    kind_letters: list[str]
    royal_kind: int
    kind_count: list[int]
    drop_faces: list[tuple[int, ...]]  # [kind] -> faces it may be dropped as
    unpromoted_face: list[int]         # [kind]
    # masks
    board_mask: int
    low_mask: list[int]              # [k] -> squares < k, for k in 0..N+1
    high_mask: list[int]             # [k] -> squares > k, for k in 0..N+1
    between: list[list[int]]         # [a][b] -> squares strictly between a and b
    rider: list[bool]                # [v] -> has at least one ride
    span: list[list[int]]            # [v][s] -> every square v on s could move to, whatever the occupancy
    drop_rows: dict[tuple[bool, ...], list[tuple[int, ...]]]  # kinds in hand -> [s] -> drop moves (Position fills it)
    # hashing
    z_board: list[list[int]]         # [v][s]
    z_hand: list[list[list[int]]]    # [c][kind][count]
    z_side: int
    # Hash steps for make/unmake: a board move's side to move folded in (one
    # lookup and XOR fewer per move), a hand count's change (the hash's and
    # Position.handz's):
    z_from: list[list[int]]           # [v][s] -> z_board[v][s] ^ z_side (the square a piece leaves)
    z_hand_step: list[list[list[int]]]  # [c][kind][count] -> z_hand[count] ^ z_hand[count + 1]


def _leap_moves(s: int, targets: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """For each subset of ``targets`` blocked by own pieces (as a mask): the leap moves from ``s`` left."""
    out = {}
    for bits in range(1 << len(targets)):
        blocked = [to for i, to in enumerate(targets) if bits >> i & 1]
        out[sum(1 << to for to in blocked)] = tuple(s | to << 7 for to in targets if to not in blocked)
    return out


@lru_cache(maxsize=None)
def tables_for(variant: Variant, n: int) -> Tables:
    """The compiled tables for ``variant`` on a board of ``n`` squares (cached)."""
    kinds = variant.kinds
    face_names = [""]
    face_letters = [""]
    face_kind = [-1]
    face_promoted = [False]
    face_def: list[Face | None] = [None]  # index 0: no face
    unpromoted_face = []
    promoted_face = []
    for i, kd in enumerate(kinds):
        face_names.append(kd.unpromoted.name)
        face_letters.append(kd.letter)
        face_kind.append(i)
        face_promoted.append(False)
        face_def.append(kd.unpromoted)
        unpromoted_face.append(len(face_names) - 1)
        if kd.promoted is not None:
            face_names.append(kd.promoted.name)
            face_letters.append("+" + kd.letter)
            face_kind.append(i)
            face_promoted.append(True)
            face_def.append(kd.promoted)
            promoted_face.append(len(face_names) - 1)
        else:
            promoted_face.append(0)
    nfaces = len(face_names) - 1
    nvalues = (nfaces + 1) * 2
    squares = range(1, n + 1)

    flip = [0] * nvalues
    royal = [False] * nvalues
    hand_kind = [-1] * nvalues
    leap_targets: list[list[tuple[int, ...]]] = [[()] * (n + 1) for _ in range(nvalues)]
    ride_paths: list[list[tuple]] = [[()] * (n + 1) for _ in range(nvalues)]
    reach = [[0] * (n + 1) for _ in range(nvalues)]
    leap_reach = [[0] * (n + 1) for _ in range(nvalues)]
    leap_mask = [[0] * (n + 1) for _ in range(nvalues)]
    ride_hits: list[list[dict]] = [[{} for _ in range(n + 1)] for _ in range(nvalues)]
    for f in range(1, nfaces + 1):
        ki = face_kind[f]
        kind = kinds[ki]
        other = promoted_face[ki] if not face_promoted[f] else unpromoted_face[ki]
        for c in (BLACK, WHITE):
            v = f << 1 | c
            royal[v] = kind.royal
            # A king is never captured in legal play; giving it a hand slot
            # keeps a bad pseudo-legal capture from crashing (it is never dropped).
            hand_kind[v] = ki
            flip[v] = v if kind.promoted is None else (other << 1 | c)
            fw = forward(c)
            face = face_def[f]
            assert face is not None
            for s in squares:
                targets = []
                for off in face.leaps:
                    t = s + off * fw
                    if 1 <= t <= n and t not in targets:
                        targets.append(t)
                        reach[v][t] |= 1 << s
                        leap_reach[v][t] |= 1 << s
                leap_targets[v][s] = tuple(targets)
                for t_ in targets:
                    leap_mask[v][s] |= 1 << t_
                paths = []
                for ride in face.rides:
                    step = ride.direction * fw * ride.stride
                    limit = ride.max_distance or FAR
                    path = []
                    t = s + step
                    before = 0
                    while 1 <= t <= n and abs(t - s) <= limit:
                        path.append(t)
                        if ride.capture != "none":
                            reach[v][t] |= 1 << s
                            hits = ride_hits[v][s]
                            hits[t] = hits.get(t, ()) + ((before, _MODE[ride.capture]),)
                        before |= 1 << t
                        t += step
                    if path:
                        paths.append((tuple(path), _MODE[ride.move], _MODE[ride.capture]))
                ride_paths[v][s] = tuple(paths)

    leap_moves = [[_leap_moves(s, leap_targets[v][s]) for s in range(n + 1)] for v in range(nvalues)]

    # Leap attackers of each square, grouped by the square they stand on.
    leap_att: list[list[tuple[tuple[int, int], ...]]] = []
    for c in (BLACK, WHITE):
        per_k = []
        for k in range(n + 1):
            by_p: dict[int, int] = {}
            if k:
                for f in range(1, nfaces + 1):
                    v = f << 1 | c
                    for p in squares:
                        if k in leap_targets[v][p]:
                            by_p[p] = by_p.get(p, 0) | (1 << v)
            per_k.append(tuple(sorted(by_p.items(), key=lambda pm: abs(pm[0] - k))))
        leap_att.append(per_k)
    leap_zone = [[sum(1 << p for p, _ in leap_att[c][k]) for k in range(n + 1)] for c in (BLACK, WHITE)]
    leap_from = [[[dict(leap_att[c][k]).get(p, 0) for p in range(n + 1)] for k in range(n + 1)] for c in (BLACK, WHITE)]

    # Ride attackers: for each stride and direction (seen from the attacked
    # square), the range at which each value captures the first piece met
    # (slide) or the first piece beyond one screen (hop).
    ray_att = []
    for c in (BLACK, WHITE):
        groups: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        for f in range(1, nfaces + 1):
            v = f << 1 | c
            face = face_def[f]
            assert face is not None
            for ride in face.rides:
                if ride.capture == "none":
                    continue
                d = -ride.direction * forward(c)  # from the target toward the attacker
                slide_rng, hop_rng = groups.setdefault((ride.stride, d), ([0] * nvalues, [0] * nvalues))
                rng = ride.max_distance or FAR
                target = slide_rng if ride.capture == "slide" else hop_rng
                target[v] = max(target[v], rng)
        entries = []
        for (stride, d), (slide_rng, hop_rng) in sorted(groups.items()):
            lattice = [0] * (n + 1)
            for k in squares:
                m = 0
                t = k + d * stride
                while 1 <= t <= n:
                    m |= 1 << t
                    t += d * stride
                lattice[k] = m
            entries.append((lattice, d, slide_rng, hop_rng, any(hop_rng)))
        ray_att.append(tuple(entries))

    drop_faces = []
    for i in range(len(kinds)):
        faces: tuple[int, ...] = (unpromoted_face[i],)
        if variant.drop_promoted and promoted_face[i]:
            faces = faces + (promoted_face[i],)
        drop_faces.append(faces)

    board_mask = ((1 << (n + 1)) - 1) ^ 1
    # One entry past each end, so that "beyond the king" works for a king on square 1 or N.
    low_mask = [((1 << k) - 1) & board_mask for k in range(n + 2)]
    high_mask = [board_mask & ~((1 << (k + 1)) - 1) for k in range(n + 2)]
    between = [[low_mask[max(a, b)] & high_mask[min(a, b)] for b in range(n + 1)] for a in range(n + 1)]
    rider = [any(ride_paths[v][s] for s in squares) for v in range(nvalues)]
    span = [[leap_mask[v][s] | sum(1 << t for path in ride_paths[v][s] for t in path[0]) for s in range(n + 1)]
            for v in range(nvalues)]

    # 62-bit keys: compiled (mypyc) code keeps an int below 2**62 unboxed, so
    # the hash arithmetic of every move and table probe allocates nothing;
    # 64-bit keys were boxed big ints (docs/performance.md, "Verify").  A
    # collision is still negligible (about 2**31 positions to expect one).
    zrng = random.Random(f"{variant.name}/{n}")  # string seeds are stable across runs
    z_board = [[zrng.getrandbits(ZOBRIST_BITS) for _ in range(n + 1)] for _ in range(nvalues)]
    max_count = sum(k.count for k in kinds)
    z_hand = [[[zrng.getrandbits(ZOBRIST_BITS) for _ in range(max_count + 1)] for _ in kinds] for _ in (0, 1)]
    for c in (0, 1):
        for ki in range(len(kinds)):
            z_hand[c][ki][0] = 0  # an empty hand contributes nothing
    z_side = zrng.getrandbits(ZOBRIST_BITS)
    z_from = [[z ^ z_side for z in zv] for zv in z_board]
    z_hand_step = [[[zh[i] ^ zh[i + 1] for i in range(max_count)] + [0] for zh in zc] for zc in z_hand]

    royal_kind = next(i for i, k in enumerate(kinds) if k.royal)
    return Tables(
        variant=variant,
        n=n,
        face_names=face_names,
        face_letters=face_letters,
        face_kind=face_kind,
        face_promoted=face_promoted,
        nvalues=nvalues,
        flip=flip,
        royal=royal,
        hand_kind=hand_kind,
        leap_targets=leap_targets,
        ride_paths=ride_paths,
        reach=reach,
        leap_reach=leap_reach,
        leap_mask=leap_mask,
        leap_moves=leap_moves,
        ride_hits=ride_hits,
        leap_att=leap_att,
        leap_zone=leap_zone,
        leap_from=leap_from,
        ray_att=ray_att,
        nkinds=len(kinds),
        kind_letters=[k.letter for k in kinds],
        royal_kind=royal_kind,
        kind_count=[k.count for k in kinds],
        drop_faces=drop_faces,
        unpromoted_face=unpromoted_face,
        board_mask=board_mask,
        low_mask=low_mask,
        high_mask=high_mask,
        between=between,
        rider=rider,
        span=span,
        drop_rows={},
        z_board=z_board,
        z_hand=z_hand,
        z_side=z_side,
        z_from=z_from,
        z_hand_step=z_hand_step,
    )
