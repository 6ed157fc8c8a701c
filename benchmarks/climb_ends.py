"""Where a climb's lines end: the material a collection's problems use, by
length, and every two-ply predecessor of its longest problems.

For each length the script prints how many problems there are, the men on
the board (kings aside), and the defender's hand under "the rest" (the
set's men neither on the board nor in the attacker's hand): a two-ply
un-move that un-captures a sacrificed man takes it from that hand, so a
problem whose defender holds nothing can be lengthened by moves alone.
Then, for the ``--top`` longest problems, it lists every two-ply
predecessor the climb could draw (:func:`tsume.compose.sources.two_plies_back`
without its sample bound) and how the composer's filters judge each, at
the length two plies more (``accepted``: a sound problem of that length).

Run:  .venv/bin/python benchmarks/climb_ends.py problems/long-ito.tsume [RUN.tsume ...] [--top 3]

Not a test: it asserts nothing and prints numbers.
"""

from __future__ import annotations

import argparse
import collections
import random
import time
from dataclasses import replace

from tsume.collection import load
from tsume.compose.candidate import Candidate
from tsume.compose.filters import Criteria, consider
from tsume.compose.sources import two_plies_back
from tsume.position import BLACK, WHITE

#: Enough to draw every predecessor: a position has far fewer.
ALL = 1_000_000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="collections (paths)")
    ap.add_argument("--top", type=int, default=3, help="the longest problems whose predecessors are listed")
    args = ap.parse_args()
    for path in args.files:
        records = list(load(path))
        print(path)
        by_length: dict[int, list[tuple[int, int]]] = collections.defaultdict(list)
        problems = []
        for rec in records:
            problem = rec.problem()
            pos = problem.position()
            men = sum(1 for p in pos.board() if p is not None and not p.royal)
            by_length[problem.length or 0].append((men, sum(pos.hand_counts(WHITE))))
            problems.append((problem.length or 0, rec, problem))
        print("| plies | problems | men on the board | defender's hand | defender's hand empty |")
        print("|---:|---:|---|---|---:|")
        for length in sorted(by_length):
            rows = by_length[length]
            men = [m for m, _ in rows]
            held = [d for _, d in rows]
            print(f"| {length} | {len(rows)} | {min(men)}-{max(men)} | {min(held)}-{max(held)} | "
                  f"{sum(1 for d in held if d == 0)} |")
        problems.sort(key=lambda x: -x[0])
        for length, rec, problem in problems[:args.top]:
            started = time.process_time()
            c = Candidate.from_position(problem.position())
            backs = two_plies_back(c, random.Random(0), ALL)
            want = length + 2
            nodes = int(rec.fields("rating").get("nodes", 0) or 0) or None
            criteria = replace(Criteria(min_length=want, max_length=want).for_parent(nodes), max_length=want)
            stages: collections.Counter[str] = collections.Counter()
            for back in backs:
                o = consider(back, criteria)
                got = o.result.length if o.result is not None else None
                stages[o.stage if got in (None, want) else f"{o.stage} (mate in {got})"] += 1
            held = sum(problem.position().hand_counts(WHITE))
            print(f"  {rec.id}: {length} plies, attacker's hand {sum(problem.position().hand_counts(BLACK))}, "
                  f"defender's hand {held}; {len(backs)} two-ply predecessors: "
                  f"{', '.join(f'{k} {v}' for k, v in sorted(stages.items())) or 'none'} "
                  f"({time.process_time() - started:.1f} CPU s)")


if __name__ == "__main__":
    main()
