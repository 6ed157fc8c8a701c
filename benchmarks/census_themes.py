"""Theme labels of a census's sound problems: how many of each length carry each
label, and the longest without each, every sound problem of a family counted.

Run:  .venv/bin/python benchmarks/census_themes.py DIR [DIR ...] [--min-length 9]

DIR is a census directory (``tsume census -o DIR``); its ``sound.tsume`` is read,
each problem of ``--min-length`` plies and more verified again and labelled
(:func:`tsume.compose.themes.themes`).  A composed collection's labels say what
the composer found; a census's say what a whole family holds.  Not a test.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from tsume import verify
from tsume.collection import load
from tsume.compose.themes import THEMES, themes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", type=Path, help="census directories")
    ap.add_argument("--min-length", type=int, default=9, help="the shortest problems counted (default 9)")
    args = ap.parse_args()
    for d in args.dirs:
        t = time.process_time()
        by_length: dict[int, Counter] = {}
        totals: Counter = Counter()
        longest_without: dict[str, int] = {}
        count = 0
        for rec in load(d / "sound.tsume"):
            if (rec.length or 0) < args.min_length:
                continue
            problem = rec.problem()
            report = verify(problem)
            labels = set(themes(report))
            count += 1
            by_length.setdefault(report.length, Counter()).update(labels)
            by_length[report.length]["(problems)"] += 1
            totals.update(labels)
            for label in THEMES:
                if label not in labels:
                    longest_without[label] = max(longest_without.get(label, 0), report.length)
        print(f"{d}: {count} sound problems of {args.min_length}+ plies ({time.process_time() - t:.1f} CPU s)")
        for length in sorted(by_length):
            c = by_length[length]
            labels = ", ".join(f"{k} {c[k]}" for k in THEMES if c[k])
            print(f"  {length} plies, {c['(problems)']} problems: {labels or 'no label'}")
        print("  in all: " + ", ".join(f"{k} {totals[k]}" for k in THEMES if totals[k]))
        print("  longest without: " + ", ".join(
            f"{k} {longest_without[k]}" if k in longest_without else f"{k} -" for k in THEMES))


if __name__ == "__main__":
    main()
