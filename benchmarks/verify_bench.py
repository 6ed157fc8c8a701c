"""Verify every problem of one or more collections and print how long it takes.

For each collection: the distribution of the verification time (median, 90th
and 99th percentile, maximum; CPU seconds of this process) and of the df-pn
nodes, how many problems took more than 1 s and more than 10 s, and how many a
limit cut short (a finding ``unknown``: their time and nodes are the limit's,
not the verification's; the time limit is wall-clock, so on a busy machine
give it room).  ``--slowest N`` lists the slowest
problems.  ``--save FILE`` writes one JSON line per problem; ``--compare FILE``
holds this run against such a file: every problem's verdict, length and
alternatives must be the same (a difference is listed and the exit status is
1), and the nodes are compared (equal when the search's algorithm is).
``--exact-lengths`` (or ``--length-budget N``) sets verify's length budget
(docs/verify.md), which the default run keeps at its default.  The nodes are
also split by kind of question (``Report.stats["nodes_by_question"]``): for
the whole collection as shares, and for each of the slowest problems.

    .venv/bin/python benchmarks/verify_bench.py bench-ito bench-rutherford --time-limit 60 --slowest 10

Collections are named as ``tsume verify`` names them (a path, or a bundled
collection's name).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from tsume.collection import load, locate
from tsume.limits import Limits
from tsume.verify import LENGTH_BUDGET, QUESTIONS, verify


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("collections", nargs="+")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per problem (default 60)")
    ap.add_argument("--id", dest="ids", action="append", help="only this problem (repeatable)")
    ap.add_argument("--slowest", type=int, default=5, help="list the N slowest problems (default 5)")
    ap.add_argument("--save", metavar="FILE", help="one JSON line per problem")
    ap.add_argument("--compare", metavar="FILE", help="a --save file of another run to hold this one against")
    ap.add_argument("--length-budget", type=int, default=LENGTH_BUDGET, metavar="N",
                    help=f"verify's length budget in nodes (default {LENGTH_BUDGET:,})")
    ap.add_argument("--exact-lengths", action="store_true", help="no length budget (every length read exactly)")
    args = ap.parse_args()
    budget = None if args.exact_lengths else args.length_budget
    print("engine: Rust (tsume._engine)", flush=True)
    out = open(args.save, "w") if args.save else None
    every = []
    for name in args.collections:
        problems = load(locate(name))
        if args.ids:
            problems = [p for p in problems if p.id in args.ids]
        rows = []
        for pr in problems:
            started = time.process_time()
            report = verify(pr.problem(), limits=Limits(time=args.time_limit), length_budget=budget)
            secs = time.process_time() - started
            row = {"collection": name, "id": pr.id, "length": report.length, "verdict": report.verdict,
                   "seconds": round(secs, 4), "nodes": report.stats["nodes"],
                   "cut": any(f.kind == "unknown" for f in report.findings),
                   "bounded": sum(not a.exact for a in report.alternatives),
                   "by_question": report.stats["nodes_by_question"],
                   # what the length budget may change, to compare runs
                   "alternatives": [[a.ply, a.move, a.status, a.kind, a.length, a.length_min]
                                    for a in report.alternatives]}
            rows.append(row)
            every.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
        if not rows:
            continue
        secs = [r["seconds"] for r in rows]
        nodes = [r["nodes"] for r in rows]
        cut = sum(r["cut"] for r in rows)
        print(f"{name}: {len(rows)} problems, CPU seconds median {statistics.median(secs):.3f}, "
              f"p90 {quantile(secs, 0.9):.2f}, p99 {quantile(secs, 0.99):.2f}, max {max(secs):.2f}, "
              f"total {sum(secs):.1f}; over 1 s: {sum(s > 1 for s in secs)}, over 10 s: {sum(s > 10 for s in secs)}; "
              f"nodes median {statistics.median(nodes):,.0f}, max {max(nodes):,}; "
              f"cut short by the time limit ({args.time_limit:g} s): {cut}; "
              f"alternatives past the length budget: {sum(r['bounded'] for r in rows)} "
              f"(in {sum(r['bounded'] > 0 for r in rows)} problems)", flush=True)
        parts = {q: sum(r["by_question"][q] for r in rows) for q in QUESTIONS}
        print("  nodes by question: " + ", ".join(f"{q} {n / max(1, sum(nodes)):.1%}" for q, n in parts.items()))
        for r in sorted(rows, key=lambda r: -r["seconds"])[: args.slowest]:
            print(f"  {r['id']}: {r['seconds']:.2f} s, {r['nodes']:,} nodes, length {r['length']}, {r['verdict']}"
                  + (" (cut short)" if r["cut"] else "")
                  + "; " + ", ".join(f"{q} {n:,}" for q, n in r["by_question"].items()))
    if out:
        out.close()
    if args.compare:
        return compare(every, args.compare)
    return 0


def compare(rows: list[dict], path: str) -> int:
    """Holds this run's rows against a saved run: answers must agree."""
    with open(path) as f:
        saved = {(r["collection"], r["id"]): r for r in map(json.loads, f)}
    answers = ("verdict", "length", "alternatives")
    differ, same_nodes, nodes, saved_nodes, secs, saved_secs = [], 0, 0, 0, 0.0, 0.0
    for r in rows:
        old = saved.get((r["collection"], r["id"]))
        if old is None:
            continue
        if any(r[k] != old[k] for k in answers):
            differ.append(r["id"])
        same_nodes += r["nodes"] == old["nodes"]
        nodes += r["nodes"]
        saved_nodes += old["nodes"]
        secs += r["seconds"]
        saved_secs += old["seconds"]
    n = sum((r["collection"], r["id"]) in saved for r in rows)
    print(f"against {path}: {n} problems, answers differ in {len(differ)}"
          + (f" ({', '.join(differ[:20])})" if differ else "")
          + f"; nodes equal in {same_nodes}, total {nodes:,} against {saved_nodes:,} "
          f"({nodes / max(1, saved_nodes) - 1:+.1%}); CPU seconds {secs:.1f} against {saved_secs:.1f}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
