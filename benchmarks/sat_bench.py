"""SAT engine benchmark: encoding size and solve time per n, against df-pn on the same positions.

For each variant, seeded random positions (tsume.generate.random_tsume, the
generator settings of tests/test_sat_cross.py) are solved with

* the SAT engine: "every first move with its shortest length within n"
  (``SatEngine.first_move_lengths``), recording the abstraction's variables
  and clauses for each n it built, and CPU time;
* df-pn, raw lengths (``Options(useless_interpositions=False)``), with
  ``all_first_moves=True``, CPU time;
* df-pn with the default (counted) lengths, to report how often the tsume
  length counted under the useless-interposition rule differs from the raw one.

``--cross`` also runs the reference solver (raw) and reports any disagreement.
Times are CPU seconds (time.process_time); a SAT run over ``--sat-limit``
seconds is reported as skipped.  Example:

    .venv/bin/python benchmarks/sat_bench.py --variant rutherford --bound 5 --count 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tsume.problem import Problem  # noqa: E402
from tsume.search import Options  # noqa: E402
from tsume.generate import random_tsume  # noqa: E402
from tsume.limits import Limits  # noqa: E402
from tsume.reference import reference_solve  # noqa: E402
from tsume.sat import DEFAULT_MEMORY_MB, SatEngine, SatTimeout  # noqa: E402
from tsume.sat.engine import engine_move  # noqa: E402
from tsume.solve import solve  # noqa: E402

GENERATORS = {
    "small": dict(attacker_men=(1, 3), defender_men=(0, 2), attacker_hand=(0, 2)),
    "tight": dict(attacker_men=(2, 3), defender_men=(0, 1), attacker_hand=(0, 1), spread=3),
    "hand1": dict(attacker_men=(1, 3), defender_men=(0, 2), attacker_hand=(0, 1)),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="rutherford")
    ap.add_argument("--bound", type=int, default=5)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=10_000)
    ap.add_argument("--generator", choices=sorted(GENERATORS), default="small")
    ap.add_argument("--sat-limit", type=float, default=60.0, help="SAT seconds per position before skipping")
    ap.add_argument("--cross", action="store_true", help="also run the reference solver and compare")
    args = ap.parse_args()

    rows = []
    skipped = differ = counted_differs = 0
    for seed in range(args.seed, args.seed + args.count):
        raw = random_tsume(random.Random(seed), args.variant, **GENERATORS[args.generator])
        dh = "none" if seed % 4 == 0 else None
        problem = Problem(raw, defender=dh)
        pos = problem.position()
        t = time.process_time()
        eng = SatEngine(pos, limits=Limits(time=args.sat_limit, memory=DEFAULT_MEMORY_MB))
        try:
            firsts = {str(engine_move(pos, m)): v for m, v in eng.first_move_lengths(args.bound).items()}
        except SatTimeout:
            skipped += 1
            eng.close()
            continue
        sat_cpu = time.process_time() - t
        sizes = dict(eng.sizes)
        eng.close()
        t = time.process_time()
        r = solve(problem, max_length=args.bound, all_first_moves=True,
                  variations=False, options=Options(useless_interpositions=False))
        dfpn_cpu = time.process_time() - t
        dfpn_first = {d["move"]: (d["length"] if d["status"] == "mate" else None) for d in r.first_moves or []}
        counted = solve(problem, max_length=args.bound, variations=False)
        sat_len = min((v for v in firsts.values() if v is not None), default=None)
        if counted.length != sat_len:
            counted_differs += 1
            print(f"counted {counted.length} vs raw {sat_len}: seed {seed} {pos.fen()!r}")
        if firsts != dfpn_first:
            differ += 1
            print(f"DISAGREE sat/dfpn seed {seed} {pos.fen()!r}: {firsts} {dfpn_first}")
        if args.cross:
            _line, ref = reference_solve(pos, args.bound, useless_interpositions=False)
            if {str(m): v for m, v in ref.items()} != firsts:
                differ += 1
                print(f"DISAGREE sat/reference seed {seed} {pos.fen()!r}")
        rows.append((sat_len, sat_cpu, dfpn_cpu, sizes))

    print(f"\n{args.variant}, bound {args.bound}, generator {args.generator}, seeds {args.seed}.."
          f"{args.seed + args.count - 1}: {len(rows)} solved, {skipped} over the SAT limit, {differ} disagreements, "
          f"counted length differs from raw in {counted_differs}")
    print(f"{'n':>3} {'positions':>9} {'vars median':>11} {'vars max':>9} {'clauses median':>14} {'clauses max':>11}")
    for n in range(1, args.bound + 1, 2):
        v = [s[n][0] for *_x, s in rows if n in s]
        c = [s[n][1] for *_x, s in rows if n in s]
        if v:
            print(f"{n:>3} {len(v):>9} {statistics.median(v):>11.0f} {max(v):>9} {statistics.median(c):>14.0f} {max(c):>11}")
    print(f"{'shortest':>9} {'positions':>9} {'SAT cpu mean':>12} {'SAT max':>8} {'df-pn cpu mean':>14} {'df-pn max':>9}")
    for length in [None] + list(range(1, args.bound + 1, 2)):
        sel = [r for r in rows if r[0] == length]
        if sel:
            s = [r[1] for r in sel]
            d = [r[2] for r in sel]
            print(f"{str(length or 'none'):>9} {len(sel):>9} {statistics.mean(s):>12.3f} {max(s):>8.2f} "
                  f"{statistics.mean(d):>14.3f} {max(d):>9.2f}")
    print(f"total CPU: SAT {sum(r[1] for r in rows):.1f} s, df-pn {sum(r[2] for r in rows):.1f} s")


if __name__ == "__main__":
    main()
