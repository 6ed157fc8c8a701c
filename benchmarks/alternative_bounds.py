"""Bounded searches of one attacker alternative, bound by bound: what an
exact length costs (docs/performance.md, "Verify").

Run:  .venv/bin/python benchmarks/alternative_bounds.py POSITION MOVE BOUNDS
                                                       [--variant V] [--defender-hand H] [--node-limit N]

The attacker's MOVE is played from POSITION (the attacker to move; the
position stays on the line, so a repetition of it fails for the attacker, as
in ``tsume verify``), and one engine asks "mated within b plies?" for each b
of BOUNDS (comma-separated; -1 means no bound), in order and sharing its
table, as the verifier's climb to an alternative's shortest mate does.  Each
line gives the bound, the answer, the nodes and CPU seconds it took and the
table entries after it.  For example, the alternative that dominates
``ito-L01-0004`` (a mate in 1 whose ``C*1`` mates in 20 plies):

    .venv/bin/python benchmarks/alternative_bounds.py "2T1k5+P20 b C2G2H 1" "C*1" 1,3,5,7,9,11,13,15,17,19

(bounds count from the position after the move, so 19 is "mated within 20
plies of the alternative").  Run it under ``valgrind --tool=callgrind`` for
instruction counts, which do not drift with the machine's load.
"""

from __future__ import annotations

import argparse
import time

from tsume.conventions import tsume_position
from tsume.dfpn import INF, DfPn
from tsume.errors import TsumeError


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("position")
    ap.add_argument("move", help="the attacker's alternative, as tsume writes moves (e.g. C*1)")
    ap.add_argument("bounds", help="comma-separated bounds in plies after the move; -1 for no bound")
    ap.add_argument("--variant", default="ito")
    ap.add_argument("--defender-hand", default=None, help="rest (default), none or letters")
    ap.add_argument("--node-limit", type=int, default=None, help="stop each search after this many nodes in all")
    args = ap.parse_args()
    try:
        pos = tsume_position(args.position, args.variant, defender_hand=args.defender_hand)
        bounds = [int(x) for x in args.bounds.split(",")]
        engine = DfPn(pos, node_limit=args.node_limit)
        move = engine.pos.parse_move(args.move)
        if move not in engine.pos.checks():
            raise ValueError(f"{args.move} is not a check")
        engine.anchor(engine.pos.hash)
        engine.pos.push(move)
    except (TsumeError, ValueError) as exc:
        ap.error(str(exc))
    print(f"{'bound':>6} {'answer':>10} {'nodes':>10} {'seconds':>8} {'entries':>9}")
    for b in bounds:
        n0, t0 = engine.nodes, time.process_time()
        status = engine.search(b if b >= 0 else INF)
        print(f"{b if b >= 0 else 'none':>6} {status:>10} {engine.nodes - n0:>10,} "
              f"{time.process_time() - t0:>8.2f} {len(engine.table):>9,}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
