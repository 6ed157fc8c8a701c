"""Sharded work on an executor (tsume.shards): the same results whatever runs
them, a stopped job resumed with nothing lost, progress from inside a shard,
and a stop that ends the workers at once."""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tsume.errors import ArgumentError
from tsume.files import write_atomic
from tsume.shards import Runner, dask_executor, report


def work(key: int, size: int) -> dict:
    """A deterministic shard: a function of its arguments alone."""
    total = sum((key * 7919 + i) % 1009 for i in range(size))
    return {"key": key, "total": total, "pid": os.getpid()}


def slow(key: int, seconds: float) -> int:
    for i in range(int(seconds / 0.05)):
        report({"shard": key, "step": i + 1})
        time.sleep(0.05)
    return key


def fails(key: int) -> int:
    if key == 2:
        raise ValueError("shard 2 broke")
    return key


def job(runner: Runner, keys: list[int]) -> dict[int, int]:
    return {f.key: f.get()["total"] for batch in runner.run((k, (k, 2000)) for k in keys) for f in batch}


def test_the_results_do_not_depend_on_the_executor_or_the_workers():
    keys = list(range(12))
    with Runner(work, workers=1) as one:
        a = job(one, keys)
    with Runner(work, workers=2) as two:
        b = job(two, keys)
    with cf.ThreadPoolExecutor(3) as threads, Runner(work, executor=threads, width=2) as runner:
        c = job(runner, keys)
    assert a == b == c and sorted(a) == keys


def test_at_most_width_shards_run_at_once():
    with cf.ThreadPoolExecutor(4) as threads, Runner(slow, executor=threads, width=2) as runner:
        runner.submit(0, 0, 0.2)
        runner.submit(1, 1, 0.2)
        assert runner.room == 0 and runner.running == 2
        got = []
        while runner.running:
            got += [f.get() for f in runner.wait(1.0)]
        assert sorted(got) == [0, 1] and runner.room == 2


def test_a_stopped_job_resumes_with_nothing_lost(tmp_path):
    """Each result is checkpointed as it comes; a stop mid-way (here a
    KeyboardInterrupt after three results, shards still running) loses only
    the running ones, and the resumed job submits what is not on disk."""
    done_file = tmp_path / "done.json"
    keys = list(range(10))

    def checkpoint(done: dict) -> None:
        write_atomic(done_file, json.dumps(done))

    done: dict[str, int] = {}
    with pytest.raises(KeyboardInterrupt):
        with Runner(work, workers=2, width=4) as runner:
            for batch in runner.run((k, (k, 300_000 if k > 2 else 10)) for k in keys):
                for f in batch:
                    done[str(f.key)] = f.get()["total"]
                    checkpoint(done)
                if len(done) >= 3:
                    raise KeyboardInterrupt
    stored = json.loads(done_file.read_text())
    assert 3 <= len(stored) < len(keys)
    with Runner(work, workers=2) as runner:
        for batch in runner.run((k, (k, 300_000 if k > 2 else 10)) for k in keys if str(k) not in stored):
            for f in batch:
                stored[str(f.key)] = f.get()["total"]
    with Runner(work, workers=1) as runner:
        whole = {str(f.key): f.get()["total"] for b in runner.run((k, (k, 300_000 if k > 2 else 10)) for k in keys)
                 for f in b}
    assert stored == whole


def test_leaving_the_runner_ends_its_workers_at_once():
    started = time.monotonic()
    with Runner(slow, workers=2) as runner:
        for k in range(4):
            runner.submit(k, k, 60.0)
        while len(runner.pids) < 2 and time.monotonic() - started < 20:  # the workers have started
            runner.wait(0.1)
        pids = set(runner.pids)
    assert time.monotonic() - started < 25
    assert len(pids) == 2
    alive = {p.pid for p in mp.active_children()}
    assert not pids & alive


def test_reports_come_while_a_shard_runs():
    heard: list[dict] = []
    with Runner(slow, workers=1, on_report=heard.append) as runner:
        runner.submit(5, 5, 1.0)
        while runner.running:
            runner.wait(0.1)
    steps = [d["step"] for d in heard if d.get("shard") == 5]
    # Reports are at most every 0.25 s: a second of work sends a few.
    assert 2 <= len(steps) <= 6 and steps == sorted(steps)


def test_a_shard_error_comes_with_its_key():
    with Runner(fails, workers=1) as runner:
        finished = [f for batch in runner.run((k, (k,)) for k in range(4)) for f in batch]
    assert sorted(f.key for f in finished) == [0, 1, 2, 3]
    bad = [f for f in finished if f.error is not None]
    assert [f.key for f in bad] == [2]
    with pytest.raises(ValueError, match="shard 2 broke"):
        bad[0].get()


def test_bad_arguments():
    with pytest.raises(ArgumentError, match="workers"):
        Runner(work, workers=0)
    with pytest.raises(ArgumentError, match="width"):
        Runner(work, executor=cf.ThreadPoolExecutor(1), width=0)
    with dask_executor(None) as ex:
        assert ex is None


CHILD = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, {tests!r})
from test_shards import slow
from tsume.shards import Runner
try:
    with Runner(slow, workers=2) as runner:
        for k in range(4):
            runner.submit(k, k, 60.0)
        while len(runner.pids) < 2:
            runner.wait(0.1)
        print(" ".join(map(str, sorted(runner.pids))), flush=True)
        while True:
            runner.wait(0.5)
except KeyboardInterrupt:
    sys.exit(130)
"""


@pytest.mark.slow
@pytest.mark.parametrize("group", [False, True], ids=["parent-only", "process-group"])
def test_ctrl_c_stops_the_job_quickly_and_quietly(group):
    """SIGINT to the runner's process alone (``kill -INT``) or to the whole
    group (Ctrl-C at a terminal): out in seconds, the workers gone, no
    traceback from any of them."""
    p = subprocess.Popen([sys.executable, "-c", CHILD.format(tests=str(Path(__file__).parent))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert p.stdout is not None
    pids = [int(x) for x in p.stdout.readline().split()]
    assert len(pids) == 2, p.stderr.read() if p.stderr else ""
    t = time.monotonic()
    if group:
        os.killpg(p.pid, signal.SIGINT)
    else:
        p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert time.monotonic() - t < 5
    assert "Traceback" not in err
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        pytest.fail(f"worker {pid} still runs")
