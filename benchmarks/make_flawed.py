"""Build the verified problem collections by search: problems/seed-ito.tsume,
problems/seed-rutherford.tsume (problems ``verify()`` proves sound) and
problems/flawed.tsume (problems that each show exactly one finding kind).

Run:  .venv/bin/python benchmarks/make_collections.py [--seed S] [--minutes M]
          [--only seeds|flawed] [--variant ito|rutherford|both] [--quick]

What it does
------------

*Seed collections*, per variant (``--minutes`` of search each):

1. Start: the cheap benchmark problems (problems/bench-*.tsume, longest first,
   for --bench-share of the time) and random positions
   (the profiles of ``benchmarks/make_suite.py``) are candidates.
2. Every candidate goes through a cheap filter first: ``solve(variations=False)``
   under a node limit must find a mate.  A mate that ends with pieces in hand
   (te-amari) is *repaired*: the pieces left are taken out of the attacker's
   hand and the result is tried again.  A clean mate (nothing left) is then
   verified with ``verify(fail_fast=True, node_limit=...)``; a ``sound``
   verdict accepts it.  An accepted problem with unused attacker material is
   *cleaned*: each unused piece is removed in turn and kept out when the
   problem stays sound at the same length.
3. Mutation hill-climbing: a parent is drawn from the sound problems (and,
   less often, from the clean but unsound mates), weighted toward the
   longest; one to three mutations of ``make_suite.mutate`` (move a piece or a
   king, add a piece to the attacker's hand, lift a piece into the hand, add or
   remove a piece, flip, switch the defender's hand, resize a Rutherford board)
   make the child, which goes through step 2.  Half the children (``--retro-share``)
   are instead *retro* children of a sound problem: the position two plies
   earlier, where the attacker drops a piece next to the king and the king takes
   it, or moves a piece to its square with check while the king steps to its
   square -- the classic ways to lengthen a tsume by two plies.  Sound problems fill length
   buckets (``--per-bucket`` each, the longest bucket sizes open-ended up to
   ``--per-long-bucket``).

Each stored seed problem carries id (``ito-s07-003``), variant, position,
``defender: none`` only when the default "rest" would not do, ``length`` (the
proven length), ``solution`` (verify()'s main line), a title, author
``tsume composer (seeded search)``, tags ``seed, lenNN`` and notes.

*Flawed collection*: random positions and mutations of the sound seed problems
are solved and verified in full (no ``fail_fast``); a problem whose set of finding kinds is
exactly one kind (with default switches) fills that kind's slots, one per
variant and kind first (``--per-kind`` in all).  A candidate showing its kind
together with ``te-amari`` or ``unused-material`` is repaired (leftover pieces
out of the hand, unused pieces off the board) and tried again; a candidate
showing a rare kind (detour, final-move alternative, same-length variation)
among others becomes a parent for mutations that try to shed the others.  The
kinds that need a stated field are made from sound seed problems:
``stated-length-mismatch`` (a wrong ``length:``), ``solution-mismatch`` (an
intended solution whose first attacker move is another check, with the right
length) and ``longer-variation`` (an intended solution whose defender picks a
shorter defence, no ``length:``).  Each is tagged ``flawed, expect-<kind>``
and its notes say what the flaw is.  Every stored problem is verified again
as stored (default switches, its own fields) before it is written.

``--resume`` goes on from the stored seed collections (verified again; their
problems are the first parents) with the mutation phase only, and from the
stored flawed.tsume, searching only for the kinds still missing.  ``--recheck``
searches nothing: it verifies the stored seed problems again, cleans them and
renumbers them.

Reproducibility: every choice is drawn from ``random.Random`` seeded by
``--seed`` (and the variant / phase), and every solve and verify is bounded by
node limits, and the phases by candidate counts, so a run repeats exactly --
unless the wall-clock limits (``--minutes`` per phase, the benchmark problems'
``--bench-share`` of it, a SIGALRM guard per call) cut it short on a slow or
busy machine.  The collections are saved
atomically with ``tsume.collection.save`` after every accepted problem.
Progress goes to stdout.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_suite import Cand, HardTimeout, mutate, random_candidate  # noqa: E402

from tsume.collection import Problem, load, save  # noqa: E402
from tsume.conventions import tsume_position  # noqa: E402
from tsume.errors import TsumeError  # noqa: E402
from tsume.position import Position  # noqa: E402
from tsume.solve import solve  # noqa: E402
from tsume.verify import verify  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
AUTHOR = "tsume composer (seeded search)"
ABBREV = {"ito": "ito", "rutherford": "ruth"}
NATURAL_KINDS = ("no-mate", "yozume", "final-move-alternative", "detour", "te-amari",
                 "same-length-variation", "unused-material")
DERIVED_KINDS = ("longer-variation", "stated-length-mismatch", "solution-mismatch")
ALL_KINDS = NATURAL_KINDS[:5] + ("same-length-variation", "longer-variation", "unused-material",
                                 "stated-length-mismatch", "solution-mismatch")
RARE = ("detour", "final-move-alternative", "same-length-variation")


# --- guarded calls ------------------------------------------------------------------------


def _alarm(signum, frame):  # noqa: ARG001
    raise HardTimeout()


def guarded(fn, seconds: float, **kw):
    """fn(**kw) under a SIGALRM wall-clock guard (a safety net: the node limits decide)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn(**kw)
    except HardTimeout:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def hand_letters(text: str) -> dict[str, int]:
    """'2PT' -> {'P': 2, 'T': 1} (uppercase letters: the attacker's pieces)."""
    out: dict[str, int] = {}
    num = ""
    for ch in text:
        if ch.isdigit():
            num += ch
        elif ch.isalpha():
            out[ch.upper()] = out.get(ch.upper(), 0) + (int(num) if num else 1)
            num = ""
    return out


def without_hand(c: Cand, left: str) -> Cand:
    """The candidate with the pieces ``left`` taken out of the attacker's hand."""
    d = c.copy()
    for k, n in hand_letters(left).items():
        d.hand[k] = d.hand.get(k, 0) - n
        if d.hand[k] <= 0:
            d.hand.pop(k, None)
    return d


def without_square(c: Cand, sq: int) -> Cand:
    d = c.copy()
    d.board[sq] = ""
    return d


def unused_squares(report) -> list[int]:
    out = []
    for f in report.findings:
        if f.kind == "unused-material" and f.pieces:
            for tok in f.pieces.split():
                digits = "".join(ch for ch in tok if ch.isdigit())
                if digits:
                    out.append(int(digits))
    return out


def _same(pos: Position, target: Position) -> bool:
    return pos.board == target.board and pos.hands == target.hands and pos.turn == target.turn


def retro_children(c: Cand) -> list[Cand]:
    """Positions two plies before ``c``: an attacker check and a defender king move that
    lead to ``c`` exactly (same board and hands).  Two kinds, the classic ways to lengthen
    a tsume: a piece dropped next to the king and taken by it (a sacrifice: the attacker
    holds one more piece), and a piece moved to its square with check while the king steps
    to its square.  Only positions that reach ``c`` by those two moves are returned."""
    target = c.position()
    if target is None:
        return []
    try:
        goal = tsume_position(c.fen(), c.variant, defender_hand=c.defender)
    except TsumeError:
        return []
    n = c.n
    k = next((sq for sq in range(1, n + 1) if c.board[sq] == "k"), 0)
    if not k:
        return []
    tries: list[tuple[Cand, str, str]] = []
    for kp in range(max(1, k - 3), min(n, k + 3) + 1):
        if kp == k or c.board[kp]:
            continue
        # a sacrifice: P*k, king kp x k
        for letter in sorted(set(c.pool())):
            y = c.copy()
            y.board[k], y.board[kp] = "", "k"
            y.hand[letter] = y.hand.get(letter, 0) + 1
            tries.append((y, f"{letter}*{k}", f"{kp}-{k}"))
        # a board move f -> t with check while the king steps kp -> k
        for t in range(1, n + 1):
            tok = c.board[t]
            if not tok or not tok.lstrip("+").isupper() or tok == "K" or abs(t - kp) > 6:
                continue
            for f in range(max(1, t - 6), min(n, t + 6) + 1):
                if f in (t, k, kp) or c.board[f]:
                    continue
                y = c.copy()
                y.board[k], y.board[kp] = "", "k"
                y.board[f], y.board[t] = tok, ""
                tries.append((y, f"{f}-{t}", f"{kp}-{k}"))
    out = []
    for y, a, d in tries:
        if y.position() is None:
            continue
        try:
            pos = tsume_position(y.fen(), y.variant, defender_hand=y.defender)
            m = pos.parse_move(a)
            if m not in pos.checks():
                continue
            pos.push(m)
            m2 = pos.parse_move(d)
            if m2 not in pos.evasions():
                continue
            pos.push(m2)
        except TsumeError:
            continue
        if _same(pos, goal):
            out.append(y)
    return out


def clear_detour(c: Cand, rep) -> bool:
    """Is every detour of ``rep`` a real detour: longer than the main line from its turn,
    and rejoining the main line before the final (mate) position?  (verify() also calls
    an alternative of the same length that meets the main line only at the mate a detour.)"""
    for f in rep.findings:
        if f.kind != "detour":
            continue
        if f.length is None or f.length <= rep.length - (f.ply - 1):
            return False
        pos = tsume_position(c.fen(), c.variant, defender_hand=c.defender)
        keys = []
        for mv in rep.mainline:
            pos.push_str(mv)
            keys.append(pos.key())
        later = set(keys[f.ply - 1:-1])  # after the alternative's turn, the mate excluded
        q = tsume_position(c.fen(), c.variant, defender_hand=c.defender)
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


# --- the engine of both searches -------------------------------------------------------------


class Searcher:
    """Solve and verify candidates under node limits, counting the work."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.nodes = 0
        self.solves = 0
        self.verifies = 0

    def solve(self, c: Cand, node_limit: int):
        if c.position() is None:
            return None
        self.solves += 1
        r = guarded(solve, self.args.call_seconds, position=c.fen(), variant=c.variant,
                    defender_hand=c.defender, variations=False, node_limit=node_limit)
        if r is not None:
            self.nodes += r.stats.get("nodes", 0)
        return r

    def verify(self, c: Cand, node_limit: int, fail_fast: bool, **kw):
        self.verifies += 1
        try:
            r = guarded(verify, self.args.call_seconds, problem=c.fen(), variant=c.variant,
                        defender_hand=c.defender, node_limit=node_limit, fail_fast=fail_fast, **kw)
        except TsumeError:
            return None
        except Exception as exc:  # noqa: BLE001 - report, never hide
            print(f"  !! verify raised {type(exc).__name__}: {exc} on {c.fen()} defender={c.defender}", flush=True)
            return None
        if r is not None:
            self.nodes += r.stats.get("nodes", 0)
        return r


# --- seed collections --------------------------------------------------------------------------


class SeedSearch:
    def __init__(self, variant: str, args: argparse.Namespace, out: Path, eng: Searcher) -> None:
        self.variant = variant
        self.args = args
        self.out = out
        self.eng = eng
        self.buckets: dict[int, list[tuple[Cand, object]]] = defaultdict(list)
        self.lines: set[tuple[str, ...]] = set()
        self.seen: set[tuple[str, str]] = set()
        self.sound_pool: list[tuple[int, Cand]] = []
        self.clean_pool: list[tuple[int, Cand]] = []
        self.retro: dict[tuple[str, str], list[Cand]] = {}
        self.started = time.perf_counter()
        self.cands = 0

    # accounting
    def total(self) -> int:
        return sum(len(b) for b in self.buckets.values())

    def longest(self) -> int:
        return max((L for L, b in self.buckets.items() if b), default=0)

    def summary(self) -> str:
        return " ".join(f"{L}:{len(self.buckets[L])}" for L in sorted(self.buckets) if self.buckets[L])

    def room(self, L: int) -> bool:
        cap = self.args.per_long_bucket if L >= self.args.long_from else self.args.per_bucket
        return len(self.buckets[L]) < cap

    def out_of_time(self) -> bool:
        return time.perf_counter() - self.started > self.args.minutes * 60

    # one candidate
    def consider(self, c: Cand, depth: int = 0) -> int | None:
        """Filter, repair, verify, clean and store ``c``; the length if it was stored sound."""
        key = c.key()
        if key in self.seen:
            return None
        self.seen.add(key)
        self.cands += 1
        r = self.eng.solve(c, self.args.solve_nodes)
        if r is None or r.status != "mate":
            return None
        if r.leftover != "-":
            return self.consider(without_hand(c, r.leftover), depth + 1) if depth < 2 else None
        L = r.length
        if len(self.clean_pool) < 400:
            self.clean_pool.append((L, c))
        else:  # a full pool keeps the longer mates
            j = min(range(len(self.clean_pool)), key=lambda k: self.clean_pool[k][0])
            if self.clean_pool[j][0] < L:
                self.clean_pool[j] = (L, c)
        if not self.room(L) and L < self.longest() - 2:
            return None
        rep = self.eng.verify(c, self.args.verify_nodes, True)
        if rep is None or rep.verdict != "sound":
            return None
        return self.accept(c, rep, self.args.verify_nodes)

    def accept(self, c: Cand, rep, nodes: int) -> int | None:
        """Clean a sound problem and store it if its bucket has room; its length if stored."""
        # Clean: take away unused attacker pieces while the problem stays sound at this length.
        for sq in unused_squares(rep):
            d = without_square(c, sq)
            if d.position() is None:
                continue
            rep2 = self.eng.verify(d, nodes, True)
            if rep2 is not None and rep2.verdict == "sound" and rep2.length == rep.length:
                c, rep = d, rep2
        # Prefer the default defender hand ("rest") when the problem stays sound with it.
        if c.defender == "none":
            d = c.copy()
            d.defender = None
            if d.position() is not None:
                rep2 = self.eng.verify(d, nodes, True)
                if rep2 is not None and rep2.verdict == "sound" and rep2.length == rep.length:
                    c, rep = d, rep2
        self.seen.add(c.key())
        self.sound_pool.append((rep.length, c))
        line = tuple(rep.mainline)
        if line in self.lines or not self.room(rep.length):
            return None
        self.lines.add(line)
        self.buckets[rep.length].append((c, rep))
        print(f"  + {self.variant} sound {rep.length:>2} plies: {c.fen()}"
              f"{' (defender none)' if c.defender else ''}  [{self.summary()}]", flush=True)
        self.save()
        return rep.length

    def retro_child(self, rng: random.Random) -> Cand | None:
        """An untried two-plies-earlier position of a sound problem (the longer, the likelier)."""
        for _ in range(5):
            weights = [(L + 2) ** 3 for L, _ in self.sound_pool]
            _, parent = rng.choices(self.sound_pool, weights=weights)[0]
            key = parent.key()
            if key not in self.retro:
                self.retro[key] = [y for y in retro_children(parent) if y.key() not in self.seen]
                rng.shuffle(self.retro[key])
            while self.retro[key]:
                y = self.retro[key].pop()
                if y.key() not in self.seen:
                    return y
        return None

    def pick_parent(self, rng: random.Random) -> Cand:
        use_clean = self.clean_pool and (not self.sound_pool or rng.random() < self.args.clean_share)
        pool = self.clean_pool if use_clean else self.sound_pool
        weights = [(L + 2) ** 2 for L, _ in pool]
        return rng.choices(pool, weights=weights)[0][1]

    def problems(self) -> list[Problem]:
        out = []
        ab = ABBREV[self.variant]
        # Problems without unused material first in each bucket; at most --max-problems in all:
        # the fullest bucket (the shorter of equals) gives up its last problem, never its only one.
        chosen = {L: sorted(b, key=lambda cr: bool(unused_squares(cr[1]))) for L, b in self.buckets.items() if b}
        while sum(len(b) for b in chosen.values()) > self.args.max_problems:
            L = max(chosen, key=lambda L: (len(chosen[L]), -L))
            if len(chosen[L]) <= 1:
                break
            chosen[L].pop()
        for L in sorted(chosen):
            items = chosen[L]
            for n, (c, rep) in enumerate(items, 1):
                first = rep.readable[0] if rep.readable else ""
                out.append(Problem(
                    id=f"{ab}-s{L:02d}-{n:03d}",
                    position=c.fen(),
                    variant=self.variant,
                    defender=c.defender,
                    length=rep.length,
                    solution=list(rep.mainline),
                    title=f"Mate in {L}, opening {first}",
                    author=AUTHOR,
                    tags=["seed", f"len{L:02d}"],
                    notes=f"verify(): sound, {rep.stats.get('nodes', 0)} nodes"
                          + (f"; unused: {' '.join(f.pieces for f in rep.findings if f.kind == 'unused-material')}"
                             if unused_squares(rep) else ""),
                ))
        return out

    def save(self) -> None:
        header = (f"Seed problems for {self.variant}, made by benchmarks/make_collections.py "
                  f"(--seed {self.args.seed}).\n"
                  "Each is proven sound by tsume.verify.verify() with default switches: a unique attacker\n"
                  "move at every attacker turn, no longer or same-length variation, nothing left in hand.\n"
                  "length is the proven length, solution verify()'s main line.\n"
                  f"Per length: {self.summary()}")
        save(self.out, self.problems(), header=header)

    def recheck(self) -> None:
        """No search: verify the stored problems again, clean them (default defender hand,
        unused pieces off) and store the sound ones with fresh ids, lengths and lines."""
        kept = 0
        for p in load(self.out):
            c = Cand.from_position(Position(p.position, p.variant), p.defender)
            self.seen.add(c.key())
            rep = self.eng.verify(c, self.args.recheck_nodes, True)
            if rep is None or rep.verdict != "sound":
                print(f"  - {p.id} dropped: {rep.verdict if rep else 'timeout'} {sorted(rep.kinds) if rep else ''}",
                      flush=True)
                continue
            if self.accept(c, rep, self.args.recheck_nodes) is not None:
                kept += 1
        self.save()
        print(f"== recheck {self.variant}: {kept} kept: {self.summary()}", flush=True)

    def run(self) -> None:
        rng = random.Random(self.args.seed * 1000 + (1 if self.variant == "ito" else 2))
        print(f"== seeds {self.variant}: {self.args.minutes} min, out {self.out}", flush=True)
        if self.args.resume and self.out.exists():
            # Go on from the stored collection: its problems (verified again) are the parents.
            rng = random.Random(self.args.seed * 1000 + 7 + (1 if self.variant == "ito" else 2))
            self.recheck()
        # 1. the benchmark suite and random positions
        bench = ROOT / "problems" / f"bench-{self.variant}.tsume"
        if bench.exists() and not self.args.quick and not self.args.resume:
            # The cheap ones (generated within --bench-nodes), longest first, for a share of the time.
            cheap = []
            for p in load(bench):
                m = re.search(r"generated: (\d+) nodes", p.notes or "")
                if m and int(m.group(1)) <= self.args.bench_nodes:
                    cheap.append(p)
            cheap.sort(key=lambda p: -(p.length or 0))
            for p in cheap:
                if self.elapsed() > self.args.minutes * 60 * self.args.bench_share:
                    break
                c = Cand.from_position(Position(p.position, p.variant), p.defender)
                self.consider(c)
            print(f"== seeds {self.variant}: bench done, {self.cands} cands, {self.elapsed():.0f} s: "
                  f"{self.summary()}", flush=True)
        for i in range(0 if self.args.resume else self.args.random_cands):
            if self.out_of_time():
                break
            self.consider(random_candidate(rng, self.variant, i))
        print(f"== seeds {self.variant}: random done, {self.cands} cands, {self.elapsed():.0f} s: "
              f"{self.summary()}", flush=True)
        # 2. hill-climbing
        i = 0
        while i < self.args.mutation_cands and not self.out_of_time():
            i += 1
            if not self.clean_pool and not self.sound_pool:
                c = random_candidate(rng, self.variant, i)
            elif self.sound_pool and rng.random() < self.args.retro_share and (c := self.retro_child(rng)):
                pass
            else:
                c = self.pick_parent(rng)
                for _ in range(rng.choice([1, 1, 2, 2, 3])):
                    c = mutate(c, rng)
            self.consider(c)
            if i % 100 == 0:
                print(f"[{self.variant} mutation {i}, {self.cands} cands, {self.eng.nodes / 1e6:.1f}M nodes, "
                      f"{self.elapsed():.0f} s, longest {self.longest()}] {self.summary()}", flush=True)
        self.save()
        print(f"== seeds {self.variant}: {self.total()} sound problems, longest {self.longest()}, "
              f"{self.elapsed():.0f} s: {self.summary()}", flush=True)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


# --- flawed collection ---------------------------------------------------------------------------


class FlawedSearch:
    def __init__(self, args: argparse.Namespace, out: Path, eng: Searcher) -> None:
        self.args = args
        self.out = out
        self.eng = eng
        self.found: dict[str, list[Problem]] = defaultdict(list)
        self.seen: set[tuple[str, str]] = set()
        self.parents: dict[str, list[tuple[int, Cand]]] = defaultdict(list)  # rare kind -> (extra kinds, cand)
        self.started = time.perf_counter()
        self.cands = 0
        self.relaxed = False
        self.weak_detours: list[tuple[Cand, object]] = []

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def want(self, kind: str, variant: str) -> bool:
        """Room for ``kind`` in ``variant``: half the slots per variant at first, then any."""
        have = self.found[kind]
        if len(have) >= self.args.per_kind:
            return False
        mine = sum(1 for p in have if p.variant == variant)
        return self.relaxed or mine < (self.args.per_kind + 1) // 2

    def summary(self) -> str:
        return " ".join(f"{k}:{len(self.found[k])}" for k in ALL_KINDS)

    def store(self, kind: str, c: Cand, rep, notes: str, length=None, solution=None) -> bool:
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
        check = guarded(verify, self.args.call_seconds, problem=p, node_limit=self.args.flawed_check_nodes)
        if check is None or check.kinds != {kind}:
            print(f"  ?? {kind} candidate rejected as stored: {sorted(check.kinds) if check else 'timeout'} "
                  f"{c.fen()}", flush=True)
            return False
        self.found[kind].append(p)
        print(f"  + flawed {kind} ({variant}): {c.fen()}{' (defender none)' if c.defender else ''}  "
              f"[{self.summary()}]", flush=True)
        self.save()
        return True

    def describe(self, kind: str, rep) -> str:
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

    def consider(self, c: Cand, depth: int = 0) -> None:
        if c.key() in self.seen or c.position() is None:
            return
        self.seen.add(c.key())
        self.cands += 1
        r = self.eng.solve(c, self.args.solve_nodes)
        if r is None or r.status == "unknown":
            return
        if r.status == "nomate":
            if self.want("no-mate", c.variant):
                rep = self.eng.verify(c, self.args.flawed_verify_nodes, False)
                if rep is not None and rep.kinds == {"no-mate"}:
                    self.store("no-mate", c, rep, self.describe("no-mate", rep))
            return
        if r.length > self.args.flawed_max_length:
            return
        rep = self.eng.verify(c, self.args.flawed_verify_nodes, False)
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
                self.store(kind, c, rep, self.describe(kind, rep))
            return
        if not kinds or depth >= 3:
            return
        # Shed te-amari / unused material when the kind we want is among the rest.
        rest = kinds - {"te-amari", "unused-material"}
        if any(self.want(k, c.variant) for k in rest | ({"te-amari"} & kinds)):
            if "te-amari" in kinds and rep.leftover and rep.leftover != "-" and rest:
                self.consider(without_hand(c, rep.leftover), depth + 1)
            if "unused-material" in kinds:
                for sq in unused_squares(rep):
                    self.consider(without_square(c, sq), depth + 1)
                squares = unused_squares(rep)
                if len(squares) > 1:
                    d = c
                    for sq in squares:
                        d = without_square(d, sq)
                    self.consider(d, depth + 1)
        for k in RARE:
            if k in kinds and self.want(k, c.variant) and len(self.parents[k]) < 200:
                self.parents[k].append((len(kinds), c))

    def derived(self, seeds: dict[str, list[Problem]]) -> None:
        """stated-length-mismatch, solution-mismatch and longer-variation from sound seed problems
        (those without unused material, so that the stated flaw is the only finding)."""
        for variant, problems in seeds.items():
            problems = [p for p in problems if "unused:" not in (p.notes or "")]
            rng = random.Random(self.args.seed * 1000 + 77 + len(variant))
            # stated-length-mismatch: a wrong length, no solution
            for p in problems:
                if not self.want("stated-length-mismatch", variant) or not p.length or p.length < 3:
                    continue
                c = Cand.from_position(Position(p.position, p.variant), p.defender)
                wrong = p.length + 2
                self.store("stated-length-mismatch", c, None,
                           f"Sound mate in {p.length} (as {p.id}), stated as {wrong} plies.",
                           length=wrong)
            # solution-mismatch: right length, first attacker move replaced by another check
            for p in problems:
                if not self.want("solution-mismatch", variant) or not p.solution or p.length < 3:
                    continue
                pos = tsume_position(p.position, p.variant, defender_hand=p.defender)
                first = pos.move_str(next(m for m in pos.checks() if pos.move_str(m) == p.solution[0]))
                others = sorted(pos.move_str(m) for m in pos.checks() if pos.move_str(m) != first)
                if not others:
                    continue
                alt = rng.choice(others)
                c = Cand.from_position(Position(p.position, p.variant), p.defender)
                self.store("solution-mismatch", c, None,
                           f"Sound mate in {p.length} (as {p.id}); the stated solution opens with {alt} "
                           f"instead of {first}, which does not mate in {p.length}.",
                           length=p.length, solution=[alt] + p.solution[1:])
            # longer-variation: the stated defender picks a shorter defence
            for p in problems:
                if not self.want("longer-variation", variant) or not p.length or p.length < 5:
                    continue
                rep = guarded(verify, self.args.call_seconds, problem=p, node_limit=self.args.flawed_check_nodes)
                if rep is None or rep.verdict != "sound":
                    continue
                shorter = [v for v in rep.variations
                           if v.status == "mate" and not v.useless and v.length is not None and v.length < rep.length]
                if not shorter:
                    continue
                v = shorter[0]
                sol = list(rep.mainline[:v.ply - 1]) + list(v.line)
                c = Cand.from_position(Position(p.position, p.variant), p.defender)
                self.store("longer-variation", c, None,
                           f"Sound mate in {p.length} (as {p.id}); the stated solution has the defender play "
                           f"{v.readable} at ply {v.ply}, which is mated in {v.length}, but the main line "
                           f"lasts {rep.length}.",
                           solution=sol)

    def mutate_rare(self, rng: random.Random, budget: int) -> None:
        """Mutations of candidates showing a rare kind among others, to shed the others."""
        for i in range(budget):
            if time.perf_counter() - self.started > self.args.flawed_minutes * 60:
                return
            kinds = [k for k in RARE if self.parents[k] and any(self.want(k, v) for v in ("ito", "rutherford"))]
            if not kinds:
                return
            k = kinds[i % len(kinds)]
            pool = self.parents[k]
            _, c = rng.choices(pool, weights=[1.0 / n for n, _ in pool])[0]
            for _ in range(rng.choice([1, 1, 2])):
                c = mutate(c, rng)
            self.consider(c)
            if i % 100 == 99:
                print(f"[flawed rare mutations {i + 1}, {self.elapsed():.0f} s] {self.summary()}", flush=True)

    def problems(self) -> list[Problem]:
        return [p for k in ALL_KINDS for p in sorted(self.found[k], key=lambda p: p.id)]

    def save(self) -> None:
        header = ("Deliberately flawed problems, made by benchmarks/make_collections.py "
                  f"(--seed {self.args.seed}).\n"
                  "Each shows exactly one finding kind under tsume.verify.verify() with default switches:\n"
                  "the tag expect-<kind> names it, the notes say what the flaw is.\n"
                  f"Per kind: {self.summary()}")
        save(self.out, self.problems(), header=header)

    def run(self, seeds: dict[str, list[Problem]], variants: list[str]) -> None:
        print(f"== flawed: {self.args.flawed_minutes} min, out {self.out}", flush=True)
        if self.args.resume and self.out.exists():
            # Keep the stored problems; search only for the kinds still short of --per-kind.
            for p in load(self.out):
                kind = next((t[len("expect-"):] for t in p.tags if t.startswith("expect-")), None)
                if kind:
                    self.found[kind].append(p)
            print(f"== flawed: resumed: {self.summary()}", flush=True)
        self.derived(seeds)
        print(f"== flawed: derived done, {self.elapsed():.0f} s: {self.summary()}", flush=True)
        parents = {v: [p for p in seeds.get(v, []) if "unused:" not in (p.notes or "")
                       and (p.length or 0) <= self.args.flawed_max_length - 2] for v in variants}
        for v in variants:
            rng = random.Random(self.args.seed * 1000 + 500 + (1 if v == "ito" else 2)
                                + (7 + 100 * len(self.problems()) if self.args.resume else 0))
            for i in range(self.args.flawed_cands):
                if time.perf_counter() - self.started > self.args.flawed_minutes * 60 * (
                        0.35 if v == variants[0] and len(variants) > 1 else 0.7):
                    break
                if all(not self.want(k, v) for k in NATURAL_KINDS):
                    break
                if parents[v] and i % 3 != 0:
                    # A sound seed problem, mutated once or twice: often one flaw and no other.
                    c = Cand.from_position(Position((pp := rng.choice(parents[v])).position, v), pp.defender)
                    for _ in range(rng.choice([1, 1, 2])):
                        c = mutate(c, rng)
                else:
                    # A random position, mostly with a small attacker hand, so that some mates end clean.
                    c = random_candidate(rng, v, i)
                    if rng.random() < 0.6 and c.hand:
                        k = rng.choice(sorted(c.hand))
                        c.hand = {k: 1}
                self.consider(c)
                if i % 50 == 49:
                    print(f"[flawed {v} random {i + 1}, {self.cands} cands, {self.elapsed():.0f} s] "
                          f"{self.summary()}", flush=True)
        self.relaxed = True  # now either variant may fill a kind's remaining slots
        self.derived(seeds)
        self.mutate_rare(random.Random(self.args.seed * 1000 + 999 + 100 * len(self.problems())), self.args.flawed_cands)
        for c, rep in self.weak_detours:  # no longer detour found: take a same-length one
            if self.want("detour", c.variant):
                self.store("detour", c, rep, self.describe("detour", rep)
                           + " Note: the alternative is no longer than the main line; it rejoins it before the mate.")
        self.save()
        print(f"== flawed: {self.elapsed():.0f} s, {self.cands} cands: {self.summary()}", flush=True)
        missing = [k for k in ALL_KINDS if len(self.found[k]) < 2]
        if missing:
            print(f"== flawed: fewer than 2 problems for: {', '.join(missing)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["ito", "rutherford", "both"], default="both")
    ap.add_argument("--only", choices=["seeds", "flawed", "both"], default="both",
                    help="build only the seed collections or only flawed.tsume (which then reads the stored seeds)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a small smoke run (into --out-dir)")
    ap.add_argument("--minutes", type=float, default=15.0, help="wall-clock safety limit per seed variant")
    ap.add_argument("--flawed-minutes", type=float, default=15.0, help="wall-clock safety limit for flawed.tsume")
    ap.add_argument("--bench-nodes", type=int, default=20_000,
                    help="benchmark problems generated within this many nodes are candidates")
    ap.add_argument("--bench-share", type=float, default=0.25, help="share of --minutes for the benchmark problems")
    ap.add_argument("--random-cands", type=int, default=300, help="random candidates per seed variant")
    ap.add_argument("--mutation-cands", type=int, default=4000, help="mutated candidates per seed variant")
    ap.add_argument("--retro-share", type=float, default=0.5,
                    help="share of children made by retro_children (a sacrifice or a check two plies earlier)")
    ap.add_argument("--clean-share", type=float, default=0.3, help="share of parents drawn from clean unsound mates")
    ap.add_argument("--solve-nodes", type=int, default=40_000, help="node limit of the solve() filter")
    ap.add_argument("--verify-nodes", type=int, default=150_000, help="node limit of a verify() call")
    ap.add_argument("--call-seconds", type=float, default=60.0, help="wall-clock guard per call")
    ap.add_argument("--per-bucket", type=int, default=6, help="sound problems per length below --long-from")
    ap.add_argument("--per-long-bucket", type=int, default=4, help="sound problems per length from --long-from on")
    ap.add_argument("--long-from", type=int, default=15)
    ap.add_argument("--max-problems", type=int, default=45,
                    help="at most this many seed problems per variant (the fullest buckets give way)")
    ap.add_argument("--per-kind", type=int, default=2, help="flawed problems per kind")
    ap.add_argument("--flawed-cands", type=int, default=3000, help="random candidates per variant for flawed.tsume")
    ap.add_argument("--flawed-verify-nodes", type=int, default=40_000, help="node limit of a full verify() for flawed.tsume")
    ap.add_argument("--flawed-max-length", type=int, default=11, help="longest mate verified in full for flawed.tsume")
    ap.add_argument("--flawed-check-nodes", type=int, default=2_000_000, help="node limit of the check as stored")
    ap.add_argument("--resume", action="store_true",
                    help="seeds: start from the stored collections (their problems are the parents) and go on "
                         "with the mutation phase, on another random stream; flawed: keep the stored problems "
                         "and search for the kinds still missing")
    ap.add_argument("--recheck", action="store_true",
                    help="no search: verify the stored seed collections again, clean and renumber them")
    ap.add_argument("--recheck-nodes", type=int, default=3_000_000, help="node limit of a verify() in --recheck")
    ap.add_argument("--out-dir", type=Path, default=ROOT / "problems")
    args = ap.parse_args(argv)
    if args.quick:
        args.minutes = min(args.minutes, 2.0)
        args.flawed_minutes = min(args.flawed_minutes, 2.0)
        args.random_cands = min(args.random_cands, 100)
        args.mutation_cands = min(args.mutation_cands, 200)
        args.flawed_cands = min(args.flawed_cands, 200)
    variants = ["ito", "rutherford"] if args.variant == "both" else [args.variant]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    eng = Searcher(args)
    t0 = time.perf_counter()
    seeds: dict[str, list[Problem]] = {}
    for v in variants:
        path = args.out_dir / f"seed-{v}.tsume"
        if args.recheck:
            SeedSearch(v, args, path, eng).recheck()
            continue
        if args.only in ("seeds", "both"):
            s = SeedSearch(v, args, path, eng)
            s.run()
            seeds[v] = s.problems()
        elif path.exists():
            seeds[v] = load(path)
    if args.only in ("flawed", "both") and not args.recheck:
        FlawedSearch(args, args.out_dir / "flawed.tsume", eng).run(seeds, variants)
    print(f"total {time.perf_counter() - t0:.0f} s, {eng.solves} solves, {eng.verifies} verifies, "
          f"{eng.nodes:,} nodes", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
