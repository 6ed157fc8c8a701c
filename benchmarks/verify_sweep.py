"""A wide random cross-check of verify() against the exhaustive reference.

Random positions are solved with ``--bound``; those that mate in
``--min-length`` to ``--bound`` plies are verified, and every attacker
alternative that verify() values at every attacker turn of the main line
(with the earlier positions of the line on the repetition path, as the
conventions say) is solved again by the reference solver: a mate of at most
``--cap`` plies must have the same length in the reference (one past
verify's length budget, a length within its bounds), anything else must
have no mate within ``--refute-cap`` plies (refuting every check exhaustively
costs far more than finding a mate).  An exception out of verify() is an internal error.  Alternatives
that verify() left ``unknown`` (its node limit) and reference searches over
``--budget`` nodes are skipped and counted.  Prints each disagreement and
internal error, then one line of counts per variant; exit status 1 if any.

    .venv/bin/python benchmarks/verify_sweep.py ito rutherford --seeds 700000 --count 20000 --workers 2

Seeds are split into chunks run by a process pool (``--workers``); the result
does not depend on the number of workers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tsume.limits import Limits
from tsume.problem import Problem
from tsume.generate import random_tsume
from tsume.solve import solve
from tsume.verify import LENGTH_BUDGET, verify

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from budgeted_reference import BudgetedReferenceSolver, OverBudget  # noqa: E402


# Random material: "wide" spreads the pieces (fewer mates, more varied);
# "close" keeps them near the king with pieces in hand (about twice as many
# Ito mates per seed).
PROFILES = {
    "wide": dict(attacker_hand=(0, 2), attacker_men=(2, 4), spread=3),
    "close": dict(attacker_hand=(1, 3), attacker_men=(2, 4), defender_men=(0, 2), spread=2),
}


@dataclass
class Tally:
    seeds: int = 0
    problems: int = 0          # mates of min_length..bound plies verified
    by_length: dict[int, int] = field(default_factory=dict)
    alternatives: int = 0      # compared with the reference
    unknown: int = 0           # left unknown by verify()'s node limit
    over: int = 0              # over the reference's budget
    bounded: int = 0           # of the compared, past verify()'s length budget (bounds checked)
    bad: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cpu: float = 0.0

    def add(self, other: "Tally") -> None:
        for name in ("seeds", "problems", "alternatives", "unknown", "over", "bounded"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for n, c in other.by_length.items():
            self.by_length[n] = self.by_length.get(n, 0) + c
        self.bad += other.bad
        self.errors += other.errors
        self.cpu += other.cpu


def reference_length(pos, prefix: list[int], move: int, cap: int) -> int | None:
    """The reference's shortest mate after ``prefix`` and ``move`` (None within ``cap``),
    every earlier position of the line on its repetition path."""
    solver = BudgetedReferenceSolver(pos)
    p = solver.pos
    for m in prefix + [move]:
        solver.path.add(p.key())
        p.push(m)
    return next((1 + v for v in range(0, cap, 2) if solver.defended(v)[0]), None)


def sweep(variant: str, seeds: range, args: argparse.Namespace) -> Tally:
    BudgetedReferenceSolver.budget = args.budget
    tally = Tally()
    started = time.process_time()
    for seed in seeds:
        tally.seeds += 1
        raw = random_tsume(random.Random(seed), variant, **PROFILES[args.profile])
        dh = "none" if seed % 2 == 0 else None
        where = f"{variant} seed {seed} {raw.fen()!r} defender {dh}"
        problem = Problem(raw, defender=dh)
        s = solve(problem, max_length=args.bound, limits=Limits(nodes=args.solve_nodes), variations=False)
        if s.status != "mate" or s.length < args.min_length:
            continue
        try:
            r = verify(problem, limits=Limits(nodes=args.nodes), length_budget=args.length_budget)
        except Exception as exc:  # the point of the sweep: none may escape
            tally.errors.append(f"ERROR {where}: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
            continue
        tally.problems += 1
        tally.by_length[s.length] = tally.by_length.get(s.length, 0) + 1
        pos = problem.position()
        line = []
        q = pos.copy()
        for text in r.mainline:
            line.append(q.parse_move(text))
            q.push(line[-1])
        for a in r.alternatives:
            if a.status == "unknown":
                tally.unknown += 1
                continue
            q = pos.copy()
            for m in line[: a.ply - 1]:
                q.push(m)
            # A claimed mate is searched for up to its own length (cheap: the
            # reference's attacker finds it); a claimed no-mate is refuted up to
            # the smaller --refute-cap (an exhaustive search of every check).
            claimed = a.length if a.status == "mate" and a.length <= args.cap else None
            cap = claimed if claimed is not None else args.refute_cap
            if a.status == "mate" and not a.exact and claimed is None:
                cap = min(cap, a.length_min - 1)  # past the length budget: no mate below length_min
            try:
                ref = reference_length(pos, line[: a.ply - 1], q.parse_move(a.move), cap)
            except OverBudget:
                tally.over += 1
                continue
            tally.alternatives += 1
            tally.bounded += not a.exact
            if not a.exact and claimed is not None:
                # Past verify's length budget: only bounds are claimed.
                if ref is None or not a.length_min <= ref <= a.length:
                    tally.bad.append(f"DISAGREE {where}: ply {a.ply} {a.move}: verify mates in {a.length_min} to "
                                     f"{a.length}, reference {ref}")
            elif ref != claimed:
                tally.bad.append(f"DISAGREE {where}: ply {a.ply} {a.move}: verify {a.status} {a.length}, reference {ref}")
    tally.cpu = time.process_time() - started
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="+", choices=["ito", "rutherford"])
    ap.add_argument("--seeds", type=int, default=0, metavar="FIRST", help="first seed (default 0)")
    ap.add_argument("--count", type=int, default=100, help="seeds per variant (default 100)")
    ap.add_argument("--min-length", type=int, default=5, help="shortest mate verified (default 5)")
    ap.add_argument("--bound", type=int, default=15, help="longest mate verified (default 15)")
    ap.add_argument("--cap", type=int, default=15,
                    help="a claimed mate of at most this many plies must have the same length (default 15)")
    ap.add_argument("--refute-cap", type=int, default=9,
                    help="other alternatives: the reference must find no mate within this many plies (default 9)")
    ap.add_argument("--nodes", type=int, default=200_000, help="verify() node limit (default 200000)")
    ap.add_argument("--solve-nodes", type=int, default=50_000, help="node limit of the first solve (default 50000)")
    ap.add_argument("--budget", type=int, default=100_000, help="reference nodes per alternative (default 100000)")
    ap.add_argument("--length-budget", type=int, default=LENGTH_BUDGET, metavar="N",
                    help=f"verify()'s length budget (default {LENGTH_BUDGET}; a small one checks the bounds it leaves)")
    ap.add_argument("--profile", choices=sorted(PROFILES), default="wide", help="random material (default wide)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--chunk", type=int, default=50, help="seeds per task (default 50)")
    args = ap.parse_args()
    if args.refute_cap > args.cap:
        ap.error("--refute-cap may not exceed --cap")
    import tsume

    print("engine: Rust (tsume._engine)", flush=True)
    failed = False
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for variant in args.variants:
            chunks = [range(a, min(a + args.chunk, args.seeds + args.count))
                      for a in range(args.seeds, args.seeds + args.count, args.chunk)]
            total = Tally()
            for part in pool.map(sweep, [variant] * len(chunks), chunks, [args] * len(chunks)):
                total.add(part)
                for line in part.bad + part.errors:
                    print(line, flush=True)
                # Progress, so that a stopped run still tells what it checked.
                print(f"  {variant}: {total.seeds} seeds, {total.problems} mates verified, {len(total.errors)} errors, "
                      f"{total.alternatives} alternatives compared, {len(total.bad)} disagreeing, "
                      f"{total.unknown + total.over} skipped, {total.cpu:.0f} s CPU", file=sys.stderr, flush=True)
            lengths = " ".join(f"{n}:{c}" for n, c in sorted(total.by_length.items()))
            print(f"{variant} seeds {args.seeds}-{args.seeds + args.count - 1}: {total.problems} mates of "
                  f"{args.min_length}-{args.bound} plies verified (by length {lengths}), {len(total.errors)} internal "
                  f"errors, {total.alternatives} alternatives compared (mates up to {args.cap}, refuted up to {args.refute_cap}; "
                  f"{total.bounded} past the length budget {args.length_budget}), {len(total.bad)} disagreeing; "
                  f"skipped {total.unknown} unknown in verify, {total.over} over the reference budget; "
                  f"{total.cpu:.0f} s CPU", flush=True)
            failed |= bool(total.bad or total.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
