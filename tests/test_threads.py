"""Searches in threads: the engine releases the GIL while it searches.

Two threads searching two problems give the same answers as one after the
other, a search is stopped from another thread with ``cancel()``, and the
composer and the census run their workers as threads with ``--threads``
(the same results as their process pools).  How much faster two threads
are is measured by ``benchmarks/threads.py``, not asserted here.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from click.testing import CliRunner

from tsume import Limits, Problem
from tsume.cli import main
from tsume.collection import load, locate
from tsume.search import Search, SearchLimit
from tsume.verify import verify


def test_two_threads_verify_as_one_does():
    problems = [p.problem() for p in load(locate("bench-rutherford")) if p.length in (7, 9)][:12]
    serial = [verify(p).to_dict() for p in problems]
    with ThreadPoolExecutor(2) as pool:
        parallel = [r.to_dict() for r in pool.map(verify, problems)]
    for a, b in zip(serial, parallel):
        a.pop("stats")
        b.pop("stats")
    assert serial == parallel


def test_cancel_stops_a_search_in_another_thread():
    # Every first move of this position valued exactly runs for minutes.
    search = Search(Problem("h+Pgk1f2+F+P+G20 b 2TCHc 2").position())
    outcome: list[object] = []

    def run() -> None:
        try:
            search.first_moves()
            outcome.append("finished")
        except SearchLimit as exc:
            outcome.append(str(exc))

    worker = threading.Thread(target=run)
    worker.start()
    while search.nodes < 10_000:  # (it reads the count while the other thread searches)
        time.sleep(0.01)
    search.cancel()
    worker.join(timeout=30)
    assert not worker.is_alive() and outcome == ["cancelled"]
    assert search.stopped == "cancelled"


def test_a_search_in_a_thread_keeps_its_limits():
    search = Search(Problem("h+Pgk1f2+F+P+G20 b 2TCHc 2").position(), limits=Limits(nodes=5_000))
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(search.first_moves)
        try:
            future.result(timeout=60)
        except SearchLimit as exc:
            assert str(exc) == "node limit"
    assert search.nodes == 5_000


def test_compose_on_threads_makes_the_same_collection(tmp_path):
    runner = CliRunner()
    common = ["compose", "--variant", "rutherford", "--method", "random", "--count", "3", "--seed", "7",
              "--workers", "2", "-q"]
    a = runner.invoke(main, [*common, "--out", str(tmp_path / "procs.tsume")])
    b = runner.invoke(main, [*common, "--out", str(tmp_path / "threads.tsume"), "--threads"])
    assert a.exit_code == b.exit_code == 0, (a.output, b.output)
    assert (tmp_path / "procs.tsume").read_text() == (tmp_path / "threads.tsume").read_text()


def test_census_on_threads_makes_the_same_table(tmp_path):
    runner = CliRunner()
    common = ["census", "--material", "attacker=G, hand=G, defender-hand=none", "--workers", "2", "-q", "--json"]
    a = runner.invoke(main, [*common, "-o", str(tmp_path / "procs")])
    b = runner.invoke(main, [*common, "-o", str(tmp_path / "threads"), "--threads"])
    assert a.exit_code == b.exit_code == 0, (a.output, b.output)
    ta, tb = json.loads(a.output), json.loads(b.output)
    for t in (ta, tb):
        t.pop("elapsed", None)
        t.pop("rates", None)
    assert (tmp_path / "procs" / "sound.tsume").read_text() == (tmp_path / "threads" / "sound.tsume").read_text()


def test_threads_and_a_scheduler_exclude_each_other(tmp_path):
    r = CliRunner().invoke(main, ["census", "--material", "attacker=G", "-o", str(tmp_path / "x"), "--threads",
                                  "--scheduler", "tcp://localhost:1"])
    assert r.exit_code == 2 and "--threads and --scheduler exclude each other" in r.output
