"""Make the PNG screenshots of docs/booklet.md and the README with headless Chromium.

    .venv/bin/pip install -e ".[browser]"      # Playwright (no browser download)
    apt-get install chromium fonts-wqy-microhei # Debian's Chromium; a CJK font for the kanji shot
    .venv/bin/python docs/make_screenshots.py

Writes docs/images/{diagram,diagram-kanji,booklet-page,viewer,booklet-phone}.png
from the bundled ``examples`` collection, through the package's own commands
(``tsume show --format svg`` and ``tsume booklet``), so the pictures are what a
user gets.  ``--chromium PATH`` names the browser (default: ``chromium`` on
the PATH, as the browser tests find it).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
IMAGES = HERE / "images"
PROBLEM = ("--file", "examples", "--id", "ito-09")


def tsume(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "tsume", *args], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/lib/chromium/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tsume("show", *PROBLEM, "--format", "svg", "-o", str(work / "diagram.svg"))
        tsume("show", *PROBLEM, "--format", "svg", "--kanji", "--fold", "16", "-o", str(work / "kanji.svg"))
        tsume("booklet", "examples", "-o", str(work / "booklet.html"), "-q")
        tsume("booklet", "examples", "--solutions", "hidden", "-o", str(work / "hidden.html"), "-q")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1000, "height": 800}, device_scale_factor=1)
            for name, width in (("diagram", 1000), ("kanji", 640)):
                # The window takes the diagram's shape, so the picture has no empty bands.
                _, _, w, h = (float(v) for v in re.search(r'viewBox="([^"]+)"', (work / f"{name}.svg").read_text(
                    encoding="utf-8")).group(1).split())
                page.set_viewport_size({"width": width, "height": math.ceil(width * h / w)})
                page.goto((work / f"{name}.svg").as_uri())
                # An SVG document has no page to screenshot whole: shoot its root element.
                page.locator("svg").screenshot(path=str(IMAGES / f"{'diagram-kanji' if name == 'kanji' else name}.png"))
            # The booklet's whole column (1,100 px at most): a 31-square board at 32 px a square fits it.
            page.set_viewport_size({"width": 1100, "height": 800})
            page.goto((work / "booklet.html").as_uri())
            page.locator("#problem-3").screenshot(path=str(IMAGES / "booklet-page.png"))
            # The viewer of the same problem, three moves in.
            solution = page.locator("#solution-body-3")
            viewer = solution.locator(".viewer")
            # Viewers draw their first frame as they come near the window, which moves the page:
            # let that happen before clicking, and see each click land.
            viewer.scroll_into_view_if_needed()
            viewer.locator(".frame-view svg").wait_for()
            for ply in range(1, 4):
                viewer.locator('button[data-go="next"]').click()
                page.wait_for_function(f"document.querySelector('#solution-body-3 .viewer').dataset.ply === '{ply}'")
            solution.screenshot(path=str(IMAGES / "viewer.png"))
            phone = browser.new_page(viewport={"width": 390, "height": 700}, device_scale_factor=2)
            phone.goto((work / "hidden.html").as_uri())
            phone.locator("#problem-3 button.show-solution").click()
            phone.locator("#problem-3").screenshot(path=str(IMAGES / "booklet-phone.png"))
            browser.close()
    for png in sorted(IMAGES.glob("*.png")):
        print(f"{png.relative_to(HERE.parent)}: {png.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
