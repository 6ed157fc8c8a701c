"""Check finished censuses against the df-pn solver on seeded random samples.

For each census directory, up to ``--mates`` of its mates and ``--sample`` of
its other positions (those the backward pass settled) are solved again by
df-pn, every first move included (``tsume.census.check``); status, length and
the set of optimal first moves must be the same.  Prints every disagreement,
then one line per census: positions checked, agreements, disagreements,
positions df-pn could not settle, seconds.  Exit status 1 on any disagreement,
2 for a directory that is not a census (one line).

    .venv/bin/python benchmarks/census_check.py census/ito-GT-G census/ruth-SN-S --sample 1000 --mates 1000

The sample depends on ``--seed`` only, not on the number of workers.
"""

from __future__ import annotations

import argparse
import sys

from tsume.census.check import check
from tsume.errors import TsumeError


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", help="census directories (tsume census -o DIR)")
    ap.add_argument("--sample", type=int, default=1000, help="positions without a mate to check (default 1000)")
    ap.add_argument("--mates", type=int, default=1000, help="mates to check (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="df-pn node limit per search")
    args = ap.parse_args()
    bad = 0
    for d in args.dirs:
        try:
            r = check(d, sample=args.sample, mates=args.mates, seed=args.seed, workers=args.workers,
                      node_limit=args.nodes)
        except TsumeError as exc:
            print(f"census_check: {exc}", file=sys.stderr)
            return 2
        for dis in r.disagreements:
            print(f"DISAGREE {r.family}: {dis['position']}: census {dis['census']} df-pn {dis['dfpn']}")
        bad += len(r.disagreements)
        print(f"{r.family} (to {r.max_plies} plies): {r.checked} checked ({r.mates} mates, {r.nomates} without), "
              f"{r.agreed} agree, {len(r.disagreements)} disagree, {len(r.unsettled)} unsettled by df-pn, "
              f"{r.seconds:.1f} s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
