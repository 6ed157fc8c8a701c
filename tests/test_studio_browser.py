"""The studio in a real browser: Debian's Chromium, headless, driven by
Playwright, against the real server (``tsume serve --port 0``) started here.

Every test checks what the page shows against the engine, and that the page
logged no console error and asked nothing of any host but the studio.  The
booklet's play mode is played offline (a file, no server).  Skipped, with the
reason, without Chromium, Playwright or the studio extra (as
tests/test_browser.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio_server import LONG, Studio, click_square, descendants, wait_js
from test_browser import READ_DIAGRAM, check_diagram, browser  # noqa: F401 - the fixture
from tsume.collection import find, load, locate
from tsume.problem import Problem
from tsume.play import play_tree
from tsume.position import Position
from tsume.render import mated, numbered, useless_by_check
from tsume.solve import solve
from tsume.verify import verify

pytest.importorskip("fastapi", reason="the studio extra is not installed (pip install 'tsume[studio]')")
pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install 'tsume[studio]')")

pytestmark = pytest.mark.slow



@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    server = Studio(tmp_path_factory.mktemp("studio-root"))
    yield server
    code, err = server.stop()
    assert code == 130 and "Traceback" not in err, err


def wait_redrawn(pg, act) -> None:
    """Do ``act`` and wait until the editor has drawn the board it leads to
    (so that whatever the page does with its answer is done)."""
    pg.evaluate("document.querySelector('#editor-board svg').dataset.before = 'yes'")
    act()
    wait_js(pg, "document.querySelector('#editor-board svg') && "
                "!document.querySelector('#editor-board svg').dataset.before")


class StudioPage:
    """The studio in a tab, every console error and every request collected."""

    def __init__(self, browser, studio: Studio) -> None:
        self.studio = studio
        self.page = browser.new_page(viewport={"width": 1200, "height": 1000})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(studio.url)
        self.page.wait_for_selector("body[data-ready=true]", timeout=30_000)

    def close(self) -> None:
        # No console error, and nothing asked of any host but the studio.
        assert self.errors == []
        outside = [u for u in self.requests if not u.startswith(self.studio.url) and not u.startswith("blob:")]
        assert outside == []
        self.page.close()

    def tab(self, name: str) -> None:
        self.page.click(f"#tab-{name}")

    def open_problem(self, collection: str, pid: str) -> None:
        self.tab("collections")
        self.page.select_option("#collection", collection)
        pr = find(load(locate(collection)), pid)
        given = Position(pr.position, pr.variant, validate=False).fen()
        # Until its board is drawn anew: the page may show that very problem already.
        wait_redrawn(self.page, lambda: self.page.click(f'#problems tr[data-id="{pid}"] button.open'))
        wait_js(self.page, f"document.getElementById('pid').value === {json.dumps(pid)} && "
                           f"document.getElementById('position').value === {json.dumps(given)}")

    def verify(self, timeout: int = 30_000) -> str:
        """Verifies the problem on the board from the solve tab; the verdict shown."""
        self.tab("solve")
        self.page.click("#verify")
        self.page.wait_for_selector("#verdict [data-verdict]", timeout=timeout)
        return self.page.get_attribute("#verdict [data-verdict]", "data-verdict")

    def start_play(self, collection: str, pid: str) -> dict:
        """Opens a problem in the play tab and starts it; its play tree, computed here."""
        self.open_problem(collection, pid)
        self.tab("play")
        self.page.click("#play-start")
        self.page.wait_for_selector("#player .player[data-state=your-move]", timeout=30_000)
        return play_tree(find(load(locate(collection)), pid).problem())

    def board(self, selector: str) -> dict:
        return self.page.locator(f"{selector} svg").evaluate(READ_DIAGRAM)


@pytest.fixture
def page(browser, studio):  # noqa: F811 - the fixture imported above
    p = StudioPage(browser, studio)
    yield p
    p.close()


def test_set_up_a_problem_by_clicks_and_keys_and_read_its_string(page):
    pg = page.page
    pg.click("#clear")
    wait_js(pg, "document.getElementById('position').value.startsWith('31 ')")
    for token, square in (("k", 1), ("P", 3), ("H", 6)):
        pg.click(f'#palette button[data-token="{token}"]')
        click_square(pg, '#editor-board', square)
    pg.click('#hands .hand-editor.black button[data-letter="G"][data-delta="1"]')
    wait_js(pg, "document.getElementById('position').value === 'k1P2H25 b G 1'")
    assert "A legal problem" in pg.inner_text("#check-line")
    seen = page.board("#editor-board")
    check_diagram(seen, Problem("k1P2H25 b G").position(), "set up by clicks")
    # What the engine rejects is said at once, in one line, on the board: a second White king.
    pg.click('#palette button[data-token="k"]')
    click_square(pg, '#editor-board', 10)
    pg.wait_for_selector("#check-line.bad")
    assert pg.inner_text("#check-line") == "board: two White kings (second on square 10)"
    assert pg.locator("#editor-board rect.sq.error").evaluate_all("rs => rs.map(r => r.dataset.square)") == ["1", "10"]
    assert "Not legal" in pg.locator("#editor-board svg .caption").text_content()
    drawn = page.board("#editor-board")  # both kings drawn, each inside its square
    assert drawn["pieces"]["1"] == "k" and drawn["pieces"]["10"] == "k" and not drawn["misplaced"]
    # Move that king by select-and-click, then by keys: promote nothing (a king), remove it.
    pg.click('#palette button:text-is("Move")')
    click_square(pg, '#editor-board', 10)
    click_square(pg, '#editor-board', 12)
    wait_js(pg, "document.getElementById('position').value.startsWith('k1P2H5k')")
    pg.focus("#editor-board")
    pg.keyboard.press("Delete")
    wait_js(pg, "document.getElementById('position').value === 'k1P2H25 b G 1'")
    # Keys: the cursor to square 8, a White Pawn, promoted, then given to Black.
    pg.keyboard.press("Home")
    for _ in range(7):
        pg.keyboard.press("ArrowRight")
    pg.keyboard.press("p")
    wait_js(pg, "document.getElementById('position').value === 'k1P2H1p23 b G 1'")
    pg.keyboard.press("+")
    wait_js(pg, "document.getElementById('position').value === 'k1P2H1+p23 b G 1'")
    pg.keyboard.press("~")
    wait_js(pg, "document.getElementById('position').value === 'k1P2H1+P23 b G 1'")
    check_diagram(page.board("#editor-board"), Problem("k1P2H1+P23 b G 1").position(), "after the keys")
    # The string is editable too: typed, read, and the board follows.
    pg.fill("#position", "k1P2H25 b GT 1")
    pg.press("#position", "Enter")
    wait_js(pg, "document.querySelector('#editor-board svg').dataset.position.startsWith('k1P2H25 b TG')")
    assert pg.inner_text('#hands .hand-editor.black .count[data-letter="T"]') == "1 T"
    # The defender's hand: none, then named pieces.
    pg.select_option("#defender-rule", "none")
    wait_js(pg, "document.querySelector('#editor-board svg').dataset.position === 'k1P2H25 b TG 1'")
    pg.select_option("#defender-rule", "given")
    pg.click('#hands .hand-editor.white button[data-letter="P"][data-delta="1"]')
    wait_js(pg, "document.getElementById('position').value === 'k1P2H25 b TGp 1'")
    # Saved into a collection under the root (atomically), and exported as an SVG.
    pg.click("#details summary")
    pg.fill("#pid", "by-clicks")
    pg.fill("#title", "Set up by clicks")
    pg.dispatch_event("#title", "change")
    pg.fill("#save-file", "mine.tsume")
    pg.click("#save")
    wait_js(pg, "document.getElementById('save-status').textContent.startsWith('Saved [by-clicks] into mine.tsume')")
    (saved,) = load(page.studio.root / "mine.tsume")
    assert (saved.id, saved.position, saved.defender, saved.title) == ("by-clicks", "k1P2H25 b TGp 1", "P",
                                                                      "Set up by clicks")
    with pg.expect_download() as download:
        pg.click("#export-svg")
    svg = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "by-clicks.svg"
    assert svg.startswith("<svg") and "<style>" in svg and 'data-position="k1P2H25 b TGp 1"' in svg
    # Rutherford: the board's length is an input.
    pg.select_option("#variant", "rutherford")
    pg.fill("#squares", "11")
    # Left as a user leaves it: one change event.  (One dispatched here would be
    # followed by the browser's own when the field loses focus, redrawing the board
    # under the next click.)
    pg.locator("#squares").blur()
    wait_js(pg, "document.getElementById('position').value === 'k10 b - 1'")
    pg.click('#palette button[data-token="+L"]')
    click_square(pg, "#editor-board", 5)
    wait_js(pg, "document.getElementById('position').value === 'k3+L6 b - 1'")
    assert pg.inner_text("#check-line") == "position: White (not to move) is in check on square 1"


DETAIL_INPUTS = ("pid", "title", "author", "tags", "length", "solution")


def details(pg) -> dict:
    return {i: pg.input_value(f"#{i}") for i in DETAIL_INPUTS}


def test_a_cleared_board_is_a_new_problem_verified_and_saved_as_one(page):
    pg = page.page
    ito05 = find(load(locate("examples")), "ito-05")
    page.open_problem("examples", "ito-05")
    assert details(pg) == {"pid": "ito-05", "title": ito05.title, "author": ito05.author,
                           "tags": ", ".join(ito05.tags), "length": str(ito05.length),
                           "solution": " ".join(ito05.solution)}
    assert "examples [ito-05]" in pg.inner_text("#summary") and pg.is_hidden("#detached")
    pg.click("#clear")
    wait_js(pg, "document.getElementById('position').value.startsWith('31 ')")
    # Nothing of ito-05 is left to verify, save or show against the new board.
    assert details(pg) == dict.fromkeys(DETAIL_INPUTS, "")
    summary = pg.inner_text("#summary")
    assert "new problem (edited from examples [ito-05])" in summary and "mate in" not in summary
    assert pg.inner_text("#detached-text") == (
        "A new problem, edited from examples [ito-05]: its id, title, author, tags, stated length and solution "
        "were that problem's and are cleared. Save asks for an id of its own.")
    pg.fill("#position", "1kT3H24 b G 1")
    pg.press("#position", "Enter")
    wait_js(pg, "document.getElementById('position').value === '1kT3H24 b G 1'")
    verdict = page.verify()
    want = verify(Problem("1kT3H24 b G 1"))
    assert verdict == want.verdict == "sound"
    assert pg.inner_text("#result-line").startswith(f"Mate in {want.length} plies")
    # Save asks for an id of its own, and files the problem under it, with nothing of ito-05's.
    page.tab("setup")
    pg.fill("#save-file", "edited.tsume")
    pg.click("#save")
    wait_js(pg, "document.getElementById('save-status').textContent.startsWith('Give the problem an id')")
    assert not (page.studio.root / "edited.tsume").exists()
    pg.fill("#pid", "my-own")
    pg.click("#save")
    wait_js(pg, "document.getElementById('save-status').textContent.startsWith('Saved [my-own] into edited.tsume')")
    (saved,) = load(page.studio.root / "edited.tsume")
    assert (saved.id, saved.position, saved.title, saved.author, saved.tags, saved.length, saved.solution) == \
        ("my-own", "1kT3H24 b G 1", None, None, [], None, None)
    # Saved, the board is that problem now.
    assert "edited.tsume [my-own]" in pg.inner_text("#summary") and pg.is_hidden("#detached")


EDITS = {
    "a piece placed by a click": lambda pg: (pg.click('#palette button[data-token="p"]'),
                                             click_square(pg, "#editor-board", 20)),
    "a piece placed by a key": lambda pg: (pg.focus("#editor-board"), pg.keyboard.press("End"),
                                           pg.keyboard.press("t")),
    "a string typed": lambda pg: (pg.fill("#position", "H1kf1P1c2K20 b PH 1"), pg.click("#read")),
    "the side to move": lambda pg: pg.select_option("#side", "white"),
    "a hand": lambda pg: pg.click('#hands .hand-editor.black button[data-letter="T"][data-delta="1"]'),
    "the defender's hand": lambda pg: pg.select_option("#defender-rule", "none"),
    "the start position": lambda pg: pg.click("#start"),
    "the game": lambda pg: pg.select_option("#variant", "rutherford"),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_every_edit_of_the_board_detaches_the_problem_opened(page, edit):
    pg = page.page
    page.open_problem("examples", "ito-05")
    EDITS[edit](pg)
    wait_js(pg, "document.getElementById('summary').textContent.includes('edited from examples [ito-05]')")
    assert details(pg) == dict.fromkeys(DETAIL_INPUTS, "")
    assert not pg.is_hidden("#detached")


def test_what_is_not_an_edit_keeps_the_problem_and_what_was_typed_stays(page):
    pg = page.page
    page.open_problem("examples", "ito-05")
    # Selecting a piece, and reading the very string the board shows, change nothing.
    click_square(pg, "#editor-board", 7)
    wait_redrawn(pg, lambda: pg.click("#read"))
    assert details(pg)["pid"] == "ito-05" and pg.is_hidden("#detached")
    # A title typed before the edit is the user's, not ito-05's: it stays.
    pg.click("#details summary")
    pg.fill("#title", "My own idea")
    pg.dispatch_event("#title", "change")
    pg.click("#clear")
    wait_js(pg, "document.getElementById('pid').value === ''")
    assert details(pg) == {**dict.fromkeys(DETAIL_INPUTS, ""), "title": "My own idea"}
    assert "its id, author, tags, stated length and solution were" in pg.inner_text("#detached-text")


def test_a_correction_of_the_same_problem_keeps_its_details(page):
    pg = page.page
    page.open_problem("examples", "ito-05")
    opened = details(pg)
    pg.click('#hands .hand-editor.black button[data-letter="P"][data-delta="-1"]')
    wait_js(pg, "!document.getElementById('detached').hidden")
    assert details(pg)["pid"] == ""
    pg.click("#keep-details")
    assert details(pg) == opened and pg.is_hidden("#detached")
    assert "examples [ito-05] (edited)" in pg.inner_text("#summary")
    # Kept: later edits leave the details alone.
    wait_redrawn(pg, lambda: pg.click('#hands .hand-editor.black button[data-letter="P"][data-delta="1"]'))
    assert details(pg) == opened and pg.is_hidden("#detached")
    assert pg.input_value("#position") == "H1kf1P1c2K20 b PHG 1"


def test_a_length_filter_applies_as_one_types_and_the_first_click_opens(page, studio):
    pg = page.page
    page.tab("collections")
    pg.select_option("#collection", "seed-ito")
    problems = studio.api("/api/collections/seed-ito")["problems"]
    wait_js(pg, f"document.querySelectorAll('#problems tbody tr').length === {len(problems)}")
    lengths = {p["id"]: p["length"] if p["length"] is not None else p["proven_length"] for p in problems}
    want = [pid for pid, n in lengths.items() if n is not None and 9 <= n <= 11]
    assert 0 < len(want) < len(problems)
    pg.click("#f-min")
    pg.keyboard.type("9")
    pg.click("#f-max")
    pg.keyboard.type("11")
    # Applied as typed: no blur, no Enter.
    assert pg.evaluate("document.activeElement.id") == "f-max"
    shown = pg.locator("#problems tbody tr").evaluate_all("rs => rs.map(r => r.dataset.id)")
    assert shown == want
    assert pg.inner_text("#collection-line") == f"{len(want)} of {len(problems)} problems shown."
    # One click on Open, the filter field still focused, opens the problem.
    first = pg.locator(f'#problems tr[data-id="{want[0]}"] button.open')
    first.click()
    wait_js(pg, f"document.getElementById('pid').value === {json.dumps(want[0])}", timeout=10_000)
    assert not pg.is_hidden("#panel-setup")
    # A tag narrows the rows further; clearing the lengths brings the others back.
    page.tab("collections")
    tag = next(t for p in problems if p["id"] in want for t in p["tags"])
    pg.select_option("#f-tag", tag)
    tagged = [p["id"] for p in problems if p["id"] in want and tag in p["tags"]]
    assert pg.locator("#problems tbody tr").evaluate_all("rs => rs.map(r => r.dataset.id)") == tagged
    pg.fill("#f-min", "")
    pg.fill("#f-max", "")
    pg.select_option("#f-tag", "")
    assert pg.locator("#problems tbody tr").evaluate_all("rs => rs.map(r => r.dataset.id)") == \
        [p["id"] for p in problems]


def test_a_save_into_the_collection_shown_refreshes_its_table(page):
    pg = page.page
    rows = ("[...document.querySelectorAll('#problems tbody tr')].map(r => r.dataset.id + ': ' + "
            "r.cells[4].textContent).join(' | ')")
    page.open_problem("examples", "ito-09")
    pg.fill("#save-file", "shelf.tsume")
    pg.click("#save")
    wait_js(pg, "document.getElementById('save-status').textContent.startsWith('Saved [ito-09] into shelf.tsume')")
    page.tab("collections")
    pg.select_option("#collection", "shelf.tsume")
    title = find(load(locate("examples")), "ito-09").title
    wait_js(pg, f"{rows} === {json.dumps(f'ito-09: {title}')}")
    # A new problem saved into it appears in its table, no Refresh pressed ...
    page.tab("setup")
    pg.fill("#position", "1kT3H24 b G 1")
    pg.press("#position", "Enter")
    wait_js(pg, "document.getElementById('position').value === '1kT3H24 b G 1'")
    pg.click("#details summary")
    pg.fill("#pid", "mine-2")
    pg.fill("#title", "Second")
    pg.dispatch_event("#title", "change")
    pg.click("#save")
    wait_js(pg, "document.getElementById('save-status').textContent.startsWith('Saved [mine-2] into shelf.tsume')")
    page.tab("collections")
    wait_js(pg, f"{rows} === {json.dumps(f'ito-09: {title} | mine-2: Second')}")
    # ... and a problem replaced shows its new details.
    page.tab("setup")
    pg.fill("#title", "Second, retitled")
    pg.dispatch_event("#title", "change")
    pg.check("#save-replace")
    pg.evaluate("document.getElementById('save-status').textContent = ''")
    pg.click("#save")
    wait_js(pg, "document.getElementById('save-status').textContent.startsWith('Saved [mine-2] into shelf.tsume (2 ')")
    page.tab("collections")
    wait_js(pg, f"{rows} === {json.dumps(f'ito-09: {title} | mine-2: Second, retitled')}")
    assert pg.inner_text("#collection-line") == "2 of 2 problems shown."


def test_a_root_holding_the_bundled_files_lists_each_collection_once(browser):  # noqa: F811
    from tsume.collection import bundled_names, bundled_path

    # tsume's own checkout (or installed folder) as the root: the bundled files are under it.
    root = bundled_path("examples").resolve().parents[1]
    server = Studio(root)
    try:
        p = StudioPage(browser, server)
        p.tab("collections")
        options = p.page.locator("#collection option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
        p.close()
    finally:
        code, err = server.stop()
    assert code == 130 and "Traceback" not in err, err
    files = [bundled_path(v).resolve() if v in bundled_names() else (root / v).resolve() for v, _ in options]
    assert len(files) == len(set(files)), options
    where = bundled_path("examples").resolve().relative_to(root).as_posix()
    assert ["examples", f"examples (bundled, {where})"] in options


def test_solve_and_step_through_the_main_line_as_the_engine_plays_it(page):
    pg = page.page
    page.open_problem("examples", "ito-09")
    pr = find(load(locate("examples")), "ito-09")
    pos = pr.problem().position()
    result = solve(pr.problem())
    line = result.mainline
    page.tab("solve")
    pg.click("#solve")
    pg.wait_for_selector("#result-line[data-status=mate]", timeout=30_000)
    assert pg.inner_text("#result-line").startswith(f"Mate in {len(line)} plies")
    wait_js(pg, "document.getElementById('ply-label').textContent === '0 / %d'" % len(line))
    check_diagram(page.board("#stepper-board"), pos, "start")
    for k, move in enumerate(line, 1):
        pg.click('#stepper button[data-go="next"]')
        wait_js(pg, f"document.getElementById('stepper').dataset.ply === '{k}'")
        pos.push_str(move)
        check_diagram(page.board("#stepper-board"), pos, f"after ply {k}")
        assert pg.locator("#mainline button.move.current").get_attribute("data-ply") == str(k)
    assert pos.is_check()
    # Keys and the move list.
    pg.focus("#stepper")
    pg.keyboard.press("Home")
    wait_js(pg, "document.getElementById('stepper').dataset.ply === '0'")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    wait_js(pg, "document.getElementById('stepper').dataset.ply === '2'")
    pg.keyboard.press("End")
    wait_js(pg, f"document.getElementById('stepper').dataset.ply === '{len(line)}'")
    pg.click('#mainline button.move[data-ply="3"]')
    wait_js(pg, "document.getElementById('stepper').dataset.ply === '3'")
    # Useless interpositions are listed after the check they answer, as solve prints them
    # ("after 9. C4-6#: P*4 ..."), never as a ply past the mate; each is shown when clicked.
    checks = numbered(mated(result.readable))
    groups = pg.locator("#variations ul.useless li").evaluate_all(
        "ls => ls.map(l => [l.querySelector('.after').textContent, [...l.querySelectorAll('button')].map(b => b.textContent)])")
    assert groups == [[f"after {checks[ply - 1]}:", moves] for ply, moves in useless_by_check(result.variations).items()]
    assert groups[-1][0] == f"after {len(line)}. {result.readable[-1]}#:"
    assert f"{len(line) + 1}." not in pg.inner_text("#variations")
    useless = pg.locator("#variations ul.useless button")
    for button in (useless.first, useless.last):
        button.click()
        ply, move = int(button.get_attribute("data-ply")), button.get_attribute("data-move")
        want = pr.problem().position()
        for m in line[: ply - 1] + [move]:
            want.push_str(m)
        wait_js(pg, f"document.querySelector('#stepper-board svg').dataset.position === {json.dumps(want.fen())}")
        assert pg.inner_text("#ply-label") == f"useless interposition after {checks[ply - 2]}: {button.inner_text()}"


def test_a_limit_after_a_mate_shows_the_mating_line_known_and_steps_it(page, studio):
    pg = page.page
    pg.fill("#position", LONG)
    pg.press("#position", "Enter")
    wait_js(pg, f"document.getElementById('position').value === {json.dumps(LONG + ' 1')}")
    page.tab("solve")
    pg.fill("#limit-nodes", "200000")
    pg.click("#solve")
    pg.wait_for_selector("#result-line[data-status=unknown]", timeout=60_000)
    job = [j for j in studio.api("/api/jobs")["jobs"] if j["kind"] == "solve"][-1]
    result = studio.api(f"/api/jobs/{job['id']}")["result"]
    bound, line = result["upper_bound"], result["line"]
    assert 0 < len(line) <= bound
    assert pg.inner_text("#result-line") == (f"Unknown: the node limit stopped the search. A mate in at most {bound} "
                                             "plies was found; the shortest is not proven.")
    assert pg.inner_text("#line-title") == f"A mating line ({len(line)} plies):"
    shown = pg.locator("#mainline li").evaluate_all("ls => ls.map(l => l.textContent)")
    assert shown == [n.replace(" ", "") for n in numbered(mated(result["readable_line"]))]
    # Stepped through on the board as the main line is, each diagram the engine's; the last a mate.
    pos = Problem(LONG).position()
    wait_js(pg, f"document.getElementById('ply-label').textContent === '0 / {len(line)}'")
    check_diagram(page.board("#stepper-board"), pos, "start")
    pg.focus("#stepper")
    for k, move in enumerate(line, 1):
        pg.keyboard.press("ArrowRight")
        wait_js(pg, f"document.getElementById('stepper').dataset.ply === '{k}'")
        pos.push_str(move)
        check_diagram(page.board("#stepper-board"), pos, f"after ply {k}")
    assert pos.is_check() and not pos.legal_moves()


def stale_note(pg, selector: str) -> str:
    """The note saying what a result was made for ('' while it is the problem's own), on any tab."""
    return pg.evaluate(f"(n => n.hidden ? '' : n.textContent)(document.querySelector('{selector}'))")


def test_a_result_for_another_position_says_so_and_steps_its_own(page):
    pg = page.page
    page.open_problem("examples", "ito-09")
    pr = find(load(locate("examples")), "ito-09")
    given = Position(pr.position, pr.variant, validate=False).fen()
    line = solve(pr.problem()).mainline
    # A verification reads the stated length and solution: another length, and it says so.
    page.verify()
    assert stale_note(pg, "#result-stale") == ""
    page.tab("setup")
    pg.fill("#length", "11")
    pg.dispatch_event("#length", "change")
    assert stale_note(pg, "#result-stale") == (f"For the previous stated length ({pr.length}), not for the problem "
                                               "as it stands now: solve or verify again.")
    pg.fill("#length", str(pr.length))
    pg.dispatch_event("#length", "change")
    assert stale_note(pg, "#result-stale") == ""
    page.tab("solve")
    pg.click("#solve")
    pg.wait_for_selector("#result-line[data-status=mate]", timeout=30_000)
    assert stale_note(pg, "#result-stale") == "" and "stale" not in pg.get_attribute("#result", "class")
    # A pawn more in hand: another position.  The answer says whose it is.
    plus = '#hands .hand-editor.black button[data-letter="P"][data-delta="1"]'
    page.tab("setup")
    wait_redrawn(pg, lambda: pg.click(plus))
    assert pg.input_value("#position") != given
    page.tab("solve")
    assert pg.is_visible("#result-stale")
    assert stale_note(pg, "#result-stale") == (f"For the previous position, {given}, not for the problem as it "
                                               "stands now: solve or verify again.")
    assert "stale" in pg.get_attribute("#result", "class")
    # Its line is stepped on its own position, never on the board set up now.
    pg.click('#stepper button[data-go="next"]')
    wait_js(pg, "document.getElementById('stepper').dataset.ply === '1'")
    own = pr.problem().position()
    own.push_str(line[0])
    check_diagram(page.board("#stepper-board"), own, "the stale line's first ply")
    # The pawn taken back: the same position again, the answer its own again.
    page.tab("setup")
    wait_redrawn(pg, lambda: pg.click(plus.replace('"1"', '"-1"')))
    assert pg.input_value("#position") == given
    assert stale_note(pg, "#result-stale") == "" and "stale" not in pg.get_attribute("#result", "class")
    # The play tab: a tree built for ito-09 is not offered as another position's.
    page.tab("play")
    pg.click("#play-start")
    pg.wait_for_selector("#player .player[data-state=your-move]", timeout=30_000)
    assert stale_note(pg, "#play-stale") == ""
    page.tab("setup")
    pg.click("#clear")
    wait_js(pg, "document.getElementById('position').value.startsWith('31 ')")
    page.tab("play")
    assert pg.is_visible("#play-stale")
    assert stale_note(pg, "#play-stale") == (f"For the previous position, {given}, not for the problem as it "
                                             "stands now: press Play this problem again.")
    assert pg.get_attribute("#player .player", "data-position") == pr.problem().position().fen()
    # An answer that arrives after an edit made while it was sought is marked when shown.
    page.tab("setup")
    pg.fill("#position", LONG)
    pg.press("#position", "Enter")
    wait_js(pg, f"document.getElementById('position').value === {json.dumps(LONG + ' 1')}")
    page.tab("solve")
    pg.fill("#limit-time", "3")
    pg.click("#solve")
    wait_js(pg, "document.getElementById('search-progress').textContent.startsWith('Searching')")
    page.tab("setup")
    wait_redrawn(pg, lambda: pg.click(plus))
    page.tab("solve")
    pg.wait_for_selector("#result-line[data-status=unknown]", timeout=60_000)
    assert stale_note(pg, "#result-stale") == (f"For the previous position, {LONG} 1, not for the problem as it "
                                               "stands now: solve or verify again.")

def test_verify_a_flawed_problem_and_see_its_finding_on_the_board(page):
    pg = page.page
    page.open_problem("flawed", "ito-yozume-1")
    assert page.verify() == "unsound"
    assert pg.locator("#certified").count() == 0  # only a sound problem is certified
    finding = pg.locator('#findings button.finding[data-kind="yozume"]')
    assert finding.count() == 1 and "F7x8=+F also mates" in finding.inner_text()
    finding.click()
    pr = find(load(locate("flawed")), "ito-yozume-1")
    pos = pr.problem().position()
    main = solve(pr.problem()).mainline
    ply, move = int(finding.get_attribute("data-ply")), finding.get_attribute("data-move")
    for m in main[: ply - 1] + [move]:
        pos.push_str(m)
    wait_js(pg, f"document.querySelector('#stepper-board svg').dataset.position === {json.dumps(pos.fen())}")
    check_diagram(page.board("#stepper-board"), pos, "the yozume on the board")
    assert "yozume at ply 3" in pg.inner_text("#ply-label")
    # The move is tinted on the board: its from- and to-squares.
    tinted = pg.locator("#stepper-board rect.sq.lastmove").evaluate_all("rs => rs.map(r => r.dataset.square)")
    assert tinted == ["7", "8"]


def test_verify_a_sound_problem_shows_certified_and_downloads_its_certificate(page, tmp_path):
    from tsume.certificate.check import check_certificate, load as load_certificate

    pg = page.page
    page.open_problem("examples", "ito-05")
    assert page.verify(timeout=60_000) == "sound"
    pg.wait_for_selector("#certified", timeout=5_000)
    assert pg.inner_text("#certified").startswith("Certified")
    with pg.expect_download() as info:
        pg.click("#certificate-download")
    download = info.value
    assert download.suggested_filename == "ito-05.cert"
    saved = tmp_path / "ito-05.cert"
    download.save_as(saved)
    data = saved.read_bytes()
    result = check_certificate(data)
    assert result.accepted, result.line()
    cert = load_certificate(data)["problems"][0]
    pr = find(load(locate("examples")), "ito-05").problem()
    assert (cert["id"], cert["position"], cert["variant"]) == ("ito-05", pr.fen, pr.variant.spec)


def test_compose_two_problems_with_progress_and_open_one(page, studio):
    pg = page.page
    page.tab("compose")
    pg.fill("#c-min", "1")
    pg.fill("#c-max", "3")
    pg.uncheck('input[name="c-method"][value="random"]')
    pg.uncheck('input[name="c-method"][value="reverse"]')
    pg.fill("#c-count", "2")
    # Every line the progress shows, as it shows it.
    pg.evaluate("""window.progressLines = [];
        const line = document.getElementById('compose-progress');
        new MutationObserver(() => window.progressLines.push(line.textContent))
            .observe(line, {childList: true, characterData: true, subtree: true});""")
    pg.click("#compose")
    wait_js(pg, "document.getElementById('compose-progress').textContent.length > 0")
    wait_js(pg, "document.getElementById('compose-progress').textContent.startsWith('Done')", timeout=90_000)
    items = pg.locator("#composed li")
    assert items.count() == 2
    first = items.first.get_attribute("data-id")
    composed = [j for j in studio.api("/api/jobs")["jobs"] if j["kind"] == "compose"][-1]
    problems = studio.api(f"/api/jobs/{composed['id']}")["result"]["problems"]
    assert [p["id"] for p in problems] == [items.nth(i).get_attribute("data-id") for i in range(2)]
    # The progress names the target; each problem has its diagram, as the engine sets it up.
    lines = [t for t in pg.evaluate("window.progressLines") if t]
    assert all(re.match(r"(Composing: [0-2] of 2 accepted|Waiting for a free worker)", t) for t in lines[:-1]), lines
    assert any(t.startswith("Composing: ") for t in lines) and lines[-1].startswith("Done: 2 of 2 accepted from")
    for i, p in enumerate(problems):
        wait_js(pg, f"document.querySelectorAll('#composed li')[{i}].querySelector('.diagram svg') !== null")
        want = Problem(p["position"], variant=p["variant"], defender=p["defender"]).position()
        check_diagram(items.nth(i).locator(".diagram svg").evaluate(READ_DIAGRAM), want, f"composed {p['id']}")
    items.first.locator("button.open").click()
    given = Position(problems[0]["position"], validate=False).fen()
    wait_js(pg, f"document.getElementById('position').value === {json.dumps(given)}")
    assert not pg.is_hidden("#panel-setup") and "A legal problem" in pg.inner_text("#check-line")
    want = Problem(problems[0]["position"], variant="ito", defender=problems[0]["defender"]).position()
    wait_js(pg, f"document.querySelector('#editor-board svg').dataset.position === {json.dumps(want.fen())}")
    check_diagram(page.board("#editor-board"), want, f"composed {first} in the editor")
    # The run saved into a collection under the root.
    page.tab("compose")
    pg.fill("#c-file", "run.tsume")
    pg.click("#compose-save")
    wait_js(pg, "document.getElementById('compose-save-status').textContent.startsWith('Saved 2')")
    assert [p.id for p in load(studio.root / "run.tsume")] == [p["id"] for p in problems]


def _click_move(pg, board: str, move: str, attacker: str = "black") -> None:
    """Make a move on a board by clicks: a piece then a square, or a hand piece then a square."""
    drop = re.fullmatch(r"\+?([A-Z])\*(\d+)", move)
    if drop:
        pg.click(f'{board} g.hand.{attacker} g.hand-piece:has(g.piece[data-piece="{drop.group(1)}"])')
        click_square(pg, board, drop.group(2))
    else:
        frm, to = move.split("-")
        click_square(pg, board, frm)
        click_square(pg, board, to)


def _play_through(pg, root: str, tree: dict) -> None:
    """Play a wrong check (refuted), take it back, then the solution to mate."""
    board = f"{root} .play-board"
    player = pg.locator(f"{root} .player")
    node = tree["nodes"][0]
    wrong = next(c for c in node["checks"] if c["verdict"] == "escapes")
    _click_move(pg, board, wrong["move"])
    wait_js(pg, f"document.querySelector('{root} .player').dataset.frame === 'r0:{wrong['move']}'")
    assert player.get_attribute("data-state") == "refuted"
    status = pg.inner_text(f"{root} .play-status")
    assert f"{wrong['readable']} does not mate" in status and wrong["reply_readable"] in status
    after = Position(node["position"], tree["variant"])
    after.push_str(wrong["move"])
    after.push_str(wrong["reply"])
    assert player.get_attribute("data-position") == after.fen()
    pg.click(f"{root} button[data-act=back]")
    assert player.get_attribute("data-state") == "your-move"
    assert player.get_attribute("data-position") == node["position"]
    # A hint names the first move; then the solution, move by move, answered from the tree.
    pg.click(f"{root} button[data-act=hint]")
    assert "Hint" in pg.inner_text(f"{root} .play-status")
    index = 0
    while True:
        node = tree["nodes"][index]
        right = next(c for c in node["checks"] if c["move"] == node["hint"])
        _click_move(pg, board, right["move"])
        if right["verdict"] == "mate":
            wait_js(pg, f"document.querySelector('{root} .player').dataset.state === 'solved'")
            break
        index = right["next"]
        wait_js(pg, f"document.querySelector('{root} .player').dataset.node === '{index}' && "
                             f"document.querySelector('{root} .player').dataset.state === 'your-move'")
        assert player.get_attribute("data-position") == tree["nodes"][index]["position"]
        assert right["reply_readable"] in pg.inner_text(f"{root} .play-status")
    assert pg.inner_text(f"{root} .play-status").startswith("Mate!")
    mated = Position(player.get_attribute("data-position"), tree["variant"])
    assert mated.is_check()


def test_play_a_problem_wrong_check_refuted_then_the_solution_accepted(page):
    tree = page.start_play("examples", "ito-09")
    _play_through(page.page, "#player", tree)


def test_the_booklet_play_mode_works_offline(browser, tmp_path):  # noqa: F811
    out = tmp_path / "play.html"
    done = subprocess.run([sys.executable, "-m", "tsume", "booklet", "examples", "--id", "ito-09", "--id",
                           "rutherford-05", "--play", "-o", str(out), "-q"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(out.as_uri())
        for number, pid in ((1, "ito-09"), (2, "rutherford-05")):
            page.click(f"#play-{number} button.play-start")
            page.wait_for_selector(f"#play-{number} .player[data-state=your-move]")
            tree = play_tree(find(load(locate("examples")), pid).problem())
            _play_through(page, f"#play-{number}", tree)
        assert errors == []
        assert [u for u in requests if not u.startswith("file:")] == []
    finally:
        page.close()


def test_cancel_a_long_solve(page, studio):
    pg = page.page
    before = descendants(studio.process.pid)
    pg.fill("#position", LONG)
    pg.press("#position", "Enter")
    wait_js(pg, f"document.getElementById('position').value === {json.dumps(LONG + ' 1')}")
    page.tab("solve")
    pg.fill("#limit-memory", "16")  # small: the table fills up, and the progress says so
    pg.click("#solve")
    wait_js(pg, "document.getElementById('search-progress').textContent.startsWith('Searching')",
                         timeout=30_000)
    assert len(descendants(studio.process.pid) - before) >= 1  # the job's own process
    wait_js(pg, "/; the table filled up [0-9,]+ times? \\(a larger memory limit may be faster\\)$/"
                ".test(document.getElementById('search-progress').textContent)", timeout=30_000)
    pg.click("#cancel-search")
    wait_js(pg, "document.getElementById('search-progress').textContent === 'Cancelled.'")
    job = [j for j in studio.api("/api/jobs")["jobs"] if j["kind"] == "solve"][-1]
    assert job["state"] == "cancelled"
    deadline = time.monotonic() + 5
    while descendants(studio.process.pid) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert descendants(studio.process.pid) - before == set()
    assert not pg.is_disabled("#solve")


def test_play_asks_which_side_up_a_rutherford_drop_goes(page):
    pg = page.page
    tree = page.start_play("seed-rutherford", "ruth-c0005")
    checks = {c["move"]: c for c in tree["nodes"][0]["checks"]}
    assert checks["+N*7"]["verdict"] == "right" and checks["N*7"]["verdict"] == "escapes"
    board = "#player .play-board"
    for side, want in (("unpromoted", "refuted"), ("promoted side up", None)):
        pg.click(f'{board} g.hand.black g.hand-piece:has(g.piece[data-piece="N"])')
        click_square(pg, board, 7)
        choice = pg.locator("#player .play-choice")
        assert choice.is_visible() and choice.locator("button").count() == 2
        choice.locator(f'button:text-is("{side}")').click()
        if want == "refuted":
            wait_js(pg, "document.querySelector('#player .player').dataset.state === 'refuted'")
            assert "N*7 does not mate" in pg.inner_text("#player .play-status")
            pg.click("#player button[data-act=back]")
        else:
            wait_js(pg, "document.querySelector('#player .player').dataset.state === 'your-move' && "
                        f"document.querySelector('#player .player').dataset.node === '{checks['+N*7']['next']}'")
            assert "+N*7" in pg.inner_text("#player .play-moves")
