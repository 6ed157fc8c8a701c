"""Fuzz the public entry points and the command line with a fixed seed (tests/fuzz_inputs.py):
every call returns or raises a TsumeError with one short line, and no run prints a
traceback or exits with a status other than 0-3.  benchmarks/fuzz.py runs the same
fuzzer for longer."""

from __future__ import annotations

import random

import pytest

from fuzz_inputs import LIBRARY_KINDS, Generator, Tally, run_cli, run_library

SEED = 20261122


def _report(tally: Tally) -> str:
    lines = [f"{kind}: {n}" for kind, n in tally.others.items()]
    lines += [f"{key}\n{text}" for key, text in list(tally.examples.items())[:3]]
    lines += [f"{key}\n{text}" for key, text in list(tally.cli_bad.items())[:3]]
    return "\n".join(lines)


def test_fuzz_library():
    tally = Tally()
    run_library(tally, Generator(random.Random(SEED)), 4000, tuple(k for k in LIBRARY_KINDS if k != "loads"))
    assert tally.library_inputs == 4000
    assert not tally.others, _report(tally)
    # the fuzz reaches the engines, not only the parsers
    for kind in ("position", "move", "solve", "verify", "sat", "perft", "problem"):
        assert tally.ok[kind] >= 20, (kind, tally.ok)
    assert len(tally.tsume_errors) >= 5  # and meets most kinds of error


def test_fuzz_collections():
    tally = Tally()
    run_library(tally, Generator(random.Random(SEED)), 600, ("loads",))
    assert not tally.others, _report(tally)


def test_fuzz_cli():
    tally = Tally()
    run_cli(tally, Generator(random.Random(SEED + 1)), 600)
    assert tally.cli_runs == 600
    assert tally.cli_bad_count == 0 and tally.tracebacks == 0, _report(tally)
    for status in (0, 1, 2):
        assert tally.cli_statuses[status] >= 10, tally.cli_statuses
