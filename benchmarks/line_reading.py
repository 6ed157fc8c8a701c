"""Pruned and full line reading compared through verify().

The best line's leftover tie-break is read with alpha-beta
(``Options.leftover_pruning``, docs/solver.md).  This script verifies the
same problems twice, with it and without, and prints how many reports are
identical (everything but the statistics), how many differ only in the line
shown for an alternative at the final attacker turn (any line of its length,
which depends on what the table holds), how many differ otherwise (there
should be none), and the nodes and CPU seconds of both readings.  A report
with an ``unknown`` finding (the node limit) is counted apart.

Problems come from collections (``--file``, repeatable) or from seeded random
mates of up to 15 plies (``--random VARIANT --seeds FIRST --count N``):

    .venv/bin/python benchmarks/line_reading.py --random rutherford --seeds 5000 --count 400
    .venv/bin/python benchmarks/line_reading.py --random ito --seeds 6000 --count 300
    .venv/bin/python benchmarks/line_reading.py --file bench-ito --file bench-rutherford --nodes 400000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator

from tsume.collection import load, locate
from tsume.errors import TsumeError
from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.problem import Problem
from tsume.search import Options, Search, SearchLimit
from tsume.verify import verify


def random_problems(variant: str, first: int, count: int) -> Iterator[tuple[str, Problem]]:
    """(name, problem) of the seeds whose position mates within 15 plies."""
    for seed in range(first, first + count):
        rng = random.Random(seed)
        pos = random_tsume(rng, variant, attacker_men=(2, 4), defender_men=(0, 2), attacker_hand=(1, 3), spread=4)
        try:
            mates = Search(pos, limits=Limits(nodes=20_000)).mate(15)
        except SearchLimit:
            continue
        if mates:
            yield f"{variant}-seed-{seed}", Problem(pos, defender="none" if seed % 3 == 0 else None)


def collection_problems(names: list[str]) -> Iterator[tuple[str, Problem]]:
    for name in names:
        for pr in load(locate(name)):
            yield pr.id or "?", pr.problem()


def only_final_lines(a: dict, b: dict) -> bool:
    """Do two reports differ only in the lines of final-turn alternatives (and the findings quoting them)?"""
    if any(a[k] != b[k] for k in a if k not in ("alternatives", "findings")):
        return False
    if len(a["alternatives"]) != len(b["alternatives"]) or len(a["findings"]) != len(b["findings"]):
        return False
    final = a["length"]
    for x, y in zip(a["alternatives"], b["alternatives"]):
        if x != y and not (x["ply"] == final and {**x, "line": None} == {**y, "line": None}):
            return False
    for x, y in zip(a["findings"], b["findings"]):
        if x != y and not (x.get("ply") == final and {**x, "line": None} == {**y, "line": None}):
            return False
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", dest="files", action="append", default=[], help="a collection (repeatable)")
    ap.add_argument("--random", choices=["ito", "rutherford"], help="seeded random mates of this variant")
    ap.add_argument("--seeds", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--count", type=int, default=100, help="seeds to try (default 100)")
    ap.add_argument("--nodes", type=int, default=150_000, help="node limit per verification (default 150000)")
    args = ap.parse_args()
    if not args.files and not args.random:
        ap.error("name --file or --random")
    print("engine: Rust (tsume._engine)", flush=True)
    try:
        problems = list(collection_problems(args.files))
    except TsumeError as exc:
        ap.error(str(exc))
    if args.random:
        problems += list(random_problems(args.random, args.seeds, args.count))
    counts = {"identical": 0, "final-turn lines only": 0, "different": 0, "unknown": 0}
    nodes = {True: 0, False: 0}
    seconds = {True: 0.0, False: 0.0}
    for name, problem in problems:
        reports = {}
        for prune in (True, False):
            started = time.process_time()
            report = verify(problem, limits=Limits(nodes=args.nodes), options=Options(leftover_pruning=prune))
            seconds[prune] += time.process_time() - started
            nodes[prune] += report.stats["nodes"]
            reports[prune] = report.to_dict()
            reports[prune].pop("stats")
        a, b = reports[True], reports[False]
        if any(f["kind"] == "unknown" for f in a["findings"] + b["findings"]):
            counts["unknown"] += 1
        elif a == b:
            counts["identical"] += 1
        elif only_final_lines(a, b):
            counts["final-turn lines only"] += 1
        else:
            counts["different"] += 1
            print(f"DIFFERENT: {name} {a['position']}", flush=True)
    print(f"{len(problems)} problems: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"nodes: pruned {nodes[True]:,}, full {nodes[False]:,}; "
          f"CPU seconds: pruned {seconds[True]:.1f}, full {seconds[False]:.1f}")
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    sys.exit(main())
