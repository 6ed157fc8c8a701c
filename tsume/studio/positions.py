"""What the studio's editor asks of a position: read it, say in one line what
the engine would reject, draw it, list its moves.

A position being set up is often not yet legal (two kings while one is
moved, a piece too many): it is still drawn, with the engine's own one-line
message and the squares it concerns marked, so the composer sees at once
what to fix.  It is read as the position string reader reads it (form only,
:class:`tsume._engine.Setup`); the engine holds it without
validation, and a second king of a side -- which the engine cannot hold at
all -- is drawn onto the diagram by the same renderer's
:func:`tsume.svg.piece`.  Warnings name what the engine accepts but a
composer would not want (a piece that can never move again, no check to
start with).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import TsumeError
from .._engine import Setup
from ..notation import join_board
from ..position import BLACK, COLOUR_NAMES, WHITE, Colour, Piece, Position
from ..problem import DefenderHand, Problem
from ..render import canonical_order, describe
from ..svg import board as draw
from ..svg import piece
from ..variant import Variant, get_variant

__all__ = ["examine", "position_text", "dead_pieces"]


def position_text(board: Sequence[str | None], hands: Mapping[Any, str], side: str) -> str:
    """A position string from the editor's fields: one token per square
    (None or "" for empty), each side's hand (``2PT``, ``-``), the side to
    move (``black``/``white``)."""
    black = "" if hands.get("black", "-") in ("", "-") else hands["black"].upper()
    white = "" if hands.get("white", "-") in ("", "-") else hands["white"].lower()
    return f"{join_board(tok or '' for tok in board)} {'w' if side == 'white' else 'b'} {black + white or '-'} 1"


def _targets(variant: Variant, letter: str, colour: Colour, square: int, n: int) -> bool:
    """Whether the face ``letter`` (``+`` for promoted) of ``colour`` on
    ``square`` has any square to go to on an empty board of ``n`` squares."""
    kind = variant.kind(letter.lstrip("+").upper())
    face = kind.promoted if letter.startswith("+") and kind.promoted is not None else kind.unpromoted
    fw = -1 if colour == BLACK else 1  # forward: Black plays toward square 1 (docs/rules.md)
    for leap in face.leaps:
        if 1 <= square + fw * leap <= n:
            return True
    for ride in face.rides:
        step = fw * ride.direction * ride.stride
        # A hopper needs a screen on one landing square and the next one free.
        need = 2 if ride.move == "hop" and ride.capture == "hop" else 1
        if ride.max_distance and need * ride.stride > ride.max_distance:
            continue
        if 1 <= square + need * step <= n:
            return True
    return False


def dead_pieces(parsed: Setup, variant: Variant) -> list[tuple[int, str]]:
    """``(square, words)`` for each piece that can never move from where it
    stands (a Black Pawn on square 1): legal, but no composer wants one."""
    out = []
    n = len(parsed.board)
    for s, p in enumerate(parsed.board, 1):
        if p is not None and not _targets(variant, p.letter, p.colour, s, n):
            out.append((s, f"the {COLOUR_NAMES[p.colour]} {p.name} on {s} can never move"))
    return out


def _hand_counts(hands: Sequence[Sequence[int]], letters: Sequence[str]) -> dict[str, dict[str, int]]:
    """Both hands as ``{"black": {"P": 2}, "white": {}}`` (letters uppercase)."""
    return {name: {letters[ki]: n for ki, n in enumerate(hands[int(c)]) if n}
            for name, c in (("black", BLACK), ("white", WHITE))}


def _kings(parsed: Setup) -> dict[Colour, list[int]]:
    """The squares of each side's kings."""
    kings: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
    for s, p in enumerate(parsed.board, 1):
        if p is not None and p.royal:
            kings[p.colour].append(s)
    return kings


def _error_squares(parsed: Setup) -> list[int]:
    """The squares the engine's objection is about, for marking: a side's
    kings when it has two, every piece of a kind the set has too few of, the
    king of the side not to move (in check)."""
    t = parsed.tables
    kings = _kings(parsed)
    for colour in (BLACK, WHITE):
        if len(kings[colour]) > 1:
            return kings[colour]
    by_kind: dict[str, list[int]] = {}
    for s, p in enumerate(parsed.board, 1):
        if p is not None:
            by_kind.setdefault(p.kind, []).append(s)
    for ki, letter in enumerate(t.kind_letters):
        held = len(by_kind.get(letter, [])) + parsed.hands[BLACK][ki] + parsed.hands[WHITE][ki]
        if ki != t.royal_kind and held > t.kind_count[ki]:
            return by_kind.get(letter, [])
    return kings[parsed.turn ^ 1][:1]


def _text(parsed: Setup, board: list[Piece | None]) -> str:
    side = "b" if parsed.turn == BLACK else "w"
    return f"{parsed.tables.board_string(board)} {side} {parsed.tables.hands_string(parsed.hands)} {parsed.move_number}"


def _with_pieces(svg: str, pos: Position, pieces: list[tuple[int, Piece]], kanji: bool) -> str:
    """The diagram ``svg`` of ``pos`` with ``pieces`` ((square, piece)) drawn
    on their squares as the renderer draws a piece (tsume.svg.piece): the
    pieces the engine could not hold (a side's second king)."""
    extra = []
    for square, held in pieces:
        box = re.search(rf'<rect class="sq[^"]*" data-square="{square}" x="([0-9.]+)" y="([0-9.]+)" '
                        rf'width="([0-9.]+)"', svg)
        if box is not None:
            x, y, size = (float(g) for g in box.groups())
            extra.append(piece(pos, held, x + 1, y + 1, size - 2, kanji=kanji, square=square))
    return svg.replace("</svg>", "".join(extra) + "</svg>") if extra else svg


def examine(text: str, variant_spec: str, defender: str | None, moves: list[str], kanji: bool = False,
            standalone: bool = False) -> dict[str, Any]:
    """Everything the editor shows for a position (docs/studio.md, ``POST
    /api/position``).  Raises a TsumeError when the text cannot even be read
    (the API answers 422); a position that reads but would be rejected comes
    back with ``valid`` false, its ``error`` line and a diagram."""
    variant = get_variant(variant_spec)
    parsed = Setup(text, variant)
    t = parsed.tables
    # A side's kings past its first: the engine holds the rest, the drawing adds them.
    extra = [(s, king) for squares in _kings(parsed).values() for s in squares[1:]
             if (king := parsed.board[s - 1]) is not None]
    board = list(parsed.board)
    for s, _ in extra:
        board[s - 1] = None
    loose = Position(_text(parsed, board), variant, validate=False)
    dead = dead_pieces(parsed, variant)
    out: dict[str, Any] = {
        "input": _text(parsed, parsed.board), "given_hands": _hand_counts(parsed.hands, t.kind_letters),
        "variant": variant.spec, "valid": True, "error": None, "error_squares": [], "tsume_position": None,
        "tsume_error": None, "warnings": [w for _, w in dead], "warning_squares": [s for s, _ in dead],
    }
    try:
        Position(text, variant)
    except TsumeError as exc:
        out.update(valid=False, error=str(exc), error_squares=_error_squares(parsed))
    pos = loose
    if out["valid"]:
        try:
            # "as-given": the defender holds what the position gives it, nothing included (the editor's
            # "the pieces named below").
            rule = DefenderHand.held(loose) if defender == "as-given" else defender
            pos = Problem(text, variant=variant, defender=rule).position()
            out["tsume_position"] = pos.fen()
        except TsumeError as exc:
            out["tsume_error"] = str(exc)
            pos = Position(text, variant)
    last = None
    if moves:
        if not out["valid"]:
            raise TsumeError(f"moves: the position is not legal ({out['error']})")
        for i, move in enumerate(moves, 1):
            try:
                last = pos.push_str(move)
            except TsumeError as exc:
                raise TsumeError(f"moves[{i}]: {exc}") from None
    if out["valid"]:
        out.update(describe(pos))
        out["checks"] = [str(m) for m in sorted(pos.checks(), key=canonical_order(pos))]
        if not moves and out["tsume_position"] and not out["checks"]:
            out["warnings"].append(f"{COLOUR_NAMES[pos.turn]} (to move) has no check: no tsume starts here")
        if not moves and pos.is_check():
            out["warnings"].append(f"{COLOUR_NAMES[pos.turn]} (to move) is in check")
        caption = None
    else:
        out.update(position=out["input"], squares=len(parsed.board),
                   side_to_move=COLOUR_NAMES[parsed.turn].lower(),
                   board=[None if p is None else p.symbol() for p in parsed.board],
                   hands={"black": t.hands_string([parsed.hands[BLACK], [0] * t.nkinds]),
                          "white": t.hands_string([[0] * t.nkinds, parsed.hands[WHITE]])},
                   legal_moves=[], checks=[])
        caption = f"Not legal: {out['error']}"
    out["hand_counts"] = _hand_counts([pos.hand_counts(BLACK), pos.hand_counts(WHITE)], t.kind_letters)
    # (An illegal position's check is not asked: with two kings it means nothing.)
    svg = draw(pos, kanji=kanji, lastmove=last, caption=caption, standalone=standalone,
               check=None if out["valid"] else False)
    out["svg"] = _with_pieces(svg, pos, extra, kanji)
    return out
