"""Build the benchmark problem collections by search: problems/bench-ito.tsume and
problems/bench-rutherford.tsume (mates of many lengths, not checked for soundness).

Run:  .venv/bin/python benchmarks/make_suite.py [--quick] [--seed S] [--variant V] [--out-dir D]

The candidates and the mate test are the composer's (tsume.compose); what is
this script's own is the choice of problems: length buckets, one problem per
main line, the recheck and the writing.  Per variant:

1. *Random phase*: random placements from the composer's rotation of material
   profiles (:func:`tsume.compose.material.default_profiles`), each drawn with
   the defender's hand "none" about a third of the time (sparse material: 60%)
   and with the defender's king at its far end (square 1 or 2) 30% of the
   time.  Each is solved by :func:`tsume.compose.filters.mate` (``solve()``
   with ``variations=False``) under ``--random-nodes``.
2. *Mutation phase*: hill-climbing.  A parent is drawn from the mates found
   so far, weighted strongly toward the longest; one to three
   :func:`tsume.compose.sources.mutate` edits make the child, solved under
   ``--mutation-nodes`` (at most 20,000 + 6 x its parent's nodes).  Every mate
   found joins the pool of parents.

Every mate goes into its length bucket (1, 3, 5, ...) while the bucket has
room (``--per-bucket``; the long buckets, 15 plies and more, take
``--per-long-bucket``) and has no problem with the same main line.  A stored
problem carries its id (``ito-L07-0003``), variant, position, ``defender:
none`` when used, the counted length, the main line from solve() and tags
(``bench``, ``len07``, ``long`` for 15 plies and more, ``defender-none``); its
notes give the nodes and seconds of the generating solve.  The collections
are saved (atomically) after every ``--save-every`` accepted problems and at
the end.

Reproducibility: everything is drawn from ``random.Random`` seeded by
``--seed`` and the variant, every solve is cut by a node limit (which bounds
the whole call, the reading of the main line included), and the phases by
node budgets (``--nodes`` million nodes per variant, ``--random-share`` of
them for the random phase), so a run repeats exactly -- unless the
wall-clock safety limit (``--minutes`` per variant) cuts it short on a slow
or busy machine.  ``--resume`` starts from the stored collection (its
problems fill the buckets and the parent pool; a different random stream) and
goes on with the mutation phase; ``--extra FILE`` solves listed candidates
first.  ``--recheck`` searches nothing: it solves the stored problems again
with the current solver (no node limit, ``--candidate-seconds`` each) and
brings lengths, main lines, tags and ids up to date (dropping any that no
longer solve as a clean mate) -- for use after the solver changes.
``--quick`` is a small smoke run (few nodes, written to the same files unless
``--out-dir`` says otherwise).

Anything odd -- solve() raising, a mate whose main line does not replay to
checkmate or has the wrong length -- is printed with the position and kept in
``--odd-log`` (default: no file) so that it can be reported.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
import traceback
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from tsume.collection import Problem, load, save
from tsume.compose.candidate import Candidate, canonical_key
from tsume.compose.filters import Criteria, mate
from tsume.compose.material import Material, default_profiles
from tsume.compose.sources import mutate
from tsume.conventions import interposition_square, ranged_checkers
from tsume.limits import Limits
from tsume.position import Position
from tsume.solve import Result, solve

ROOT = Path(__file__).resolve().parent.parent
LONG = 15  # plies: the "long" buckets start here
NONE_SHARE = {"sparse": 0.6}  # profile -> share drawn with the defender's hand "none" (else 0.35)


def random_candidate(rng: random.Random, variant: str, profile: Material) -> Candidate:
    """A random candidate of ``profile`` (one of the composer's default profiles), with
    the defender's hand "none" some of the time and its king sometimes at its far end."""
    none = rng.random() < NONE_SHARE.get(profile.text, 0.35)
    far = rng.random() < 0.3
    return replace(profile, defender_hand="none" if none else None,
                   king_square=(1, 2) if far else profile.king_square).draw(rng, variant)


def replay_problem(start: Position, result: Result) -> str | None:
    """None if the main line replays legally from ``start`` (a tsume position), every
    attacker move checks, its length is the counted length and it ends in checkmate or in
    a check answered only by interpositions (useless ones, which the conventions do not
    count); else what is wrong."""
    try:
        pos = start.copy()
        for i, mv in enumerate(result.mainline):
            pos.push_str(mv)
            if i % 2 == 0 and not pos.is_check():
                return f"attacker move {i + 1} ({mv}) does not give check"
        if len(result.mainline) % 2 != 1 or not pos.is_check():
            return "the main line does not end with an attacker check"
        if not pos.is_checkmate():
            ranged = ranged_checkers(pos)
            if not all(interposition_square(pos, d, ranged) for d in pos.evasions()):
                return "the main line ends in a check the defender can answer by a non-interposition"
        if len(result.mainline) != result.length:
            return (f"the main line has {len(result.mainline)} plies but the counted length is "
                    f"{result.length} (it ends with only interpositions left)")
    except Exception as exc:  # noqa: BLE001
        return f"main line does not replay: {exc!r}"
    return None


# --- the search ----------------------------------------------------------------------


class Suite:
    def __init__(self, variant: str, args: argparse.Namespace, out: Path) -> None:
        self.variant = variant
        self.args = args
        self.out = out
        self.buckets: dict[int, list[Problem]] = defaultdict(list)
        self.seen: set[str] = set()  # canonical keys (tsume.compose.candidate.canonical_key)
        self.lines: dict[int, set[tuple[str, ...]]] = defaultdict(set)
        self.pool: list[tuple[int, int, int, Candidate]] = []   # (length, nodes, serial, cand): parents
        self.serial = 0
        self.accepted_since_save = 0
        self.nodes_used = 0
        self.candidates = 0
        self.mates = 0
        self.profiles = default_profiles(variant)
        self.odd: list[dict] = []
        self.started = time.perf_counter()
        self.abbrev = {"ito": "ito", "rutherford": "ruth"}[variant]

    # bookkeeping

    def cap(self, length: int) -> int:
        return self.args.per_long_bucket if length >= LONG else self.args.per_bucket

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def out_of_time(self) -> bool:
        return self.elapsed() > self.args.minutes * 60

    def total(self) -> int:
        return sum(len(b) for b in self.buckets.values())

    def longest(self) -> int:
        return max((k for k, b in self.buckets.items() if b), default=0)

    def summary(self) -> str:
        parts = [f"{k}:{len(self.buckets[k])}" for k in sorted(self.buckets) if self.buckets[k]]
        return " ".join(parts)

    def save(self) -> None:
        problems = [p for k in sorted(self.buckets) for p in self.buckets[k]]
        header = (
            f"Benchmark problems for {self.variant}, made by benchmarks/make_suite.py "
            f"(seed {self.args.seed}{', quick' if self.args.quick else ''}).\n"
            "Each was solved by tsume.solve.solve (variations=False, default Options) with status 'mate';\n"
            "length is the counted length, solution the main line it returned.\n"
            f"Per length: {self.summary()}"
        )
        save(self.out, problems, header=header)
        self.accepted_since_save = 0

    def note_odd(self, c: Candidate, what: str, detail: str) -> None:
        rec = {"variant": self.variant, "position": c.fen(), "defender": c.defender or "rest",
               "what": what, "detail": detail}
        self.odd.append(rec)
        print(f"  !! ODD {what}: {c.fen()} defender={c.defender or 'rest'}: {detail}", flush=True)
        if self.args.odd_log:
            with open(self.args.odd_log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec) + "\n")

    # evaluation

    def evaluate(self, c: Candidate, node_limit: int) -> Result | None:
        """The mate of a new valid candidate under ``node_limit`` nodes, else None."""
        pos = c.position()
        if pos is None:
            return None
        key = canonical_key(pos)
        if key in self.seen:
            return None
        self.seen.add(key)
        self.candidates += 1
        try:
            r, nodes = mate(c, Criteria(mate_nodes=node_limit))
        except Exception as exc:  # noqa: BLE001 - mate() lets all but TsumeError through
            self.note_odd(c, "exception", "".join(traceback.format_exception_only(type(exc), exc)).strip())
            return None
        self.nodes_used += nodes
        if r is None:
            return None
        self.mates += 1
        problem = replay_problem(pos, r)
        if problem:
            self.note_odd(c, "bad main line", f"{problem}; length {r.length}, line {' '.join(r.mainline)}")
            return None
        return r

    def offer(self, c: Candidate, r: Result) -> bool:
        """Put a mate into the parent pool and, if its bucket has room, into the collection."""
        L = r.length
        self.serial += 1
        self.pool.append((L, r.stats["nodes"], self.serial, c))
        if len(self.buckets[L]) >= self.cap(L):
            return False
        # Diversity: a bucket takes one problem per main line (a mutation that only adds
        # an idle piece keeps the line and the search).
        line = tuple(r.mainline)
        if line in self.lines[L]:
            return False
        self.lines[L].add(line)
        idx = len(self.buckets[L]) + 1
        tags = ["bench", f"len{L:02d}"]
        if L >= LONG:
            tags.append("long")
        if c.defender == "none":
            tags.append("defender-none")
        self.buckets[L].append(
            Problem(
                id=f"{self.abbrev}-L{L:02d}-{idx:04d}",
                position=c.fen(),
                variant=self.variant,
                defender=c.defender,
                length=L,
                solution=list(r.mainline),
                tags=tags,
                notes=f"generated: {r.stats['nodes']} nodes, {r.stats['seconds']:.2f} s",
            )
        )
        self.accepted_since_save += 1
        print(f"  + {self.abbrev} len {L:2d} [{self.total():3d}] {c.fen()}"
              f"{' (defender none)' if c.defender else ''}  {r.stats['nodes']} nodes {r.stats['seconds']:.2f} s",
              flush=True)
        if self.accepted_since_save >= self.args.save_every:
            self.save()
        return True

    # phases

    def random_phase(self, rng: random.Random, node_budget: int) -> None:
        i = 0
        while self.nodes_used < node_budget and not self.out_of_time():
            c = random_candidate(rng, self.variant, self.profiles[i % len(self.profiles)])
            i += 1
            r = self.evaluate(c, self.args.random_nodes)
            if r is not None:
                self.offer(c, r)
            if i % 50 == 0:
                print(f"[{self.abbrev} random {i} cands, {self.nodes_used / 1e6:.2f}M nodes, "
                      f"{self.elapsed():.0f} s] {self.summary()}", flush=True)

    def pick_parent(self, rng: random.Random) -> tuple[Candidate, int]:
        """A parent and its solve's node count: strongly toward the longest, then the cheapest."""
        ranked = sorted(self.pool, key=lambda e: (-e[0], e[1], e[2]))
        idx = int(len(ranked) * rng.random() ** 4)
        return ranked[idx][3], ranked[idx][1]

    def mutation_phase(self, rng: random.Random, node_budget: int) -> None:
        i = 0
        while self.nodes_used < node_budget and not self.out_of_time():
            limit = self.args.mutation_nodes
            if not self.pool:
                c = random_candidate(rng, self.variant, self.profiles[i % len(self.profiles)])
            else:
                c, parent_nodes = self.pick_parent(rng)
                for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
                    c = mutate(c, rng)
                # A child rarely needs many times its parent's nodes: cut the hopeless early.
                limit = min(limit, 20_000 + 6 * parent_nodes)
            i += 1
            r = self.evaluate(c, limit)
            if r is not None:
                self.offer(c, r)
            if i % 50 == 0:
                print(f"[{self.abbrev} mutation {i} cands, {self.nodes_used / 1e6:.2f}M nodes, "
                      f"{self.elapsed():.0f} s, longest {self.longest()}] {self.summary()}", flush=True)

    def resume(self) -> None:
        """Take the stored collection as the start: its problems fill the buckets and the parent pool."""
        if not self.out.exists():
            return
        for p in load(self.out):
            c = Candidate.from_position(Position(p.position, p.variant), p.defender)
            m = re.search(r"generated: (\d+) nodes", p.notes or "")
            nodes = int(m.group(1)) if m else 10_000
            L = p.length or 0
            pos = c.position()
            if pos is not None:
                self.seen.add(canonical_key(pos))
            self.lines[L].add(tuple(p.solution or ()))
            self.buckets[L].append(p)
            self.serial += 1
            self.pool.append((L, nodes, self.serial, c))
        print(f"== {self.variant}: resumed from {self.out}: {self.summary()}", flush=True)

    def extra(self, path: Path) -> None:
        """Candidates listed one per line ('variant<TAB>position[<TAB>defender]'), solved first."""
        for raw in path.read_text(encoding="utf-8").splitlines():
            parts = raw.strip().split("\t")
            if len(parts) < 2 or parts[0] != self.variant:
                continue
            defender = parts[2] if len(parts) > 2 and parts[2] != "rest" else None
            c = Candidate.from_position(Position(parts[1], self.variant), defender)
            r = self.evaluate(c, self.args.mutation_nodes)
            if r is not None:
                self.offer(c, r)

    def run(self) -> None:
        seed = self.args.seed * 1000 + (1 if self.variant == "ito" else 2) + (7 if self.args.resume else 0)
        rng = random.Random(seed)
        budget = int(self.args.nodes * 1e6)
        print(f"== {self.variant}: budget {budget:,} nodes, {self.args.minutes} min; out {self.out}", flush=True)
        if self.args.resume:
            self.resume()
        if self.args.extra:
            self.extra(self.args.extra)
        if not self.args.resume:
            self.random_phase(rng, int(budget * self.args.random_share))
            print(f"== {self.variant}: random phase done: {self.summary()}", flush=True)
        self.mutation_phase(rng, budget)
        self.save()
        print(f"== {self.variant}: done in {self.elapsed():.0f} s, {self.candidates} candidates solved, "
              f"{self.nodes_used:,} nodes, {self.mates} mates", flush=True)
        print(f"== {self.variant}: {self.total()} problems, longest {self.longest()}: {self.summary()}", flush=True)
        if self.odd:
            print(f"== {self.variant}: {len(self.odd)} odd results (see above)", flush=True)


def recheck(path: Path, variant: str, args: argparse.Namespace) -> None:
    """Solve every stored problem again with the current solver; keep the mates, with length,
    main line, tags and (if the length moved) id brought up to date; drop the rest."""
    problems = load(path)
    kept: dict[int, list[Problem]] = defaultdict(list)
    lines: dict[int, set[tuple[str, ...]]] = defaultdict(set)
    moved: list[tuple[Problem, int]] = []
    dropped = 0
    t0 = time.perf_counter()
    for p in problems:
        try:
            problem = p.problem()
            start = problem.position()
            r = solve(problem, variations=False, limits=Limits(time=args.candidate_seconds))
        except Exception as exc:  # noqa: BLE001
            print(f"  !! {p.id}: solve raised {type(exc).__name__}: {exc}", flush=True)
            dropped += 1
            continue
        bad = replay_problem(start, r) if r.status == "mate" else f"status {r.status}"
        if bad:
            print(f"  - {p.id} dropped ({bad}; length {r.length}, line {' '.join(r.mainline)})", flush=True)
            dropped += 1
            continue
        L = r.length
        line = tuple(r.mainline)
        if line in lines[L]:
            print(f"  - {p.id} dropped (same main line as another problem of length {L})", flush=True)
            dropped += 1
            continue
        lines[L].add(line)
        note = f"generated: {r.stats['nodes']} nodes, {r.stats['seconds']:.2f} s"
        if L != p.length:
            note += f" (rechecked: stored length was {p.length})"
            print(f"  ~ {p.id}: length {p.length} -> {L}", flush=True)
            moved.append((p, L))
        elif list(line) != (p.solution or []):
            print(f"  ~ {p.id}: main line changed", flush=True)
        p.length, p.solution, p.notes = L, list(line), note
        tags = [t for t in p.tags if not t.startswith("len") and t != "long"]
        p.tags = tags[:1] + [f"len{L:02d}"] + (["long"] if L >= LONG else []) + tags[1:]
        kept[L].append(p)
    abbrev = {"ito": "ito", "rutherford": "ruth"}[variant]
    for L, ps in kept.items():
        used = {p.id for p in ps}
        n = 0
        for p in ps:
            if p.id.startswith(f"{abbrev}-L{L:02d}-"):
                continue
            while True:
                n += 1
                pid = f"{abbrev}-L{L:02d}-{n:04d}"
                if pid not in used:
                    break
            used.add(pid)
            p.id = pid
        ps.sort(key=lambda p: p.id)
    out = [p for L in sorted(kept) for p in kept[L]]
    summary = " ".join(f"{L}:{len(kept[L])}" for L in sorted(kept))
    header = (
        f"Benchmark problems for {variant}, made by benchmarks/make_suite.py, then rechecked\n"
        "(--recheck) with the current solver: each solved by tsume.solve.solve (variations=False,\n"
        "default Options) with status 'mate'; length is the counted length, solution the main line.\n"
        f"Per length: {summary}"
    )
    save(path, out, header=header)
    print(f"== recheck {variant}: {len(out)} kept, {dropped} dropped, {len(moved)} changed length, "
          f"{time.perf_counter() - t0:.0f} s; {summary}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["ito", "rutherford", "both"], default="both")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a small smoke run")
    ap.add_argument("--nodes", type=float, default=6.0, help="node budget per variant, millions (default 6)")
    ap.add_argument("--minutes", type=float, default=27.0, help="wall-clock safety limit per variant (default 27)")
    ap.add_argument("--random-share", type=float, default=0.2, help="share of the node budget for the random phase")
    ap.add_argument("--random-nodes", type=int, default=25_000, help="node limit per random candidate")
    ap.add_argument("--mutation-nodes", type=int, default=100_000, help="node limit per mutated candidate (at most 20,000 + 6 x the parent's)")
    ap.add_argument("--candidate-seconds", type=float, default=20.0, help="time limit per solve in --recheck (the search uses node limits)")
    ap.add_argument("--per-bucket", type=int, default=15, help="problems per length bucket below 15 plies")
    ap.add_argument("--per-long-bucket", type=int, default=20, help="problems per bucket of 15 plies and more")
    ap.add_argument("--save-every", type=int, default=10)
    ap.add_argument("--out-dir", type=Path, default=ROOT / "problems")
    ap.add_argument("--odd-log", type=Path, default=None, help="append odd results here (JSON lines)")
    ap.add_argument("--resume", action="store_true",
                    help="start from the stored collection (buckets and parents) and go on with mutations")
    ap.add_argument("--extra", type=Path, default=None,
                    help="candidates to solve first: lines 'variant<TAB>position[<TAB>defender]'")
    ap.add_argument("--recheck", action="store_true",
                    help="no search: solve the stored problems again with the current solver and update them")
    args = ap.parse_args(argv)
    if args.quick:
        args.nodes = min(args.nodes, 0.3)
        args.minutes = min(args.minutes, 3.0)
        args.random_nodes = min(args.random_nodes, 10_000)
        args.mutation_nodes = min(args.mutation_nodes, 20_000)
        args.per_bucket = min(args.per_bucket, 4)
        args.per_long_bucket = min(args.per_long_bucket, 4)
    variants = ["ito", "rutherford"] if args.variant == "both" else [args.variant]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if args.recheck:
        for v in variants:
            recheck(args.out_dir / f"bench-{v}.tsume", v, args)
        return 0
    for v in variants:
        Suite(v, args, args.out_dir / f"bench-{v}.tsume").run()
    print(f"total generation time {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
