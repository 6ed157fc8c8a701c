"""Solver speed on the benchmark collections (problems/bench-ito.tsume, problems/bench-rutherford.tsume).

Run:  .venv/bin/python benchmarks/solver_bench.py [--variant V] [--max-length L] [--limit K]
                                                  [--compare] [--reference N] [--time-limit S]

Each problem is solved with ``solve(variations=False)`` and the default
:class:`tsume.search.Options`; the table gives, per variant and length bucket,
problems solved / total, median and max CPU seconds (``time.process_time``
around each ``solve()``), median nodes and nodes per second (total nodes /
total seconds), then the overall nodes per second.  A node is one expansion
of a position by the search (docs/solver.md).  A
problem counts as solved when the status is ``mate`` with the stored length
(a different length is listed as a mismatch).

``--compare`` also runs plain df-pn (``Options(hand_dominance=False,
same_square_max=False)``) and each single enhancement toggled from the
default and added to plain df-pn (hand dominance, same-square max, one-ply
mate check; "default without dominance" is "plain with same-square max" and
vice versa, so those share a row), the default without drop groups,
interleaved per problem with a fresh run of
the default, and prints node and time ratios to the default over the problems
every configuration solved.  Times on a shared machine are noisy; nodes are
exact.  ``--reference N`` runs the exhaustive
:class:`tsume.reference.ReferenceSolver` on problems of length <= N (default 5)
and prints the node ratio reference / df-pn (and any length disagreement).

The targets (>= 1,000,000 nodes per CPU second; every problem solved in
under 0.2 CPU s) are reported, never asserted.
"""

from __future__ import annotations

import argparse
import math
import signal
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from tsume.collection import Problem, load
from tsume.problem import Problem as Tsume
from tsume.reference import ReferenceSolver
from tsume.limits import Limits
from tsume.search import Options
from tsume.solve import solve

ROOT = Path(__file__).resolve().parent.parent
FILES = {"ito": ROOT / "problems" / "bench-ito.tsume", "rutherford": ROOT / "problems" / "bench-rutherford.tsume"}

DEFAULT = Options()
PLAIN = Options(hand_dominance=False, same_square_max=False)
# name -> Options; "default" is the yardstick of the ratios.  Plain df-pn differs from
# the default in exactly hand dominance and same-square max, so "default without
# one of them" is "plain with the other": those pairs share a row.
CONFIGS: dict[str, Options] = {
    "default": DEFAULT,
    "plain df-pn": PLAIN,
    "default - dominance = plain + same_square_max": Options(hand_dominance=False, same_square_max=True),
    "default - same_square_max = plain + dominance": Options(hand_dominance=True, same_square_max=False),
    "default - drop_groups": Options(drop_groups=False),
    "default + one_ply_mate": Options(one_ply_mate=True),
    "plain + one_ply_mate": Options(hand_dominance=False, same_square_max=False, one_ply_mate=True),
}


@dataclass
class Run:
    problem: Problem
    status: str
    length: int | None
    nodes: int
    seconds: float
    error: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "mate" and self.length == self.problem.length


class _HardTimeout(Exception):
    pass


def _hard_alarm(signum, frame):  # noqa: ARG001
    raise _HardTimeout()


def run_one(p: Problem, options: Options, time_limit: float | None) -> Run:
    """One solve; a SIGALRM guard at 1.5 x the time limit + 5 s catches a solve() that runs
    past its own limit (it is checked only inside the df-pn search)."""
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    if time_limit:
        signal.signal(signal.SIGALRM, _hard_alarm)
        signal.setitimer(signal.ITIMER_REAL, time_limit * 1.5 + 5)
    try:
        r = solve(p.problem(), variations=False, options=options, limits=Limits(time=time_limit))
    except _HardTimeout:
        secs = time.perf_counter() - t0
        return Run(p, "hard-timeout", None, 0, secs, error=f"solve() still running after {secs:.0f} s")
    except Exception as exc:  # noqa: BLE001 -- report, do not stop the benchmark
        return Run(p, "error", None, 0, time.perf_counter() - t0, error=f"{type(exc).__name__}: {exc}")
    finally:
        if time_limit:
            signal.setitimer(signal.ITIMER_REAL, 0)
    # CPU seconds of this process (solve()'s own "seconds" are wall clock, which a busy machine bends).
    return Run(p, r.status, r.length, r.stats.get("nodes", 0), time.process_time() - cpu0)


def bucket_table(runs: list[Run]) -> None:
    by: dict[int, list[Run]] = defaultdict(list)
    for r in runs:
        by[r.problem.length or 0].append(r)
    print(f"  {'length':>6} {'solved':>9} {'median s':>9} {'max s':>8} {'median nodes':>13} {'nodes/s':>9}")
    for L in sorted(by):
        rs = by[L]
        solved = sum(r.ok for r in rs)
        secs = [r.seconds for r in rs]
        nodes = [r.nodes for r in rs]
        nps = sum(nodes) / sum(secs) if sum(secs) > 0 else 0.0
        print(f"  {L:>6} {solved:>4} / {len(rs):<3} {statistics.median(secs):>9.3f} {max(secs):>8.2f} "
              f"{statistics.median(nodes):>13,.0f} {nps:>9,.0f}")
    total_nodes = sum(r.nodes for r in runs)
    total_secs = sum(r.seconds for r in runs)
    print(f"  {'all':>6} {sum(r.ok for r in runs):>4} / {len(runs):<3} "
          f"{statistics.median([r.seconds for r in runs]):>9.3f} {max(r.seconds for r in runs):>8.2f} "
          f"{statistics.median([r.nodes for r in runs]):>13,.0f} "
          f"{(total_nodes / total_secs if total_secs else 0):>9,.0f}")
    secs = sorted(r.seconds for r in runs)
    print(f"  CPU seconds per problem: median {statistics.median(secs):.4f}, p90 {_quantile(secs, 0.9):.4f}, "
          f"p99 {_quantile(secs, 0.99):.3f}, max {secs[-1]:.3f}, total {total_secs:.2f}")


def _quantile(ordered: list[float], q: float) -> float:
    """The value below which a fraction ``q`` of ``ordered`` (sorted) lies."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report_targets(runs: list[Run]) -> None:
    total_nodes = sum(r.nodes for r in runs)
    total_secs = sum(r.seconds for r in runs)
    nps = total_nodes / total_secs if total_secs else 0.0
    print("\nTargets")
    print(f"  nodes per CPU second >= 1,000,000: {'MET' if nps >= 1_000_000 else 'MISSED'} ({nps:,.0f} overall)")
    slow = [r for r in runs if not r.ok or r.seconds >= 0.2]
    print(f"  every problem solved in under 0.2 s: {'MET' if not slow else 'MISSED'} "
          f"({len(runs) - len(slow)} of {len(runs)}; max {max(r.seconds for r in runs):.3f} s)")
    for r in sorted(slow, key=lambda r: -r.seconds)[:40]:
        print(f"      miss: {r.problem.id:16s} {r.seconds:7.3f} s {r.nodes:>9,} nodes  {r.status}")


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def compare(problems: list[Problem], time_limit: float | None) -> None:
    """Every configuration on every problem, interleaved per problem so that a busy machine
    slows them alike; the default is run again here as the yardstick."""
    print("\nComparison (ratios to the default Options, run again interleaved; over problems every "
          "configuration solved)", flush=True)
    results: dict[str, list[Run]] = {name: [] for name in CONFIGS}
    t0 = time.perf_counter()
    for p in problems:
        for name, opts in CONFIGS.items():
            results[name].append(run_one(p, opts, time_limit))
    print(f"  {len(CONFIGS)} configurations x {len(problems)} problems in {time.perf_counter() - t0:.1f} s")
    base = results["default"]
    common = [i for i in range(len(problems)) if all(results[n][i].ok for n in results)]
    print(f"  {len(common)} of {len(problems)} problems solved by every configuration")
    for name, rs in results.items():
        for r in rs:
            if not r.ok:
                print(f"    {name}: {r.problem.id} {r.status} length {r.length} (stored {r.problem.length}) "
                      f"{r.seconds:.1f} s {r.error or ''}")
    if not common:
        return
    b_nodes = sum(base[i].nodes for i in common)
    b_secs = sum(base[i].seconds for i in common)
    w = max(len(n) for n in CONFIGS)
    print(f"  {'configuration':{w}s} {'solved':>9} {'nodes':>11} {'seconds':>8} {'nodes x':>7} {'time x':>6} "
          f"{'geo nodes x':>11} {'geo time x':>10} {'nodes/s':>8}")
    for name, rs in results.items():
        nodes = sum(rs[i].nodes for i in common)
        secs = sum(rs[i].seconds for i in common)
        gn = geomean([rs[i].nodes / base[i].nodes for i in common if base[i].nodes])
        gt = geomean([rs[i].seconds / base[i].seconds for i in common if base[i].seconds])
        print(f"  {name:{w}s} {sum(r.ok for r in rs):>4} / {len(rs):<3} {nodes:>11,} {secs:>8.2f} "
              f"{nodes / b_nodes:>7.2f} {secs / b_secs:>6.2f} {gn:>11.2f} {gt:>10.2f} "
              f"{(nodes / secs if secs else 0):>8,.0f}")
    for v in sorted({problems[i].variant for i in common}):
        idx = [i for i in common if problems[i].variant == v]
        print(f"  {v} ({len(idx)} problems), total nodes x / time x against the default:")
        dn = sum(base[i].nodes for i in idx)
        ds = sum(base[i].seconds for i in idx)
        for name, rs in results.items():
            if name == "default":
                continue
            n = sum(rs[i].nodes for i in idx)
            s_ = sum(rs[i].seconds for i in idx)
            print(f"    {name:{w}s} nodes x{n / dn:.2f}  time x{s_ / ds:.2f}")


class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise _Timeout()


def reference(problems: list[Problem], base: list[Run], max_len: int, seconds: float) -> None:
    print(f"\nReference solver (exhaustive) on problems of length <= {max_len}; "
          f"{seconds:.0f} s limit each")
    signal.signal(signal.SIGALRM, _alarm)
    rows = []
    for p, b in zip(problems, base):
        if (p.length or 99) > max_len:
            continue
        pos = Tsume(p.position, variant=p.variant, defender=p.defender).position()
        ref = ReferenceSolver(pos)
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            length = ref.length(max_len)
            timed_out = False
        except _Timeout:
            length, timed_out = None, True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        secs = time.perf_counter() - t0
        rows.append((p, b, length, ref.nodes, secs, timed_out))
    by: dict[tuple[str, int], list] = defaultdict(list)
    for row in rows:
        by[(row[0].variant, row[0].length)].append(row)
    print(f"  {'variant':10s} {'length':>6} {'n':>4} {'ref nodes':>11} {'df-pn nodes':>11} {'ratio':>7} "
          f"{'geo ratio':>9} {'ref s':>8} {'df-pn s':>8}")
    for (v, L), rs in sorted(by.items()):
        done = [r for r in rs if not r[5]]
        if not done:
            print(f"  {v:10s} {L:>6} {len(rs):>4}  all timed out")
            continue
        rn = sum(r[3] for r in done)
        dn = sum(r[1].nodes for r in done)
        geo = geomean([r[3] / r[1].nodes for r in done if r[1].nodes])
        print(f"  {v:10s} {L:>6} {len(done):>4} {rn:>11,} {dn:>11,} {rn / max(dn, 1):>7.2f} {geo:>9.2f} "
              f"{sum(r[4] for r in done):>8.2f} {sum(r[1].seconds for r in done):>8.2f}")
    done = [r for r in rows if not r[5]]
    if done:
        rn = sum(r[3] for r in done)
        dn = sum(r[1].nodes for r in done)
        print(f"  overall: reference / df-pn nodes = {rn / max(dn, 1):.2f} (geometric mean "
              f"{geomean([r[3] / r[1].nodes for r in done if r[1].nodes]):.2f}) over {len(done)} problems")
    for p, b, length, nodes, secs, timed_out in rows:
        if timed_out:
            print(f"  timed out: {p.id} after {secs:.1f} s ({nodes:,} nodes)")
        elif length != p.length or (b.status == "mate" and b.length != length):
            print(f"  LENGTH DISAGREEMENT: {p.id} stored {p.length}, df-pn {b.length}, reference {length}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["ito", "rutherford", "both"], default="both")
    ap.add_argument("--max-length", type=int, default=None, help="only problems up to this length")
    ap.add_argument("--limit", type=int, default=None, help="the first K problems per variant")
    ap.add_argument("--compare", action="store_true", help="plain df-pn and single enhancements too")
    ap.add_argument("--reference", nargs="?", type=int, const=5, default=None, metavar="N",
                    help="run the exhaustive reference solver on lengths <= N (default 5)")
    ap.add_argument("--reference-seconds", type=float, default=60.0, help="time limit per reference solve")
    ap.add_argument("--time-limit", type=float, default=60.0, help="time limit per solve (default 60 s)")
    ap.add_argument("--collection", type=Path, action="append", help="other collection file(s) instead")
    args = ap.parse_args(argv)
    print("engine: Rust (tsume._engine)")

    files = args.collection or [FILES[v] for v in (["ito", "rutherford"] if args.variant == "both" else [args.variant])]
    problems: list[Problem] = []
    for f in files:
        ps = load(f)
        if args.variant != "both":
            ps = [p for p in ps if p.variant == args.variant]
        if args.max_length is not None:
            ps = [p for p in ps if (p.length or 0) <= args.max_length]
        if args.limit is not None:
            ps = ps[: args.limit]
        problems.extend(ps)
    if not problems:
        print("no problems selected")
        return 1
    print(f"{len(problems)} problems from {', '.join(str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f) for f in files)}; "
          f"solve(variations=False), default Options {DEFAULT}, time limit {args.time_limit} s")
    t0 = time.perf_counter()
    base = [run_one(p, DEFAULT, args.time_limit) for p in problems]
    wall = time.perf_counter() - t0
    for v in sorted({p.variant for p in problems}):
        runs = [r for r in base if r.problem.variant == v]
        print(f"\n{v}: {len(runs)} problems")
        bucket_table(runs)
    total_nodes = sum(r.nodes for r in base)
    total_secs = sum(r.seconds for r in base)
    print(f"\noverall: {sum(r.ok for r in base)} / {len(base)} solved, {total_nodes:,} nodes in {total_secs:.2f} s "
          f"solving ({wall:.1f} s wall): {total_nodes / total_secs if total_secs else 0:,.0f} nodes/s")
    bad = [r for r in base if not r.ok]
    for r in bad:
        print(f"  NOT SOLVED AS STORED: {r.problem.id} status {r.status} length {r.length} "
              f"(stored {r.problem.length}) {r.error or ''}")
    report_targets(base)
    if args.compare:
        compare(problems, args.time_limit)
    if args.reference is not None:
        reference(problems, base, args.reference, args.reference_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
