"""Seeded random tsume positions: attacker to move, defender king on the board.

Pieces are placed near the defender's king so that mates are common; the
generator is used by the cross-check tests, the benchmarks and (later) the
composer.  Every position returned is valid.
"""

from __future__ import annotations

import random

from .errors import PositionError
from .position import Colour, Piece, Position, build_position
from .tables import BLACK, WHITE, tables_for
from .variant import Variant, get_variant

__all__ = ["random_tsume"]


def random_tsume(
    rng: random.Random,
    variant: "Variant | str" = "ito",
    *,
    length: int | None = None,
    attacker_men: tuple[int, int] = (1, 4),
    defender_men: tuple[int, int] = (0, 3),
    attacker_hand: tuple[int, int] = (0, 3),
    attacker_king: float = 0.3,
    spread: int = 6,
    promoted: float = 0.25,
    attacker: Colour = BLACK,
) -> Position:
    """A random valid tsume position (the defender's hand left empty: "the rest").

    Counts are drawn uniformly from the given (low, high) ranges; pieces of
    both sides stand within ``spread`` squares of the defender's king.
    """
    v = get_variant(variant)
    while True:
        n = length or v.board_length or rng.randint(max(v.min_length, 11), min(v.max_length, 25))
        t = tables_for(v, n)
        board: list[Piece | None] = [None] * (n + 1)
        king = t.kind_letters[t.royal_kind]
        pool = [ki for ki in range(t.nkinds) if ki != t.royal_kind for _ in range(t.kind_count[ki])]
        rng.shuffle(pool)
        defender = attacker ^ 1
        # The defender's king towards its own home end more often than not.
        if rng.random() < 0.6:
            home = range(1, min(n, 6) + 1) if defender == WHITE else range(max(1, n - 5), n + 1)
            ksq = rng.choice(list(home))
        else:
            ksq = rng.randint(1, n)
        board[ksq] = t.kind_piece(king, defender)
        near = [s for s in range(max(1, ksq - spread), min(n, ksq + spread) + 1) if s != ksq]

        def place(colour: Colour, count: int) -> None:
            for _ in range(count):
                if not pool:
                    return
                free = [s for s in near if not board[s]]
                if not free:
                    return
                ki = pool.pop()
                symbol = t.kind_letters[ki]
                if rng.random() < promoted and t.variant.kinds[ki].promoted is not None:
                    symbol = "+" + symbol
                board[rng.choice(free)] = t.piece(symbol if colour == BLACK else symbol.lower())

        place(attacker, rng.randint(*attacker_men))
        place(defender, rng.randint(*defender_men))
        if rng.random() < attacker_king:
            free = [s for s in range(1, n + 1) if not board[s]]
            board[rng.choice(free)] = t.kind_piece(king, attacker)
        hand = [0] * t.nkinds
        for _ in range(rng.randint(*attacker_hand)):
            if pool:
                hand[pool.pop()] += 1
        hands = [[0] * t.nkinds, [0] * t.nkinds]
        hands[attacker] = hand
        try:
            pos = build_position(v, n, [(s, p) for s, p in enumerate(board) if p is not None], hands, attacker)
            pos.validate()
        except PositionError:
            continue
        if pos.is_check():
            continue  # the attacker must not start in check
        return pos

