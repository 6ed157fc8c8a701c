"""A naive, independent reference implementation of the move rules.

Written from the rules as ``docs/rules.md`` states them (not from the engine), to serve as a
trusted oracle for the fast engine in :mod:`tsume.position`.  Everything here is
deliberately simple and slow: positions are plain Python lists, every make-move
copies the whole position, and king safety is decided by generating every enemy
move and looking whether one of them lands on the king.

Conventions
-----------
* ``board[1..n]`` holds ``None`` or a piece ``(side, letter, promoted)`` with
  ``side`` ``"b"`` or ``"w"``, ``letter`` uppercase, ``promoted`` a bool.
  ``board[0]`` is unused.
* Black moves toward square 1, White toward square n, so a forward-relative
  offset ``d`` of a ``side`` piece on ``sq`` goes to ``sq + d * FWD[side]``.
* Moves are ``("move", from, to)`` or ``("drop", letter, promoted, to)``;
  :func:`move_str` turns them into the project's strings (``19-18``, ``P*18``,
  ``+L*18``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

FWD = {"b": -1, "w": 1}
OTHER = {"b": "w", "w": "b"}

# --- piece movements, straight from the tables of docs/rules.md ----------------
#
# A movement is one of:
#   ("leap", d)                    reach offset d whatever stands between
#   ("slide", dir, max)            unobstructed slide (max squares, 0 = unlimited)
#   ("rider2", dir, max)           stride-2 rider: lands on 2, 4, ... (max squares)
#   ("korean", dir)                Korean cannon: moves and captures by jumping one piece
#   ("chinese", dir, max)          Chinese cannon: quiet slide, captures by jumping one piece


def _leaps(*ds):
    return [("leap", d) for d in ds]


ITO_MOVES = {
    # letter: (unpromoted movements, promoted movements)
    "K": (_leaps(1, 2, -1), None),
    "P": (_leaps(1), _leaps(1, -1)),
    "T": (_leaps(2, -1), _leaps(1, 2, -2)),
    "C": ([("korean", 1), ("korean", -1)], [("slide", 1, 0), ("slide", -1, 0)]),
    "H": (_leaps(3, -3), _leaps(2, 3, -2, -3)),
    "G": (_leaps(4, -2), _leaps(1, -1, 4, -4)),
    "F": ([("rider2", 1, 0)] + _leaps(-1), [("rider2", 1, 0), ("rider2", -1, 0)]),
}

RUTHERFORD_MOVES = {
    "K": (_leaps(1, 2), None),
    "P": (_leaps(1), _leaps(1, -1)),
    "S": (_leaps(1, 2, -2), _leaps(1, 2, -1)),
    "N": (_leaps(1, 3), _leaps(2, 3, -2, -3)),
    "B": ([("rider2", 1, 8), ("rider2", -1, 8)], [("chinese", 1, 8), ("chinese", -1, 8)]),
    "L": ([("slide", 1, 8)], [("slide", 1, 4), ("slide", -1, 4)]),
}


@dataclass(frozen=True)
class Rules:
    name: str  # "ito" or "rutherford"
    moves: dict
    set_count: dict  # letter -> number in the whole set (both sides)
    drop_promoted: bool
    drop_king_limits: bool
    drop_mate: bool
    stalemate: str  # "illegal" or "loss"
    min_length: int
    max_length: int


ITO = Rules("ito", ITO_MOVES, {"K": 2, "P": 2, "T": 2, "C": 2, "H": 2, "G": 2, "F": 2},
            drop_promoted=False, drop_king_limits=False, drop_mate=True, stalemate="illegal",
            min_length=31, max_length=31)
RUTHERFORD = Rules("rutherford", RUTHERFORD_MOVES, {"K": 2, "P": 2, "S": 2, "N": 2, "B": 2, "L": 2},
                   drop_promoted=True, drop_king_limits=True, drop_mate=False, stalemate="loss",
                   min_length=9, max_length=64)

ITO_START = "k3fg1hc2tp5PT2CH1GF3K b - 1"


@functools.cache
def get_rules(spec: str) -> Rules:
    """``ito``, ``rutherford``, ``ito:drop_mate=no``, ``ito:stalemate=loss``, ..."""
    name, _, opts = spec.partition(":")
    rules = {"ito": ITO, "rutherford": RUTHERFORD}[name]
    changes = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        if key == "drop_mate":
            changes["drop_mate"] = value in ("yes", "on", "true", "1")
        elif key == "stalemate":
            changes["stalemate"] = value
        elif key == "repetition":
            pass  # games only; irrelevant for a single position
        else:
            raise ValueError(f"unknown switch {key}")
    return Rules(**{**rules.__dict__, **changes})


# --- positions -------------------------------------------------------------------


@dataclass
class NaivePosition:
    rules: Rules
    board: list  # index 0 unused
    side: str
    hands: dict = field(default_factory=lambda: {"b": {}, "w": {}})

    @property
    def n(self) -> int:
        return len(self.board) - 1

    def copy(self) -> "NaivePosition":
        return NaivePosition(self.rules, list(self.board), self.side,
                             {"b": dict(self.hands["b"]), "w": dict(self.hands["w"])})


def parse(text: str | None, spec: str = "ito") -> NaivePosition:
    """Parse ``<board> <side> <hands> [<move number>]``.  No legality checks."""
    rules = get_rules(spec)
    if text is None:
        text = ITO_START
    fields = text.split()
    board_text, side, hand_text = fields[0], fields[1], fields[2]
    board = [None]
    for count, plus, letter in re.findall(r"(\d+)|(\+?)([A-Za-z])", board_text):
        if count:
            board += [None] * int(count)
        else:
            board.append(("b" if letter.isupper() else "w", letter.upper(), plus == "+"))
    hands = {"b": {}, "w": {}}
    if hand_text != "-":
        for count, letter in re.findall(r"(\d*)([A-Za-z])", hand_text):
            owner = "b" if letter.isupper() else "w"
            hands[owner][letter.upper()] = hands[owner].get(letter.upper(), 0) + int(count or 1)
    assert side in ("b", "w")
    return NaivePosition(rules, board, side, hands)


def to_string(pos: NaivePosition, move_number: int | None = 1) -> str:
    out, empty = [], 0
    for sq in range(1, pos.n + 1):
        p = pos.board[sq]
        if p is None:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        s, letter, prom = p
        out.append(("+" if prom else "") + (letter if s == "b" else letter.lower()))
    if empty:
        out.append(str(empty))
    hand = ""
    for s in ("b", "w"):
        for letter in pos.rules.set_count:  # the order of the tables in docs/rules.md
            c = pos.hands[s].get(letter, 0)
            if c:
                hand += (str(c) if c > 1 else "") + (letter if s == "b" else letter.lower())
    text = f"{''.join(out)} {pos.side} {hand or '-'}"
    return text if move_number is None else f"{text} {move_number}"


def piece_counts(pos: NaivePosition) -> dict:
    counts = {}
    for p in pos.board[1:]:
        if p is not None:
            counts[p[1]] = counts.get(p[1], 0) + 1
    for s in ("b", "w"):
        for letter, c in pos.hands[s].items():
            counts[letter] = counts.get(letter, 0) + c
    return counts


def king_square(pos: NaivePosition, side: str):
    king = (side, "K", False)
    return pos.board.index(king) if king in pos.board else None


def is_valid(pos: NaivePosition) -> bool:
    """Board length, piece set, one king per side at most, side not to move not in check."""
    r = pos.rules
    if not r.min_length <= pos.n <= r.max_length:
        return False
    for letter, c in piece_counts(pos).items():
        if c > r.set_count.get(letter, 0):
            return False
    for s in ("b", "w"):
        if sum(1 for p in pos.board[1:] if p == (s, "K", False)) > 1:
            return False
        if pos.hands[s].get("K"):
            return False
    if any(p is not None and p[1] == "K" and p[2] for p in pos.board[1:]):
        return False
    return not in_check(pos, OTHER[pos.side])


# --- move generation ---------------------------------------------------------------


def destinations(pos: NaivePosition, sq: int) -> list:
    """Every square the piece on ``sq`` may move to (empty or enemy), ignoring king safety."""
    board = pos.board
    side, letter, prom = board[sq]
    unprom_moves, prom_moves = pos.rules.moves[letter]
    f = FWD[side]
    n = len(board) - 1
    result = []
    for mv in prom_moves if prom else unprom_moves:
        kind = mv[0]
        if kind == "leap":
            t = sq + mv[1] * f
            if 1 <= t <= n and (board[t] is None or board[t][0] != side):
                result.append(t)
        elif kind in ("slide", "rider2"):
            # land on every (stride)th square while the landing squares are empty;
            # stop on the first occupied landing square, capturing an enemy there.
            _, d, limit = mv
            stride = 1 if kind == "slide" else 2
            k = stride
            while limit == 0 or k <= limit:
                t = sq + k * d * f
                if not 1 <= t <= n:
                    break
                if board[t] is None:
                    result.append(t)
                else:
                    if board[t][0] != side:
                        result.append(t)
                    break
                k += stride
        elif kind == "korean":
            # squares up to the screen must be empty; beyond it: empty squares, or
            # the first piece met (captured if enemy); never a second piece crossed.
            d = mv[1]
            screen_seen = False
            t = sq + d * f
            while 1 <= t <= n:
                if not screen_seen:
                    if board[t] is not None:
                        screen_seen = True
                elif board[t] is None:
                    result.append(t)
                else:
                    if board[t][0] != side:
                        result.append(t)
                    break
                t += d * f
        elif kind == "chinese":
            # quiet moves: unobstructed slide 1..limit; captures: jump exactly one
            # piece, target (first piece beyond the screen) at most limit away.
            _, d, limit = mv
            screen_seen = False
            for k in range(1, limit + 1):
                t = sq + k * d * f
                if not 1 <= t <= n:
                    break
                if not screen_seen:
                    if board[t] is None:
                        result.append(t)
                    else:
                        screen_seen = True
                elif board[t] is not None:
                    if board[t][0] != side:
                        result.append(t)
                    break
        else:
            raise AssertionError(kind)
    return result


def attacks(pos: NaivePosition, side: str, target: int) -> bool:
    """Does some piece of ``side`` have a move landing on ``target``?"""
    board = pos.board
    for sq in range(1, len(board)):
        if board[sq] is not None and board[sq][0] == side and target in destinations(pos, sq):
            return True
    return False


def in_check(pos: NaivePosition, side: str) -> bool:
    k = king_square(pos, side)
    return k is not None and attacks(pos, OTHER[side], k)


def drop_squares(pos: NaivePosition, side: str) -> list:
    squares = [sq for sq in range(1, pos.n + 1) if pos.board[sq] is None]
    if pos.rules.drop_king_limits:
        k = king_square(pos, side)
        if k is not None:
            # not behind the own king, not at distance < 2: i.e. at least 2 squares in front
            squares = [sq for sq in squares if (sq - k) * FWD[side] >= 2]
    return squares


def pseudo_moves(pos: NaivePosition):
    """All board moves and drops of the side to move, ignoring king safety (a generator)."""
    side = pos.side
    for sq in range(1, pos.n + 1):
        p = pos.board[sq]
        if p is not None and p[0] == side:
            for t in destinations(pos, sq):
                yield ("move", sq, t)
    letters = sorted(letter for letter, c in pos.hands[side].items() if c > 0)
    if letters:
        for sq in drop_squares(pos, side):
            for letter in letters:
                yield ("drop", letter, False, sq)
                if pos.rules.drop_promoted:
                    yield ("drop", letter, True, sq)


def make(pos: NaivePosition, move) -> NaivePosition:
    new = pos.copy()
    side = pos.side
    if move[0] == "move":
        _, fr, to = move
        piece = new.board[fr]
        captured = new.board[to]
        if captured is not None:
            assert captured[0] != side
            hand = new.hands[side]
            hand[captured[1]] = hand.get(captured[1], 0) + 1
            if piece[1] != "K":
                piece = (piece[0], piece[1], not piece[2])
        new.board[fr] = None
        new.board[to] = piece
    else:
        _, letter, prom, to = move
        assert new.board[to] is None and new.hands[side].get(letter, 0) > 0
        new.hands[side][letter] -= 1
        if new.hands[side][letter] == 0:
            del new.hands[side][letter]
        new.board[to] = (side, letter, prom)
    new.side = OTHER[side]
    return new


def king_safe_moves(pos: NaivePosition) -> list:
    """Pseudo moves that do not leave the mover's own king attacked."""
    return [m for m in pseudo_moves(pos) if not in_check(make(pos, m), pos.side)]


def has_king_safe_move(pos: NaivePosition) -> bool:
    return any(not in_check(make(pos, m), pos.side) for m in pseudo_moves(pos))


def judge(pos: NaivePosition, move) -> tuple:
    """``(verdict, gives_check)`` for a pseudo move.

    The verdict is ``"legal"``, ``"king attacked"`` (leaves the mover's king
    attacked), ``"stalemate"`` (the opponent, not in check, is left without a
    king-safe move, and stalemates are illegal) or ``"drop mate"`` (a drop leaving
    the opponent in check without a king-safe move, and drop mate is forbidden).
    The repetition rule is not applied.
    """
    r = pos.rules
    new = make(pos, move)
    if in_check(new, pos.side):
        return "king attacked", None
    opp_checked = in_check(new, new.side)
    # Project decision (docs/rules.md, decision 4): a side without a king is never
    # stalemated -- with no move left it has simply run out of play.
    opp_has_king = king_square(new, new.side) is not None
    if r.stalemate == "illegal" and opp_has_king and not opp_checked and not has_king_safe_move(new):
        return "stalemate", False
    if move[0] == "drop" and not r.drop_mate and opp_checked and not has_king_safe_move(new):
        return "drop mate", True
    return "legal", opp_checked


def legal_moves(pos: NaivePosition) -> list:
    """Legal moves (no repetition rule): king safety, stalemate rule, drop-mate rule."""
    return [m for m in pseudo_moves(pos) if judge(pos, m)[0] == "legal"]


def move_str(move) -> str:
    if move[0] == "move":
        return f"{move[1]}-{move[2]}"
    _, letter, prom, to = move
    return f"{'+' if prom else ''}{letter}*{to}"


def legal_move_strs(pos: NaivePosition) -> set:
    return {move_str(m) for m in legal_moves(pos)}


def checking_move_strs(pos: NaivePosition) -> set:
    """Legal moves after which the opponent is in check."""
    return {move_str(m) for m in pseudo_moves(pos) if judge(pos, m) == ("legal", True)}


def perft(pos: NaivePosition, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(make(pos, m), depth - 1) for m in moves)
