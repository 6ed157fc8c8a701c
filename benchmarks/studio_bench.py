"""The studio's speed as a user meets it: start-up, page load, solve latency,
jobs side by side, and how quickly the page is answered while jobs run.

    .venv/bin/python benchmarks/studio_bench.py                 # everything (Chromium for the page load)
    .venv/bin/python benchmarks/studio_bench.py --no-browser    # the API only
    .venv/bin/python benchmarks/studio_bench.py --repeat 20

It starts ``tsume serve --port 0`` (two jobs at once, the default) in a
child process, and prints, each as a median over ``--repeat`` runs with the
range:

* the server's start-up: from launch to its "the studio is at" line
  (the fork server imports the package once, so later jobs start at once);
* the page load: from navigation to the page being ready (every module
  loaded, the first problem drawn), in headless Chromium, cold and warm;
* a bundled problem's solve latency: ``POST /api/solve`` to the job being
  done (polled every 10 ms), against the solve's own time inside the job --
  the difference is what the studio adds (a process, pipes, polling);
* jobs side by side: four solves of a few seconds each submitted at once,
  their total wall time against one alone (two run at once on two cores);
* the page's answers while two long searches run: ``POST /api/position``
  latency, median and worst.

Latencies are wall time, which is what a user waits for; beside them is
the CPU time the studio spent (the server, its fork server and the jobs'
processes, read from /proc), which a loaded machine does not inflate as it
does the wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from studio_server import LONG, Studio  # noqa: E402


_TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and every process below it, the ended ones
    included (their time is in their parent's ``cutime`` once reaped)."""
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stats[int(entry)] = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
    total, todo = 0.0, [pid]
    while todo:
        here = todo.pop()
        if here in stats:
            fields = stats[here]  # fields[0] is the state: utime, stime, cutime, cstime are 11-14
            total += sum(int(x) for x in fields[11:15]) / _TICK
        todo += [p for p, f in stats.items() if int(f[1]) == here]
    return total


class Server(Studio):
    """The tests' studio in a child process, timed from launch to ready."""

    def __init__(self, root: Path) -> None:
        start = time.perf_counter()
        super().__init__(root)
        self.startup = time.perf_counter() - start

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as r:
            return json.loads(r.read())

    def run_job(self, path: str, body: dict, poll: float = 0.01) -> tuple[float, dict]:
        start = time.perf_counter()
        view = self.call("POST", path, body)
        while view["state"] == "running":
            time.sleep(poll)
            view = self.call("GET", f"/api/jobs/{view['id']}")
        return time.perf_counter() - start, view


def spread(values: list[float], unit: str = "s", scale: float = 1.0) -> str:
    v = sorted(x * scale for x in values)
    return f"{statistics.median(v):.3f} {unit} (range {v[0]:.3f}-{v[-1]:.3f}, {len(v)} runs)"


def page_load(url: str, repeat: int) -> tuple[list[float], list[float]]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/lib/chromium/chromium"
    cold, warm = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(repeat):
            context = browser.new_context()
            page = context.new_page()
            for times in (cold, warm):
                start = time.perf_counter()
                page.goto(url)
                page.wait_for_selector("body[data-ready=true]", timeout=60_000)
                times.append(time.perf_counter() - start)
            context.close()
        browser.close()
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--no-browser", action="store_true", help="skip the page load (no Chromium)")
    args = parser.parse_args()
    import tsume
    from tsume.collection import find, load, locate

    print(f"tsume studio benchmark (tsume {tsume.__version__})")
    root = Path(tempfile.mkdtemp(prefix="studio-bench-"))
    starts = []
    for _ in range(3):
        s = Server(root)
        starts.append(s.startup)
        s.stop()
    print(f"server start-up, launch to ready: {spread(starts)}")
    server = Server(root)
    try:
        if not args.no_browser:
            cold, warm = page_load(server.url, args.repeat)
            print(f"page load, navigation to ready: first {spread(cold)}; again {spread(warm)}")

        for collection, pid in (("examples", "ito-09"), ("examples", "rutherford-15"), ("records", "composed-ito-03")):
            try:
                pr = find(load(locate(collection)), pid)
            except Exception:  # noqa: BLE001 - a collection another version renamed
                continue
            body = {"problem": {"position": pr.position, "variant": pr.variant, "defender": pr.defender}}
            server.run_job("/api/solve", body)  # warm
            walls, inside = [], []
            cpu = tree_cpu(server.process.pid)
            for _ in range(args.repeat):
                wall, view = server.run_job("/api/solve", body)
                walls.append(wall)
                inside.append(view["result"]["stats"]["seconds"])
            time.sleep(0.3)  # the last job's process reaped
            cpu = (tree_cpu(server.process.pid) - cpu) / args.repeat
            nodes = view["result"]["stats"]["nodes"]
            print(f"solve {collection} {pid} (mate in {view['result']['length']}, {nodes:,} nodes): "
                  f"request to result {spread(walls)}; the solve itself {spread(inside)}; "
                  f"CPU per request (server, polling and the job's process) {cpu * 1000:.0f} ms")

        # Jobs side by side: a search of a few seconds (a node limit makes every one the same work).
        body = {"problem": {"position": LONG}, "limits": {"nodes": 3_000_000}}
        cpu = tree_cpu(server.process.pid)
        one, view = server.run_job("/api/solve", body, poll=0.05)
        time.sleep(0.3)
        cpu_one = tree_cpu(server.process.pid) - cpu
        cpu = tree_cpu(server.process.pid)
        start = time.perf_counter()
        ids = [server.call("POST", "/api/solve", body)["id"] for _ in range(4)]
        done = []
        while len(done) < 4:
            time.sleep(0.05)
            done = [v for v in (server.call("GET", f"/api/jobs/{i}") for i in ids) if v["state"] != "running"]
        four = time.perf_counter() - start
        time.sleep(0.3)
        cpu_four = tree_cpu(server.process.pid) - cpu
        print(f"jobs side by side: one alone {one:.2f} s wall, {cpu_one:.2f} s CPU; four at once {four:.2f} s wall, "
              f"{cpu_four:.2f} s CPU (two run at a time): {4 * one / four:.2f} times the work per second of one")

        # The page's answers while two long searches run.
        long_ids = [server.call("POST", "/api/solve", {"problem": {"position": LONG}})["id"] for _ in range(2)]
        time.sleep(1.0)
        latencies = []
        for _ in range(max(20, args.repeat * 5)):
            start = time.perf_counter()
            server.call("POST", "/api/position", {"position": "H1kf1P1c2K20 b PHG 1"})
            latencies.append(time.perf_counter() - start)
        for i in long_ids:
            server.call("DELETE", f"/api/jobs/{i}")
        idle = []
        time.sleep(2.0)
        for _ in range(max(20, args.repeat * 5)):
            start = time.perf_counter()
            server.call("POST", "/api/position", {"position": "H1kf1P1c2K20 b PHG 1"})
            idle.append(time.perf_counter() - start)
        print(f"POST /api/position while two searches run: median {statistics.median(latencies) * 1000:.1f} ms, "
              f"worst {max(latencies) * 1000:.1f} ms; with none: median {statistics.median(idle) * 1000:.1f} ms, "
              f"worst {max(idle) * 1000:.1f} ms")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
