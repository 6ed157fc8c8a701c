"""Check the installed engine against the golden files (tests/golden/README.md).

    nice -n 10 .venv/bin/python benchmarks/golden_check.py --workers 2
    .venv/bin/python benchmarks/golden_check.py --parts solve --collections examples,flawed
    .venv/bin/python benchmarks/golden_check.py --parts perft --every 10 --perft-leaves 5000

Re-runs every recorded perft divide, solve and verify (or the chosen parts,
collections, every N-th entry, or single ids) with the engine this Python
imports, and prints each difference as ``PART KEY FIELD: golden X, now Y``.
A capped entry (tests/golden/README.md) is run under the same node limit.
Node counts and times are never compared.  Ends with a summary line; exits
with 1 if anything differs, 0 otherwise.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import golden_answers as ga  # noqa: E402



def _check(task):
    part, key, entry, depth = task
    started = time.process_time()
    diffs = ga.check_perft(entry, depth) if part.startswith("perft") else ga.check_answer(part, entry)
    return part, key, ga.describe(diffs), time.process_time() - started


def tasks_for(part: str, args) -> list[tuple]:
    data = ga.read(part, Path(args.dir))
    if part.startswith("perft"):
        entries = {f"{e['variant']} {e['position']}": e for e in data["positions"]}
    else:
        entries = {k: e for k, e in data["problems"].items() if e["collection"] in args.collections}
    keys = ga.sample(list(entries), args.every)
    if args.ids:
        keys = [k for k in keys if k in args.ids or k.split("/", 1)[-1] in args.ids]
    out = []
    for key in keys:
        entry = entries[key]
        depth = ga.cheap_depth(entry, args.perft_leaves) if part.startswith("perft") and args.perft_leaves else None
        out.append((part, key, entry, depth))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default=",".join(ga.PARTS), help="comma-separated: perft, solve, verify (default all)")
    ap.add_argument("--collections", default=",".join(ga.COLLECTIONS),
                    help="comma-separated collections for solve and verify (default all)")
    ap.add_argument("--every", type=int, default=1, help="only every N-th entry of each file, in key order (default 1: all)")
    ap.add_argument("--id", dest="ids", action="append",
                    help="only this problem (an id, or collection/id; repeatable)")
    ap.add_argument("--perft-leaves", type=int, default=None, metavar="N",
                    help="perft only to the greatest recorded depth within N leaves (default: every recorded depth)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--dir", default=str(ga.GOLDEN), help="the golden files' directory (default tests/golden)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    args.collections = [c.strip() for c in args.collections.split(",") if c.strip()]
    bad = [p for p in parts if p not in ga.PARTS] + [c for c in args.collections if c not in ga.COLLECTIONS]
    if bad or args.every < 1 or args.workers < 1:
        ap.error(f"unknown part or collection: {', '.join(bad)}" if bad else "--every and --workers take 1 or more")
    files = [f for p in parts for f in (ga.perft_files(Path(args.dir)) if p == "perft" else [p])]
    print(f"files: {', '.join(files)}", flush=True)
    tasks = [t for f in files for t in tasks_for(f, args)]
    counts = {f: 0 for f in files}
    differing = {f: 0 for f in files}
    lines = 0
    cpu = 0.0
    with multiprocessing.Pool(args.workers) as pool:
        for n, (part, key, diffs, secs) in enumerate(pool.imap_unordered(_check, tasks, chunksize=4), 1):
            counts[part] += 1
            cpu += secs
            if diffs:
                differing[part] += 1
                for line in diffs:
                    print(f"{part} {key} {line}", flush=True)
                    lines += 1
            if not args.quiet and (n % 200 == 0 or n == len(tasks)):
                print(f"... {n}/{len(tasks)} checked, {cpu:.0f} CPU s", file=sys.stderr, flush=True)
    summary = ", ".join(f"{f} {differing[f]}/{counts[f]}" for f in files)
    total = sum(differing.values())
    print(f"golden check: {'OK' if not total else 'DIFFERENT'}: entries differing: {summary}; "
          f"{lines} differences; {cpu:.1f} CPU s in the workers")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
