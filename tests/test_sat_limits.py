"""The SAT engine's limits: time, memory, length bound and output size (docs/sat.md, "Limits")."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from child_run import run_tsume
from click.testing import CliRunner
from pysat.examples.genhard import PHP

from tsume.cli import main
from tsume.limits import Limits
from tsume.problem import Problem
from tsume.sat import SatError, SatMemoryLimit, SatTimeout, sat_solve
from tsume.sat.budget import Budget, line_bytes, longest_line
from tsume.sat.cegar import SOLVER

# The defender holds most of the Ito set: mates within 5 plies take minutes and
# gigabytes (1.9 GB after 120 s without a bound).
HARD = "3T2k1CG21 b C 1"
LONG = Problem("k30 b G")


def test_time_limit_lands_soon_after_the_deadline():
    # Wall clock on a machine that may be busy: a generous margin here; the
    # precision itself is measured by benchmarks/limits.py.
    r = sat_solve(Problem(HARD), max_length=5, all_first_moves=True, limits=Limits(time=1.5))
    assert (r.status, r.reason) == ("unknown", "time limit")
    assert r.stats["seconds"] < 2.0


def test_memory_limit_stops_with_unknown():
    r = sat_solve(Problem(HARD), max_length=5, all_first_moves=True, limits=Limits(memory=40))
    assert (r.status, r.reason) == ("unknown", "memory limit (40 MB)")
    # Checked every 1,024 new variables: the estimate overshoots by well under a megabyte.
    assert 40 <= r.stats["memory_mb"] < 41


def test_memory_estimate_bounds_the_resident_size():
    """What the engine counts covers what the process really grows by: with --memory 100,
    the child's peak resident size stays under 100 MB plus the interpreter's own (about 35 MB)."""
    got = run_tsume(["solve", "--engine", "sat", "--max-length", "5", "--all-first-moves", "--memory", "100", HARD])
    assert got.status == 3 and "Unknown: stopped by the memory limit (100 MB)." in got.stdout
    assert got.peak_mb is not None and got.peak_mb < 100 + 50


@pytest.mark.parametrize("time_limit,signal_after,stops_with,within", [
    (0.5, None, SatTimeout, 1.0),  # the deadline (wall clock, with room for a busy machine)
    (None, 0.3, KeyboardInterrupt, 1.0),  # Ctrl-C: its handler runs as soon as the call returns
], ids=["deadline", "ctrl-c"])
def test_a_long_solver_call_is_interrupted(time_limit, signal_after, stops_with, within):
    """One SAT call on a hard formula (the pigeonhole principle, 11 pigeons) stops at once."""
    solver = SOLVER(bootstrap_with=PHP(10).clauses)
    budget = Budget(Limits(time=time_limit))
    # Python's own Ctrl-C handler, even where the tests were started with
    # SIGINT ignored (a background job of a shell).
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if signal_after is not None:
            threading.Timer(signal_after, os.kill, (os.getpid(), signal.SIGINT)).start()
        started = time.perf_counter()
        with pytest.raises(stops_with):
            budget.solve(solver, [])
        assert time.perf_counter() - started < within
    finally:
        signal.signal(signal.SIGINT, old_handler)
    budget.close()
    solver.delete()


def test_a_length_that_cannot_be_encoded_is_refused_before_building():
    started = time.perf_counter()
    with pytest.raises(SatError, match=r"^--max-length 1000000 is too long for the SAT engine: about [\d,]+ GB "
                                       r"of clauses; at most 349 plies with --memory 2048$"):
        sat_solve(LONG, max_length=1_000_000)
    assert time.perf_counter() - started < 0.5
    assert longest_line(int(2048e6), 31) == 349 and line_bytes(351, 31) > 2048e6 >= line_bytes(349, 31)
    # The bound follows the memory budget; no budget, no refusal.
    with pytest.raises(SatError, match="at most 67 plies with --memory 100"):
        sat_solve(LONG, max_length=69, limits=Limits(memory=100))
    assert sat_solve(LONG, max_length=69, limits=Limits()).status == "nomate"


def test_cli_memory_option_and_short_output():
    runner = CliRunner()
    res = runner.invoke(main, ["solve", "--engine", "sat", "--max-length", "5", "--memory", "30",
                               "--all-first-moves", HARD])
    assert res.exit_code == 3 and "Unknown: stopped by the memory limit (30 MB)." in res.output
    # 175 encodings (n = 1, 3, ..., 349): the line names the first two, the count and the last.
    res = runner.invoke(main, ["solve", "--engine", "sat", "--max-length", "349", "k30 b G"])
    assert res.exit_code == 1 and len(res.output) < 1000
    assert "n=1: " in res.output and "... (172 more), n=349: " in res.output
    res = runner.invoke(main, ["solve", "--engine", "sat", "--max-length", "1000000", "--time-limit", "2", "k30 b G"])
    assert res.exit_code == 2 and len(res.output.splitlines()) == 1
