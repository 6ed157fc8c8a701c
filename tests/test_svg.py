"""SVG diagrams (tsume.svg.board) and `tsume show --format svg|json`.

Every check reads the diagram back through its data attributes and geometry
(xml.etree), and compares it with what the position string says, parsed here
independently of the engine.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import tsume
from tsume import Position, svg
from tsume.cli import main
from tsume.collection import load, locate
from tsume.problem import Problem
from tsume.errors import ArgumentError, TsumeError
from tsume.variant import get_variant

SVG_NS = "http://www.w3.org/2000/svg"


def q(tag: str) -> str:
    return f"{{{SVG_NS}}}{tag}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == q("svg"), root.tag
    return root


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def elements(root: ET.Element, tag: str, *cls: str) -> list[ET.Element]:
    return [el for el in root.iter(q(tag)) if set(cls) <= classes(el)]


def board_pieces(root: ET.Element) -> list[ET.Element]:
    """The pieces on the board (hand pieces have no data-square)."""
    return [g for g in elements(root, "g", "piece") if g.get("data-square") is not None]


def points(poly: ET.Element) -> list[tuple[float, float]]:
    return [tuple(float(c) for c in p.split(",")) for p in poly.get("points").split()]  # type: ignore[misc]


def viewbox(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in root.get("viewBox").split())
    return x, y, w, h


def caption_lines(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in elements(root, "text", "caption")]


def square_rects(root: ET.Element) -> dict[int, ET.Element]:
    rects = {}
    for r in elements(root, "rect", "sq"):
        s = int(r.get("data-square"))
        assert s not in rects, f"two rects for square {s}"
        rects[s] = r
    return rects


def rect_box(r: ET.Element) -> tuple[float, float, float, float]:
    return float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height"))


def expected_board(fen: str) -> dict[int, str]:
    """Square -> token ('P', 'p', '+B', '+b') from a position string's board field."""
    field = fen.split()[0]
    out: dict[int, str] = {}
    square = 1
    for m in re.finditer(r"(\d+)|(\+?[A-Za-z])", field):
        if m.group(1):
            square += int(m.group(1))
        else:
            out[square] = m.group(2)
            square += 1
    return out


def expected_hand(fen: str, colour: int) -> dict[str, int]:
    """Token -> count of one colour's hand from a position string's hands field."""
    field = fen.split()[2]
    out: dict[str, int] = {}
    if field == "-":
        return out
    for m in re.finditer(r"(\d*)([A-Za-z])", field):
        letter = m.group(2)
        if letter.isupper() == (colour == tsume.BLACK):
            out[letter] = out.get(letter, 0) + int(m.group(1) or 1)
    return out


# Valid positions of both variants (each constructed by the test that uses it).
POSITIONS = [
    ("k3fg1hc2tp5PT2CH1GF3K b - 1", "ito"),
    ("1k2PT+Fh5+f17 b PCtch2g 1", "ito"),
    ("k19+Fp1h1P4K w Tg 1", "ito"),
    ("k2+G1g1C1+h20K w TP 1", "ito"),
    ("k11+b18p5 b Np2snb2l 1", "rutherford"),        # 37 squares
    ("klsnbp9PBNSLK b - 1", "rutherford"),           # 21
    ("22K3p5+Nk13 b p2sn2b2l 1", "rutherford"),      # 47
    ("k7K b - 1", "rutherford"),                     # 9, the fewest
    ("k62K b - 1", "rutherford"),                    # 64, the most
    ("k1+p3+S1K b N 1", "rutherford"),               # 9, promoted pieces of both sides
    ("1k1+P2+s1N1K b 2L 1", "rutherford"),           # 11
]


@pytest.fixture(params=POSITIONS, ids=lambda p: p[0])
def position(request) -> Position:
    text, variant = request.param
    return Position(text, variant)


# --- well-formed and self-contained -----------------------------------------------------------


def test_parses_as_svg_and_is_self_contained(position):
    text = svg.board(position)
    root = parse(text)
    assert root.get("data-position") == position.fen()
    assert root.get("data-variant") == position.variant.spec
    assert "href" not in text
    assert "url(" not in text
    assert "@import" not in text
    assert [m.start() for m in re.finditer("http", text)] == [text.index('"http://www.w3.org/2000/svg"') + 1]
    assert not elements(root, "image") and not elements(root, "use") and not elements(root, "foreignObject")
    # the same with every option on
    text = svg.board(position, kanji=True, fold=7, size=30, check=True, caption="a <caption> & more")
    root = parse(text)
    assert "href" not in text and "url(" not in text and "@import" not in text
    assert text.count("http") == 1
    assert caption_lines(root) == ["a <caption> & more"]


# --- squares and pieces ------------------------------------------------------------------------


def test_every_square_has_a_rect_and_its_number(position):
    root = parse(svg.board(position))
    rects = square_rects(root)
    assert sorted(rects) == list(range(1, position.n + 1))
    numbers = {int(t.text): t for t in elements(root, "text", "num")}
    assert sorted(numbers) == list(range(1, position.n + 1))
    for s, r in rects.items():
        x, y, w, h = rect_box(r)
        assert x < float(numbers[s].get("x")) < x + w  # the number sits over its square
        assert float(numbers[s].get("y")) <= y
    # one row, square 1 on the left
    xs = [rect_box(rects[s])[0] for s in range(1, position.n + 1)]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert len({rect_box(r)[1] for r in rects.values()}) == 1


def test_one_piece_per_occupied_square(position):
    root = parse(svg.board(position))
    want = expected_board(position.fen())
    got = {}
    for g in board_pieces(root):
        s = int(g.get("data-square"))
        assert s not in got, f"two pieces on {s}"
        got[s] = g.get("data-piece")
    assert got == want
    rects = square_rects(root)
    for g in board_pieces(root):
        token = g.get("data-piece")
        assert ("black" in classes(g)) == (token.lstrip("+").isupper())
        assert ("white" in classes(g)) == (token.lstrip("+").islower())
        # drawn inside its square
        x, y, w, h = rect_box(rects[int(g.get("data-square"))])
        for px, py in points(g.find(q("polygon"))):
            assert x <= px <= x + w and y <= py <= y + h


def test_the_point_of_a_piece_shows_its_owners_way(position):
    """Black plays toward square 1, drawn on the left: a Black piece points left, a White one right."""
    root = parse(svg.board(position))
    seen = set()
    for g in elements(root, "g", "piece"):  # on the board and in hand
        tip, *rest = points(g.find(q("polygon")))
        assert len(rest) == 4
        if "black" in classes(g):
            assert tip[0] < min(p[0] for p in rest), g.get("data-piece")
            seen.add("black")
        else:
            assert "white" in classes(g)
            assert tip[0] > max(p[0] for p in rest), g.get("data-piece")
            seen.add("white")
    assert seen == {"black", "white"}  # every position has both kings or hand pieces


def test_promoted_pieces_are_red(position):
    text = svg.board(position)
    root = parse(text)
    for g in board_pieces(root):
        assert ("pro" in classes(g)) == g.get("data-piece").startswith("+")
    m = re.search(r"\.piece\.pro text\{[^}]*fill:#([0-9a-fA-F]{6})", text)
    assert m, "no colour for a promoted face"
    r, g_, b = (int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4))
    assert r > 150 and g_ < 80 and b < 80  # red
    plain = re.search(r"\.piece text\{[^}]*fill:#([0-9a-fA-F]{6})", text)
    assert plain and plain.group(1).lower() != m.group(1).lower()


def _face(variant_spec: str, token: str):
    kind = next(k for k in get_variant(variant_spec).kinds if k.letter == token.lstrip("+").upper())
    return kind.promoted if token.startswith("+") else kind.unpromoted


def test_letters_and_kanji(position):
    plain = parse(svg.board(position))
    for g in board_pieces(plain):
        assert g.find(q("text")).text == g.get("data-piece").lstrip("+").upper()
        assert "kanji" not in classes(g)
    kanji = parse(svg.board(position, kanji=True))
    for g in board_pieces(kanji):
        token = g.get("data-piece")
        face = _face(position.variant.spec, token)
        label = g.find(q("text")).text
        if face.kanji:
            assert label == face.kanji and "kanji" in classes(g)
        else:
            assert label == token.lstrip("+").upper() and "kanji" not in classes(g)


def test_kanji_where_the_face_has_one():
    # Ito: the Goose has no kanji, its promoted face the Phoenix has 鳳; the
    # Silver Cannon has none (its Reverse Chariot 反); the Cavalryman none.
    pos = Position("k2+G1g1C1+h20K w TP 1", "ito")
    root = parse(svg.board(pos, kanji=True))
    labels = {int(g.get("data-square")): g.find(q("text")).text for g in board_pieces(root)}
    assert labels == {1: "玉", 4: "鳳", 6: "G", 8: "C", 10: "H", 31: "玉"}
    hand = {g.get("data-piece"): g.find(q("text")).text for g in elements(root, "g", "hand", "black")[0].iter(q("g"))
            if "piece" in classes(g)}
    assert hand == {"P": "歩", "T": "瓦"}
    # Rutherford: a promoted Silver is a Gold (金), a promoted Pawn 仲
    pos = Position("k1+p3+S1K b N 1", "rutherford")
    root = parse(svg.board(pos, kanji=True))
    labels = {int(g.get("data-square")): g.find(q("text")).text for g in board_pieces(root)}
    assert labels == {1: "玉", 3: "仲", 7: "金", 9: "玉"}


# --- hands -------------------------------------------------------------------------------------


def _hand_contents(g: ET.Element) -> dict[str, int]:
    out = {}
    for hp in g.iter(q("g")):
        if "hand-piece" in classes(hp):
            piece = next(e for e in hp.iter(q("g")) if "piece" in classes(e))
            count = int(hp.get("data-count"))
            shown = [t.text for t in hp.iter(q("text")) if "count" in classes(t)]
            assert shown == ([str(count)] if count > 1 else []), (piece.get("data-piece"), shown)
            out[piece.get("data-piece")] = count
    return out


def test_hands(position):
    root = parse(svg.board(position))
    for colour, name in ((tsume.BLACK, "black"), (tsume.WHITE, "white")):
        (g,) = elements(root, "g", "hand", name)
        assert g.get("data-hand") == position.hand_string(colour)
        assert _hand_contents(g) == expected_hand(position.fen(), colour)
        for piece in (e for e in g.iter(q("g")) if "piece" in classes(e)):
            assert name in classes(piece)
    # White's hand above the board, Black's below
    top = min(rect_box(r)[1] for r in square_rects(root).values())
    white = [float(t.get("y")) for t in elements(root, "g", "hand", "white")[0].iter(q("text"))]
    black = [float(t.get("y")) for t in elements(root, "g", "hand", "black")[0].iter(q("text"))]
    assert max(white) < top < min(black)
    assert not elements(parse(svg.board(position, hands=False)), "g", "hand")


def test_hand_counts_are_shown():
    pos = Position("1k2PT+Fh5+f17 b PCtch2g 1")
    root = parse(svg.board(pos))
    (white,) = elements(root, "g", "hand", "white")
    assert white.get("data-hand") == "TCH2G"
    assert _hand_contents(white) == {"t": 1, "c": 1, "h": 1, "g": 2}
    counts = [t.text for t in white.iter(q("text")) if "count" in classes(t)]
    assert counts == ["2"]
    empty = parse(svg.board(Position("k7K b - 1", "rutherford")))
    for g in elements(empty, "g", "hand"):
        assert g.get("data-hand") == "-"
        assert "none" in [t.text for t in g.iter(q("text"))]


def _hand_xs(root: ET.Element) -> list[float]:
    xs = []
    for g in elements(root, "g", "hand"):
        for e in g.iter():
            if e.get("x") is not None:
                xs.append(float(e.get("x")))
            if e.get("points") is not None:
                xs.extend(p[0] for p in points(e))
    return xs


@pytest.mark.parametrize("fold", [None, 8, 5, 3, 1])
@pytest.mark.parametrize("text, variant", [("1k2PT+Fh5+f17 b PCtch2g 1", "ito"),
                                           ("k7K w P2SN2B2Lp 1", "rutherford")])
def test_hands_stay_inside_the_diagram(text, variant, fold):
    """A narrow fold must not cut a hand off: everything in a hand is inside the viewBox."""
    root = parse(svg.board(Position(text, variant), fold=fold))
    _, _, w, _ = viewbox(root)
    xs = _hand_xs(root)
    assert min(xs) >= 0 and max(xs) <= w, (min(xs), max(xs), w)


# --- text layout ------------------------------------------------------------------------------------
# The browser tests measure the drawn text; these check the room the layout
# reserves by svg.max_text_width, the bound that holds whatever the font.


def test_max_text_width():
    assert svg.max_text_width("", 12) == 0
    assert svg.max_text_width("il", 10) == pytest.approx(2 * 0.8 * 10)
    assert svg.max_text_width("WM", 10) > svg.max_text_width("HB", 10) > svg.max_text_width("hb", 10)
    assert svg.max_text_width("角", 10) >= 10   # a full-width character is an em in every CJK face
    assert svg.max_text_width("e\u0301", 10) == svg.max_text_width("e", 10)   # a combining accent adds nothing
    assert svg.max_text_width("Black to move", 26) == 2 * svg.max_text_width("Black to move", 13)


def _label_layout(root: ET.Element, side: str) -> tuple[float, float, float, float, float]:
    """A hand's (start of the name's room, end of the name, sign's left, sign's right, first thing after)."""
    (g,) = elements(root, "g", "hand", side)
    (label,) = (t for t in g.iter(q("text")) if "label" in classes(t))
    end = float(label.get("x"))   # the name ends there (text-anchor: end)
    sign = [x for x, _ in points(next(p for p in g.iter(q("polygon")) if "side-marker" in classes(p)))]
    after = [float(t.get("x")) for t in g.iter(q("text")) if "none" in classes(t)]
    after += [min(x for x, _ in points(p)) for p in g.iter(q("polygon")) if "side-marker" not in classes(p)]
    return end - svg.max_text_width(label.text, 13), end, min(sign), max(sign), min(after)


@pytest.mark.parametrize("fold", [None, 16, 3, 1])
@pytest.mark.parametrize("text, variant", [("k3fg1hc2tp5PT2CH1GF3K b - 1", "ito"), ("k29K w PTCHGFptchgf 1", "ito"),
                                           ("1k2PT+Fh5+f17 b PCtch2g 1", "ito"), ("k7K w 2P2S2N2B2L 1", "rutherford")])
def test_a_hand_reserves_room_for_its_name_in_any_font(text, variant, fold):
    """Name, sign, then pieces (or "none"), each in its own room: "Black to move" never runs into "none"."""
    root = parse(svg.board(Position(text, variant), fold=fold))
    _, _, width, _ = viewbox(root)
    for side in ("black", "white"):
        start, end, sign_left, sign_right, after = _label_layout(root, side)
        assert 0 <= start < end < sign_left < sign_right < after <= width, (side, start, end, sign_left, after)
    # Each count beside a hand piece has room before the next piece.
    for g in elements(root, "g", "hand"):
        pieces = [e for e in g.iter(q("g")) if "hand-piece" in classes(e)]
        for this, nxt in zip(pieces, pieces[1:]):
            counts = [t for t in this.iter(q("text")) if "count" in classes(t)]
            right = max(x for x, _ in points(this.find(f".//{q('polygon')}")))
            if counts:
                right = float(counts[0].get("x")) + svg.max_text_width(counts[0].text, 11)
            assert right <= min(x for x, _ in points(nxt.find(f".//{q('polygon')}")))


LONG_CAPTION = "ito-09: Silver Cannon steps back to mate, by tsume composer (seeded search) (mate in 9).  1k2PT+Fh5+f17 b PCtch2g 1"


@pytest.mark.parametrize("fold", [None, 16, 8, 1])
@pytest.mark.parametrize("caption", [LONG_CAPTION, "word " * 80, "伊藤将棋の詰将棋 " * 10, None])
def test_a_long_caption_wraps_inside_the_diagram(caption, fold):
    pos = Position("1k2PT+Fh5+f17 b PCtch2g 1")
    root = parse(svg.board(pos, fold=fold, caption=caption))
    _, _, width, height = viewbox(root)
    lines = caption_lines(root)
    want = caption if caption is not None else f"Black to move.  {pos.fen()}"
    assert " ".join(lines) == " ".join(want.split())   # every word, in order
    for t in elements(root, "text", "caption"):
        assert 0 < float(t.get("x")) and float(t.get("x")) + svg.max_text_width(t.text, 12) <= width
        assert float(t.get("y")) < height
    ys = [float(t.get("y")) for t in elements(root, "text", "caption")]
    assert all(b - a >= 1.4 * 12 for a, b in zip(ys, ys[1:]))   # room for any font's ascent and descent
    # The caption never widens the diagram: a booklet sizes a diagram by its squares.
    assert width == viewbox(parse(svg.board(pos, fold=fold, caption="")))[2]
    if caption == LONG_CAPTION and fold == 16:
        assert len(lines) == 2   # the case that ran past the right edge


def test_a_word_longer_than_a_line_is_cut():
    root = parse(svg.board(Position("k7K b - 1", "rutherford"), hands=False, caption="x" * 200))
    lines = caption_lines(root)
    assert len(lines) > 1 and "".join(lines) == "x" * 200
    _, _, width, _ = viewbox(root)
    assert all(8 + svg.max_text_width(line, 12) <= width for line in lines)


def test_an_empty_caption_draws_no_line():
    pos = Position("k7K b - 1", "rutherford")
    root = parse(svg.board(pos, caption=""))
    assert caption_lines(root) == []
    assert viewbox(root)[3] < viewbox(parse(svg.board(pos)))[3]


# --- side to move, check, last move ----------------------------------------------------------------


@pytest.mark.parametrize("text, variant, turn", [
    ("k3fg1hc2tp5PT2CH1GF3K b - 1", "ito", "Black"),
    ("k2+G1g1C1+h20K w TP 1", "ito", "White"),
    ("K6+s1k w P 1", "rutherford", "White"),
])
def test_side_to_move(text, variant, turn):
    root = parse(svg.board(Position(text, variant)))
    other = "White" if turn == "Black" else "Black"
    labels = {" ".join(sorted(classes(t))): t.text for t in root.iter(q("text")) if "label" in classes(t)}
    assert labels == {"label to-move": f"{turn} to move", "label": other}
    (to_move,) = elements(root, "g", "hand", turn.lower())
    assert [t.text for t in to_move.iter(q("text")) if "to-move" in classes(t)] == [f"{turn} to move"]
    caption = " ".join(caption_lines(root))
    assert caption.startswith(f"{turn} to move") and Position(text, variant).fen() in caption


def test_check_is_marked():
    pos = Position("k19+Fp1h1P4K w Tg 1")  # White, on 1, in check from the Bishop on 21
    assert pos.is_check() and pos.king_square(tsume.WHITE) == 1
    root = parse(svg.board(pos))
    checked = elements(root, "rect", "sq", "check")
    assert [r.get("data-square") for r in checked] == ["1"]
    (ring,) = elements(root, "rect", "check-ring")
    x, y, w, h = rect_box(square_rects(root)[1])
    rx, ry, rw, rh = rect_box(ring)
    assert x <= rx and rx + rw <= x + w and y <= ry and ry + rh <= y + h
    assert "in check" in "".join(elements(root, "text", "caption")[0].itertext())
    assert re.search(r"\.sq\.check\{[^}]*fill:", svg.board(pos))
    # check=False leaves it out; a position not in check has none by default
    quiet = parse(svg.board(pos, check=False))
    assert not elements(quiet, "rect", "check") and not elements(quiet, "rect", "check-ring")
    calm = parse(svg.board(Position("k3fg1hc2tp5PT2CH1GF3K b - 1")))
    assert not elements(calm, "rect", "check") and not elements(calm, "rect", "check-ring")


def test_last_move_is_highlighted():
    pos = Position("k3fg1hc2tp5PT2CH1GF3K b - 1")
    m = pos.parse_move("19-18")
    pos.push(m)
    root = parse(svg.board(pos, lastmove=m))
    assert sorted(int(r.get("data-square")) for r in elements(root, "rect", "sq", "lastmove")) == [18, 19]
    assert not elements(parse(svg.board(pos)), "rect", "lastmove")
    # a drop: only the square dropped on (and here it mates: the king's square is in check)
    pos = Position("k1P2H25 b G 1")
    m = pos.parse_move("G*5")
    pos.push(m)
    root = parse(svg.board(pos, lastmove=m))
    assert [r.get("data-square") for r in elements(root, "rect", "sq", "lastmove")] == ["5"]
    assert [r.get("data-square") for r in elements(root, "rect", "sq", "check")] == ["1"]
    assert re.search(r"\.sq\.lastmove\{[^}]*fill:", svg.board(pos, lastmove=m))
    # White's move, a capture, in Rutherford
    pos = Position("k11+b18p5 b Np2snb2l 1", "rutherford")
    for mv in ("+N*4", "1-3"):
        m = pos.parse_move(mv)
        pos.push(m)
    root = parse(svg.board(pos, lastmove=m))
    assert sorted(int(r.get("data-square")) for r in elements(root, "rect", "sq", "lastmove")) == [1, 3]


# --- layout: fold, size, standalone ------------------------------------------------------------------


@pytest.mark.parametrize("fold", [1, 5, 10, 16, 30])
def test_fold_starts_a_new_row(fold):
    pos = Position("1k2PT+Fh5+f17 b PCtch2g 1")
    flat = parse(svg.board(pos))
    root = parse(svg.board(pos, fold=fold))
    rects = square_rects(root)
    assert sorted(rects) == list(range(1, 32))
    for s in range(1, 32):
        row, col = divmod(s - 1, fold)
        x, y, _, _ = rect_box(rects[s])
        first_x, first_y, _, _ = rect_box(rects[row * fold + 1])
        assert y == first_y  # one row each
        assert x == rect_box(rects[col + 1])[0]  # columns line up
        if s > fold:
            assert y > rect_box(rects[s - fold])[1]  # below the square N above it
    rows = sorted({rect_box(r)[1] for r in rects.values()})
    assert len(rows) == -(-31 // fold)
    assert viewbox(root)[2] < viewbox(flat)[2]
    assert viewbox(root)[3] > viewbox(flat)[3]
    # the pieces follow their squares
    for g in board_pieces(root):
        x, y, w, h = rect_box(rects[int(g.get("data-square"))])
        assert all(x <= px <= x + w and y <= py <= y + h for px, py in points(g.find(q("polygon"))))


def test_fold_of_the_whole_file_or_more_is_one_row():
    pos = Position("k62K b - 1", "rutherford")
    flat = svg.board(pos)
    assert svg.board(pos, fold=64) == flat
    assert svg.board(pos, fold=1000) == flat


@pytest.mark.parametrize("size", [1, 20, 40, 55, svg.MAX_SIZE])
def test_size_sets_width_and_height(size):
    pos = Position("klsnbp9PBNSLK b - 1", "rutherford")
    root = parse(svg.board(pos, size=size))
    _, _, w, h = viewbox(root)
    assert float(root.get("width")) == pytest.approx(w * size / svg.SQUARE, abs=0.5)
    assert float(root.get("height")) == pytest.approx(h * size / svg.SQUARE, abs=0.5)
    plain = parse(svg.board(pos))
    assert plain.get("width") is None and plain.get("height") is None


def test_standalone_false_leaves_out_the_style_sheet():
    pos = Position("k3fg1hc2tp5PT2CH1GF3K b - 1")
    whole = svg.board(pos)
    part = svg.board(pos, standalone=False)
    assert len(elements(parse(whole), "style")) == 1 and svg.STYLE in whole
    assert not elements(parse(part), "style") and "<style" not in part
    assert whole.replace(svg.STYLE, "") == part


# --- bad arguments ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [
    {"fold": 0}, {"fold": -3}, {"fold": True}, {"fold": 2.0}, {"fold": "5"},
    {"size": 0}, {"size": 10 ** 6}, {"size": svg.MAX_SIZE + 1}, {"size": 1.5},
    {"kanji": "yes"}, {"kanji": 1}, {"check": "no"}, {"hands": None}, {"standalone": 0},
    {"lastmove": "6-4"}, {"lastmove": True}, {"lastmove": 3.0},
    {"caption": 5},
])
def test_bad_arguments(kwargs):
    pos = Position("k3fg1hc2tp5PT2CH1GF3K b - 1")
    with pytest.raises(ArgumentError) as exc:
        svg.board(pos, **kwargs)
    assert isinstance(exc.value, TsumeError)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("bad", ["k3fg1hc2tp5PT2CH1GF3K b - 1", None, 5])
def test_board_draws_a_position(bad):
    with pytest.raises(ArgumentError):
        svg.board(bad)


# --- the command line --------------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def entry(capsys, *args: str) -> tuple[int, str, str]:
    """Through the console entry point (click's usage errors become one line there)."""
    from tsume.cli import run as entry_point

    with pytest.raises(SystemExit) as exc:
        entry_point(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_show_svg_prints_a_diagram():
    text = "1k2PT+Fh5+f17 b PCtch2g 1"
    r = run("show", "--format", "svg", text)
    assert r.exit_code == 0, r.output
    root = parse(r.stdout.strip())
    assert root.get("data-position") == text
    assert r.stdout.strip() == svg.board(Position(text))
    ruth = run("show", "--format", "svg", "--variant", "rutherford", "k11+b18p5 b Np2snb2l 1")
    assert ruth.exit_code == 0 and parse(ruth.stdout).get("data-variant") == "rutherford"
    assert len(square_rects(parse(ruth.stdout))) == 37


def test_show_svg_options():
    text = "1k2PT+Fh5+f17 b PCtch2g 1"
    r = run("show", "--format", "svg", "--kanji", "--fold", "10", "--size", "30", text)
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == svg.board(Position(text), kanji=True, fold=10, size=30)
    root = parse(r.stdout)
    assert len({rect_box(x)[1] for x in square_rects(root).values()}) == 4
    assert root.get("width") is not None
    assert any(g.find(q("text")).text == "角" for g in board_pieces(root))


def test_show_svg_to_a_file(tmp_path):
    text = "k19+Fp1h1P4K w Tg 1"
    out = tmp_path / "d.svg"
    r = run("show", "--format", "svg", "-o", str(out), text)
    assert r.exit_code == 0, r.output
    assert r.stdout == ""
    written = out.read_text(encoding="utf-8")
    assert written.endswith("</svg>\n") and written.count("\n") == 1
    assert written == svg.board(Position(text)) + "\n"
    assert [p.name for p in tmp_path.iterdir()] == ["d.svg"]  # no temporary left


def test_show_to_a_file_in_a_missing_folder_makes_the_folder(capsys, tmp_path):
    code, out, err = entry(capsys, "show", "--format", "svg", "-o", str(tmp_path / "no" / "d.svg"))
    assert code == 0, err
    assert (tmp_path / "no" / "d.svg").read_text(encoding="utf-8").endswith("</svg>\n")


def test_show_to_a_file_whose_folder_cannot_be_made(capsys, tmp_path):
    (tmp_path / "no").write_text("a file\n")
    code, out, err = entry(capsys, "show", "--format", "svg", "-o", str(tmp_path / "no" / "d.svg"))
    assert code == 74, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("tsume: error:")
    assert (tmp_path / "no").read_text() == "a file\n"


@pytest.mark.parametrize("args", [
    ["--fold", "0"], ["--fold", "-1"], ["--fold", "x"], ["--size", "0"], ["--size", str(10 ** 6)], ["--size", "2.5"],
])
def test_show_svg_bad_options(capsys, args):
    code, out, err = entry(capsys, "show", "--format", "svg", *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error:"), err
    assert args[0] in lines[0]


def test_show_bad_format(capsys):
    code, out, err = entry(capsys, "show", "--format", "png")
    assert code == 2 and len(err.strip().splitlines()) == 1


def _ito_09():
    pr = next(p for p in load(locate("examples")) if p.id == "ito-09")
    return pr, Problem(pr.position, variant=pr.variant, defender=pr.defender).position()


def test_show_svg_of_a_collection_problem():
    pr, pos = _ito_09()
    r = run("show", "--file", "examples", "--id", "ito-09", "--format", "svg")
    assert r.exit_code == 0, r.output
    root = parse(r.stdout)
    assert root.get("data-position") == pos.fen()
    assert pos.fen() != Position(pr.position).fen()  # the defender's hand is filled in
    caption = "".join(elements(root, "text", "caption")[0].itertext())
    assert "ito-09" in caption and pr.title in caption and pos.fen() in caption
    assert "mate in 9" in caption
    assert elements(root, "g", "hand", "white")[0].get("data-hand") == pos.hand_string(tsume.WHITE) != "-"


def test_show_json_of_a_collection_problem():
    pr, pos = _ito_09()
    r = run("show", "--json", "--file", "examples", "--id", "ito-09")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["problem"] == {"id": "ito-09", "title": pr.title, "author": pr.author, "length": 9}
    assert data["position"] == pos.fen()
    assert data["hands"]["white"] == pos.hand_string(tsume.WHITE).lower() != "-"
    # --format json is the same output as --json
    same = run("show", "--format", "json", "--file", "examples", "--id", "ito-09")
    assert same.exit_code == 0 and same.stdout == r.stdout
    # a plain position has no problem object
    plain = json.loads(run("show", "--format", "json", "k19+Fp1h1P4K w Tg 1").stdout)
    assert "problem" not in plain
    assert plain == json.loads(run("show", "--json", "k19+Fp1h1P4K w Tg 1").stdout)
