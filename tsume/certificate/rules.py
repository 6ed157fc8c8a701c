"""The rules of Ito Shogi and Rutherford's 1-D Shogi, written again from
docs/rules.md for the certificate checker.

Standard library only, sharing no code with the engine: the checker's
independence is the point (tests/test_certificate.py holds this module's
moves to the engine's on random positions, so independence is not a second
source of bugs).  Positions are immutable tuples, moves are strings as in
docs/notation.md (``19-18``, ``P*18``, ``+N*5``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

BLACK, WHITE = 0, 1


class RulesError(ValueError):
    """A variant spec or a position string the checker cannot read."""


# Faces: letter ('+' for promoted) -> (leaps, rides); leaps and ride directions
# are forward-relative; a ride is (direction, stride, max distance (0: none),
# empty squares reached before a screen?, empty squares reached beyond one?,
# capture by sliding (the first piece) or by hopping (the first beyond a screen)).
_SLIDE = (True, False, "slide")
_KOREAN = (False, True, "hop")      # the Ito cannon: a screen for moves and captures
_CHINESE = (True, False, "hop")     # Rutherford's cannon: slides, captures over a screen


def _ride(direction: int, stride: int = 1, limit: int = 0, mode: tuple = _SLIDE) -> tuple:
    return (direction, stride, limit) + mode


_ITO = {
    "K": ((1, 2, -1), ()),
    "P": ((1,), ()), "+P": ((1, -1), ()),
    "T": ((2, -1), ()), "+T": ((1, 2, -2), ()),
    "C": ((), (_ride(1, mode=_KOREAN), _ride(-1, mode=_KOREAN))), "+C": ((), (_ride(1), _ride(-1))),
    "H": ((3, -3), ()), "+H": ((2, 3, -2, -3), ()),
    "G": ((4, -2), ()), "+G": ((1, -1, 4, -4), ()),
    "F": ((-1,), (_ride(1, 2),)), "+F": ((), (_ride(1, 2), _ride(-1, 2))),
}
_RUTHERFORD = {
    "K": ((1, 2), ()),
    "P": ((1,), ()), "+P": ((1, -1), ()),
    "S": ((1, 2, -2), ()), "+S": ((1, 2, -1), ()),
    "N": ((1, 3), ()), "+N": ((2, 3, -2, -3), ()),
    "B": ((), (_ride(1, 2, 8), _ride(-1, 2, 8))), "+B": ((), (_ride(1, 1, 8, _CHINESE), _ride(-1, 1, 8, _CHINESE))),
    "L": ((), (_ride(1, 1, 8),)), "+L": ((), (_ride(1, 1, 4), _ride(-1, 1, 4))),
}


class Rules(NamedTuple):
    name: str
    kinds: str            # hand order, the king first
    faces: dict
    sizes: tuple          # the board lengths allowed
    drop_promoted: bool   # Rutherford: drops either side up
    king_limits: bool     # Rutherford: no drop behind or next to one's own king
    drop_mate: bool       # may a drop give mate?
    stalemate_illegal: bool


_BOOL = {"yes": True, "on": True, "true": True, "1": True, "no": False, "off": False, "false": False, "0": False}


def rules_for(spec: str) -> Rules:
    """The rules of a variant spec (docs/rules.md, decision 9)."""
    if not isinstance(spec, str):
        raise RulesError("the variant must be a string")
    name, _, switches = spec.strip().lower().partition(":")
    if name == "ito":
        values = {"drop_mate": True, "stalemate": "illegal", "repetition": True}
    elif name == "rutherford":
        values = {"repetition": True}
    else:
        raise RulesError(f"unknown variant {spec[:40]!r}")
    for item in filter(None, (s.strip() for s in switches.split(","))):
        key, _, value = item.partition("=")
        if key not in values:
            raise RulesError(f"unknown switch {key[:20]!r} for {name}")
        if value not in (("illegal", "loss") if key == "stalemate" else _BOOL):
            raise RulesError(f"bad value for {key}")
        values[key] = value if key == "stalemate" else _BOOL[value]
    if name == "ito":
        return Rules("ito", "KPTCHGF", _ITO, (31,), False, False, bool(values["drop_mate"]),
                     values["stalemate"] == "illegal")
    # Repetition is a rule of games only: tsume has its own convention.
    return Rules("rutherford", "KPSNBL", _RUTHERFORD, tuple(range(9, 65)), True, True, False, False)


class Pos(NamedTuple):
    """board[1..n] (board[0] unused): '' or a piece ('P', '+p'); hands[side]
    counts by kind in ``Rules.kinds`` order (the king's always 0); turn."""

    board: tuple
    hands: tuple
    turn: int


def side_of(piece: str) -> int:
    return BLACK if piece[-1].isupper() else WHITE


def forward(side: int) -> int:
    return -1 if side == BLACK else 1  # Black plays toward square 1


def parse_position(text: str, rules: Rules) -> Pos:
    """Read a position string (docs/notation.md); the move number is ignored."""
    if not isinstance(text, str):
        raise RulesError("the position must be a string")
    fields = text.split()
    if len(fields) not in (3, 4):
        raise RulesError("a position has 3 or 4 fields")
    board: list[str] = [""]
    for token in re.findall(r"[0-9]+|\+?.", fields[0]):
        if token.isdigit():
            if len(token) > 3 or int(token) == 0:
                raise RulesError("bad run of empty squares")
            board += [""] * int(token)
        elif token[:-1] + token[-1].upper() not in rules.faces:
            raise RulesError(f"bad piece {token!r}")
        else:
            board.append(token)
    if len(board) - 1 not in rules.sizes:
        raise RulesError(f"a board of {len(board) - 1} squares")
    if fields[1] not in ("b", "w"):
        raise RulesError("the side to move must be b or w")
    hands = [[0] * len(rules.kinds), [0] * len(rules.kinds)]
    if fields[2] != "-":
        if not re.fullmatch(r"([0-9]?[A-Za-z])+", fields[2]) or any(rules.kinds.find(c.upper()) <= 0 for c in fields[2] if c.isalpha()):
            raise RulesError(f"bad hand {fields[2][:20]!r}")
        for count, ch in re.findall(r"([0-9]?)([A-Za-z])", fields[2]):
            hands[side_of(ch)][rules.kinds.find(ch.upper())] += int(count or "1")
    return Pos(tuple(board), (tuple(hands[0]), tuple(hands[1])), BLACK if fields[1] == "b" else WHITE)


def king_square(pos: Pos, side: int) -> int:
    king = "K" if side == BLACK else "k"
    return pos.board.index(king) if king in pos.board else 0


def validate(pos: Pos, rules: Rules) -> str | None:
    """Why a position cannot be a tsume (docs/rules.md, decision 6), or None."""
    for k, letter in enumerate(rules.kinds):
        limit = 1 if letter == "K" else 2
        on_board = [p for p in pos.board if p and p[-1].upper() == letter]
        if letter == "K" and any(sum(side_of(p) == s for p in on_board) > 1 for s in (BLACK, WHITE)):
            return "two kings of one side"
        if letter != "K" and len(on_board) + pos.hands[0][k] + pos.hands[1][k] > limit:
            return f"more than {limit} of {letter}"
    if in_check(pos, 1 - pos.turn, rules):
        return "the side not to move is in check"
    return None


def _targets(board: tuple, sq: int, piece: str, rules: Rules) -> list[int]:
    """Squares the piece on ``sq`` can move to (empty, or an enemy to capture)."""
    side, fwd, n = side_of(piece), forward(side_of(piece)), len(board) - 1
    leaps, rides = rules.faces[piece.upper()]
    out = [t for t in (sq + d * fwd for d in leaps) if 1 <= t <= n and (not board[t] or side_of(board[t]) != side)]
    return out + [t for ride in rides for t in _ride_targets(board, sq, side, fwd, ride)]


def _ride_targets(board: tuple, sq: int, side: int, fwd: int, ride: tuple) -> list[int]:
    direction, stride, limit, before, beyond, capture = ride
    step, n, out = direction * fwd * stride, len(board) - 1, []
    t, screened = sq + step, False
    while 1 <= t <= n and (not limit or abs(t - sq) <= limit):
        other = board[t]
        if not other:
            if (before and not screened) or (beyond and screened):
                out.append(t)
        elif capture == "slide" or screened:
            if side_of(other) != side:
                out.append(t)
            break
        else:
            screened = True
        t += step
    return out


def _hits(board: tuple, sq: int, piece: str, target: int, rules: Rules, leaps_too: bool = True) -> bool:
    """``target in _targets(board, sq, piece, rules)`` (by a ride only, unless
    ``leaps_too``), walking only the rides toward it: every move is tested for check."""
    side, fwd = side_of(piece), forward(side_of(piece))
    if board[target] and side_of(board[target]) == side:
        return False
    leaps, rides = rules.faces[piece.upper()]
    if leaps_too and (target - sq) * fwd in leaps:
        return True
    return any(target in _ride_targets(board, sq, side, fwd, ride) for ride in rides if (ride[0] * fwd > 0) == (target > sq))


def attacked(board: tuple, target: int, by: int, rules: Rules) -> bool:
    return any(p and side_of(p) == by and _hits(board, sq, p, target, rules) for sq, p in enumerate(board) if sq)


def in_check(pos: Pos, side: int, rules: Rules) -> bool:
    k = king_square(pos, side)
    return bool(k) and attacked(pos.board, k, 1 - side, rules)


def drop_squares(pos: Pos, rules: Rules) -> list[int]:
    k = king_square(pos, pos.turn) if rules.king_limits else 0  # then not behind it (toward one's home end) nor next to it
    return [sq for sq, p in enumerate(pos.board) if sq and not p and (not k or (sq < k - 1 if pos.turn == BLACK else sq > k + 1))]


def pseudo_moves(pos: Pos, rules: Rules) -> list[str]:
    side, board = pos.turn, pos.board
    moves = [f"{sq}-{t}" for sq, p in enumerate(board) if sq and p and side_of(p) == side for t in _targets(board, sq, p, rules)]
    squares = drop_squares(pos, rules) if any(pos.hands[side]) else []
    for letter in (rules.kinds[k] for k, c in enumerate(pos.hands[side]) if c):
        for face in (letter, "+" + letter) if rules.drop_promoted else (letter,):
            moves += [f"{face}*{sq}" for sq in squares]
    return moves


def make(pos: Pos, move: str, rules: Rules) -> Pos:
    """The position after a pseudo-legal move (not checked here)."""
    side = pos.turn
    board = list(pos.board)
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    if "*" in move:
        face, _, square = move.partition("*")
        hands[side][rules.kinds.index(face[-1])] -= 1
        board[int(square)] = face if side == BLACK else face.lower()
    else:
        a, _, b = move.partition("-")
        frm, to = int(a), int(b)
        piece, taken = board[frm], board[to]
        if taken:
            hands[side][rules.kinds.index(taken[-1].upper())] += 1
            if piece[-1].upper() != "K":
                # Capture flips the capturer, either way.
                piece = piece[1:] if piece[0] == "+" else "+" + piece
        board[frm], board[to] = "", piece
    return Pos(tuple(board), (tuple(hands[0]), tuple(hands[1])), 1 - side)


def has_king_safe_move(pos: Pos, rules: Rules) -> bool:
    """The inner test of decision 1: movement, drop limits and king safety only."""
    return any(not in_check(make(pos, m, rules), pos.turn, rules) for m in pseudo_moves(pos, rules))


def _barred(move: str, after: Pos, check: bool, rules: Rules) -> bool:
    """A king-safe move against a side with a king that is still illegal: a
    drop that gives checkmate, or (Ito) a move that stalemates."""
    if check:
        return "*" in move and not rules.drop_mate and not has_king_safe_move(after, rules)
    return rules.stalemate_illegal and not has_king_safe_move(after, rules)


def legal(pos: Pos, rules: Rules) -> list[tuple[str, Pos, bool]]:
    """(move, position after, gives check) for every legal move.  Repetition
    is a rule of games: the tsume convention is the checker's business."""
    after = ((m, make(pos, m, rules)) for m in pseudo_moves(pos, rules))
    out = [(m, a, in_check(a, 1 - pos.turn, rules)) for m, a in after if not in_check(a, pos.turn, rules)]
    return [(m, a, c) for m, a, c in out if not (king_square(a, 1 - pos.turn) and _barred(m, a, c, rules))]


def checks(pos: Pos, rules: Rules) -> list[tuple[str, Pos]]:
    """(move, position after) for the legal moves that give check (the
    stalemate rule never bars one)."""
    after = ((m, make(pos, m, rules)) for m in pseudo_moves(pos, rules))  # the cheap test first
    return [(m, a) for m, a in after if in_check(a, 1 - pos.turn, rules) and not in_check(a, pos.turn, rules) and not _barred(m, a, True, rules)]


def play(pos: Pos, move: object, rules: Rules) -> Pos | None:
    """The position after ``move`` if it is legal here, else None."""
    if not isinstance(move, str) or move not in pseudo_moves(pos, rules):
        return None
    after, other = make(pos, move, rules), 1 - pos.turn
    if in_check(after, pos.turn, rules) or (king_square(after, other) and _barred(move, after, in_check(after, other, rules), rules)):
        return None
    return after


def ride_checkers(pos: Pos, rules: Rules) -> list[int]:
    """The pieces checking the side to move's king along a ride, not by a leap."""
    k, by = king_square(pos, pos.turn), 1 - pos.turn
    return [sq for sq, p in enumerate(pos.board) if k and p and side_of(p) == by and _hits(pos.board, sq, p, k, rules, False)]


def interposition_checker(pos: Pos, move: str, rules: Rules) -> int:
    """The checker's square if the defender's ``move`` is an interposition: a
    drop or non-king move onto a square strictly between the king and a ride
    checker (the lowest such checker); else 0 (docs/solver.md, convention 6)."""
    k = king_square(pos, pos.turn)
    if not k:
        return 0
    if "*" not in move and int(move.partition("-")[0]) == k:
        return 0
    to = int(move.replace("*", "-").rpartition("-")[2])
    return next((c for c in ride_checkers(pos, rules) if min(c, k) < to < max(c, k)), 0)


def handed_back(pos: Pos, rules: Rules, kind_letter: str) -> Pos:
    """``pos`` with one piece of a kind moved from the hand of the side that
    just moved (the capturer) to the side to move."""
    k = rules.kinds.index(kind_letter.upper())
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    hands[1 - pos.turn][k] -= 1
    hands[pos.turn][k] += 1
    return Pos(pos.board, (tuple(hands[0]), tuple(hands[1])), pos.turn)

