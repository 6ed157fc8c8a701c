"""Build problems/flawed.tsume by search: problems that each show exactly one
``verify()`` finding kind.  (The sound seed collections, problems/seed-*.tsume,
are made by ``tsume compose``: see docs/compose.md.)

Run:  .venv/bin/python benchmarks/make_flawed.py [--seed S] [--minutes M]
          [--variant ito|rutherford|both] [--quick] [--resume] [--out FILE]

Candidates come from the composer's sources (``tsume.compose.sources``):
random placements of its default material profiles (``random_candidates``),
mostly with a one-piece attacker hand so that some mates end clean, and one or
two mutations (``mutate``) of the sound seed problems, read from
``--seeds-dir`` (default problems/).  Each is solved under a node limit and,
unless its mate is longer than ``--max-length``, verified in full (no
``fail_fast``); a problem whose set of finding kinds is exactly one kind fills
that kind's slots, one per variant and kind first (``--per-kind`` in all).  A
candidate showing its kind together with ``te-amari`` or ``unused-material`` is
repaired (``tsume.compose.filters.repair`` takes the leftover pieces out of
the hand; unused pieces come off the board) and tried again; a candidate
showing a rare kind (detour, final-move alternative, same-length variation)
among others becomes a parent for mutations that try to shed the others.  The
kinds that need a stated field are made from sound seed problems:
``stated-length-mismatch`` (a wrong ``length:``), ``solution-mismatch`` (an
intended solution whose first attacker move is another check, with the right
length) and ``longer-variation`` (an intended solution whose defender picks a
shorter defence, no ``length:``).  Each is tagged ``flawed, expect-<kind>``
and its notes say what the flaw is.  Every stored problem is verified again as
stored (default switches, its own fields) before it is written.

``--resume`` keeps the stored problems and searches only for the kinds still
missing.

Reproducibility: every choice is drawn from ``random.Random`` seeded by
``--seed``, every solve() and verify() is bounded by a node limit (it bounds
the whole call, the reading of the main line included), and the phases by
candidate counts, so a run repeats exactly -- unless the wall-clock limit
(``--minutes``) cuts it short on a slow or busy machine.  The collection is
saved atomically (``tsume.collection.save``) after every accepted problem.
Progress goes to stdout.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from tsume.collection import Problem, load, save
from tsume.compose.candidate import Candidate, canonical_key
from tsume.compose.filters import repair
from tsume.compose.sources import mutate, random_candidates
from tsume.errors import TsumeError
from tsume.limits import Limits
from tsume.position import Position
from tsume.problem import Problem as Tsume
from tsume.solve import solve
from tsume.verify import Report, verify

ROOT = Path(__file__).resolve().parent.parent
AUTHOR = "tsume composer (seeded search)"
ABBREV = {"ito": "ito", "rutherford": "ruth"}
NATURAL_KINDS = ("no-mate", "yozume", "final-move-alternative", "detour", "te-amari",
                 "same-length-variation", "unused-material")
ALL_KINDS = NATURAL_KINDS[:5] + ("same-length-variation", "longer-variation", "unused-material",
                                 "stated-length-mismatch", "solution-mismatch")
RARE = ("detour", "final-move-alternative", "same-length-variation")


def candidate_of(p: Problem) -> Candidate:
    return Candidate.from_position(Position(p.position, p.variant), p.defender)


def unused_squares(report: Report) -> list[int]:
    """The squares of the men an ``unused-material`` finding names."""
    out = []
    for f in report.findings:
        if f.kind == "unused-material" and f.pieces:
            for tok in f.pieces.split():
                digits = "".join(ch for ch in tok if ch.isdigit())
                if digits:
                    out.append(int(digits))
    return out


def without_squares(c: Candidate, squares: list[int]) -> Candidate:
    return c.changed([(sq, None) for sq in squares])


def clear_detour(c: Candidate, rep: Report) -> bool:
    """Is every detour of ``rep`` a real detour: longer than the main line from its turn,
    and rejoining the main line before the final (mate) position?  (verify() also calls
    an alternative of the same length that meets the main line only at the mate a detour.)"""
    for f in rep.findings:
        if f.kind != "detour":
            continue
        if f.length is None or f.length <= rep.length - (f.ply - 1):
            return False
        pos = c.position()
        assert pos is not None
        keys = []
        for mv in rep.mainline:
            pos.push_str(mv)
            keys.append(pos.key())
        later = set(keys[f.ply - 1:-1])  # after the alternative's turn, the mate excluded
        q = c.position()
        assert q is not None
        for mv in rep.mainline[:f.ply - 1]:
            q.push_str(mv)
        hit = False
        for mv in f.line[:-1]:
            q.push_str(mv)
            if q.key() in later:
                hit = True
                break
        if not hit:
            return False
    return True


class FlawedSearch:
    def __init__(self, args: argparse.Namespace, out: Path) -> None:
        self.args = args
        self.out = out
        self.found: dict[str, list[Problem]] = defaultdict(list)
        self.seen: set[str] = set()
        self.parents: dict[str, list[tuple[int, Candidate]]] = defaultdict(list)  # rare kind -> (kinds, cand)
        self.started = time.perf_counter()
        self.cands = 0
        self.relaxed = False
        self.weak_detours: list[tuple[Candidate, Report]] = []
        self.nodes = self.solves = self.verifies = 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    # --- the two searches, counted ---

    def solve(self, c: Candidate):
        self.solves += 1
        try:
            r = solve(Tsume(c.fen(), variant=c.variant, defender=c.defender), variations=False,
                      limits=Limits(nodes=self.args.solve_nodes))
        except TsumeError:
            return None
        self.nodes += r.stats.get("nodes", 0)
        return r

    def verify(self, record: Problem, nodes: int) -> Report | None:
        """verify() of the record's problem within ``nodes``, or None (printed) if it raises."""
        self.verifies += 1
        try:
            r = verify(record.problem(), limits=Limits(nodes=nodes))
        except TsumeError:
            return None
        except Exception as exc:  # noqa: BLE001 - report, never hide
            print(f"  !! verify raised {type(exc).__name__}: {exc} on {record}", flush=True)
            return None
        self.nodes += r.stats.get("nodes", 0)
        return r

    def verify_full(self, c: Candidate) -> Report | None:
        return self.verify(Problem(id="candidate", position=c.fen(), variant=c.variant, defender=c.defender),
                           self.args.verify_nodes)

    # --- the collection ---

    def want(self, kind: str, variant: str) -> bool:
        """Room for ``kind`` in ``variant``: half the slots per variant at first, then any."""
        have = self.found[kind]
        if len(have) >= self.args.per_kind:
            return False
        mine = sum(1 for p in have if p.variant == variant)
        return self.relaxed or mine < (self.args.per_kind + 1) // 2

    def summary(self) -> str:
        return " ".join(f"{k}:{len(self.found[k])}" for k in ALL_KINDS)

    def store(self, kind: str, c: Candidate, notes: str, length=None, solution=None) -> bool:
        variant = c.variant
        if not self.want(kind, variant):
            return False
        n = sum(1 for p in self.found[kind] if p.variant == variant) + 1
        p = Problem(
            id=f"{ABBREV[variant]}-{kind}-{n}",
            position=c.fen(), variant=variant, defender=c.defender,
            length=length, solution=solution,
            title=f"Flawed: {kind}", author=AUTHOR,
            tags=["flawed", f"expect-{kind}"], notes=notes,
        )
        # Verify as stored: exactly this one kind.
        check = self.verify(p, self.args.check_nodes)
        if check is None or check.kinds != {kind}:
            print(f"  ?? {kind} candidate rejected as stored: {sorted(check.kinds) if check else 'error'} "
                  f"{c.fen()}", flush=True)
            return False
        self.found[kind].append(p)
        print(f"  + flawed {kind} ({variant}): {c.fen()}{' (defender none)' if c.defender else ''}  "
              f"[{self.summary()}]", flush=True)
        self.save()
        return True

    def describe(self, kind: str, rep: Report) -> str:
        f = next((f for f in rep.findings if f.kind == kind), None)
        msg = f.message if f else ""
        return {
            "no-mate": "No forced mate: the defender escapes.",
            "yozume": f"Yozume (a second solution): {msg}.",
            "final-move-alternative": f"Final-move alternative: {msg} (a blemish).",
            "detour": f"Detour: {msg} (a blemish).",
            "te-amari": f"Te-amari: {msg}.",
            "same-length-variation": f"Henka-do: {msg} (a blemish).",
            "unused-material": f"Unused material: {msg} (information only; the problem is otherwise sound).",
        }[kind]

    def save(self) -> None:
        header = ("Deliberately flawed problems, made by benchmarks/make_flawed.py "
                  f"(--seed {self.args.seed}).\n"
                  "Each shows exactly one finding kind under tsume.verify.verify() with default switches:\n"
                  "the tag expect-<kind> names it, the notes say what the flaw is.\n"
                  f"Per kind: {self.summary()}")
        save(self.out, [p for k in ALL_KINDS for p in sorted(self.found[k], key=lambda p: p.id)], header=header)

    # --- one candidate ---

    def consider(self, c: Candidate, depth: int = 0) -> None:
        pos = c.position()
        if pos is None or (key := canonical_key(pos)) in self.seen:
            return
        self.seen.add(key)
        self.cands += 1
        r = self.solve(c)
        if r is None or r.status == "unknown":
            return
        if r.status == "nomate":
            if self.want("no-mate", c.variant):
                rep = self.verify_full(c)
                if rep is not None and rep.kinds == {"no-mate"}:
                    self.store("no-mate", c, self.describe("no-mate", rep))
            return
        if r.length > self.args.max_length:
            return
        rep = self.verify_full(c)
        if rep is None or "unknown" in rep.kinds or "no-mate" in rep.kinds:
            return
        kinds = rep.kinds
        if len(kinds) == 1:
            (kind,) = kinds
            if kind == "detour" and not clear_detour(c, rep):
                if len(self.weak_detours) < 10:
                    self.weak_detours.append((c, rep))
                return
            if kind in NATURAL_KINDS:
                self.store(kind, c, self.describe(kind, rep))
            return
        if not kinds or depth >= 3:
            return
        # Shed te-amari / unused material when the kind we want is among the rest.
        rest = kinds - {"te-amari", "unused-material"}
        if any(self.want(k, c.variant) for k in rest | ({"te-amari"} & kinds)):
            if "te-amari" in kinds and rep.leftover and rep.leftover != "-" and rest:
                # None when the leftover was captured on the way, not held from the start.
                if (d := repair(c, rep.leftover)) is not None:
                    self.consider(d, depth + 1)
            squares = unused_squares(rep) if "unused-material" in kinds else []
            for sq in squares:
                self.consider(without_squares(c, [sq]), depth + 1)
            if len(squares) > 1:
                self.consider(without_squares(c, squares), depth + 1)
        for k in RARE:
            if k in kinds and self.want(k, c.variant) and len(self.parents[k]) < 200:
                self.parents[k].append((len(kinds), c))

    # --- the phases ---

    def derived(self, seeds: dict[str, list[Problem]]) -> None:
        """stated-length-mismatch, solution-mismatch and longer-variation from sound seed
        problems (one with unused material is rejected by the check as stored)."""
        for variant, problems in seeds.items():
            rng = random.Random(self.args.seed * 1000 + 77 + len(variant))
            # stated-length-mismatch: a wrong length, no solution
            for p in problems:
                if not self.want("stated-length-mismatch", variant) or not p.length or p.length < 3:
                    continue
                wrong = p.length + 2
                self.store("stated-length-mismatch", candidate_of(p),
                           f"Sound mate in {p.length} (as {p.id}), stated as {wrong} plies.", length=wrong)
            # solution-mismatch: right length, first attacker move replaced by another check
            for p in problems:
                if not self.want("solution-mismatch", variant) or not p.solution or not p.length or p.length < 3:
                    continue
                pos = Tsume(p.position, variant=p.variant, defender=p.defender).position()
                first = str(next(m for m in pos.checks() if str(m) == p.solution[0]))
                others = sorted(str(m) for m in pos.checks() if str(m) != first)
                if not others:
                    continue
                alt = rng.choice(others)
                self.store("solution-mismatch", candidate_of(p),
                           f"Sound mate in {p.length} (as {p.id}); the stated solution opens with {alt} "
                           f"instead of {first}, which does not mate in {p.length}.",
                           length=p.length, solution=[alt] + p.solution[1:])
            # longer-variation: the stated defender picks a shorter defence
            for p in problems:
                if not self.want("longer-variation", variant) or not p.length or p.length < 5:
                    continue
                rep = self.verify(p, self.args.check_nodes)
                if rep is None or rep.verdict != "sound":
                    continue
                shorter = [v for v in rep.variations
                           if v.status == "mate" and not v.useless and v.length is not None and v.length < rep.length]
                if not shorter:
                    continue
                v = shorter[0]
                self.store("longer-variation", candidate_of(p),
                           f"Sound mate in {p.length} (as {p.id}); the stated solution has the defender play "
                           f"{v.readable} at ply {v.ply}, which is mated in {v.length}, but the main line "
                           f"lasts {rep.length}.",
                           solution=list(rep.mainline[:v.ply - 1]) + list(v.line))

    def mutate_rare(self, rng: random.Random, budget: int) -> None:
        """Mutations of candidates showing a rare kind among others, to shed the others."""
        for i in range(budget):
            if self.elapsed() > self.args.minutes * 60:
                return
            kinds = [k for k in RARE if self.parents[k] and any(self.want(k, v) for v in ABBREV)]
            if not kinds:
                return
            pool = self.parents[kinds[i % len(kinds)]]
            _, c = rng.choices(pool, weights=[1.0 / n for n, _ in pool])[0]
            for _ in range(rng.choice([1, 1, 2])):
                c = mutate(c, rng)
            self.consider(c)
            if i % 100 == 99:
                print(f"[flawed rare mutations {i + 1}, {self.elapsed():.0f} s] {self.summary()}", flush=True)

    def run(self, seeds: dict[str, list[Problem]], variants: list[str]) -> None:
        print(f"== flawed: {self.args.minutes} min, out {self.out}", flush=True)
        if self.args.resume and self.out.exists():
            # Keep the stored problems; search only for the kinds still short of --per-kind.
            for p in load(self.out):
                kind = next((t[len("expect-"):] for t in p.tags if t.startswith("expect-")), None)
                if kind:
                    self.found[kind].append(p)
            print(f"== flawed: resumed: {self.summary()}", flush=True)
        self.derived(seeds)
        print(f"== flawed: derived done, {self.elapsed():.0f} s: {self.summary()}", flush=True)
        parents = {v: [p for p in seeds.get(v, []) if (p.length or 0) <= self.args.max_length - 2]
                   for v in variants}
        resumed = 7 + 100 * sum(len(ps) for ps in self.found.values()) if self.args.resume else 0
        for v in variants:
            rng = random.Random(self.args.seed * 1000 + 500 + (1 if v == "ito" else 2) + resumed)
            randoms = random_candidates(rng, v)  # the composer's default material profiles
            share = 0.35 if v == variants[0] and len(variants) > 1 else 0.7
            for i in range(self.args.cands):
                if self.elapsed() > self.args.minutes * 60 * share:
                    break
                if all(not self.want(k, v) for k in NATURAL_KINDS):
                    break
                if parents[v] and i % 3 != 0:
                    # A sound seed problem, mutated once or twice: often one flaw and no other.
                    c = candidate_of(rng.choice(parents[v]))
                    for _ in range(rng.choice([1, 1, 2])):
                        c = mutate(c, rng)
                else:
                    # A random position, mostly with a one-piece hand, so that some mates end clean.
                    c = next(randoms)
                    if rng.random() < 0.6 and c.hand:
                        kept = c.pos.t.kind_letters.index(rng.choice(sorted(c.hand)))
                        c = c.changed(hand=[int(ki == kept) for ki in range(c.pos.t.nkinds)])
                self.consider(c)
                if i % 50 == 49:
                    print(f"[flawed {v} {i + 1}, {self.cands} cands, {self.elapsed():.0f} s] "
                          f"{self.summary()}", flush=True)
        self.relaxed = True  # now either variant may fill a kind's remaining slots
        self.derived(seeds)
        self.mutate_rare(random.Random(self.args.seed * 1000 + 999 + 100 * sum(len(ps) for ps in self.found.values())),
                         self.args.cands)
        for c, rep in self.weak_detours:  # no longer detour found: take a same-length one
            if self.want("detour", c.variant):
                self.store("detour", c, self.describe("detour", rep)
                           + " Note: the alternative is no longer than the main line; it rejoins it before the mate.")
        self.save()
        print(f"== flawed: {self.elapsed():.0f} s, {self.cands} cands, {self.solves} solves, "
              f"{self.verifies} verifies, {self.nodes:,} nodes: {self.summary()}", flush=True)
        missing = [k for k in ALL_KINDS if len(self.found[k]) < 2]
        if missing:
            print(f"== flawed: fewer than 2 problems for: {', '.join(missing)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["ito", "rutherford", "both"], default="both")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a small smoke run (mind --out)")
    ap.add_argument("--minutes", type=float, default=15.0, help="wall-clock safety limit of the whole search")
    ap.add_argument("--cands", type=int, default=3000, help="random and mutated candidates per variant")
    ap.add_argument("--solve-nodes", type=int, default=40_000, help="node limit of the solve() filter")
    ap.add_argument("--verify-nodes", type=int, default=40_000, help="node limit of a candidate's full verify()")
    ap.add_argument("--max-length", type=int, default=11, help="longest mate verified in full")
    ap.add_argument("--check-nodes", type=int, default=2_000_000, help="node limit of the check as stored")
    ap.add_argument("--per-kind", type=int, default=2, help="problems per kind")
    ap.add_argument("--resume", action="store_true",
                    help="keep the stored problems and search for the kinds still missing")
    ap.add_argument("--seeds-dir", type=Path, default=ROOT / "problems",
                    help="where the sound seed collections seed-<variant>.tsume are read (made by tsume compose)")
    ap.add_argument("--out", type=Path, default=ROOT / "problems" / "flawed.tsume")
    args = ap.parse_args(argv)
    if args.quick:
        args.minutes = min(args.minutes, 2.0)
        args.cands = min(args.cands, 200)
    variants = ["ito", "rutherford"] if args.variant == "both" else [args.variant]
    seeds: dict[str, list[Problem]] = {}
    for v in variants:
        path = args.seeds_dir / f"seed-{v}.tsume"
        try:
            seeds[v] = load(path)
        except TsumeError as exc:  # missing, or a composer run that has stored nothing yet
            print(f"== no seed problems for {v}: {exc}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    FlawedSearch(args, args.out).run(seeds, variants)
    return 0


if __name__ == "__main__":
    sys.exit(main())
