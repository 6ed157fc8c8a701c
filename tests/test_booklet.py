"""HTML booklets: tsume.booklet.build and `tsume booklet`.

The page is read back with html.parser into a small tree; the data of each
solution viewer (the positions its frames are drawn from) is compared with the
engine's positions along the solver's main line, replayed here with
Position.push_str.  tests/test_browser.py checks the frames the page draws.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from tsume import booklet
from tsume.cli import main
from tsume.collection import load, locate
from tsume.errors import ArgumentError, TsumeError
from tsume.limits import Limits
from tsume.solve import solve

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict, parent: "Node | None") -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list = []

    def get(self, name: str, default=None):
        return self.attrs.get(name, default)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.iter()

    def find_all(self, tag: str, *cls: str) -> list["Node"]:
        return [n for n in self.iter() if n.tag == tag and set(cls) <= n.classes]

    def find(self, tag: str, *cls: str) -> "Node":
        found = self.find_all(tag, *cls)
        assert found, f"no {tag}.{'.'.join(cls)}"
        return found[0]

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent


class Tree(HTMLParser):
    """A strict tree: every element closed in order (a mismatch is recorded)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.cur = self.root
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, dict(attrs), self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.cur.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.cur.tag}>")
            return
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(html: str) -> Node:
    t = Tree()
    t.feed(html)
    t.close()
    assert not t.errors, t.errors[:5]
    assert t.cur is t.root, f"<{t.cur.tag}> left open"
    return t.root


def assert_self_contained(html: str) -> None:
    assert "src=" not in html
    assert not re.search(r"href\s*=\s*[\"']?\s*(https?:)?//", html, re.I)
    assert "<link" not in html
    assert "@import" not in html
    assert "url(" not in html
    # the only http is the SVG namespace
    assert set(re.findall(r"https?://[^\s\"'<>]*", html)) <= {"http://www.w3.org/2000/svg"}


# --- the examples, built once per way of placing the solutions --------------------------------------

EXAMPLES = load(locate("examples"))


@pytest.fixture(scope="module")
def solved():
    """Each example's position as solved and the solver's result, computed here."""
    out = {}
    for pr in EXAMPLES:
        problem = pr.problem()
        out[pr.id] = (problem.position(), solve(problem))
    return out


@pytest.fixture(scope="module")
def pages():
    html = {mode: booklet.build(EXAMPLES, solutions=mode, source="examples") for mode in booklet.SOLUTIONS}
    return {mode: (text, parse(text)) for mode, text in html.items()}


@pytest.mark.parametrize("mode", booklet.SOLUTIONS)
def test_parses_and_is_self_contained(pages, mode):
    html, root = pages[mode]
    assert html.startswith("<!DOCTYPE html>")
    assert_self_contained(html)
    (head,) = root.find_all("head")
    assert head.find_all("meta") and head.find("title").text() == "Tsume: examples"
    assert [s.get("id") for s in head.find_all("style")] == [None, "tsume-board-style"]
    scripts = root.find_all("script")
    assert not [s for s in scripts if s.get("src")]
    # One script (the renderer and the viewers); the rest is data: the drawing's tables, and each viewer's line.
    assert len([s for s in scripts if s.get("type") != "application/json"]) == 1
    data = [s for s in scripts if s.get("type") == "application/json"]
    assert [s.get("id") for s in data if s.get("id")] == ["tsume-drawing"]
    assert len([s for s in data if "line" in s.classes]) == len(EXAMPLES)
    # One diagram per problem is in the file, an inline SVG in the SVG namespace
    # without a style sheet of its own; the viewers' frames are drawn by the page.
    svgs = root.find_all("svg")
    assert len(svgs) == len(EXAMPLES)
    assert all(s.get("xmlns") == "http://www.w3.org/2000/svg" for s in svgs)
    assert not [s for s in svgs if s.find_all("style")]


@pytest.mark.parametrize("mode", booklet.SOLUTIONS)
def test_one_numbered_article_per_problem(pages, mode):
    _, root = pages[mode]
    articles = root.find_all("article", "problem")
    assert [a.get("data-id") for a in articles] == [pr.id for pr in EXAMPLES]
    assert [a.get("data-number") for a in articles] == [str(i) for i in range(1, len(EXAMPLES) + 1)]
    for i, (a, pr) in enumerate(zip(articles, EXAMPLES), 1):
        h2 = a.find("h2")
        assert h2.find("span", "number").text() == str(i)
        assert h2.text().split(None, 1)[1] == f"Mate in {pr.length}"
        meta = a.find("p", "meta").text()
        assert pr.id in meta and pr.title in meta and pr.author in meta
        # the diagram: the position as solved (the defender's hand filled in)
        (diagram,) = a.find_all("div", "diagram")
        (svg,) = diagram.find_all("svg")
        pos = pr.problem().position()
        assert svg.get("data-position") == pos.fen()
        assert "defender" in a.find("p", "hands").text()


def _solution_of(root: Node, pid: str) -> Node:
    (sol,) = [d for d in root.find_all("div", "solution") if d.get("data-id") == pid]
    return sol


def _squares(move: str) -> list[int]:
    """The squares a move string names: from and to, or the one dropped on."""
    nums = [int(n) for n in re.findall(r"\d+", move)]
    return nums[-1:] if "*" in move else nums


def _drawing(root: Node) -> str:
    """The text of the page's drawing data (the renderer's tables and options)."""
    (data,) = [s for s in root.find_all("script") if s.get("id") == "tsume-drawing"]
    return data.text()


def _article_of(root: Node, pid: str) -> Node:
    (art,) = [a for a in root.find_all("article", "problem") if a.get("data-id") == pid]
    return art


def _rows(svg: Node) -> list[int]:
    """The number of squares in each row of a diagram, top row first."""
    ys: dict[float, int] = {}
    for r in svg.find_all("rect", "sq"):
        ys[float(r.get("y"))] = ys.get(float(r.get("y")), 0) + 1
    return [ys[y] for y in sorted(ys)]


def _line(viewer: Node) -> dict:
    """A viewer's data, as the page's script reads it."""
    return json.loads(viewer.find("script", "line").text())


@pytest.mark.parametrize("mode", booklet.SOLUTIONS)
def test_viewers_hold_the_positions_of_the_main_line(pages, solved, mode):
    _, root = pages[mode]
    for pr in EXAMPLES:
        pos, result = solved[pr.id]
        assert result.status == "mate"
        sol = _solution_of(root, pr.id)
        (viewer,) = sol.find_all("div", "viewer")
        line = _line(viewer)
        assert viewer.get("data-frames") == str(len(result.mainline) + 1) == str(len(line["positions"]))
        assert viewer.find("span", "ply-label").text() == f"0 / {len(result.mainline)}"
        # drawn as the problem's diagram is: the same game, the same rows
        assert line["variant"] == pos.variant.spec
        assert line["fold"] == _rows(_article_of(root, pr.id).find("div", "diagram").find("svg"))[0]
        assert line["moves"] == result.mainline and line["readable"] == result.readable
        replay = pos.copy()
        assert line["positions"][0] == replay.fen() and line["check"][0] == "0"
        for k, move in enumerate(result.mainline, 1):
            replay.push_str(move)
            assert line["positions"][k] == replay.fen(), (pr.id, k)
            assert line["check"][k] == ("1" if replay.is_check() else "0"), (pr.id, k)
        assert len(line["check"]) == len(line["positions"])
        # mate, but for useless interpositions the solver does not count
        assert replay.is_check()
        assert replay.is_checkmate() or any(v.useless and v.ply == len(result.mainline) + 1
                                            for v in result.variations)
        # nothing is drawn into the file: the page draws the frame shown
        (view,) = viewer.find_all("div", "frame-view")
        assert not view.children
        # the main line's moves, numbered as the frames
        moves = sol.find("ol", "mainline").find_all("button", "move")
        assert [b.get("data-ply") for b in moves] == [str(i) for i in range(1, len(result.mainline) + 1)]


def test_mating_move_and_variations(pages, solved):
    _, root = pages["end"]
    for pr in EXAMPLES:
        _, result = solved[pr.id]
        sol = _solution_of(root, pr.id)
        texts = [b.text() for b in sol.find("ol", "mainline").find_all("button", "move")]
        assert [t.rstrip("#") for t in texts] == result.readable
        assert texts[-1].endswith("#") and not any("#" in t for t in texts[:-1])
        assert f"Mate in {result.length} pl" in sol.find("p", "length").text()
        counted = [v for v in result.variations if not v.useless]
        items = sol.find_all("ul", "variations")
        if not counted:
            assert not items
            continue
        lis = items[0].find_all("li")
        assert len(lis) == len(counted)
        for li, v in zip(lis, counted):
            text = li.text()
            assert text.startswith(f"{v.ply}. {v.readable_line[0]}")
            assert text.split("(")[0].strip().endswith("#")
            assert li.find("span", "vlen").text() == f"({v.length} plies)"
    # ito-09 has useless interpositions: listed apart, not counted
    useless = _solution_of(root, "ito-09").find("p", "useless").text()
    _, result = solved["ito-09"]
    assert all(v.readable in useless for v in result.variations if v.useless)
    assert any(v.useless for v in result.variations)
    # each group after the check it answers, the mate's included: no ply past the mate
    assert "after 7. C*4: T*2, C*2, H*2, G*2" in useless and "after 9. C4-6#: P*4" in useless
    assert "ply 10" not in useless


# --- where the solutions go ----------------------------------------------------------------------------


def test_solutions_at_the_end(pages):
    _, root = pages["end"]
    (section,) = root.find_all("section", "solutions")
    main_ = root.find("main", "problems")
    body = root.find("body")
    kids = [c for c in body.children if isinstance(c, Node)]
    assert kids.index(section) > kids.index(main_)
    assert [d.get("data-id") for d in section.find_all("div", "solution")] == [pr.id for pr in EXAMPLES]
    for a in root.find_all("article", "problem"):
        assert not a.find_all("div", "solution")
    assert not root.find_all("button", "show-solution")
    assert all("hidden" not in b.attrs for b in root.find_all("div", "solution-body"))


def test_solutions_hidden(pages):
    _, root = pages["hidden"]
    assert not root.find_all("section", "solutions")
    for a in root.find_all("article", "problem"):
        (button,) = a.find_all("button", "show-solution")
        (body,) = a.find_all("div", "solution-body")
        assert "hidden" in body.attrs
        assert button.get("aria-controls") == body.get("id")
        assert button.get("aria-expanded") == "false"
        assert body.find_all("script", "line")
    ids = [b.get("id") for b in root.find_all("div", "solution-body")]
    assert len(ids) == len(set(ids)) == len(EXAMPLES)


def test_solutions_inline(pages):
    _, root = pages["inline"]
    assert not root.find_all("section", "solutions")
    assert not root.find_all("button", "show-solution")
    for a in root.find_all("article", "problem"):
        (body,) = a.find_all("div", "solution-body")
        assert "hidden" not in body.attrs
        assert body.find("ol", "mainline")


def test_ids_are_unique(pages):
    for mode, (_, root) in pages.items():
        ids = [n.get("id") for n in root.iter() if n.get("id")]
        assert len(ids) == len(set(ids)), mode


# --- the size of a square, and of a booklet ----------------------------------------------------------------

SEED_RUTHERFORD = load(locate("seed-rutherford"))


def test_diagrams_are_32_px_a_square_and_long_files_fold_into_rows():
    # The examples (22, 31, 37 and 47 squares) and the longest files there are (64).
    longest = [pr for pr in SEED_RUTHERFORD if pr.problem().position().n == 64][:1]
    assert longest
    problems = EXAMPLES + longest
    root = parse(booklet.build(problems))
    seen = set()
    for pr in problems:
        n = pr.problem().position().n
        svg = _article_of(root, pr.id).find("div", "diagram").find("svg")
        rows = _rows(svg)
        # The fewest rows of at most 32 squares, of equal length (the last one may be a square short).
        assert sum(rows) == n and max(rows) <= 32 and len(rows) == -(-n // 32), (pr.id, rows)
        assert max(rows) - min(rows) <= 1 and rows == sorted(rows, reverse=True), (pr.id, rows)
        # Drawn 32 px a square (a square is 40 units of the viewBox).
        width = float(svg.get("viewbox").split()[2])  # (html.parser lowercases the names)
        assert float(svg.get("width")) == pytest.approx(width * 32 / 40, abs=0.5), pr.id
        seen.add(len(rows))
    assert seen == {1, 2}


@pytest.mark.slow
def test_the_booklet_of_seed_rutherford_stays_small():
    # 204 problems, 7,548 positions in their solutions: one diagram per problem
    # in the file, the positions as data (each frame as SVG made 70.7 MB).
    html = booklet.build(SEED_RUTHERFORD, source="seed-rutherford")
    assert len(html.encode()) <= 7_000_000
    root = parse(html)
    assert len(root.find_all("svg")) == len(SEED_RUTHERFORD)
    assert len(root.find_all("script", "line")) == len(SEED_RUTHERFORD)


def test_the_play_mode_holds_every_position_the_studio_draws():
    from tsume.play import frames

    two = [pr for pr in EXAMPLES if pr.id in ("ito-09", "rutherford-05")]
    root = parse(booklet.build(two, play=True))
    boxes = [d for d in root.find_all("div", "play")]
    assert len(boxes) == 2
    for box in boxes:
        data = json.loads(box.find("script", "play-data").text())
        assert "frames" not in data  # no SVG: the page draws each diagram from its position
        tree = {k: v for k, v in data.items() if k not in ("positions", "fold")}
        drawn = frames(tree)
        assert set(data["positions"]) == set(drawn)
        for key, (fen, last, check) in data["positions"].items():
            svg = parse(drawn[key]).find("svg")
            assert svg.get("data-position") == fen, key
            tinted = sorted(int(r.get("data-square")) for r in svg.find_all("rect", "lastmove"))
            assert tinted == sorted(_squares(last) if last else []), key
            assert bool(svg.find_all("rect", "check")) == bool(check), key


# --- options -------------------------------------------------------------------------------------------


def test_title_kanji_and_progress():
    two = [pr for pr in EXAMPLES if pr.id in ("ito-01", "rutherford-05")]
    calls = []
    html = booklet.build(two, title="Ten <small> & tricky \"problems\"", kanji=True,
                         progress=lambda done, total, e: calls.append((done, total, e.problem.id)))
    root = parse(html)
    assert root.find("title").text() == 'Ten <small> & tricky "problems"'
    assert root.find("h1").text() == 'Ten <small> & tricky "problems"'
    assert "<small>" not in html
    assert calls == [(1, 2, "ito-01"), (2, 2, "rutherford-05")]
    labels = {t.text() for svg in root.find_all("svg") for g in svg.find_all("g", "piece") for t in g.find_all("text")}
    assert {"玉", "歩"} <= labels
    for a in root.find_all("article", "problem"):  # the problem's own diagram too, not only the frames
        kings = [g for g in a.find("div", "diagram").find_all("g", "piece") if g.get("data-piece") in ("K", "k")]
        assert kings and all(g.find("text").text() == "玉" for g in kings)
    # and the frames the page draws
    assert json.loads(_drawing(root))["page"]["kanji"] is True
    plain = parse(booklet.build(two))
    labels = {t.text() for svg in plain.find_all("svg") for g in svg.find_all("g", "piece") for t in g.find_all("text")}
    assert "玉" not in labels and "K" in labels
    assert json.loads(_drawing(plain))["page"]["kanji"] is False
    assert plain.find("title").text() == "Tsume"


# --- verification --------------------------------------------------------------------------------------

FLAWED = {pr.id: pr for pr in load(locate("flawed"))}
# Checked with `tsume verify --file flawed --json`: fast ones of each verdict.
UNSOUND, SOUND, FLAWED_ONE = "ruth-no-mate-1", "ruth-unused-material-1", "ruth-final-move-alternative-1"


def test_verify_marks_what_is_not_sound():
    problems = [FLAWED[UNSOUND], FLAWED[SOUND], FLAWED[FLAWED_ONE]]
    root = parse(booklet.build(problems, verify=True))
    articles = {a.get("data-id"): a for a in root.find_all("article", "problem")}
    (bad,) = articles[UNSOUND].find_all("div", "verdict")
    assert "unsound" in bad.classes and bad.find_all("li")
    assert not articles[UNSOUND].find_all("p", "verdict")
    (good,) = articles[SOUND].find_all("p", "verdict")
    assert good.classes == {"verdict", "sound"}
    assert not articles[SOUND].find_all("div", "verdict")
    (meh,) = articles[FLAWED_ONE].find_all("div", "verdict")
    assert "flawed" in meh.classes and meh.find_all("li")
    # the unsound one has no solution to show; the sound one has its viewer
    assert _solution_of(root, UNSOUND).find_all("p", "no-solution")
    assert _solution_of(root, SOUND).find_all("script", "line")
    # without verify, no verdicts
    plain = parse(booklet.build(problems[1:]))
    assert not [n for n in plain.iter() if "verdict" in n.classes]


def test_certify_marks_a_sound_problem_whose_certificate_checks(tmp_path):
    import base64

    from tsume.certificate.check import check_certificate, load as load_certificate

    examples = load(locate("examples"))[:2]
    problems = [*examples, FLAWED[UNSOUND], FLAWED[FLAWED_ONE]]
    root = parse(booklet.build(problems, verify=True, certify=True))
    articles = {a.get("data-id"): a for a in root.find_all("article", "problem")}
    for pr in examples:
        (mark,) = articles[pr.id].find_all("div", "certified")
        assert "Certified" in mark.text()
        (link,) = mark.find_all("a")
        assert link.get("download") == f"{pr.id}.cert"
        data = base64.b64decode(link.get("href").removeprefix("data:application/gzip;base64,"))
        assert check_certificate(data).accepted
        cert = load_certificate(data)["problems"][0]
        assert (cert["id"], cert["position"]) == (pr.id, pr.problem().fen)
    for pid in (UNSOUND, FLAWED_ONE):  # not sound: never certified
        assert not [n for n in articles[pid].iter() if "certified" in n.classes or "certificate" in n.classes]
    # Without certify, no mark; certify needs verify.
    plain = parse(booklet.build(examples, verify=True))
    assert not [n for n in plain.iter() if "certified" in n.classes]
    with pytest.raises(ArgumentError, match="certify needs verify"):
        booklet.build(examples, certify=True)
    out = tmp_path / "c.html"
    r = run("booklet", "examples", "--id", examples[0].id, "--verify", "--certify", "-q", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert parse(out.read_text(encoding="utf-8")).find_all("span", "certified-mark")


def test_a_sound_problem_that_cannot_be_certified_says_why(tmp_path):
    # seed-ito's ito-c0162 is sound, but its defender strategy is past a
    # node limit of 100 (docs/certificates.md); the default certifies it.
    out = tmp_path / "u.html"
    r = run("booklet", "seed-ito", "--id", "ito-c0162", "--verify", "--certify", "--certificate-nodes", "100",
            "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "sound but not certified: ito-c0162" in r.stderr
    root = parse(out.read_text(encoding="utf-8"))
    (note,) = root.find_all("p", "uncertified")
    assert note.text().startswith("Not certified: uniqueness: more than 100 nodes")
    assert not root.find_all("span", "certified-mark")
    r = run("booklet", "seed-ito", "--id", "ito-c0162", "--verify", "--certify", "-o", str(out))
    assert r.exit_code == 0 and "not certified" not in r.stderr, r.output
    assert parse(out.read_text(encoding="utf-8")).find_all("span", "certified-mark")
    r = run("booklet", "seed-ito", "--id", "ito-c0162", "--verify", "--certificate-nodes", "100", "-o", str(out))
    assert r.exit_code == 2 and "--certificate-nodes needs --certify" in r.stderr


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def entry(capsys, *args: str) -> tuple[int, str, str]:
    """Through the console entry point (click's usage errors become one line there)."""
    from tsume.cli import run as entry_point

    with pytest.raises(SystemExit) as exc:
        entry_point(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize("ids, status, marked", [
    ([SOUND], 0, False),
    ([SOUND, UNSOUND], 1, True),
    ([UNSOUND], 1, True),
    ([FLAWED_ONE], 0, True),  # marked "Flawed", but exits as `tsume verify` does for a flawed problem: 0
])
def test_verify_exit_status(tmp_path, ids, status, marked):
    out = tmp_path / "b.html"
    args = ["booklet", "flawed", "--verify", "-q", "-o", str(out)]
    for pid in ids:
        args += ["--id", pid]
    r = run(*args)
    assert r.exit_code == status, r.output + r.stderr
    assert r.stdout == "" and r.stderr == ""
    root = parse(out.read_text(encoding="utf-8"))
    assert [a.get("data-id") for a in root.find_all("article", "problem")] == ids
    assert bool(root.find_all("div", "verdict")) == marked


def test_a_proven_no_mate_is_an_answer_and_a_limit_is_not(tmp_path):
    # Without --verify a problem with no mate is shown as such and named, and
    # the booklet is a success; one a limit left open is a failure (exit 1).
    out = tmp_path / "b.html"
    r = run("booklet", "flawed", "--id", UNSOUND, "--id", SOUND, "-o", str(out))
    assert r.exit_code == 0, r.output + r.stderr
    assert f"no mate: {UNSOUND}" in r.stderr and "not settled" not in r.stderr
    assert "The solver finds no mate." in out.read_text(encoding="utf-8")
    r = run("booklet", "flawed", "--id", SOUND, "--nodes", "1", "-o", str(out))
    assert r.exit_code == 1, r.output + r.stderr
    assert f"not settled: {SOUND}" in r.stderr


def test_every_bundled_collection_makes_a_booklet(tmp_path):
    # Exit 0 for each: every problem settled, a proven "no mate" shown as such.
    from tsume.collection import bundled_names

    for name in ("examples", "flawed", "records"):
        assert name in bundled_names()
        r = run("booklet", name, "-q", "-o", str(tmp_path / f"{name}.html"))
        assert r.exit_code == 0, (name, r.output + r.stderr)


# --- the command -----------------------------------------------------------------------------------------


def test_command_writes_the_booklet(tmp_path):
    out = tmp_path / "examples.html"
    r = run("booklet", "examples", "-o", str(out), "--solutions", "hidden", "--title", "Six", "--kanji")
    assert r.exit_code == 0, r.output + r.stderr
    assert r.stdout == ""
    assert f"wrote {out}" in r.stderr and "6 problem(s)" in r.stderr
    html = out.read_text(encoding="utf-8")
    assert html.endswith("</html>\n")
    assert_self_contained(html)
    root = parse(html)
    assert root.find("title").text() == root.find("h1").text() == "Six"
    assert len(root.find_all("button", "show-solution")) == 6
    assert "玉" in html
    assert [p.name for p in tmp_path.iterdir()] == ["examples.html"]
    quiet = run("booklet", "examples", "-q", "--id", "ito-05", "--id", "ito-01", "-o", str(out))
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == ""
    root = parse(out.read_text(encoding="utf-8"))
    assert [a.get("data-id") for a in root.find_all("article", "problem")] == ["ito-05", "ito-01"]
    assert root.find("title").text() == "Tsume: examples"


def _one_line(code, out, err, status):
    assert code == status, (code, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error:"), err
    assert "Traceback" not in err
    return lines[0]


def test_unknown_id(capsys, tmp_path):
    out = tmp_path / "b.html"
    line = _one_line(*entry(capsys, "booklet", "examples", "--id", "no-such-id", "-o", str(out)), 2)
    assert "no-such-id" in line
    assert not out.exists()


def test_unknown_collection(capsys, tmp_path):
    out = tmp_path / "b.html"
    _one_line(*entry(capsys, "booklet", str(tmp_path / "missing.tsume"), "-o", str(out)), 2)
    assert not out.exists()


def test_bad_solutions_value(capsys, tmp_path):
    out = tmp_path / "b.html"
    line = _one_line(*entry(capsys, "booklet", "examples", "--solutions", "later", "-o", str(out)), 2)
    assert "--solutions" in line
    assert not out.exists()


def test_output_is_required(capsys):
    _one_line(*entry(capsys, "booklet", "examples"), 2)


def test_unwritable_output(capsys, tmp_path):
    # a file where a folder should be
    (tmp_path / "no").write_text("a file\n")
    blocked = tmp_path / "no" / "such" / "b.html"
    line = _one_line(*entry(capsys, "booklet", "examples", "--id", "ito-01", "-q", "-o", str(blocked)), 74)
    assert str(blocked) in line
    assert (tmp_path / "no").read_text() == "a file\n"
    (tmp_path / "no").unlink()
    # a folder in the way: nothing left behind, not even the temporary file
    folder = tmp_path / "dir.html"
    folder.mkdir()
    _one_line(*entry(capsys, "booklet", "examples", "--id", "ito-01", "-q", "-o", str(folder)), 74)
    assert folder.is_dir() and list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.html"]


def test_a_missing_output_folder_is_made(capsys, tmp_path):
    out = tmp_path / "out" / "booklets" / "b.html"
    code, _, err = entry(capsys, "booklet", "examples", "--id", "ito-01", "-q", "-o", str(out))
    assert code == 0, err
    assert out.read_text(encoding="utf-8").endswith("</html>\n")


def test_an_existing_file_is_replaced_whole(tmp_path):
    out = tmp_path / "b.html"
    out.write_text("old")
    r = run("booklet", "examples", "--id", "ito-01", "-q", "-o", str(out))
    assert r.exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "old" not in html[:20]
    assert [p.name for p in tmp_path.iterdir()] == ["b.html"]


# --- bad arguments to build() ------------------------------------------------------------------------------


@pytest.mark.parametrize("problems, kwargs", [
    ([], {}),
    ("examples", {}),
    (b"examples", {}),
    ([1, 2], {}),
    (None, {}),
    (iter(EXAMPLES[:1]), {}),
    (EXAMPLES[:1] + ["ito-01"], {}),
    (EXAMPLES[:1], {"solutions": "later"}),
    (EXAMPLES[:1], {"solutions": None}),
    (EXAMPLES[:1], {"title": 5}),
    (EXAMPLES[:1], {"kanji": "yes"}),
    (EXAMPLES[:1], {"verify": 1}),
    (EXAMPLES[:1], {"limits": 5}),
    (EXAMPLES[:1], {"limits": {"nodes": 1}}),
    (EXAMPLES[:1], {"progress": "print"}),
])
def test_build_bad_arguments(problems, kwargs):
    with pytest.raises(ArgumentError) as exc:
        booklet.build(problems, **kwargs)
    assert isinstance(exc.value, TsumeError)


def test_a_problem_the_solver_cannot_settle():
    # A node limit too small to solve: the booklet says so instead of a solution.
    pr = next(p for p in EXAMPLES if p.id == "rutherford-15")
    root = parse(booklet.build([pr], limits=Limits(nodes=1)))
    sol = _solution_of(root, pr.id)
    assert sol.find_all("p", "no-solution") and not sol.find_all("div", "viewer")
    assert root.find("h2").text().endswith(f"Mate in {pr.length}")  # the collection's stated length
