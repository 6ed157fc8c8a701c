"""Limits and the memory bound: an answer is exact or 'unknown', never wrong."""

from __future__ import annotations

import json

import pytest
from child_run import run_tsume

from tsume import Limits, Problem
from tsume.solve import solve

NINE = Problem("7H1+F2k18 b TCG 1")  # a 9-ply Ito problem (tsume generator, seed 27)
# A 13-ply Rutherford problem (with yozume: dropped from the examples).
THIRTEEN = Problem("l3k1n+P1S15 b PL 1", variant="rutherford")


def test_node_limit_gives_unknown_and_exit_code():
    r = solve(NINE, limits=Limits(nodes=200))
    assert r.status == "unknown" and r.reason == "node limit"
    assert r.stats["nodes"] == 200


def test_memory_bound_collects_garbage_and_stays_exact():
    free = solve(THIRTEEN, variations=False)
    tight = solve(THIRTEEN, variations=False, limits=Limits(memory=0.05))
    assert tight.stats["gc_runs"] > 0
    assert (tight.status, tight.length, tight.mainline) == (free.status, free.length, free.mainline)


def test_progress_callback_reports_growing_counts():
    seen = []
    r = solve(THIRTEEN, variations=False, progress=seen.append, progress_interval=0.0)
    assert r.stats["nodes"] > 2048 and len(seen) >= 2
    assert all({"nodes", "seconds", "table_entries", "gc_runs"} <= set(s) for s in seen)
    assert [s["nodes"] for s in seen] == sorted(s["nodes"] for s in seen)
    assert all(s["gc_runs"] == 0 for s in seen)


def test_progress_says_how_often_the_table_filled_up():
    seen = []
    solve(THIRTEEN, variations=False, limits=Limits(memory=0.05), progress=seen.append, progress_interval=0.0)
    runs = [s["gc_runs"] for s in seen]
    assert runs[-1] > 0 and runs == sorted(runs)


def test_depth_limit_gives_unknown_not_a_crash():
    """A search path longer than Options.max_depth stops the search as 'unknown'
    (compiled code would otherwise overflow the C stack on a very deep path)."""
    from tsume.search import Options

    free = solve(NINE, variations=False)
    assert (free.status, free.length) == ("mate", 9)
    shallow = solve(NINE, variations=False, options=Options(max_depth=free.length - 1))
    assert shallow.status == "unknown" and shallow.reason.startswith("depth limit")
    # Nested searches (useless interpositions) share the path, so it runs
    # deeper than the mate; a few dozen plies are plenty here.
    enough = solve(NINE, variations=False, options=Options(max_depth=40))
    assert (enough.status, enough.length, enough.mainline) == (free.status, free.length, free.mainline)


# --- the memory budget bounds what the process grows by -------------------------------------------

# The position at ply 3 of bench-ito's ito-L05-0013: its check C*8 mates, in a
# length that takes minutes and hundreds of megabytes to pin down, and
# --all-first-moves values every first move exactly.
LONG = "h+Pgk1f2+F+P+G20 b 2TCHc 2"


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["solve", "-q", "--json", "--all-first-moves", LONG],
    ["verify", "-q", "--json", "--exact-lengths", "--file", "bench-ito", "--id", "ito-L05-0013"],
])
def test_memory_budget_bounds_the_resident_size(command):
    """With --memory 40 the child's peak resident size stays within 40 MB of
    the same command stopped at its first node (the interpreter, the package,
    the collection read): the search's table is sized from the budget and
    gives way (garbage collection) when full, so the search goes on and the
    time limit ends it."""
    base = run_tsume([*command, "--nodes", "1"])
    got = run_tsume([*command, "--memory", "40", "--time-limit", "20"])
    assert base.peak_mb is not None and got.peak_mb is not None
    grown_mb = (got.peak_mb - base.peak_mb) * 1.048576  # (MiB to MB)
    assert grown_mb <= 40 + 1, (grown_mb, got.stdout[-300:])
    assert "time limit" in got.stdout
    if command[0] == "solve":
        # solve's own peak is this process's, not the high-water mark carried
        # over from the test run that started it.
        assert abs(json.loads(got.stdout)["stats"]["peak_memory_mb"] - got.peak_mb) < 2

