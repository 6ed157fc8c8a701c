"""A wider random cross-check of verify() against the exhaustive reference.

For random mates up to ``bound`` plies, every attacker alternative that
verify() reports at every attacker turn of the main line (with the earlier
positions of the line on the repetition path) is solved again by the
reference solver: a mate of at most ``--cap`` plies must have the same length,
anything else must have none within the cap.  Alternatives that verify() left
``unknown`` (its node limit) and reference searches over ``--budget`` are
skipped and counted.  Prints each disagreement, then one line of counts; exit
status 1 if any.

    .venv/bin/python benchmarks/verify_sweep.py ito --seeds 600000 --count 300
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from tsume.conventions import tsume_position
from tsume.generate import random_tsume
from tsume.solve import solve
from tsume.verify import verify

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from budgeted_reference import BudgetedReferenceSolver, OverBudget  # noqa: E402


def reference_length(pos, prefix: list[int], move: int, cap: int) -> int | None:
    """The reference's shortest mate after ``prefix`` and ``move`` (None within ``cap``)."""
    solver = BudgetedReferenceSolver(pos)
    p = solver.pos
    for m in prefix:
        solver.path.add(p.key())
        p.push(m)
    solver.path.add(p.key())
    p.push(move)
    return next((1 + v for v in range(0, cap, 2) if solver.defended(v)[0]), None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", choices=["ito", "rutherford"])
    ap.add_argument("--seeds", type=int, default=0, metavar="FIRST")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--bound", type=int, default=7, help="problems: mates up to this length (default 7)")
    ap.add_argument("--cap", type=int, default=7, help="reference search depth for alternatives (default 7)")
    ap.add_argument("--nodes", type=int, default=60_000, help="verify() node limit (default 60000)")
    ap.add_argument("--budget", type=int, default=60_000, help="reference nodes per alternative (default 60000)")
    args = ap.parse_args()
    BudgetedReferenceSolver.budget = args.budget
    problems = alternatives = unknown = over = bad = 0
    started = time.process_time()
    for seed in range(args.seeds, args.seeds + args.count):
        raw = random_tsume(random.Random(seed), args.variant, attacker_hand=(0, 2), attacker_men=(2, 4), spread=3)
        dh = "none" if seed % 2 == 0 else None
        s = solve(raw, variant=args.variant, max_length=args.bound, defender_hand=dh, node_limit=50_000)
        if s.status != "mate":
            continue
        r = verify(raw, variant=args.variant, defender_hand=dh, node_limit=args.nodes)
        problems += 1
        pos = tsume_position(raw, args.variant, defender_hand=dh)
        line = []
        q = pos.copy()
        for text in s.mainline:
            line.append(q.parse_move(text))
            q.push(line[-1])
        for a in r.alternatives:
            if a.status == "unknown":
                unknown += 1
                continue
            q = pos.copy()
            for m in line[: a.ply]:
                q.push(m)
            try:
                ref = reference_length(pos, line[: a.ply], q.parse_move(a.move), args.cap)
            except OverBudget:
                over += 1
                continue
            alternatives += 1
            expected = a.length if a.status == "mate" and a.length <= args.cap else None
            if ref != expected:
                bad += 1
                print(f"DISAGREE {args.variant} seed {seed} {raw.fen()!r} defender {dh}: ply {a.ply} {a.move}: "
                      f"verify {a.status} {a.length}, reference {ref}", flush=True)
    print(f"{args.variant} seeds {args.seeds}-{args.seeds + args.count - 1}, mates up to {args.bound}: "
          f"{problems} verified, {alternatives} alternatives compared, {bad} disagreeing; skipped "
          f"{unknown} unknown in verify, {over} over the reference budget; "
          f"{time.process_time() - started:.0f} s CPU")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
