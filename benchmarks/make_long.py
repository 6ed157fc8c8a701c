"""Make a long collection (problems/long-ito.tsume, problems/long-rutherford.tsume)
from the collections of several composing runs.

Run:  .venv/bin/python benchmarks/make_long.py VARIANT OUT RUN.tsume [RUN.tsume ...]
          [--min-length 21] [--share 0.5] [--exempt LABEL,...] [--header FILE]

Takes every problem of ``--min-length`` plies and more from the runs' collections (in the
order given), drops any that is the same idea as one before it (tsume.compose.idea),
keeps the most that :func:`tsume.compose.variety.balanced` can with no theme label but the
``--exempt`` ones on more than ``--share`` of them, numbers them afresh (``ito-c0001``, ...,
shortest first) and writes OUT with the text of ``--header`` as its first comment lines.
Each problem's provenance gains ``run=K``: the K-th collection given.  Prints the label
counts before and after.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from tsume.collection import load, save
from tsume.compose.run import ABBREV
from tsume.compose.variety import balanced, distinct, label_counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", choices=sorted(ABBREV))
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--min-length", type=int, default=21)
    ap.add_argument("--share", type=float, default=0.5)
    ap.add_argument("--exempt", default="", help="labels that may stand on more than the share, comma-separated")
    ap.add_argument("--header", default=None, help="a text file: the collection's first comment lines")
    a = ap.parse_args(argv)
    found = []
    for k, path in enumerate(a.runs, 1):
        for p in load(path):
            if p.variant == a.variant and (p.length or 0) >= a.min_length:
                found.append(dataclasses.replace(p, provenance=f"{p.provenance}; run={k}"))
    unique = distinct(found)
    kept = balanced(unique, a.share, [t for t in a.exempt.split(",") if t])
    kept.sort(key=lambda p: p.length or 0)  # stable: the runs' order among equals
    out = [dataclasses.replace(p, id=f"{ABBREV[a.variant]}-c{i:04d}", source=None) for i, p in enumerate(kept, 1)]
    header = Path(a.header).read_text(encoding="utf-8").rstrip("\n") if a.header else None
    save(a.out, out, header)
    print(f"{len(found)} problems of {a.min_length}+ plies, {len(unique)} ideas, {len(out)} kept "
          f"({min((p.length or 0) for p in out)} to {max((p.length or 0) for p in out)} plies)" if out else "none kept")
    print("labels before:", label_counts(unique))
    print("labels kept:  ", label_counts(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
