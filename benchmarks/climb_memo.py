"""What a process's memory of filtered candidates saves a climb, and what
splitting it between two processes costs.

The first ``--shards`` shards of an Ito climb from scratch (seed 7, 9-99
plies) run in order in this process, each from the parent pool a run gives
its generation (tsume.compose.run), so they are the shards of a real run.
With ``--memories 1`` every shard shares this process's memory
(tsume.compose.memo), as on one worker; with ``--memories 2`` the even
shards use one memory and the odd ones another, as two worker processes
taking shards in turn would (``--block B``: B consecutive shards each).
Prints the shards' CPU and the memory's hits.

Run:  nice .venv/bin/python benchmarks/climb_memo.py --memories 1
      nice .venv/bin/python benchmarks/climb_memo.py --memories 2 [--block 4]

Not a test: it asserts nothing and prints numbers.
"""

from __future__ import annotations

import argparse
import time
from collections import OrderedDict

from tsume.compose import memo
from tsume.compose.run import Generations, run_shard, settings_from


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--memories", type=int, choices=(1, 2), default=1)
    ap.add_argument("--shards", type=int, default=300)
    ap.add_argument("--block", type=int, default=1,
                    help="with --memories 2, the consecutive shards each memory takes in turn (default 1)")
    args = ap.parse_args()
    s = settings_from("ito", methods="climb", seed=7, length="9-99").check()
    generations = Generations(s)
    memories = [OrderedDict() for _ in range(args.memories)]
    cpu = 0.0
    hits = misses = 0
    for i in range(args.shards):
        # The module's memory, swapped: each "process" keeps its own.
        memo._outcomes = memories[(i // args.block) % args.memories]
        memo._counts.update(hits=0, misses=0)
        started = time.process_time()
        r = run_shard(s, i, generations.pool(i))
        cpu += time.process_time() - started
        hits += memo._counts["hits"]
        misses += memo._counts["misses"]
        generations.merge(i, r.parents)
    print(f"memories {args.memories} (block {args.block}): {args.shards} shards, {cpu:.1f} CPU s ({cpu / args.shards:.3f} a shard); "
          f"candidates from memory {hits:,}, filtered {misses:,} (hit rate {hits / max(1, hits + misses):.3f})")


if __name__ == "__main__":
    main()
