"""Positions for people and programs: text diagrams and JSON-ready descriptions."""

from __future__ import annotations

from .position import BLACK, COLOUR_NAMES, WHITE, Position

__all__ = ["diagram", "hand_text", "describe", "sorted_moves"]


def hand_text(pos: Position, colour: int) -> str:
    """A colour's hand in words, e.g. ``2 Pawn, Goose`` (``-`` if empty)."""
    t = pos.t
    parts = []
    for ki, cnt in enumerate(pos.hands[colour]):
        if cnt:
            name = t.face_names[t.unpromoted_face[ki]]
            parts.append(f"{cnt} {name}" if cnt > 1 else name)
    return ", ".join(parts) or "-"


def _cell(pos: Position, s: int) -> str:
    p = pos.piece_at(s)
    return p if p else "."


def diagram(pos: Position, compact: bool = False) -> str:
    """A readable diagram: squares with numbers, pieces, both hands, side to move.

    The default lists one square per line (top = square 1, White's home end),
    naming each piece; ``compact`` prints the file on two lines.
    Uppercase letters are Black, lowercase White, ``+`` marks a promoted piece.
    """
    t = pos.t
    title = pos.variant.title
    if pos.variant.start_is_provisional and pos.fen(False) == Position.start(pos.variant).fen(False):
        title += " -- provisional start position (the original is lost)"
    lines = [title, f"White hand: {pos.hand_string(WHITE).lower()}   ({hand_text(pos, WHITE)})"]
    if compact:
        width = max(2, len(str(t.n))) + 1
        lines.append("".join(str(s).rjust(width) for s in range(1, t.n + 1)))
        lines.append("".join(_cell(pos, s).rjust(width) for s in range(1, t.n + 1)))
    else:
        width = len(str(t.n))
        for s in range(1, t.n + 1):
            v = pos.board[s]
            if not v:
                lines.append(f"  {str(s).rjust(width)}  .")
                continue
            colour = COLOUR_NAMES[v & 1]
            name = t.face_names[v >> 1]
            lines.append(f"  {str(s).rjust(width)}  {_cell(pos, s):<3}{colour} {name}")
    lines.append(f"Black hand: {pos.hand_string(BLACK)}   ({hand_text(pos, BLACK)})")
    to_move = COLOUR_NAMES[pos.turn]
    status = ", in check" if pos.is_check() else ""
    lines.append(f"{to_move} to move{status} (move {pos.move_number}); Black moves toward square 1")
    lines.append(f"Position: {pos.fen()}")
    return "\n".join(lines)


def sorted_moves(pos: Position) -> list[int]:
    """The legal moves in display order: board moves by from- then to-square, then drops."""
    return sorted(pos.legal_moves(), key=lambda m: (m & 127 == 0, m & 127, m >> 7))


def describe(pos: Position) -> dict:
    """What ``tsume show --json`` prints: a dict of plain values (see docs/notation.md)."""
    moves = sorted_moves(pos)
    in_check = pos.is_check()
    return {
        "position": pos.fen(),
        "variant": pos.variant.spec,
        "title": pos.variant.title,
        "squares": pos.n,
        "side_to_move": COLOUR_NAMES[pos.turn].lower(),
        "move_number": pos.move_number,
        "hands": {"black": pos.hand_string(BLACK), "white": pos.hand_string(WHITE).lower()},
        "board": [pos.piece_at(s) for s in range(1, pos.n + 1)],
        "in_check": in_check,
        "checkmate": in_check and not moves,
        "stalemate": not in_check and not moves,
        "legal_moves": [pos.move_str(m) for m in moves],
    }
