"""The booklets of the bundled collections: size, where the bytes go, build
time and load time in Chromium.

    .venv/bin/python benchmarks/booklet_bench.py                       # every bundled collection
    .venv/bin/python benchmarks/booklet_bench.py seed-rutherford examples --repeat 7
    .venv/bin/python benchmarks/booklet_bench.py seed-ito --option --play
    .venv/bin/python benchmarks/booklet_bench.py --existing out/seed-rutherford.html   # a booklet already built

Each booklet is built with the real command (``python -m tsume booklet NAME
-o FILE -q`` plus ``--option``s), its CPU time read from the child's
resource usage.  The file's bytes are split into the diagrams drawn in
the page (``<svg>`` elements), the embedded data (``<script
type="application/json">``), the scripts, the style sheets and the rest
(text and markup).  Then headless Chromium (the system one, as the tests
use it) opens the file ``--repeat`` times, each in a fresh page, and the
median and range are printed of: DOMContentLoaded, the ``load`` event and
the first contentful paint, each from the start of the navigation
(``performance`` timings, so Playwright's own overhead is not counted).
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_TIMINGS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
  return {dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, fcp: paint ? paint.startTime : null,
          svgs: document.querySelectorAll('svg').length, nodes: document.getElementsByTagName('*').length};
}"""


def build(name: str, out: Path, options: list[str]) -> float:
    """Build the booklet of ``name`` into ``out``; the CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "tsume", "booklet", name, "-o", str(out), "-q", *options],
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"booklet {name}: {done.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def breakdown(html: str) -> dict[str, int]:
    """Bytes (UTF-8) of the file by what they are."""
    def total(pattern: str) -> int:
        return sum(len(m.group(0).encode()) for m in re.finditer(pattern, html, re.S))

    parts = {
        "svg": total(r"<svg\b.*?</svg>"),
        "data": total(r'<script type="application/json"[^>]*>.*?</script>'),
        "script": total(r"<script(?! type=\"application/json\")[^>]*>.*?</script>"),
        "style": total(r"<style\b.*?</style>"),
    }
    parts["rest"] = len(html.encode()) - sum(parts.values())
    return parts


def load_times(browser, path: Path, repeat: int) -> list[dict]:
    runs = []
    for _ in range(repeat):
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        try:
            page.goto(path.as_uri(), wait_until="load", timeout=120_000)
            page.wait_for_timeout(50)  # the paint entry follows the first frame
            runs.append(page.evaluate(_TIMINGS))
        finally:
            page.close()
    return runs


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f} ms ({min(values):.0f}-{max(values):.0f})"


def main() -> None:
    from tsume.collection import bundled_names

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="bundled collections (default: all)")
    parser.add_argument("--option", action="append", default=[], help="an option for tsume booklet (repeatable)")
    parser.add_argument("--existing", action="append", default=[], type=Path, help="measure this file; build nothing")
    parser.add_argument("--repeat", type=int, default=5, help="page loads per booklet (default 5)")
    parser.add_argument("--no-browser", action="store_true", help="size and build time only")
    parser.add_argument("--keep", type=Path, help="write the booklets into this folder (default: a temporary one)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/lib/chromium/chromium")
    args = parser.parse_args()

    folder = args.keep or Path(tempfile.mkdtemp(prefix="booklet-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    files: list[tuple[str, Path, float | None]] = [(p.stem, p, None) for p in args.existing]
    if not args.existing:
        for name in args.names or bundled_names():
            out = folder / f"{name}.html"
            files.append((name, out, build(name, out, args.option)))

    browser = playwright = None
    if not args.no_browser:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
    try:
        for name, path, cpu in files:
            html = path.read_text(encoding="utf-8")
            size = len(html.encode())
            parts = ", ".join(f"{k} {v / 1e6:.2f}" for k, v in breakdown(html).items())
            built = f"; built in {cpu:.2f} s CPU" if cpu is not None else ""
            print(f"{name}: {size / 1e6:.2f} MB ({parts} MB){built}")
            if browser is not None:
                runs = load_times(browser, path, args.repeat)
                print(f"  DOMContentLoaded {_ms([r['dcl'] for r in runs])}   load {_ms([r['load'] for r in runs])}"
                      f"   first paint {_ms([r['fcp'] for r in runs if r['fcp'] is not None] or [0])}"
                      f"   ({runs[0]['svgs']} svg, {runs[0]['nodes']} elements; median of {len(runs)})")
    finally:
        if browser is not None:
            browser.close()
            playwright.stop()
    if args.keep is None:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
