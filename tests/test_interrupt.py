"""Ctrl-C stops every long command within about a second.

Each test runs a command that would take minutes in a child process, sends it
SIGINT once it is working, and expects exit status 130, the one line
"tsume: interrupted" and nothing on stdout, within a second.  Compiled code
(the Rust engine's perft and search) never runs Python's signal handlers by
itself: without a check for signals in their loops, ``perft --depth 12`` ran
on for minutes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]

# The child says it has started, then runs the command line.
CHILD = (
    "import sys, tsume; print('started', file=sys.stderr, flush=True); "
    "from tsume.cli import run; run(sys.argv[1:])"
)

LONG = {
    "perft": ["perft", "--depth", "12"],
    # df-pn: every first move's exact length, minutes
    "solve": ["solve", "-q", "--all-first-moves", "h+Pgk1f2+F+P+G20 b 2TCHc 2"],
    # a disproof two plies short of a long alternative's length, over a minute
    "verify": ["verify", "-q", "--exact-lengths", "problems/bench-ito.tsume", "--id", "ito-L05-0013"],
    "sat": ["solve", "--engine", "sat", "--max-length", "5", "--all-first-moves", "3T2k1CG21 b C 1"],
}


def interrupt(args: list[str], *, working: float = 1.0) -> tuple[int, float, str, str]:
    """Run ``tsume ARGS`` in a child, SIGINT it ``working`` seconds after it started
    working; (status, seconds from SIGINT to exit, stdout, stderr)."""
    env = dict(os.environ)
    # A shell starts background jobs with SIGINT ignored, and Python keeps an
    # ignored SIGINT ignored: give the child the default, as a terminal would.
    child = subprocess.Popen([sys.executable, "-c", CHILD, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stderr is not None
        assert child.stderr.readline().strip() == "started"
        time.sleep(working)
        assert child.poll() is None, "the command ended before it was interrupted"
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        return child.returncode, time.perf_counter() - sent, out, err
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.parametrize("command", ["perft", "solve", "verify"])
def test_ctrl_c_stops_compiled_loops(command: str) -> None:
    status, seconds, out, err = interrupt(LONG[command])
    assert (status, out, err) == (130, "", "tsume: interrupted\n")
    assert seconds < 1.0


@pytest.mark.parametrize("threads", [False, True])
def test_ctrl_c_stops_a_census(tmp_path: Path, threads: bool) -> None:
    """The census's graph is built in the engine: in a worker process (ended by
    the runner) or, with --threads, in a thread of this one (stopped by
    census_cancel).  Ito attacker=C, hand=G under the rest rule builds a graph
    of millions of nodes in its first shard, for seconds, up to the node
    budget of --memory 600."""
    args = ["census", "-q", "--variant", "ito", "--material", "attacker=C, hand=G", "--workers", "1",
            "--memory", "600", "-o", str(tmp_path / "census")]
    status, seconds, out, err = interrupt(args + (["--threads"] if threads else []), working=1.5)
    assert (status, out, err) == (130, "", "tsume: interrupted\n")
    assert seconds < 1.0


def test_ctrl_c_stops_the_census_engine_call_on_the_main_thread() -> None:
    """tsume.census.retro.analyse called from Python's main thread: the engine
    looks at Python's signals every 20 ms and KeyboardInterrupt is raised."""
    code = ("import sys; from tsume.census.family import parse_family; from tsume.census.retro import analyse; "
            "pos = next(iter(parse_family('attacker=C, hand=G', 'ito').positions(16))); "
            "print('started', file=sys.stderr, flush=True); analyse([pos], 21)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stderr is not None
        assert child.stderr.readline().strip() == "started"
        time.sleep(1.0)
        assert child.poll() is None, "the analysis ended before it was interrupted"
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
        seconds = time.perf_counter() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode != 0 and err.rstrip().endswith("KeyboardInterrupt")
    assert seconds < 1.0


def test_ctrl_c_stops_the_sat_engine() -> None:
    """The SAT solver runs in C with the GIL released; its watchdog hands the signal on."""
    status, seconds, out, err = interrupt(LONG["sat"], working=2.0)
    assert (status, out, err) == (130, "", "tsume: interrupted\n")
    assert seconds < 1.0
