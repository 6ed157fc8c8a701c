"""Make the PNG screenshots of docs/studio.md with headless Chromium.

    .venv/bin/pip install -e ".[browser,studio]"   # Playwright and the studio (no browser download)
    apt-get install chromium                       # Debian's Chromium
    .venv/bin/python docs/make_studio_screenshots.py

Starts ``tsume serve --port 0`` on a temporary root folder, drives the page
as a user would (the bundled ``examples`` and ``flawed`` collections, a
short composing run) and writes docs/images/studio-*.png, so the pictures
are what a user gets.  ``--chromium PATH`` names the browser.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
IMAGES = HERE / "images"


def wait(page, expression: str, timeout: float = 120) -> None:
    # (Playwright's wait_for_function uses eval, which the studio's Content-Security-Policy forbids.)
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out: {expression}")
        time.sleep(0.05)


def open_problem(page, collection: str, pid: str) -> None:
    page.click("#tab-collections")
    page.select_option("#collection", collection)
    wait(page, f"!!document.querySelector('#problems tr[data-id=\"{pid}\"]')")
    page.click(f'#problems tr[data-id="{pid}"] button.open')
    wait(page, f"document.getElementById('pid').value === '{pid}'")
    time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/lib/chromium/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="studio-shots-"))
    server = subprocess.Popen([sys.executable, "-m", "tsume", "serve", "--port", "0", "--root", str(root)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1150, "height": 800}, device_scale_factor=1)
            page.goto(url)
            wait(page, "document.body.dataset.ready === 'true'")

            # Set up: ito-09, then a second White king placed by mistake: the one-line objection.
            open_problem(page, "examples", "ito-09")
            page.click('#palette button[data-token="k"]')
            page.click('#editor-board rect.sq[data-square="14"]', force=True)
            wait(page, "document.getElementById('check-line').classList.contains('bad')")
            page.click('#palette button:text-is("Move")')
            page.locator("#panel-setup").screenshot(path=str(IMAGES / "studio-setup.png"))
            page.focus("#editor-board")
            page.keyboard.press("Delete")

            # Solve, three plies into the main line.
            open_problem(page, "examples", "ito-09")
            page.click("#tab-solve")
            page.click("#solve")
            wait(page, "!!document.getElementById('result-line').dataset.status")
            for k in range(1, 4):
                page.click('#stepper button[data-go="next"]')
                wait(page, f"document.getElementById('stepper').dataset.ply === '{k}'")
            page.locator("#panel-solve").screenshot(path=str(IMAGES / "studio-solve.png"))

            # Verify a flawed problem, its finding shown on the board.
            open_problem(page, "flawed", "ito-yozume-1")
            page.click("#tab-solve")
            page.click("#verify")
            wait(page, "!!document.querySelector('#verdict [data-verdict]')")
            page.click('#findings button.finding[data-kind="yozume"]')
            wait(page, "document.getElementById('stepper').dataset.ply === ''")
            page.locator("#panel-solve").screenshot(path=str(IMAGES / "studio-verify.png"))

            # Play ito-09: a wrong check, refuted on the board.
            open_problem(page, "examples", "ito-09")
            page.click("#tab-play")
            page.click("#play-start")
            wait(page, "!!document.querySelector('#player .player[data-state=\"your-move\"]')")
            page.click('#player g.hand.black g.hand-piece:has(g.piece[data-piece="P"])')
            page.click('#player rect.sq[data-square="3"]', force=True)
            wait(page, "document.querySelector('#player .player').dataset.frame === 'r0:P*3'")
            page.locator("#panel-play").screenshot(path=str(IMAGES / "studio-play.png"))

            # Compose: a short run, the accepted problems listed as they come.
            page.click("#tab-compose")
            page.fill("#c-max", "5")
            page.fill("#c-count", "4")
            page.uncheck('input[name="c-method"][value="random"]')
            page.click("#compose")
            wait(page, "document.getElementById('compose-progress').textContent.startsWith('Done')", 300)
            page.locator("#panel-compose").screenshot(path=str(IMAGES / "studio-compose.png"))

            # Collections: seed-ito, five-movers.
            page.click("#tab-collections")
            page.select_option("#collection", "seed-ito")
            wait(page, "document.querySelectorAll('#problems tbody tr').length > 100")
            page.fill("#f-min", "5")
            page.fill("#f-max", "5")
            wait(page, "document.querySelectorAll('#problems tbody tr').length < 40")
            page.locator("#panel-collections").screenshot(path=str(IMAGES / "studio-collections.png"))
            browser.close()
    finally:
        server.send_signal(2)
        _, err = server.communicate(timeout=30)
        if err.strip() != "tsume: interrupted":
            print(err, file=sys.stderr)
        shutil.rmtree(root, ignore_errors=True)
    for png in sorted(IMAGES.glob("studio-*.png")):
        print(f"{png.relative_to(HERE.parent)}: {png.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
