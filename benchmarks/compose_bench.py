"""How fast the composer finds sound problems, by length class.

Run:  .venv/bin/python benchmarks/compose_bench.py [ito] [rutherford]
          [--methods random,mutate,reverse,all] [--cpu-minutes M]
          [--workers 1,2] [--seed K] [--length MIN[-MAX]] [--parents FILE]
          [--material SPEC] [--keep DIR]

For every variant, method (``all`` is the three defaults together; methods
joined by ``+``, such as ``stretch+climb``, run together) and worker count,
``tsume.compose.compose()`` runs for ``M`` CPU-minutes (``M * 60 / workers``
seconds of wall clock) into a fresh collection, and the script prints: the
shards merged, candidates tried and per CPU-second, sound problems accepted
(duplicates already refused) in the length classes 1-5, 7-11, 13-19 and 21+
plies, those per CPU-minute, sound problems of 9 plies or more per
CPU-minute, and the longest.  CPU is the shards' own process time, so a
shared machine slows the run but does not bend the rates much; the last
column compares accepted problems per wall-minute with the first worker
count of the same variant and method (the scaling).

``--workers 1,2,2t`` measures one process, two processes and two threads
of this process (``tsume compose --threads``); CPU is each shard's own
thread time, so threads are counted fairly.

``--by-cpu`` ends each run when its merged shards have used ``M``
CPU-minutes, however long that takes on the clock (a busy machine: the
same work as on an idle one), instead of after ``M * 60 / workers`` seconds.

``--parents FILE[,FILE...]`` seeds mutate, the reverse method, the climb and
the stretch with the collections' problems (as ``tsume compose --parents``);
``--material SPEC`` draws the random candidates and mate pictures from one
material profile (as ``tsume compose --material``); ``--keep DIR`` keeps
each run's collection.  Not a test: it asserts nothing
and prints numbers.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from tsume.collection import load
from tsume.compose.run import compose, settings_from
from tsume.compose.themes import THEMES
from tsume.shards import shard_executor

CLASSES = ((1, 5), (7, 11), (13, 19), (21, 999))


class _Spent(Exception):
    """The run's CPU budget is used (``--by-cpu``)."""


def one_run(variant: str, methods: str, workers: int, minutes: float, seed: int, parents, keep: Path | None,
            length: str | None = None, threads: bool = False, by_cpu: bool = False,
            avoid: str | None = None, novelty: bool = False, material: str | None = None) -> dict:
    settings = settings_from(variant, methods=methods, seed=seed, parents=parents, length=length, avoid=avoid,
                             novelty=novelty, material=material)
    with tempfile.TemporaryDirectory() as tmp:
        out = (keep or Path(tmp)) / f"{variant}-{methods.replace(',', '+')}-w{workers}{'t' if threads else ''}.tsume"
        if out.exists():
            out.unlink()
        started = time.monotonic()
        seen: list = []

        def spent(s) -> None:
            seen[:] = [s]
            if by_cpu and s.cpu >= minutes * 60:
                raise _Spent

        try:
            with shard_executor(None, threads, workers) as executor:
                # With --by-cpu the clock never ends the run: the budget does.
                summary = compose(settings, out, time_limit=1e9 if by_cpu else minutes * 60 / workers,
                                  workers=workers, executor=executor, progress=spent)
        except _Spent:
            summary = seen[0]
        wall = time.monotonic() - started
        # The theme labels of the long problems (21 plies and more), counted.
        # A run that took nothing leaves a collection of comments only, which load() refuses.
        long = [p for p in load(out) if (p.length or 0) >= 21] if summary.accepted else []
        labels = {t: sum(t in p.tags for p in long) for t in THEMES}
    by_class = [sum(n for length, n in summary.by_length.items() if lo <= length <= hi) for lo, hi in CLASSES]
    cpu_min = max(summary.cpu, 1e-9) / 60
    return {
        "variant": variant, "methods": methods, "workers": workers, "wall": wall, "cpu": summary.cpu,
        "shards": summary.shards, "candidates": summary.candidates, "accepted": summary.accepted,
        "classes": by_class, "rates": [n / cpu_min for n in by_class],
        "nine_plus": sum(n for length, n in summary.by_length.items() if length >= 9) / cpu_min,
        "longest": max(summary.by_length, default=0), "per_wall_min": summary.accepted / (wall / 60),
        "long": len(long), "labels": {t: n for t, n in sorted(labels.items(), key=lambda x: -x[1]) if n},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="*", default=["ito", "rutherford"])
    ap.add_argument("--methods", default="random,mutate,reverse,all",
                    help="comma-separated methods to measure one by one; 'all' is the three defaults together, "
                         "and methods joined by '+' (stretch+climb) run together")
    ap.add_argument("--cpu-minutes", type=float, default=2.0)
    ap.add_argument("--workers", default="1,2",
                    help="worker counts to measure, comma-separated; a 't' after one (2t) runs threads, not processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--length", default=None, help="MIN[-MAX] plies, as tsume compose --length")
    ap.add_argument("--parents", default=None, help="collections (comma-separated) whose problems seed mutate, reverse, the climb and the stretch")
    ap.add_argument("--material", default=None, help="a material profile (tsume compose --material)")
    ap.add_argument("--keep", default=None, help="a directory that keeps every run's collection")
    ap.add_argument("--by-cpu", action="store_true",
                    help="end each run when its merged shards have used the CPU-minutes, not on the clock")
    ap.add_argument("--avoid-theme", default=None, help="theme labels to refuse, comma-separated (tsume compose --avoid-theme)")
    ap.add_argument("--novelty", action="store_true", help="the climb's beam prefers rare labels (tsume compose --novelty)")
    a = ap.parse_args(argv)
    keep = Path(a.keep) if a.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    parents = [p for f in a.parents.split(",") for p in load(f)] if a.parents else None
    workers = [(int(w.rstrip("t")), w.endswith("t")) for w in a.workers.split(",")]
    print("| variant | method | workers | wall s | CPU s | shards | candidates | cand/CPU-s | "
          "sound 1-5 / 7-11 / 13-19 / 21+ | per CPU-min 1-5 / 7-11 / 13-19 / 21+ | 9+ per CPU-min | longest | "
          "scaling (per wall-min) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|")
    for variant in a.variants:
        for method in a.methods.split(","):
            methods = "random,mutate,reverse" if method == "all" else method.replace("+", ",")
            base = None
            for w, threads in workers:
                r = one_run(variant, methods, w, a.cpu_minutes, a.seed,
                           [p for p in parents or [] if p.variant == variant], keep, a.length, threads, a.by_cpu,
                           a.avoid_theme, a.novelty, a.material)
                base = base or r["per_wall_min"] or None
                scale = f"{r['per_wall_min'] / base:.2f}x" if base else "-"
                print(f"| {variant} | {method} | {w}{' threads' if threads else ''} | {r['wall']:.0f} | {r['cpu']:.0f} | {r['shards']} | "
                      f"{r['candidates']} | {r['candidates'] / max(r['cpu'], 1e-9):.1f} | "
                      f"{' / '.join(map(str, r['classes']))} | {' / '.join(f'{x:.1f}' for x in r['rates'])} | "
                      f"{r['nine_plus']:.1f} | {r['longest']} | {r['per_wall_min']:.1f} ({scale}) |", flush=True)
                if r["long"]:
                    print(f"|   themes of the {r['long']} of 21+ plies: "
                          + ", ".join(f"{t} {n}" for t, n in r["labels"].items()) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
