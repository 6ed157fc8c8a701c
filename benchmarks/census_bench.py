"""The census's retrograde pass: graph nodes per CPU-second and peak memory.

Runs :func:`tsume.census.retro.solve_shard` on the shards of one family in this
process, one after the other (as one census worker does), and prints per
shard and in all: positions, graph nodes and edges, the CPU seconds of the
retrograde pass (forward graph and backward pass; df-pn of the marked
positions apart), graph nodes per CPU-second, and the process's peak resident
memory.  ``--shard K`` runs one shard only, so that the peak is that shard's
(run each in a fresh process to compare shards); with ``--parts P`` each
shard is cut into P parts as ``tsume census --parts P`` cuts it, each part
its own graph, and ``--part I`` (repeatable) runs only those parts.  No
classification.

    .venv/bin/python benchmarks/census_bench.py --variant ito --material 'attacker=GT, hand=GT'
    .venv/bin/python benchmarks/census_bench.py --variant ito --material 'attacker=GT, hand=GT' --shard 12
    .venv/bin/python benchmarks/census_bench.py --variant ito --material 'attacker=GHT, hand=GHT' \
        --shard 16 --parts 64 --part 0

CPU time is this process's (``time.process_time``), so a busy machine does not
skew it; it still varies by 10-20 % from run to run (``--repeat`` keeps the
fastest run of each shard).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from tsume.census.family import parse_family
from tsume.census.retro import analyse, shard_part


def peak_mb() -> float:
    """The process's peak resident memory, in MB (ru_maxrss is in KB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ito")
    ap.add_argument("--material", required=True, help="the family, as tsume census --material takes it")
    ap.add_argument("--max-length", type=int, default=15, help="plies (default 15)")
    ap.add_argument("--shard", type=int, action="append", help="only these shards (default: all)")
    ap.add_argument("--parts", type=int, default=1, help="cut each shard into this many parts (default 1)")
    ap.add_argument("--part", type=int, action="append", help="only these parts, from 0 (default: all)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each shard; the fastest is kept")
    ap.add_argument("-q", action="store_true", help="only the total line")
    args = ap.parse_args()
    family = parse_family(args.material, args.variant)
    shards = args.shard or family.shards()
    start_mb = peak_mb()
    total = {"positions": 0, "mates": 0, "graph_nodes": 0, "graph_edges": 0, "dfpn": 0, "cpu": 0.0, "dfpn_cpu": 0.0}
    tasks = [(shard, part) for shard in shards for part in (args.part or range(args.parts))]
    for shard, part in tasks:
        positions = shard_part(family, shard, part, args.parts)
        best = None
        for _ in range(args.repeat):
            cpu0 = time.process_time()
            solved, stats = analyse(positions, args.max_length)
            stats = {**stats, "mates": sum(s.status == "mate" for s in solved)}
            cpu = time.process_time() - cpu0
            # df-pn's share is read from the wall clock of its phase: the
            # marked positions are few, and they are not the graph's work.
            retro_cpu = max(0.0, cpu - stats["seconds_dfpn"])
            if best is None or retro_cpu < best[0]:
                best = (retro_cpu, stats)
        assert best is not None
        cpu, stats = best
        for k in ("positions", "mates", "graph_nodes", "graph_edges", "dfpn"):
            total[k] += stats[k]
        total["cpu"] += cpu
        total["dfpn_cpu"] += stats["seconds_dfpn"]
        if not args.q:
            rate = stats["graph_nodes"] / cpu if cpu > 0 else 0.0
            name = f"{shard:2d}" if args.parts == 1 else f"{shard:2d} part {part}/{args.parts}"
            print(f"shard {name}: {stats['positions']:7,} positions {stats['mates']:6,} mates "
                  f"{stats['graph_nodes']:11,} nodes "
                  f"{stats['graph_edges']:11,} edges {stats['dfpn']:4} df-pn  retro {cpu:7.2f} CPU-s "
                  f"{rate / 1e6:6.2f} M nodes/CPU-s  peak {peak_mb():7.0f} MB", flush=True)
    rate = total["graph_nodes"] / total["cpu"] if total["cpu"] > 0 else 0.0
    print(f"{family.spec()} to {args.max_length} plies: {total['positions']:,} positions, {total['mates']:,} mates, "
          f"{total['graph_nodes']:,} graph nodes, {total['graph_edges']:,} edges, {total['dfpn']} by df-pn "
          f"({total['dfpn_cpu']:.2f} s); retro {total['cpu']:.2f} CPU-s, {rate / 1e6:.2f} M graph nodes "
          f"per CPU-second; peak {peak_mb():.0f} MB (at start {start_mb:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
