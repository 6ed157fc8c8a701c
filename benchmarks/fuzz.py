"""Fuzz the public entry points and the command line from outside (tests/fuzz_inputs.py).

    python benchmarks/fuzz.py --library 100000 --cli 2000 --subprocess 200 --seed 1

Library calls must return or raise a TsumeError with one short line; CLI runs
(click's CliRunner, plus a sample run as real processes through the installed
``tsume`` script) must print no traceback and exit with 0, 1, 2 or 3, and a
real process's bad input must be one stderr line.  Prints the counts (inputs
tried, TsumeErrors by class, other exceptions by kind and type, tracebacks,
exit statuses) and exits with 1 if anything else happened.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from fuzz_inputs import CLI_STATUSES, LIBRARY_KINDS, Generator, Tally, cli_case, run_cli, run_library  # noqa: E402

import tsume  # noqa: E402


def _tsume_command() -> list[str]:
    script = Path(sys.executable).parent / "tsume"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tsume.cli"]


def run_processes(tally: Tally, g: Generator, count: int) -> tuple[int, int]:
    """``count`` real runs of the installed script; returns (runs, bad runs)."""
    bad = 0
    for _ in range(count):
        args = [a.replace("\x00", "\x01") for a in cli_case(g)]  # a process argument cannot hold NUL
        proc = subprocess.run(_tsume_command() + args, capture_output=True, text=True, timeout=120)
        lines = proc.stderr.strip().splitlines()
        wrong = (
            "Traceback" in proc.stderr + proc.stdout
            or proc.returncode not in CLI_STATUSES
            or (proc.returncode == 2 and (len(lines) != 1 or not lines[0].startswith("tsume: error:")))
        )
        tally.cli_statuses[f"process {proc.returncode}"] += 1
        if "Traceback" in proc.stderr + proc.stdout:
            tally.tracebacks += 1
        if wrong:
            bad += 1
            tally.cli_bad_count += 1
            tally.cli_bad.setdefault(f"process {args[0]} exit {proc.returncode}", f"{args!r:.600}\n{proc.stderr[-800:]}")
    return count, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--library", type=int, default=20000, help="library calls")
    ap.add_argument("--cli", type=int, default=1000, help="CLI runs in process (CliRunner)")
    ap.add_argument("--subprocess", type=int, default=100, help="CLI runs as real processes")
    ap.add_argument("--skip", default="", metavar="KINDS",
                    help=f"comma-separated library kinds not to fuzz (of: {', '.join(sorted(set(LIBRARY_KINDS)))})")
    args = ap.parse_args()
    skip = {k.strip() for k in args.skip.split(",") if k.strip()}
    kinds = tuple(k for k in LIBRARY_KINDS if k not in skip)

    print(f"tsume {tsume.__version__}, seed {args.seed}")
    tally = Tally()
    g = Generator(random.Random(args.seed))
    started = time.perf_counter()
    run_library(tally, g, args.library, kinds)
    lib_seconds = time.perf_counter() - started
    started = time.perf_counter()
    run_cli(tally, g, args.cli)
    cli_seconds = time.perf_counter() - started
    started = time.perf_counter()
    runs, bad_processes = run_processes(tally, g, args.subprocess)
    proc_seconds = time.perf_counter() - started

    print(f"library inputs tried: {tally.library_inputs:,} in {lib_seconds:.1f} s")
    print("  by kind:        " + ", ".join(f"{k} {n:,}" for k, n in sorted(tally.tried.items())))
    print("  returned:       " + ", ".join(f"{k} {n:,}" for k, n in sorted(tally.ok.items())))
    print(f"  TsumeError:     {sum(tally.tsume_errors.values()):,} ("
          + ", ".join(f"{k} {n:,}" for k, n in tally.tsume_errors.most_common()) + ")")
    print(f"  other exceptions: {sum(tally.others.values()):,}"
          + "".join(f"\n    {k}: {n:,}" for k, n in tally.others.most_common()))
    print(f"CLI runs in process: {tally.cli_runs:,} in {cli_seconds:.1f} s; real processes: {runs:,} in {proc_seconds:.1f} s")
    print("  exit statuses:  " + ", ".join(f"{k}: {n:,}" for k, n in sorted(tally.cli_statuses.items(), key=str)))
    print(f"  tracebacks: {tally.tracebacks}; runs with a traceback or another status: {tally.cli_bad_count}"
          f" ({bad_processes} of them real processes)")
    for key, text in list(tally.examples.items())[:10] + list(tally.cli_bad.items())[:10]:
        print(f"--- first {key}\n{text}")
    return 1 if tally.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
