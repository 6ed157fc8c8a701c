"""Positions and lines for people and programs: text diagrams, move lists and
JSON-ready descriptions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .conventions import rest_of_set
from .position import BLACK, COLOUR_NAMES, WHITE, Colour, Move, Position

__all__ = ["diagram", "hand_text", "describe", "sorted_moves", "move_order", "canonical_order", "counted", "plies", "mated", "numbered", "wrap_words",
           "useless_by_check", "LINE_WIDTH"]

#: The width move lists are wrapped to: readable in any terminal, and in an
#: e-mail or an issue when pasted.
LINE_WIDTH = 72


def counted(n: int, one: str, many: str) -> str:
    """A count for people, the noun agreeing with it: ``1 problem``, ``6 problems``."""
    return f"{n} {one if n == 1 else many}"


def plies(n: int) -> str:
    """A count of plies for people: ``1 ply``, ``9 plies``."""
    return counted(n, "ply", "plies")


def mated(moves: list[str]) -> list[str]:
    """The moves of a line that ends in mate, ``#`` appended to the last (the mating move)."""
    return moves[:-1] + [moves[-1] + "#"] if moves else []


def numbered(moves: list[str], first: int = 1) -> list[str]:
    """``1. T6-4``, ``2. k2-3``, ...: each move with its ply, counting from ``first``."""
    return [f"{ply}. {move}" for ply, move in enumerate(moves, first)]


def useless_by_check(variations: Iterable[Any]) -> dict[int, list[str]]:
    """The useless interpositions among a main line's defender alternatives,
    grouped by the check they answer: its ply (the one before theirs, which
    for those after the mate is the mating move's) to their readable moves,
    in main-line order.  ``variations`` are :class:`tsume.solve.Variation` or
    verify's defender alternatives (``ply``, ``useless``, ``readable``)."""
    groups: dict[int, list[str]] = {}
    for v in variations:
        if v.useless:
            groups.setdefault(v.ply - 1, []).append(v.readable)
    return dict(sorted(groups.items()))


def wrap_words(head: str, words: list[str], indent: str, width: int = LINE_WIDTH, sep: str = "  ") -> list[str]:
    """``head`` followed by ``words`` joined by ``sep``, in lines of at most ``width``
    columns; lines after the first start with ``indent``.

    A word is never split (``textwrap`` would break ``3. P*2`` at its space or
    ``k2-3`` at its hyphen); one wider than a line gets a line of its own.
    """
    lines: list[str] = []
    line = head
    fresh = True  # nothing but the head or the indent on the line yet
    for word in words:
        if not fresh and len(line) + len(sep) + len(word) > width:
            lines.append(line)
            line, fresh = indent, True
        line += word if fresh else sep + word
        fresh = False
    lines.append(line)
    return lines


def hand_text(pos: Position, colour: Colour) -> str:
    """A colour's hand in words, e.g. ``2 Pawn, Goose`` (``-`` if empty)."""
    t = pos.t
    parts = []
    for letter, cnt in zip(t.kind_letters, pos.hand_counts(colour)):
        if cnt:
            name = t.kind_piece(letter, colour).name
            parts.append(f"{cnt} {name}" if cnt > 1 else name)
    return ", ".join(parts) or "-"


def _cell(pos: Position, s: int) -> str:
    p = pos.piece_at(s)
    return p.symbol() if p else "."


def _hand_line(pos: Position, colour: Colour, tsume: bool) -> str:
    """A colour's hand line of the diagram.  For a tsume the defender's hand is
    marked ``(the rest)`` when it is the rest of the set: the solvers' default,
    which the position string usually leaves implicit (often empty), so the
    reader sees what the defender can drop without working it out."""
    name = COLOUR_NAMES[colour]
    letters = pos.hand_string(colour)
    if colour == WHITE:
        letters = letters.lower()
    rest = tsume and colour != pos.turn and pos.hand_counts(colour) == rest_of_set(pos)
    label = f"{name} hand (the rest)" if rest else f"{name} hand"
    return f"{label}: {letters}   ({hand_text(pos, colour)})"


def diagram(pos: Position, compact: bool = False, tsume: bool = False) -> str:
    """A readable diagram: squares with numbers, pieces, both hands, side to move.

    The default lists one square per line (top = square 1, White's home end),
    naming each piece; ``compact`` prints the file on two lines.
    Uppercase letters are Black, lowercase White, ``+`` marks a promoted piece.
    ``tsume``: ``pos`` is a tsume as the solvers read it (attacker to move, the
    defender's hand filled in: ``Problem(...).position()``); a
    defender's hand that is the rest of the set is then labelled so.
    """
    t = pos.t
    title = pos.variant.title
    if pos.variant.start_is_provisional and pos.fen(False) == Position.start(pos.variant).fen(False):
        title += " -- provisional start position (the original is lost)"
    lines = [title, _hand_line(pos, WHITE, tsume)]
    if compact:
        width = max(2, len(str(t.n))) + 1
        lines.append("".join(str(s).rjust(width) for s in range(1, t.n + 1)))
        lines.append("".join(_cell(pos, s).rjust(width) for s in range(1, t.n + 1)))
    else:
        width = len(str(t.n))
        for s, piece in enumerate(pos.board(), 1):
            if piece is None:
                lines.append(f"  {str(s).rjust(width)}  .")
                continue
            lines.append(f"  {str(s).rjust(width)}  {piece.symbol():<3}{COLOUR_NAMES[piece.colour]} {piece.name}")
    lines.append(_hand_line(pos, BLACK, tsume))
    to_move = COLOUR_NAMES[pos.turn]
    status = ", in check" if pos.is_check() else ""
    lines.append(f"{to_move} to move{status} (move {pos.move_number}); Black moves toward square 1")
    lines.append(f"Position: {pos.fen()}")
    return "\n".join(lines)


def move_order(pos: Position) -> Callable[[Move], tuple[int, int, int]]:
    """The sort key of display order in ``pos``'s game: board moves by from-
    then to-square, then drops by piece (the variant's order) then square."""
    faces = {letter: i for i, letter in enumerate(pos.t.faces)}

    def key(m: Move) -> tuple[int, int, int]:
        if m.drop is None:
            return 0, m.from_square or 0, m.to_square
        return 1, faces.get(m.drop, len(faces)), m.to_square

    return key


def canonical_order(pos: Position) -> Callable[[Move], tuple[int, int, int]]:
    """The sort key of the order the solvers try and list moves in, in
    ``pos``'s game: board moves first, by to- then from-square, then drops
    by piece (the variant's order), then square.  Reports follow it, so that
    the same problem always reads the same."""
    faces = {letter: i for i, letter in enumerate(pos.t.faces, 1)}

    def key(m: Move) -> tuple[int, int, int]:
        return (0 if m.drop is None else faces.get(m.drop, len(faces) + 1)), m.to_square, m.from_square or 0

    return key


def sorted_moves(pos: Position) -> list[Move]:
    """The legal moves in display order (:func:`move_order`)."""
    return sorted(pos.legal_moves(), key=move_order(pos))


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
        "board": [None if p is None else p.symbol() for p in pos.board()],
        "in_check": in_check,
        "checkmate": in_check and not moves,
        "stalemate": not in_check and not moves,
        "legal_moves": [str(m) for m in moves],
    }
