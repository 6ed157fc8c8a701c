"""Diagrams of positions as SVG: a one-dimensional board with shogi pieces.

:func:`board` draws a position the way a shogi diagram does, laid out for a
one-dimensional file::

    import tsume
    from tsume import svg
    pos = tsume.Position("1k2PT+Fh5+f17 b PCtch2g 1")
    open("problem.svg", "w").write(svg.board(pos))

The file runs from square 1 (White's home end) on the left to the last square
on the right, so Black plays leftward and White rightward.  Every piece is a
shogi pentagon whose point shows the way its owner plays; its face carries the
piece letter (or, with ``kanji=True``, the kanji of the shogi piece of that
name where one exists -- :attr:`tsume.variant.Face.kanji`), red on a promoted
face as in shogi.  Above each square is its number; White's hand is drawn above
the file at White's end and Black's below it at Black's end, as a shogi diagram
puts each hand by its owner; a marker and a caption name the side to move.

Layout.  A 31-square file is long.  By default it is one row: a 1-D problem is
read by distances (a Goose leaps 4, a Heavenly Horse 3, a Bishop every second
square), and only an unbroken row shows them at a glance.  The SVG has a
``viewBox`` and no fixed size unless ``size`` is given, so it scales to the
width of its container: on a printed page a 31-square row is about 6 mm a
square; on a phone a page can let it scroll sideways.  ``fold=N`` folds the
file into rows of N squares (square N+1 starts the next row, as text wraps)
for narrow screens where scrolling is not wanted; the square numbers keep the
distances countable.

The SVG is self-contained: no external font, image or stylesheet.  Text uses
the reader's own sans-serif font; kanji need a font with CJK glyphs on the
reader's system (most have one).

Text is laid out to fit whatever font the reader's system picks for
``sans-serif``: the room every label, count and caption line gets is reserved
by :func:`max_text_width`, an upper bound of a string's advance width taken
character by character (the widest glyphs of common regular and bold faces,
serif and monospace included, plus a margin), never by one font's metrics.
A long caption is wrapped onto several lines (one ``<text class="caption">``
each) instead of widening the diagram or running past its edge.

Every drawn thing carries data attributes so programs (and our browser tests)
can read a diagram back: ``<svg data-position=... data-variant=...>``, each
square ``<rect class="sq" data-square="N">`` (plus ``lastmove`` or ``check``
in its class when highlighted), each piece ``<g class="piece black|white"
data-square="N" data-piece="P">`` (the position string's token: uppercase
Black, lowercase White, ``+`` promoted) and each hand ``<g class="hand
black|white" data-hand="2PT">``.
"""

from __future__ import annotations

import math
import unicodedata
from xml.sax.saxutils import escape, quoteattr

from .arguments import check_flag, check_positive_int
from .errors import ArgumentError
from .position import BLACK, COLOUR_NAMES, WHITE, Colour, Move, Piece, Position
from .tables import tables_for
from .variant import Variant

__all__ = ["board", "piece", "max_text_width", "drawing_data", "STYLE", "MAX_SIZE"]

#: The largest ``size`` (pixels per square) a diagram takes.
MAX_SIZE = 1000

#: The size of a square in SVG user units (the viewBox scales it).
SQUARE = 40
_MARGIN = 8
_NUMBER_BAND = 16   # the square numbers above each row
_HAND_BAND = 34     # one hand's row
_ROW_GAP = 10       # between folded rows
# The font sizes of the style sheet, in user units: the layout reserves room by them.
# The square numbers and the caption are 0.3 of a square: 9.6 px where a page
# draws a square 32 px wide (the booklet), the least a reader makes out easily.
_NUMBER_SIZE = 12
_LABEL_SIZE = 13    # a hand's side name (bold when that side is to move) and "none"
_COUNT_SIZE = 11    # the count beside a hand piece
_CAPTION_SIZE = 12
# A caption line's pitch: room for the ascent and descent of any font, a CJK
# fallback's (about 1.45 em) included.
_CAPTION_LEADING = 1.5 * _CAPTION_SIZE
_SIGN_ROOM = 18     # a hand's side sign (12.8 wide) and the space before it
_GAP = 6            # between the sign and the pieces

# The look, as one style sheet per diagram: a wooden piece on a pale board, as
# in printed shogi diagrams, red for a promoted face.  Classes keep each square
# and piece short, which matters in a booklet holding hundreds of frames.  The
# rules are the same in every diagram, so several diagrams in one HTML page
# (where a style sheet applies page-wide) agree.
STYLE = (
    "<style>"
    ".tsume-board text{font-family:sans-serif}"
    ".tsume-board .sq{fill:#fbf5e6;stroke:#6b5a3e;stroke-width:1}"
    ".tsume-board .sq.lastmove{fill:#f2d45c}"
    ".tsume-board .sq.check{fill:#f08a8a}"
    ".tsume-board .check-ring{fill:none;stroke:#c8102e;stroke-width:3}"
    f".tsume-board .num{{font-size:{_NUMBER_SIZE}px;fill:#6b6b6b;text-anchor:middle}}"
    ".tsume-board .piece polygon{fill:#f3d9a4;stroke:#5a4326;stroke-width:1.2;stroke-linejoin:round}"
    ".tsume-board .piece text{font-size:17.5px;font-weight:bold;text-anchor:middle;"
    "dominant-baseline:central;fill:#1a1a1a}"
    ".tsume-board .piece.pro text{fill:#c8102e}"
    ".tsume-board .piece.kanji text{font-family:'Noto Sans CJK JP','Noto Serif CJK JP','Hiragino Mincho ProN',"
    "'Yu Mincho','MS Mincho',serif}"
    ".tsume-board .side-marker{stroke:#1a1a1a;stroke-width:1.2}"
    ".tsume-board .side-marker.black{fill:#1a1a1a}.tsume-board .side-marker.white{fill:#fff}"
    f".tsume-board .hand text.label{{font-size:{_LABEL_SIZE}px;dominant-baseline:central;text-anchor:end;fill:#1a1a1a}}"
    ".tsume-board .hand text.label.to-move{font-weight:bold}"
    f".tsume-board .hand text.none{{font-size:{_LABEL_SIZE}px;dominant-baseline:central;fill:#6b6b6b}}"
    f".tsume-board .hand text.count{{font-size:{_COUNT_SIZE}px;fill:#1a1a1a}}"
    f".tsume-board .caption{{font-size:{_CAPTION_SIZE}px;fill:#6b6b6b}}"
    "</style>"
)

# Upper bounds of a character's advance width, in em.  Measured in Chromium:
# the widest of DejaVu Sans, Serif and Mono and Liberation Sans, Narrow, Serif
# and Mono, regular and bold (DejaVu Serif Bold's W is 1.12 em, its H 0.95 em,
# its lowercase at most 0.73 em, bold digits 0.70 em, any monospace glyph
# 0.60 em), plus a tenth for the faces of other systems.  tests/test_browser.py
# checks the bounds against every face installed where the tests run.
_WIDE_EM = 1.25     # M W m @ % & and the dashes and ellipsis; any other character not listed
_UPPER_EM = 1.05    # the other capitals, w, and the wide ASCII signs # + < = > ^ ~
_NARROW_EM = 0.8    # the rest of printable ASCII: lowercase, digits, punctuation, space
_CJK_EM = 1.1       # a full-width character (kanji, kana): one em in every CJK face
_UPPER = frozenset("ABCDEFGHIJKLNOPQRSTUVXYZw#+<=>^~")
_NARROW = frozenset(chr(c) for c in range(32, 127)) - _UPPER - frozenset("MWm@%&")


def _char_em(ch: str) -> float:
    if ch in _NARROW:
        return _NARROW_EM
    if ch in _UPPER:
        return _UPPER_EM
    if unicodedata.combining(ch):
        return 0.0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return _CJK_EM
    return _WIDE_EM


def max_text_width(text: str, font_size: float) -> float:
    """An upper bound of the width of ``text`` at ``font_size``, in any common face.

    The diagram reserves this much room for every piece of text, so no label
    runs into the next thing whatever font the reader has.  The bound is wide
    on purpose: a caption or a hand's name takes 54-62% of it in Liberation
    Sans (Arial's widths) and 62-74% in DejaVu Sans, regular or bold.
    """
    return font_size * sum(_char_em(ch) for ch in text)


def _wrap(text: str, width: float, font_size: float) -> list[str]:
    """``text`` cut into lines no wider than ``width`` by :func:`max_text_width`.

    Lines break at spaces; a word longer than a whole line is cut where it
    must be.  Runs of spaces between words become one.
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if max_text_width(candidate, font_size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and max_text_width(line + ch, font_size) > width:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines


def _pentagon(x: float, y: float, s: float, left: bool) -> str:
    """The outline of a shogi piece in the box (x, y, s, s), pointing left or right.

    The point is on the side the owner plays toward; the shoulders are narrower
    than the base, as on a real piece.
    """
    tip, shoulder, base = 0.10 * s, 0.34 * s, 0.90 * s
    top_sh, bot_sh, top_b, bot_b = 0.16 * s, 0.84 * s, 0.09 * s, 0.91 * s
    if left:
        pts = [(x + tip, y + s / 2), (x + shoulder, y + top_sh), (x + base, y + top_b),
               (x + base, y + bot_b), (x + shoulder, y + bot_sh)]
    else:
        pts = [(x + s - tip, y + s / 2), (x + s - shoulder, y + top_sh), (x + s - base, y + top_b),
               (x + s - base, y + bot_b), (x + s - shoulder, y + bot_sh)]
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)


def _face_label(pos: Position, p: Piece, kanji: bool) -> str:
    """What is written on a piece: its letter, or its kanji where it has one."""
    if kanji:
        char = _kanji(pos.variant, p)
        if char:
            return char
    return p.letter.lstrip("+")


def _kanji(variant: Variant, p: Piece) -> str:
    kind = variant.kind(p.kind)
    f = kind.promoted if p.promoted and kind.promoted is not None else kind.unpromoted
    return f.kanji


def piece(pos: Position, p: Piece, x: float, y: float, s: float = SQUARE, *, kanji: bool = False,
          square: int | None = None) -> str:
    """One piece of ``pos``'s game drawn in the box (x, y, s, s).

    The look comes from the diagram's style sheet (classes ``piece``, ``pro``
    for a promoted face, ``kanji`` for a kanji label); a piece smaller than a
    square (in a hand) carries its own font size.
    """
    colour = p.colour
    token = p.symbol()
    label = _face_label(pos, p, kanji)
    classes = ["piece", "black" if colour == BLACK else "white"]
    if p.promoted:
        classes.append("pro")
    if label != _face_label(pos, p, False):
        classes.append("kanji")
    where = f" on {square}" if square is not None else ""
    attrs = f' data-square="{square}"' if square is not None else ""
    font = "" if s == SQUARE - 2 else f' style="font-size:{s * 0.46:.1f}px"'
    return (
        f'<g class="{" ".join(classes)}" data-piece={quoteattr(token)}{attrs}>'
        f"<title>{escape(COLOUR_NAMES[colour])} {escape(p.name)}{where}</title>"
        f'<polygon points="{_pentagon(x, y, s, left=colour == BLACK)}"/>'
        f'<text x="{x + s * (0.54 if colour == BLACK else 0.46):.1f}" y="{y + s / 2:.1f}"{font}>{escape(label)}</text>'
        "</g>"
    )


def _side_marker(x: float, y: float, h: float, colour: Colour) -> str:
    """The shogi sign of a side: a filled pentagon for Black (sente), an empty one for White."""
    w = h * 0.8
    pts = [(x + w / 2, y), (x + w, y + h * 0.3), (x + w, y + h), (x, y + h), (x, y + h * 0.3)]
    side = "black" if colour == BLACK else "white"
    return f'<polygon class="side-marker {side}" points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in pts)}"/>'


def _hand_label(colour: Colour, to_move: bool) -> str:
    return f"{COLOUR_NAMES[colour]}{' to move' if to_move else ''}"


def _count_width(count: int) -> float:
    """The room after a hand piece: its count (when more than one) and a gap."""
    return 1 + max_text_width(str(count), _COUNT_SIZE) + 3 if count > 1 else 2


def _hand_widths(pos: Position, colour: Colour, to_move: bool) -> tuple[float, float]:
    """The widths _hand() draws: the side's name and sign, and the whole row."""
    s = _HAND_BAND * 0.8
    counts = [cnt for cnt in pos.hand_counts(colour) if cnt]
    label_w = max_text_width(_hand_label(colour, to_move), _LABEL_SIZE) + _SIGN_ROOM + _GAP
    pieces_w = sum(s + _count_width(cnt) for cnt in counts) if counts else max_text_width("none", _LABEL_SIZE)
    return label_w, label_w + pieces_w


def _hand(pos: Position, colour: Colour, x: float, y: float, width: float, align_right: bool,
          kanji: bool, to_move: bool) -> str:
    """A hand's row: the side's name and sign, then each kind held, with its count.

    The name ends at the sign (``text-anchor: end``), so whatever room the
    reader's font leaves unused of what :func:`max_text_width` reserved is at
    the row's outer end, not a hole between the name and the pieces.
    """
    t = pos.t
    h = _HAND_BAND
    s = h * 0.8
    items = [(t.kind_piece(letter, colour), cnt) for letter, cnt in zip(t.kind_letters, pos.hand_counts(colour)) if cnt]
    label = _hand_label(colour, to_move)
    label_w, total = _hand_widths(pos, colour, to_move)
    left = x + width - total if align_right else x
    colour_class = "black" if colour == BLACK else "white"
    out = [f'<g class="hand {colour_class}" data-hand="{pos.hand_string(colour)}">']
    cy = y + h / 2
    sign = left + label_w - _GAP - _SIGN_ROOM + 5
    label_class = "label to-move" if to_move else "label"
    out.append(f'<text class="{label_class}" x="{sign - 5:.1f}" y="{cy:.1f}">{escape(label)}</text>')
    out.append(_side_marker(sign, cy - 8, 16, colour))
    px = left + label_w
    if not items:
        out.append(f'<text class="none" x="{px:.1f}" y="{cy:.1f}">none</text>')
    for held, cnt in items:
        out.append(f'<g class="hand-piece" data-count="{cnt}">')
        out.append(piece(pos, held, px, y + (h - s) / 2, s, kanji=kanji))
        px += s
        if cnt > 1:
            out.append(f'<text class="count" x="{px + 1:.1f}" y="{y + h - 6:.1f}">{cnt}</text>')
        px += _count_width(cnt)
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def board(
    pos: Position,
    *,
    kanji: bool = False,
    lastmove: Move | None = None,
    check: bool | None = None,
    fold: int | None = None,
    size: int | None = None,
    hands: bool = True,
    caption: str | None = None,
    standalone: bool = True,
) -> str:
    """An SVG diagram of ``pos`` (a string holding one ``<svg>`` element).

    ``kanji`` writes the kanji of each piece's shogi name where it has one
    (else its letter).  ``lastmove`` (a :class:`~tsume.position.Move`, as :meth:`Position.push`
    takes) tints its from- and to-squares (only the to-square of a drop).
    ``check`` rings the king of the side to move in red; ``None`` (the
    default) does so when that side is in check.  ``fold`` puts at most that
    many squares in a row (default: the whole file in one row).  ``size`` sets
    the width and height in pixels of a square (default: none, so the SVG
    scales to its container).  ``hands=False`` leaves out the hands;
    ``caption`` replaces the text under the board, wrapped to the diagram's
    width (default: whose move it is and the position string; ``""`` for
    none).  ``standalone=False`` leaves out the style
    sheet, for a page that holds many diagrams and :data:`STYLE` once.
    """
    if not isinstance(pos, Position):
        raise ArgumentError(f"svg.board draws a Position, not {type(pos).__name__}")
    kanji = check_flag(kanji, "kanji")
    hands = check_flag(hands, "hands")
    standalone = check_flag(standalone, "standalone")
    n = pos.n
    fold = check_positive_int(fold, "fold", "a number of squares")
    per_row = n if fold is None else min(fold, n)
    size = check_positive_int(size, "size", "a number of pixels", most=MAX_SIZE)
    if lastmove is not None and not isinstance(lastmove, Move):
        raise ArgumentError(f"lastmove must be a Move or None, not {type(lastmove).__name__}")
    if caption is not None and not isinstance(caption, str):
        raise ArgumentError(f"caption must be a string or None, not {type(caption).__name__}")
    if check is None:
        in_check = pos.is_check()
    else:
        in_check = check_flag(check, "check")

    rows = (n + per_row - 1) // per_row
    row_h = _NUMBER_BAND + SQUARE
    width = 2 * _MARGIN + per_row * SQUARE
    if hands:
        # A narrow fold must not cut a hand off: the diagram is at least as wide as its widest hand.
        widest = max(_hand_widths(pos, c, pos.turn == c)[1] for c in (BLACK, WHITE))
        width = max(width, 2 * _MARGIN + math.ceil(widest))
    top = _MARGIN + (_HAND_BAND + 4 if hands else 0)
    grid_h = rows * row_h + (rows - 1) * _ROW_GAP
    if caption is None:
        caption = f"{COLOUR_NAMES[pos.turn]} to move{', in check' if in_check else ''}.  {pos.fen()}"
    # The caption wraps to the diagram's width (never widens it: a booklet sizes
    # a diagram by its squares).
    lines = _wrap(caption, width - 2 * _MARGIN, _CAPTION_SIZE)
    caption_h = 4 + len(lines) * _CAPTION_LEADING if lines else 0
    height = math.ceil(top + grid_h + (4 + _HAND_BAND if hands else 0) + caption_h + _MARGIN)

    marked: dict[int, str] = {}
    if lastmove is not None:
        for s in (lastmove.from_square or 0, lastmove.to_square):
            if 1 <= s <= n:
                marked[s] = "lastmove"
    king = pos.king_square(pos.turn)
    if in_check and king:
        marked[king] = "check"

    def cell(s: int) -> tuple[float, float]:
        r, c = divmod(s - 1, per_row)
        return _MARGIN + c * SQUARE, top + r * (row_h + _ROW_GAP) + _NUMBER_BAND

    size_attrs = ""
    if size is not None:
        scale = size / SQUARE
        size_attrs = f' width="{width * scale:.0f}" height="{height * scale:.0f}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tsume-board" viewBox="0 0 {width} {height}"{size_attrs} '
        f'data-position={quoteattr(pos.fen())} data-variant={quoteattr(pos.variant.spec)} '
        f'role="img" aria-label={quoteattr(f"{pos.variant.title}: {pos.fen()}")}>',
        f"<title>{escape(pos.variant.title)}: {escape(pos.fen())}</title>",
    ]
    if standalone:
        out.append(STYLE)
    if hands:
        out.append(_hand(pos, WHITE, _MARGIN, _MARGIN, width - 2 * _MARGIN, False, kanji, pos.turn == WHITE))
    for s in range(1, n + 1):
        x, y = cell(s)
        cls = "sq" + (f" {marked[s]}" if s in marked else "")
        out.append(f'<rect class="{cls}" data-square="{s}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>'
                   f'<text class="num" x="{x + SQUARE // 2}" y="{y - 4}">{s}</text>')
    for s, p in enumerate(pos.board(), 1):
        if p is not None:
            x, y = cell(s)
            out.append(piece(pos, p, x + 1, y + 1, SQUARE - 2, kanji=kanji, square=s))
    if in_check and king:
        x, y = cell(king)
        out.append(f'<rect class="check-ring" x="{x + 1.5}" y="{y + 1.5}" width="{SQUARE - 3}" height="{SQUARE - 3}"/>')
    below = top + grid_h + 4
    if hands:
        out.append(_hand(pos, BLACK, _MARGIN, below, width - 2 * _MARGIN, True, kanji, pos.turn == BLACK))
        below += _HAND_BAND
    # A line's baseline sits 1.2 em below its top, leaving 0.3 em of the pitch for the descent.
    for i, line in enumerate(lines):
        baseline = below + 4 + i * _CAPTION_LEADING + 1.2 * _CAPTION_SIZE
        out.append(f'<text class="caption" x="{_MARGIN}" y="{baseline:.1f}">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)


def drawing_data(variants: "list[Variant]") -> dict:
    """What a page's script needs to draw diagrams of ``variants`` as
    :func:`board` draws them (``tsume/booklet_static/board.js``): the sizes
    of the layout and, per variant spec, its faces and kinds, as JSON values.

    The script repeats board()'s steps with these numbers; the tests compare
    its output with board()'s, character for character.
    """
    out: dict = {
        "layout": {"square": SQUARE, "margin": _MARGIN, "numberBand": _NUMBER_BAND, "handBand": _HAND_BAND,
                   "rowGap": _ROW_GAP, "labelSize": _LABEL_SIZE, "countSize": _COUNT_SIZE,
                   "captionSize": _CAPTION_SIZE, "captionLeading": _CAPTION_LEADING, "signRoom": _SIGN_ROOM,
                   "gap": _GAP, "em": {"wide": _WIDE_EM, "upper": _UPPER_EM, "narrow": _NARROW_EM, "cjk": _CJK_EM},
                   "upper": "".join(sorted(_UPPER)), "colours": list(COLOUR_NAMES)},
        "variants": {},
    }
    for variant in variants:
        if not isinstance(variant, Variant):
            raise ArgumentError(f"drawing_data takes variants, not {type(variant).__name__}")
        t = tables_for(variant, variant.board_length or variant.min_length)
        pieces = [t.piece(letter) for letter in t.faces]
        faces = [{"letter": p.letter, "name": p.name, "promoted": p.promoted, "royal": p.royal,
                  "kanji": _kanji(variant, p)} for p in pieces]
        out["variants"][variant.spec] = {
            "title": variant.title, "faces": faces,
            "kinds": [{"letter": letter, "face": t.faces.index(letter) + 1} for letter in t.kind_letters]}
    return out
