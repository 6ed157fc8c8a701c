"""Where candidates come from: random placement, mutation, the reverse method.

Every source draws its choices from the ``random.Random`` it is given, so a
seeded run repeats exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..position import BLACK, Piece, Position
from ..problem import NONE, REST, DefenderHand, rest_of_set
from ..variant import Variant
from .candidate import Candidate
from .material import Material, default_profiles
from ..render import canonical_order

__all__ = ["random_candidates", "mutate", "mate_pictures", "two_plies_back", "METHODS", "DEFAULT_METHODS"]

#: The methods ``tsume compose --method`` accepts (``climb``: tsume.compose.climb;
#: ``stretch``: tsume.compose.stretch).
METHODS = ("random", "mutate", "reverse", "climb", "stretch")
#: The methods of a run that names none.
DEFAULT_METHODS = ("random", "mutate", "reverse")


def random_candidates(rng: random.Random, variant: str, material: Material | None = None) -> Iterator[Candidate]:
    """Random placements from ``material``, or from the rotation of
    :func:`~tsume.compose.material.default_profiles` when none is given."""
    profiles = [material] if material is not None else default_profiles(variant)
    i = 0
    while True:
        yield profiles[i % len(profiles)].draw(rng, variant)
        i += 1


def _promotable(variant: Variant, letter: str) -> bool:
    return any(k.letter.upper() == letter.upper() and k.promoted is not None and not k.royal
               for k in variant.kinds)


def mutate(c: Candidate, rng: random.Random) -> Candidate:
    """One random edit of ``c`` (the result may be invalid; callers check):
    move a man, the defender's king or the attacker's king; add a piece to
    the attacker's hand or take one out; lift a man into the hand; add or
    remove a man; flip one; switch the defender's hand rule; and for
    Rutherford, lengthen or shorten the board at either end."""
    n = c.n
    t = c.pos.t
    v = c.pos.variant
    # The edit is made on a board of pieces (board[s]: square s; board[0]
    # unused) and hand counts; the new candidate is built from them.
    board: list[Piece | None] = [None, *c.pos.board()]
    hand = c.hand_counts()
    letters = t.kind_letters
    defender = c.defender
    dk = c.king("defender")
    empties = [s for s in range(1, n + 1) if board[s] is None]
    att, dfd = c.squares("attacker"), c.squares("defender")
    pool = c.pool()
    op = rng.choices(
        ["move_att", "move_def", "move_king", "hand_add", "hand_remove", "lift", "board_add_att",
         "board_add_def", "board_remove", "flip", "defender", "move_att_king", "resize"],
        weights=[5, 2, 2, 4, 2, 2, 3, 2, 2, 2, 1, 1, 0 if v.board_length else 2],
    )[0]

    def near_empty(s: int, r: int) -> int | None:
        opts = [e for e in empties if abs(e - s) <= r]
        return rng.choice(opts) if opts else None

    if op in ("move_att", "move_def") and (att if op == "move_att" else dfd):
        s = rng.choice(att if op == "move_att" else dfd)
        to = near_empty(s, rng.choice([2, 4, n]))
        if to:
            board[to], board[s] = board[s], None
    elif op == "move_king" and dk:
        to = near_empty(dk, rng.choice([1, 2, 3]))
        if to:
            board[to], board[dk] = board[dk], None
    elif op == "move_att_king":
        ak = c.king("attacker")
        if ak:
            if rng.random() < 0.3:
                board[ak] = None
            else:
                to = near_empty(ak, n)
                if to:
                    board[to], board[ak] = board[ak], None
        elif empties:
            board[rng.choice(empties)] = t.kind_piece(letters[t.royal_kind], BLACK)
    elif op == "hand_add" and pool:
        hand[letters.index(rng.choice(pool))] += 1
    elif op == "hand_remove" and any(hand):
        hand[letters.index(rng.choice(sorted(c.hand)))] -= 1
    elif op == "lift" and att:
        s = rng.choice(att)
        piece = board[s]
        assert piece is not None
        board[s] = None
        hand[letters.index(piece.kind)] += 1
    elif op in ("board_add_att", "board_add_def") and pool and empties:
        k = rng.choice(pool)
        spot = near_empty(dk, rng.choice([3, 6, n])) if dk else rng.choice(empties)
        if spot:
            symbol = k if op == "board_add_att" else k.lower()
            if rng.random() < 0.25 and _promotable(v, k):
                symbol = "+" + symbol
            board[spot] = t.piece(symbol)
    elif op == "board_remove" and (att or dfd):
        board[rng.choice(att + dfd)] = None
    elif op == "flip" and (att or dfd):
        s = rng.choice(att + dfd)
        piece = board[s]
        assert piece is not None
        if piece.promoted:
            board[s] = t.piece(piece.symbol()[1:])
        elif _promotable(v, piece.kind):
            board[s] = t.piece("+" + piece.symbol())
    elif op == "defender":
        defender = None if c.defender == "none" else "none"
    elif op == "resize":
        grow = rng.random() < 0.6
        at_top = rng.random() < 0.5
        size = rng.randint(1, 4)
        if grow and n + size <= v.max_length:
            board = [None, *[None] * size, *board[1:]] if at_top else [*board, *[None] * size]
        elif not grow and n - size >= v.min_length:
            if at_top and all(p is None for p in board[1:size + 1]):
                board = [None, *board[size + 1:]]
            elif not at_top and all(p is None for p in board[n - size + 1:]):
                board = board[:n - size + 1]
    pieces = [(s, p) for s, p in enumerate(board) if p is not None]
    if defender == c.defender:
        return Candidate.build(v, len(board) - 1, pieces, hand, defender, c.rule)
    return Candidate.build(v, len(board) - 1, pieces, hand, defender)


def _as_candidate(pos: Position) -> Candidate | None:
    """The candidate of a tsume position reached by un-moving, with the
    defender's hand as a rule when it is one ("the rest" or "none") and as
    letters otherwise."""
    defender = pos.hand_counts(1)
    if defender == rest_of_set(pos):
        c = Candidate.from_position(pos, None, REST)
    elif not any(defender):
        c = Candidate.from_position(pos, "none", NONE)
    else:
        c = Candidate.from_position(pos, pos.hand_string(1).lower(), DefenderHand.held(pos))
    return c if c.problem() is not None else None


def mate_pictures(rng: random.Random, variant: str, material: Material | None = None) -> Iterator[tuple[Position, Candidate]]:
    """Mate pictures and the one-ply problems they come from: a random
    placement (attacker to move) one of whose checks mates; yields (the
    mated position, the candidate before the mating move) -- the mated
    position is where the reverse method starts."""
    for c in random_candidates(rng, variant, material):
        pos = c.position()
        if pos is None:
            continue
        mates = []
        for m in sorted(pos.checks(), key=canonical_order(pos)):
            pos.push(m)
            if pos.is_checkmate():
                mates.append(pos.copy())
            pos.pop()
        if mates:
            yield rng.choice(mates), c


def two_plies_back(c: Candidate, rng: random.Random, breadth: int) -> list[Candidate]:
    """Up to ``breadth`` candidates two plies before ``c``: un-move a defender
    move that answered a check, then the attacker's check before it (the
    reverse method's step).  The un-moves follow the rules of both games
    (:meth:`Position.unmoves <tsume.position.Position.unmoves>`); the candidates are drawn at random among
    all, so that a run explores different lines."""

    pos = c.position()
    if pos is None:
        return []
    out: dict[str, Candidate] = {}
    before_defender = [(p, m) for p, m in pos.unmoves() if p.is_check()]
    rng.shuffle(before_defender)
    for p, _m in before_defender:
        attacker_moves = p.unmoves()
        rng.shuffle(attacker_moves)
        for q, _a in attacker_moves[:max(2, breadth // 2)]:
            cand = _as_candidate(q)
            if cand is not None:
                out.setdefault(cand.fen() + str(cand.defender), cand)
        if len(out) >= breadth:
            break
    return [out[k] for k in sorted(out)][:breadth]
