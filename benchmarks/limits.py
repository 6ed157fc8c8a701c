"""Limits table: asked vs measured time, nodes and peak memory for solve (df-pn), verify and the SAT engine.

Every measurement runs the command line in its own child process, so the peak
resident size is that run's (its ``VmHWM``: tests/child_run.py), and the time is the wall
time from starting the child to its exit (Python's start-up included: what a
user waits for).  The positions run long without a limit:

* solve: ``--all-first-moves "h+Pgk1f2+F+P+G20 b 2TCHc 2"`` (Ito: the
  position at ply 3 of ``ito-L05-0013``, whose check ``C*8`` mates, but in a
  length that takes minutes to pin down: every first move is valued exactly);
* verify: ``--exact-lengths problems/bench-ito.tsume --id ito-L05-0013`` (the
  same alternative, read with no length budget);
* SAT: ``3T2k1CG21 b C 1 --max-length 5 --all-first-moves`` (the defender
  holds most of the set; gigabytes without a bound).

(Positions that once ran long, such as ``solve "k30 b 2C2H2GP 1"`` and
``verify problems/bench-ito.tsume --id ito-L01-0001``, now finish in a few
seconds, before the larger limits are reached; so these were chosen.)

A memory run also gets ``--time-limit`` (``--memory-runs-for``) so that it ends;
the table says which limit stopped it.  A limit a command does not take is
reported as its one-line error (exit status 2).  ``--baseline`` adds the peak
resident size of commands that stop at once (the interpreter and the package,
without and with the SAT engine's imports).

    .venv/bin/python benchmarks/limits.py --baseline   # the table in docs/performance.md
    .venv/bin/python benchmarks/limits.py --quick    # 2 s / 1,000 nodes / 100 MB only
    .venv/bin/python benchmarks/limits.py --only solve --only verify --kinds memory --memory 5,20,40,100,500,1000
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from child_run import ChildRun, run_tsume  # noqa: E402

COMMANDS = {
    "solve": ["solve", "-q", "--json", "--all-first-moves", "h+Pgk1f2+F+P+G20 b 2TCHc 2"],
    "verify": ["verify", "-q", "--json", "--exact-lengths", "problems/bench-ito.tsume", "--id", "ito-L05-0013"],
    "sat": ["solve", "-q", "--json", "--engine", "sat", "--max-length", "5", "--all-first-moves", "3T2k1CG21 b C 1"],
}
#: Commands that stop at once: the resident size of the interpreter and the package.
BASELINES = [["solve", "-q", "--json", "k30 b G"], ["solve", "-q", "--json", "--engine", "sat", "--max-length", "1", "k30 b G"]]

FULL = {"time": [2, 10], "nodes": [1_000, 100_000], "memory": [100, 500]}
QUICK = {"time": [2], "nodes": [1_000], "memory": [100]}
OPTION = {"time": "--time-limit", "nodes": "--nodes", "memory": "--memory"}


def outcome(kind: str, got: ChildRun) -> tuple[str, str]:
    """(what was measured against the asked value, how the run ended)."""
    if got.status == 2:
        return "-", "refused: " + got.stderr.removeprefix("tsume: error: ")[:90]
    try:
        data = json.loads(got.stdout)
    except ValueError:
        return "-", f"exit {got.status}: {got.stderr[:90]}"
    if "problems" in data:  # verify
        problem = data["problems"][0]
        nodes, how = problem["stats"].get("nodes"), f"verdict {problem['verdict']}"
    else:
        nodes, how = data["stats"].get("nodes"), data["status"] + (f" ({data['reason']})" if data.get("reason") else "")
    if kind == "time":
        measured = f"{got.wall:.2f} s"
    elif kind == "nodes":
        measured = f"{nodes:,} nodes" if nodes is not None else "-"
    else:
        measured = f"{_mb(got)} MB peak RSS"
    return measured, f"exit {got.status}, {how}"


def _mb(got: ChildRun) -> str:
    return f"{got.peak_mb:,.0f}" if got.peak_mb is not None else "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one value per limit")
    ap.add_argument("--only", choices=sorted(COMMANDS), action="append", help="only these commands")
    ap.add_argument("--memory-runs-for", type=float, default=60.0, metavar="S",
                    help="time limit added to the memory runs (default 60)")
    ap.add_argument("--baseline", action="store_true", help="also the peak RSS of a command that stops at once")
    ap.add_argument("--memory", metavar="MB,...", help="the memory budgets to run (default 100,500; 100 with --quick)")
    ap.add_argument("--kinds", metavar="KIND,...", help="only these limits: time, nodes, memory")
    args = ap.parse_args()
    values = dict(QUICK if args.quick else FULL)
    if args.memory:
        values["memory"] = [int(v) for v in args.memory.split(",")]
    if args.kinds:
        values = {k: v for k, v in values.items() if k in args.kinds.split(",")}
    print("| command | limit | asked | measured | wall s | peak RSS MB | ended |")
    print("|---|---|---|---|---|---|---|")
    for base in BASELINES if args.baseline else []:
        got = run_tsume(base)
        print(f"| `tsume {' '.join(base[:-1])} \"{base[-1]}\"` | none | - | - | {got.wall:.2f} | "
              f"{_mb(got)} | exit {got.status} (baseline) |")
    for name in args.only or COMMANDS:
        for kind, asked_values in values.items():
            for asked in asked_values:
                extra = [OPTION[kind], str(asked)]
                if kind == "memory":
                    extra += ["--time-limit", f"{args.memory_runs_for:g}"]
                got = run_tsume(COMMANDS[name] + extra)
                measured, ended = outcome(kind, got)
                unit = {"time": " s", "nodes": " nodes", "memory": " MB"}[kind]
                print(f"| {name} | {OPTION[kind]} | {asked:,}{unit} | {measured} | {got.wall:.2f} | "
                      f"{_mb(got)} | {ended} |", flush=True)


if __name__ == "__main__":
    main()
