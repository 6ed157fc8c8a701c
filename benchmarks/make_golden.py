"""Record today's answers in the golden files (tests/golden/README.md).

    nice -n 10 .venv/bin/python benchmarks/make_golden.py --workers 2 --log /tmp/golden.log

Parts (``--parts``, default all):

* ``perft``: the perft divides of every position the rules tests look at
  (the positions the perft files record, or ``--positions FILE``: a JSON list
  of ``[variant spec, position, [test files]]``), of the variants' start
  positions, and of seeded
  random positions; each to the greatest depth within
  ``tests/golden_answers.py``'s ``PERFT_LEAVES`` leaves.  Written as
  ``perft-rules.json``, ``perft-cross.json`` (the positions only
  ``tests/test_cross_movegen.py`` uses) and ``perft-random.json``; a file
  over 5 MB is gzipped.
* ``solve``: the answer ``tsume solve --file F --id X`` gives for every
  problem of the bundled collections (``--collections``, default all).
* ``verify``: the report ``tsume verify --file F --id X`` gives for each.

A solve or verify still running after ``CAP_SECONDS`` CPU seconds is run
again under the node limit ``CAP_NODES`` and recorded as capped.  Finished
answers are kept in ``DIR/.partial-PART.jsonl`` while the run goes on, so an
interrupted run resumes where it stopped (``--fresh`` starts over).  Writing
a subset of the collections replaces only their entries in the file.
Prints (and logs) a line per problem and the CPU seconds of each part.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import golden_answers as ga  # noqa: E402

import tsume  # noqa: E402

#: The perft files, by group: what each holds is told in tests/golden/README.md.
PERFT_GROUPS = ("rules", "cross", "random")


class Log:
    def __init__(self, path: str | None) -> None:
        self.file = open(path, "a", encoding="utf-8") if path else None

    def __call__(self, text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {text}"
        print(line, flush=True)
        if self.file:
            self.file.write(line + "\n")
            self.file.flush()


def about() -> dict:
    """What made the file: never compared, for a reader."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {"made_by": "benchmarks/make_golden.py", "tsume_version": tsume.__version__, "commit": commit}


# --- perft ----------------------------------------------------------------------------------------


def recorded_positions(log: Log) -> list[list]:
    """[spec, position, [test files]] for every test position the perft files
    already record (the rules tests' positions were collected once, from the
    engine they were written against; start and random positions are made
    again by :func:`perft_tasks`)."""
    rows = []
    for group in ("rules", "cross"):
        for entry in ga.read(f"perft-{group}")["positions"]:
            files = [src for src in entry.get("sources", []) if src.endswith(".py")]
            if files:
                rows.append([entry["variant"], entry["position"], files])
    log(f"perft: {len(rows)} recorded test positions")
    return rows


def perft_tasks(rows: list[list]) -> list[tuple[str, str, str, list[str], tuple[int, int]]]:
    """(group, spec, position, sources, depths) for every position, each in one group."""
    tasks: dict[tuple[str, str], tuple[str, list[str], tuple[int, int]]] = {}
    specs = sorted({spec for spec, _, _ in rows} | set(ga.VARIANTS_FOR_START))
    for spec in specs:
        start = ga.resolve_variant(spec).start
        if start is not None:
            tasks[(spec, tsume.Position(start, ga.resolve_variant(spec)).fen())] = ("rules", ["start position"], (1, ga.MAX_DEPTH))
    for spec, text, files in rows:
        key = (spec, text)
        group = "cross" if files == ["test_cross_movegen.py"] else "rules"
        if key in tasks:
            tasks[key][1].extend(files)
        else:
            tasks[key] = (group, list(files), (1, ga.MAX_DEPTH))
    for spec, text in ga.random_positions():
        key = (spec, tsume.Position(text, ga.resolve_variant(spec)).fen())
        source = f"random_positions({ga.RANDOM_SEED}, {spec!r}, {ga.RANDOM_COUNTS[spec]})"
        if key in tasks:
            tasks[key][1].append(source)
        else:
            tasks[key] = ("random", [source], ga.RANDOM_DEPTHS)
    return [(group, spec, text, sorted(set(sources)), depths)
            for (spec, text), (group, sources, depths) in sorted(tasks.items())]


def _perft_job(task):
    group, spec, text, sources, depths = task
    started = time.process_time()
    entry = ga.perft_entry(spec, text, depths=depths)
    entry["sources"] = sources
    return group, entry, time.process_time() - started


def make_perft(args, log: Log) -> float:
    rows = json.loads(Path(args.positions).read_text(encoding="utf-8")) if args.positions else recorded_positions(log)
    tasks = perft_tasks(rows)
    log(f"perft: {len(tasks)} positions ({', '.join(f'{g} {sum(t[0] == g for t in tasks)}' for g in PERFT_GROUPS)})")
    groups: dict[str, list] = {g: [] for g in PERFT_GROUPS}
    cpu = 0.0
    with multiprocessing.Pool(args.workers) as pool:
        for n, (group, entry, secs) in enumerate(pool.imap_unordered(_perft_job, tasks, chunksize=16), 1):
            groups[group].append(entry)
            cpu += secs
            if n % 500 == 0 or n == len(tasks):
                log(f"perft: {n}/{len(tasks)} positions, {cpu:.0f} CPU s")
    for group, entries in groups.items():
        entries.sort(key=lambda e: (e["variant"], e["position"]))
        data = {"about": {**about(), "leaves": ga.PERFT_LEAVES, "max_depth": ga.MAX_DEPTH,
                          "random_depths": list(ga.RANDOM_DEPTHS) if group == "random" else None},
                "positions": entries}
        path = ga.write(f"perft-{group}", data, Path(args.out))
        log(f"perft: wrote {path} ({path.stat().st_size:,} bytes, {len(entries)} positions)")
    return cpu


# --- solve and verify -----------------------------------------------------------------------------


def _answer_job(task):
    part, collection, problem = task
    entry = ga.answer_entry(part, collection, problem, cpu_cap=ga.CAP_SECONDS)
    return part, entry


def make_answers(part: str, args, log: Log) -> float:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    partial = out / f".partial-{part}.jsonl"
    if args.fresh:
        partial.unlink(missing_ok=True)
    done: dict[str, dict] = {}
    if partial.exists():
        for line in partial.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by an interruption
                continue
            done[f"{entry['collection']}/{entry['id']}"] = entry
    tasks = []
    for name in args.collections:
        for problem in ga.collection_problems(name):
            key = f"{name}/{problem.id}"
            if key not in done or done[key]["input"] != ga.problem_input(problem):
                tasks.append((part, name, problem))
    wanted = {f"{name}/{p.id}" for name in args.collections for p in ga.collection_problems(name)}
    log(f"{part}: {len(wanted)} problems, {len(wanted) - len(tasks)} already done, {len(tasks)} to run")
    # The long collections first, so that the pool ends with short jobs.
    order = {name: i for i, name in enumerate(("bench-ito", "bench-rutherford", "long-ito", "records"))}
    tasks.sort(key=lambda t: order.get(t[1], len(order)))
    cpu = 0.0
    with open(partial, "a", encoding="utf-8") as keep, multiprocessing.Pool(args.workers, maxtasksperchild=50) as pool:
        for n, (_, entry) in enumerate(pool.imap_unordered(_answer_job, tasks), 1):
            key = f"{entry['collection']}/{entry['id']}"
            done[key] = entry
            keep.write(json.dumps(entry, sort_keys=True) + "\n")
            keep.flush()
            secs = entry["info"]["cpu_seconds"]
            cpu += secs
            answer = entry["answer"]
            what = answer.get("status") or answer.get("verdict")
            capped = f" CAPPED at {entry['node_limit']:,} nodes" if entry["node_limit"] else ""
            log(f"{part} {n}/{len(tasks)} {key}: {what} {answer.get('length')} in {secs:.2f} CPU s{capped}")
    path = ga.golden_path(part, out)
    existing = ga.read(part, out)["problems"] if path.exists() else {}
    # Entries of collections not asked for stay as they were; the ones asked for are replaced.
    problems = {k: v for k, v in existing.items() if v["collection"] not in args.collections}
    problems.update({k: v for k, v in done.items() if k in wanted})
    data = {"about": {**about(), "cap_seconds": ga.CAP_SECONDS, "cap_nodes": ga.CAP_NODES,
                      "length_budget": ga.LENGTH_BUDGET},
            "problems": problems}
    path = ga.write(part, data, out)
    partial.unlink()
    log(f"{part}: wrote {path} ({path.stat().st_size:,} bytes, {len(problems)} problems), {cpu:.0f} CPU s")
    return cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default=",".join(ga.PARTS), help="comma-separated: perft, solve, verify (default all)")
    ap.add_argument("--collections", default=",".join(ga.COLLECTIONS),
                    help="comma-separated bundled collections for solve and verify (default all)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", default=str(ga.GOLDEN), help="output directory (default tests/golden)")
    ap.add_argument("--positions", metavar="FILE",
                    help="perft: read the rules tests' positions from FILE (as the plugin writes them) instead of running the tests")
    ap.add_argument("--fresh", action="store_true", help="ignore answers kept from an interrupted run")
    ap.add_argument("--log", metavar="FILE", help="also append the progress lines to FILE")
    args = ap.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    args.collections = [c.strip() for c in args.collections.split(",") if c.strip()]
    bad = [p for p in parts if p not in ga.PARTS] + [c for c in args.collections if c not in ga.COLLECTIONS]
    if bad:
        ap.error(f"unknown part or collection: {', '.join(bad)}")
    log = Log(args.log)
    log(f"parts {', '.join(parts)}; workers {args.workers}")
    for part in parts:
        cpu = make_perft(args, log) if part == "perft" else make_answers(part, args, log)
        log(f"{part}: done, {cpu:.0f} CPU s in the workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
