"""What the studio's editor asks of a position: read it, say in one line what
the engine would reject, draw it, list its moves.

A position being set up is often not yet legal (two kings while one is
moved, a piece too many): it is still drawn (read without validation), with
the engine's own one-line message and the squares it concerns marked, so the
composer sees at once what to fix.  Warnings name what the engine accepts
but a composer would not want (a piece that can never move again, no check
to start with).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import TsumeError
from ..notation import join_board
from ..position import BLACK, COLOUR_NAMES, WHITE, Position
from ..problem import DefenderHand, Problem
from ..render import describe
from ..svg import board as draw
from ..tables import forward
from ..variant import Variant, get_variant

__all__ = ["examine", "position_text", "dead_pieces"]


def position_text(board: Sequence[str | None], hands: Mapping[Any, str], side: str) -> str:
    """A position string from the editor's fields: one token per square
    (None or "" for empty), each side's hand (``2PT``, ``-``), the side to
    move (``black``/``white``)."""
    black = "" if hands.get("black", "-") in ("", "-") else hands["black"].upper()
    white = "" if hands.get("white", "-") in ("", "-") else hands["white"].lower()
    return f"{join_board(tok or '' for tok in board)} {'w' if side == 'white' else 'b'} {black + white or '-'} 1"


def _targets(variant: Variant, letter: str, colour: int, square: int, n: int) -> bool:
    """Whether the face ``letter`` (``+`` for promoted) of ``colour`` on
    ``square`` has any square to go to on an empty board of ``n`` squares."""
    kind = variant.kind(letter.lstrip("+").upper())
    face = kind.promoted if letter.startswith("+") and kind.promoted is not None else kind.unpromoted
    fw = forward(colour)
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


def dead_pieces(pos: Position) -> list[tuple[int, str]]:
    """``(square, words)`` for each piece that can never move from where it
    stands (a Black Pawn on square 1): legal, but no composer wants one."""
    out = []
    for s in range(1, pos.n + 1):
        token = pos.piece_at(s)
        if token is None:
            continue
        colour = BLACK if token.lstrip("+").isupper() else WHITE
        if not _targets(pos.variant, token.upper(), colour, s, pos.n):
            name = pos.t.face_names[pos.board[s] >> 1]
            out.append((s, f"the {COLOUR_NAMES[colour]} {name} on {s} can never move"))
    return out


def _hand_counts(pos: Position) -> dict[str, dict[str, int]]:
    """Both hands as ``{"black": {"P": 2}, "white": {}}`` (letters uppercase)."""
    letters = pos.t.kind_letters
    return {name: {letters[ki]: n for ki, n in enumerate(pos.hands[c]) if n}
            for name, c in (("black", BLACK), ("white", WHITE))}


def _error_squares(pos: Position) -> list[int]:
    """The squares the engine's objection is about, for marking: a side's
    kings when it has two, every piece of a kind the set has too few of, a
    checked king of the side not to move."""
    t = pos.t
    kings: dict[int, list[int]] = {BLACK: [], WHITE: []}
    by_kind: dict[int, list[int]] = {}
    counts = [0] * t.nkinds
    for s in range(1, pos.n + 1):
        v = pos.board[s]
        if v:
            ki = t.face_kind[v >> 1]
            counts[ki] += 1
            by_kind.setdefault(ki, []).append(s)
            if t.royal[v]:
                kings[v & 1].append(s)
    for colour in (BLACK, WHITE):
        if len(kings[colour]) > 1:
            return kings[colour]
    for ki in range(t.nkinds):
        if ki != t.royal_kind and counts[ki] + pos.hands[BLACK][ki] + pos.hands[WHITE][ki] > t.kind_count[ki]:
            return by_kind.get(ki, [])
    other = pos.turn ^ 1
    return [pos.kings[other]] if pos.kings[other] else []


def examine(text: str, variant_spec: str, defender: str | None, moves: list[str], kanji: bool = False,
            standalone: bool = False) -> dict[str, Any]:
    """Everything the editor shows for a position (docs/studio.md, ``POST
    /api/position``).  Raises a TsumeError when the text cannot even be read
    (the API answers 422); a position that reads but would be rejected comes
    back with ``valid`` false, its ``error`` line and a diagram."""
    variant = get_variant(variant_spec)
    loose = Position(text, variant, validate=False)
    out: dict[str, Any] = {"input": loose.fen(), "given_hands": _hand_counts(loose), "variant": variant.spec,
                           "valid": True, "error": None,
                           "error_squares": [], "tsume_position": None, "tsume_error": None, "warnings": []}
    try:
        Position(text, variant)
    except TsumeError as exc:
        out.update(valid=False, error=str(exc), error_squares=_error_squares(loose))
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
    out["warnings"] = [words for _, words in dead_pieces(loose)]
    out["warning_squares"] = [s for s, _ in dead_pieces(loose)]
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
        out["checks"] = [pos.move_str(m) for m in sorted(pos.checks())]
        if not moves and out["tsume_position"] and not out["checks"]:
            out["warnings"].append(f"{COLOUR_NAMES[pos.turn]} (to move) has no check: no tsume starts here")
        if not moves and pos.is_check():
            out["warnings"].append(f"{COLOUR_NAMES[pos.turn]} (to move) is in check")
        caption = None
    else:
        out.update(position=loose.fen(), squares=loose.n, side_to_move=COLOUR_NAMES[loose.turn].lower(),
                   board=[loose.piece_at(s) for s in range(1, loose.n + 1)],
                   hands={"black": loose.hand_string(BLACK), "white": loose.hand_string(WHITE).lower()},
                   legal_moves=[], checks=[])
        caption = f"Not legal: {out['error']}"
    out["hand_counts"] = _hand_counts(pos)
    # (An illegal position's check is not asked: with two kings it means nothing.)
    out["svg"] = draw(pos, kanji=kanji, lastmove=last, caption=caption, standalone=standalone,
                      check=None if out["valid"] else False)
    return out
