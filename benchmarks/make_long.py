"""Make a long collection (problems/long-ito.tsume, problems/long-rutherford.tsume)
from the collections of several composing runs.

Run:  .venv/bin/python benchmarks/make_long.py VARIANT OUT RUN.tsume [RUN.tsume ...]
          [--min-length 21] [--per-length N] [--share 0.5] [--exempt LABEL,...] [--header FILE]

Takes every problem of ``--min-length`` plies and more from the runs' collections (in the
order given), drops any that is the same idea as one before it (tsume.compose.idea), with
``--per-length N`` keeps the first N of each length, then keeps the most that
:func:`tsume.compose.variety.balanced` can with no theme label but the ``--exempt`` ones on
more than ``--share`` of them, numbers them afresh (``ito-c0001``, ..., shortest first) and
writes OUT with the text of ``--header`` as its first comment lines.  Each problem's
provenance gains ``run=K``: the K-th collection given (a problem whose provenance says
``run=J`` already, from a collection made by this script, gets ``run=K.J``).  Prints the label
counts before and after.  With ``--records FILE`` (problems/records.tsume), its composed
records of the variant (``composed-ito-01``, ...) are written afresh: the longest problem of
OUT, then for every label whose longest problem no record holds yet the longest with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path

from tsume.collection import Record, load, save
from tsume.compose.themes import THEMES
from tsume.files import write_atomic
from tsume.compose.run import ABBREV
from tsume.compose.variety import balanced, distinct, label_counts


def records(problems: list[Record], source: str, abbrev: str) -> list[Record]:
    """The composed records of ``problems`` (the module docstring)."""
    best = {t: max((p.length or 0) for p in problems if t in p.tags) for t in THEMES
            if any(t in p.tags for p in problems)}
    chosen: list[tuple[Record, list[str]]] = []
    covered: set[str] = set()

    def take(p: Record) -> list[str]:
        new = [t for t in THEMES if t in p.tags and t not in covered and best[t] == p.length]
        covered.update(new)
        chosen.append((p, new))
        return new

    top = max(problems, key=lambda p: p.length or 0)
    take(top)
    for t in best:
        if t not in covered:
            # Of the longest with t, the one that holds most labels not held yet.
            take(max((p for p in problems if t in p.tags and p.length == best[t]),
                     key=lambda p: sum(x in p.tags and x not in covered and best[x] == p.length for x in THEMES)))
    out = []
    for i, (p, new) in enumerate(chosen, 1):
        what = ", ".join(new)
        title = (f"Longest composed problem{', and with ' + what if what else ''} ({p.length} plies)" if i == 1
                 else f"Longest composed problem with {what} ({p.length} plies)")
        tags = [t for t in p.tags if t != "composed"] + ["composed", "record"]
        out.append(dataclasses.replace(p, id=f"composed-{abbrev}-{i:02d}", title=title, tags=tags,
                                       notes=f"From {source}, {p.id}.", source=None))
    return out


def rewrite_records(path: Path, new: list[Record], abbrev: str) -> None:
    """``path`` with its composed records of ``abbrev`` replaced by ``new``, where the first stood."""
    text = path.read_text(encoding="utf-8")
    block = re.compile(rf"\[composed-{abbrev}-\d+\]\n(?:[^\n]+\n)*\n?")
    first = block.search(text)
    if first is None:
        raise SystemExit(f"{path}: no composed-{abbrev} record to replace")
    body = "\n\n".join(r.to_text() for r in new) + "\n\n"
    text = text[:first.start()] + body + block.sub("", text[first.start():])
    write_atomic(path, text.rstrip("\n") + "\n")


def first_of_each_length(problems: list[Record], most: int) -> list[Record]:
    """The first ``most`` of ``problems`` of each length, in their order."""
    taken: dict[int, int] = {}
    out = []
    for p in problems:
        n = taken.get(p.length or 0, 0)
        if n < most:
            taken[p.length or 0] = n + 1
            out.append(p)
    return out


def _run(provenance: str | None, k: int) -> str:
    """``provenance`` with the run it came from: ``run=K``, or ``run=K.J`` when it says ``run=J``."""
    text = provenance or ""
    nested, found = re.subn(r"; run=([0-9.]+)$", lambda m: f"; run={k}.{m.group(1)}", text)
    if found:
        return nested
    return f"{text}; run={k}" if text else f"run={k}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", choices=sorted(ABBREV))
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--min-length", type=int, default=21)
    ap.add_argument("--per-length", type=int, default=None, help="keep at most N ideas of each length, the first")
    ap.add_argument("--share", type=float, default=0.5)
    ap.add_argument("--exempt", default="", help="labels that may stand on more than the share, comma-separated")
    ap.add_argument("--header", default=None, help="a text file: the collection's first comment lines")
    ap.add_argument("--records", default=None, help="problems/records.tsume: its composed records of VARIANT made afresh")
    a = ap.parse_args(argv)
    found = []
    for k, path in enumerate(a.runs, 1):
        for p in load(path):
            if p.variant == a.variant and (p.length or 0) >= a.min_length:
                found.append(dataclasses.replace(p, provenance=_run(p.provenance, k)))
    unique = distinct(found)
    spread = unique if a.per_length is None else first_of_each_length(unique, a.per_length)
    kept = balanced(spread, a.share, [t for t in a.exempt.split(",") if t])
    kept.sort(key=lambda p: p.length or 0)  # stable: the runs' order among equals
    out = [dataclasses.replace(p, id=f"{ABBREV[a.variant]}-c{i:04d}", source=None) for i, p in enumerate(kept, 1)]
    header = Path(a.header).read_text(encoding="utf-8").rstrip("\n") if a.header else None
    save(a.out, out, header)
    print(f"{len(found)} problems of {a.min_length}+ plies, {len(unique)} ideas, {len(out)} kept "
          f"({min((p.length or 0) for p in out)} to {max((p.length or 0) for p in out)} plies)" if out else "none kept")
    print("labels before:", label_counts(unique))
    print("labels kept:  ", label_counts(out))
    if a.records and out:
        rewrite_records(Path(a.records), records(out, f"problems/{Path(a.out).name}", ABBREV[a.variant]),
                        ABBREV[a.variant])
    return 0


if __name__ == "__main__":
    sys.exit(main())
