"""Perft speed: nodes per second with every move (leaves included) made and unmade.

Run:  .venv/bin/pip install -e ".[bench]" && .venv/bin/python benchmarks/perft_bench.py
python-chess's perft from the chess start position, written the same way
(push and pop every legal move, leaves included), is the outside yardstick.
Times are CPU seconds of this process (time.process_time), so that a busy
machine does not skew the comparison.  On a machine shared with other jobs even
CPU time varies by a third from run to run; ``--repeat N`` runs every case,
python-chess included, N times and keeps the fastest run of each.

The engine measured is the installed one, the Rust engine (``tsume._engine``):
``Position.perft`` makes and unmakes every move in Rust.  Its cases take
milliseconds; ``--extra-depth 1`` searches each one ply deeper for steadier
figures.
"""

from __future__ import annotations

import argparse
import sys
import time

import tsume
from tsume import Position
from tsume.perft import perft

# name, variant, position, depth
CASES = [
    ("ito start", "ito", None, 5),
    ("ito midgame A, full hands", "ito", "2k1p2+f3h4c2G5PT2K1 b TCHfg 1", 3),
    ("ito midgame B, full hands", "ito", "1k1t1g4c3+h3P3C2F1K3 w HGtpf 1", 3),
    ("ito endgame, attacker hand", "ito", "1t1k17C1G5K1 b 2PTH2F 1", 3),
    ("rutherford provisional start", "rutherford", None, 6),
    ("rutherford midgame, full hands", "rutherford", "2k3b1n4P2L3+S2K1 b BNLsp 1", 3),
]


def _timed(fn, *args, repeat: int = 1):
    """The result and the fastest CPU time of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - start)
    return result, best


def chess_perft(board, depth: int) -> int:
    if depth == 0:
        return 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller depths")
    ap.add_argument("--extra-depth", type=int, default=0, metavar="K", help="search every case K plies deeper")
    ap.add_argument("--repeat", type=int, default=1, metavar="N", help="run each case N times, keep the fastest")
    args = ap.parse_args()
    print("engine: Rust (tsume._engine)")
    rows = []
    total_nodes = 0
    total_time = 0.0
    for name, variant, fen, depth in CASES:
        if args.quick:
            depth -= 1
        depth += args.extra_depth
        pos = Position(fen, variant)
        nodes, secs = _timed(perft, pos, depth, repeat=args.repeat)
        total_nodes += nodes
        total_time += secs
        rows.append((name, depth, nodes, secs))
        print(f"{name:34s} depth {depth}  {nodes:>12,d} nodes  {secs:8.3f} s  {nodes / secs:>10,.0f} nodes/s", flush=True)
    ours = total_nodes / total_time
    print(f"{'tsume, all cases':34s}          {total_nodes:>12,d} nodes  {total_time:8.3f} s  {ours:>10,.0f} nodes/s")
    try:
        import chess
    except ImportError:
        print("python-chess not installed (pip install chess): no yardstick", file=sys.stderr)
        return 0
    depth = 3 if args.quick else 4
    nodes, secs = _timed(chess_perft, chess.Board(), depth, repeat=args.repeat)
    theirs = nodes / secs
    print(f"{'python-chess ' + chess.__version__ + ' start':34s} depth {depth}  {nodes:>12,d} nodes  {secs:8.3f} s  {theirs:>10,.0f} nodes/s")
    print(f"ratio tsume / python-chess: {ours / theirs:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
