"""Where perft time goes: leaves made and unmade versus everything else.

Run:  .venv/bin/python benchmarks/perft_split.py [--repeat N]

For each case of perft_bench.py, the real perft (every leaf made and unmade)
is timed against the same tree walked without making the leaves (the last ply
only generates the moves).  The difference is the cost of making and unmaking
the leaves; the rest is move generation and the walk.  This is a measurement
aid, not a perft: the benchmark figures come from perft_bench.py.
"""

from __future__ import annotations

import argparse
import sys
import time

from perft_bench import CASES

import tsume
from tsume import Position
from tsume.perft import perft


def _unmade_leaves(pos: Position, depth: int) -> int:
    if depth == 1:
        return len(pos.legal_moves())
    n = 0
    for m in pos.legal_moves():
        pos.push(m)
        n += _unmade_leaves(pos, depth - 1)
        pos.pop()
    return n


def _fastest(fn, pos, depth, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        n = fn(pos, depth)
        best = min(best, time.process_time() - start)
    return n, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, metavar="N", help="keep the fastest of N runs (default 5)")
    args = ap.parse_args()
    print("engine:", "compiled (mypyc)" if tsume.COMPILED else "pure Python")
    total = [0, 0.0, 0.0]
    for name, variant, fen, depth in CASES:
        pos = Position(fen, variant)
        nodes, full = _fastest(perft, pos, depth, args.repeat)
        same, bare = _fastest(_unmade_leaves, pos, depth, args.repeat)
        assert same == nodes
        total[0] += nodes
        total[1] += full
        total[2] += bare
        _row(name, nodes, full, bare)
    _row("all cases", *total)
    return 0


def _row(name: str, nodes: int, full: float, bare: float) -> None:
    leaf = (full - bare) / nodes * 1e6
    print(f"{name:32s} {nodes:>10,d} nodes  {full / nodes * 1e6:5.2f} us/node:  leaves made+unmade "
          f"{leaf:5.2f} us ({(full - bare) / full:4.0%}), the rest {bare / nodes * 1e6:5.2f} us")


if __name__ == "__main__":
    sys.exit(main())
