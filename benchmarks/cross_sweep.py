"""A wider random cross-check of solve() (df-pn) against the exhaustive reference.

The same comparison as ``tests/test_solver_cross.py`` (status, length, main
line, leftover, every variation, every first move), on as many seeded random
positions as you like, at bounds the test suite cannot afford.  Prints each
disagreement, then one line of counts.

    .venv/bin/python benchmarks/cross_sweep.py ito 9 --seeds 400000 --count 400 --budget 100000 --generator RICH

A position whose reference search passes ``--budget`` nodes is skipped (and
counted).  Exit status 1 if any position disagrees.  ``--attacker-king P``
gives the attacker a king with probability P (the generators' own is 0 or
0.3), for the rules that need one: Ito's stalemate rule and a drop-mate ban
look at the attacker's answers to a defence:

    .venv/bin/python benchmarks/cross_sweep.py ito:drop_mate=no 9 --attacker-king 1 --generator RICH
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import tsume.reference as reference_module  # noqa: E402
from tsume.errors import TsumeError  # noqa: E402
from tsume.variant import get_variant  # noqa: E402
import test_solver_cross as cross  # noqa: E402
from budgeted_reference import BudgetedReferenceSolver, OverBudget  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", help="ito, rutherford, or either with rule switches (ito:drop_mate=no)")
    ap.add_argument("bound", type=int, help="length bound (plies)")
    ap.add_argument("--seeds", type=int, default=0, metavar="FIRST", help="first seed (default 0)")
    ap.add_argument("--count", type=int, default=100, help="number of seeds (default 100)")
    ap.add_argument("--budget", type=int, default=20_000, help="reference nodes per position (default 20000)")
    ap.add_argument("--generator", choices=["SMALL", "SMALL_HAND1", "RICH"], default="SMALL",
                    help="random_tsume settings, as named in tests/test_solver_cross.py")
    ap.add_argument("--attacker-king", type=float, default=None, metavar="P",
                    help="probability that the attacker has a king (default: the generator's)")
    args = ap.parse_args()
    try:
        get_variant(args.variant)
    except TsumeError as err:
        ap.error(str(err))
    BudgetedReferenceSolver.budget = args.budget
    reference_module.ReferenceSolver = BudgetedReferenceSolver  # compare() looks it up there
    generator = dict(getattr(cross, args.generator))
    if args.attacker_king is not None:
        generator["attacker_king"] = args.attacker_king
    compared = skipped = disagreements = 0
    started = time.process_time()
    for seed in range(args.seeds, args.seeds + args.count):
        try:
            problems = cross.compare(args.variant, seed, args.bound, generator)
        except OverBudget:
            skipped += 1
            continue
        compared += 1
        disagreements += bool(problems)
        for p in problems:
            print("DISAGREE", p, flush=True)
    print(f"{args.variant} bound {args.bound} {args.generator} seeds {args.seeds}-{args.seeds + args.count - 1}: "
          f"compared {compared}, skipped {skipped}, disagreeing {disagreements}, "
          f"{time.process_time() - started:.0f} s CPU")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
