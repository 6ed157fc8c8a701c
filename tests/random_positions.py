"""Seeded random positions for cross-checking the engine against the naive rules.

Every position produced is valid by the naive rules (:mod:`naive_rules`): board
length in range, never more pieces than the set, at most one king per side, and
the side not to move is not in check.  The side not to move always has its king;
the side to move (the "attacker" of a tsume problem) sometimes has none.  About a
third of the positions have the side to move in check.

Several kinds of position are mixed:

* ``random``  -- each piece of the set lands on the board (random owner, random
  face), in a hand, or (sometimes) nowhere; often every piece not on the board is
  in some hand ("full hands");
* ``endgame`` -- the side not to move has its king, at most two men and an empty
  hand, the side to move has a few men, mostly near that king, and a few pieces in
  hand: this makes the stalemate and drop-mate rules matter;
* ``aligned`` -- a ranged piece (cannon, stride-2 rider, lance, chariot) is put on
  a line with a king, sometimes with a screen between, before the rest is filled in.
"""

from __future__ import annotations

import random

try:
    from tests import naive_rules as nr
except ImportError:  # pragma: no cover - when tests/ itself is on sys.path
    import naive_rules as nr

RANGED = {"ito": "CF", "rutherford": "BL"}


def _men(rules: nr.Rules) -> list:
    """Every non-king piece of the set, one entry per copy."""
    return [letter for letter, c in rules.set_count.items() if letter != "K" for _ in range(c)]


def _empty_squares(board):
    return [sq for sq in range(1, len(board)) if board[sq] is None]


def _place_kings(rng, board, side, n, king_absent, endgame):
    """Place the kings; returns their squares by side (None if absent)."""
    kings = {}
    for s in ("b", "w"):
        if s == side and king_absent:
            kings[s] = None
            continue
        empty = _empty_squares(board)
        if endgame and s != side and rng.random() < 0.6:
            # the defender's king near its home end (White: square 1, Black: square n)
            home = [sq for sq in (range(1, 5) if s == "w" else range(n - 3, n + 1)) if board[sq] is None]
            empty = home or empty
        sq = rng.choice(empty)
        board[sq] = (s, "K", False)
        kings[s] = sq
    return kings


def _attempt(rng: random.Random, rules: nr.Rules, n: int) -> nr.NaivePosition:
    side = "b" if rng.random() < 0.6 else "w"
    board = [None] * (n + 1)
    hands = {"b": {}, "w": {}}
    mode = rng.choices(["random", "endgame", "aligned"], weights=[5, 3, 2])[0]
    king_absent = rng.random() < 0.12
    kings = _place_kings(rng, board, side, n, king_absent, mode == "endgame")
    men = _men(rules)
    rng.shuffle(men)
    p_promoted = rng.choice([0.0, 0.2, 0.4, 0.7])

    def put(letter, owner, sq=None, promoted=None):
        if sq is None:
            sq = rng.choice(_empty_squares(board))
        if promoted is None:
            promoted = rng.random() < p_promoted
        board[sq] = (owner, letter, promoted)

    def to_hand(letter, owner):
        hands[owner][letter] = hands[owner].get(letter, 0) + 1

    if mode == "aligned":
        ranged = [m for m in men if m in RANGED[rules.name]]
        target_side = rng.choice([s for s in ("b", "w") if kings[s] is not None])
        k = kings[target_side]
        letter = rng.choice(ranged)
        men.remove(letter)
        owner = nr.OTHER[target_side] if rng.random() < 0.85 else target_side
        step = rng.choice([1, -1])
        distance = rng.choice([2, 4, 6, 8, 10] if rng.random() < 0.5 else [1, 2, 3, 4, 5, 6, 7, 8, 9])
        sq = k + step * distance
        if 1 <= sq <= n and board[sq] is None:
            put(letter, owner, sq)
            between = [s for s in range(min(k, sq) + 1, max(k, sq)) if board[s] is None]
            if between and men and rng.random() < 0.6:
                screen = men.pop()
                put(screen, rng.choice("bw"), rng.choice(between))
        else:
            men.append(letter)

    if mode == "endgame":
        defender = nr.OTHER[side]
        k = kings[defender]
        near = [sq for sq in range(max(1, k - 7), min(n, k + 7) + 1)]
        for _ in range(rng.choice([0, 0, 1, 2])):
            if men:
                put(men.pop(), defender)
        for _ in range(rng.randint(1, 5)):
            empty_near = [sq for sq in near if board[sq] is None]
            if men:
                put(men.pop(), side, rng.choice(empty_near) if empty_near and rng.random() < 0.7 else None)
        for _ in range(rng.randint(0, 3)):
            if men:
                to_hand(men.pop(), side)
        # the rest stays out of the game (the defender's hand stays empty)
    else:
        density = rng.choice([0.15, 0.3, 0.5, 0.75, 0.95])
        full_hands = rng.random() < 0.6
        for letter in men:
            if rng.random() < density and _empty_squares(board):
                put(letter, rng.choice("bw"))
            elif full_hands or rng.random() < 0.5:
                to_hand(letter, rng.choice("bw"))
    return nr.NaivePosition(rules, board, side, hands)


def random_position(rng: random.Random, spec: str = "ito", in_check: bool | None = None,
                    min_length: int = 9, max_length: int = 40) -> str:
    """One valid position string; ``in_check`` forces whether the side to move is in check."""
    rules = nr.get_rules(spec)
    if in_check is None:
        in_check = rng.random() < 1 / 3
    for _ in range(10_000):
        n = 31 if rules.name == "ito" else rng.randint(min_length, max_length)
        pos = _attempt(rng, rules, n)
        if nr.is_valid(pos) and nr.in_check(pos, pos.side) == in_check:
            return nr.to_string(pos, rng.choice([1, 1, 7, 42, None]))
    raise RuntimeError("could not generate a position")


def random_positions(seed: int, spec: str, count: int, **kwargs) -> list:
    """``count`` position strings, the same for the same arguments."""
    rng = random.Random(f"{seed}:{spec}")
    return [random_position(rng, spec, **kwargs) for _ in range(count)]


if __name__ == "__main__":  # a quick look: python tests/random_positions.py
    for spec in ("ito", "rutherford"):
        for text in random_positions(1, spec, 8):
            print(spec, text)
