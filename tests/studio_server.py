"""The studio served for real: ``tsume serve --port 0`` in a child process,
and what the tests need around it (tests/test_studio_browser.py,
tests/test_studio_serve.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

__all__ = ["Studio", "descendants", "wait_js", "click_square"]


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def wait_js(page, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` is true in the page.  (Playwright's own
    wait_for_function compiles its predicate with eval, which the studio's
    Content-Security-Policy forbids, as it should; evaluate() is exempt.)"""
    # An element the page is redrawing may be missing for a moment: an
    # error counts as "not yet", and the last one is reported on time-out.
    guarded = f"(() => {{ try {{ return [Boolean({expression}), null]; }} catch (e) {{ return [false, String(e)]; }} }})()"
    deadline = time.monotonic() + timeout / 1000
    while True:
        done, error = page.evaluate(guarded)
        if done:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}" + (f" (last: {error})" if error else ""))
        time.sleep(0.03)


def click_square(page, board: str, square) -> None:
    """Click a square of a diagram as a user does: on the piece standing there, if any."""
    page.click(f'{board} rect.sq[data-square="{square}"]', force=True)


#: A search of about 40 CPU seconds (a mate in 21 of 34 million nodes):
#: long enough to watch, cancel and stop, whatever the machine.
LONG = "15k15 b TCHG"


def as_from_a_terminal() -> None:
    """For ``preexec_fn``: SIGINT as a terminal gives it.  A shell starts
    background jobs with SIGINT ignored and Python keeps it ignored; the
    server is to be stopped as a user at a terminal stops it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Studio:
    """``tsume serve`` in a child process, on a free port."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.process = subprocess.Popen([sys.executable, "-m", "tsume", "serve", "--port", "0", "--root", str(root)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=as_from_a_terminal)
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"tsume serve did not start: {line!r} {self.process.stderr.read()[:500]!r}")
        self.url = found.group(0)
        self.port = int(found.group(1))

    def api(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path.lstrip("/")) as r:
            return json.loads(r.read())

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=20)
        return self.process.returncode, err
