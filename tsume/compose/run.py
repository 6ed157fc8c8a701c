"""The composer's pipeline: shards of work on an Executor, results merged in
order, every accepted problem saved at once.

Work is cut into **shards**: shard ``i`` runs method ``methods[i % len]``
with its own random stream (seeded by the run's seed, the variant, the
method and ``i``) for a fixed number of candidates.  Shards come in
**generations** of ``generation`` shards; a shard starts from the run's
**parent pool** as it stood after every shard two generations back or more
(the longest problems found so far, sound or only mating, in a fixed order),
so mutation and the reverse method climb across shards while a generation
still runs beside the previous one.  A shard's result therefore depends on
the settings and the earlier shards' results only -- not on the number of
workers, not on the machine, not on timing.  Shards run on any :class:`concurrent.futures.Executor` (a
local process pool by default; a Dask cluster's executor with
``scheduler``), and their results are taken **in shard order**: a problem
is accepted if no earlier one has its canonical key.  So the same seed gives
the same collection on 1 worker, 2, or a cluster.

The output collection is the checkpoint: after every accepted shard it is
rewritten atomically (:func:`tsume.collection.save`) with a header line that
records the settings and the next shard, so a run stopped by Ctrl-C, a kill
or a full disk leaves the file as it was after the last accepted shard, and
``resume`` goes on from there with nothing lost and nothing repeated.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..arguments import check_range
from ..collection import Problem, loads, save
from ..conventions import tsume_position
from ..errors import ArgumentError
from ..variant import get_variant
from .candidate import Candidate, canonical_key
from .filters import STAGES, Limits, consider
from .material import Material, parse_material
from .sources import METHODS, mate_pictures, mutate, random_candidates, two_plies_back

__all__ = ["Settings", "ShardResult", "run_shard", "compose", "Summary", "HEADER_TAG", "accepted_json"]

#: The header line of a composed collection that holds the run's state.
HEADER_TAG = "compose-state:"
ABBREV = {"ito": "ito", "rutherford": "ruth"}


@dataclass(frozen=True)
class Settings:
    """A composing run: everything its result depends on (and nothing else)."""

    variant: str = "ito"
    methods: tuple[str, ...] = METHODS
    seed: int = 1
    material: str | None = None
    limits: Limits = field(default_factory=Limits)
    shard_size: int = 40
    breadth: int = 6
    generation: int = 8  # shards per generation (see the module docstring)
    pool_size: int = 32  # parents kept in the pool
    per_length: int | None = None  # keep at most this many problems of each length
    parents: tuple[tuple[str, str | None], ...] = ()  # (position, defender rule) seeds for mutate and reverse

    def check(self) -> "Settings":
        """Validate (raises ArgumentError with one line); returns self."""
        get_variant(self.variant)
        if not self.methods or any(m not in METHODS for m in self.methods):
            raise ArgumentError(f"methods must be some of {', '.join(METHODS)}, not {','.join(self.methods) or 'none'}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 2**63:
            raise ArgumentError(f"seed must be a whole number from 0 to 2**63-1, not {self.seed!r}")
        lim = self.limits
        if not 1 <= lim.min_length <= lim.max_length <= 999:
            raise ArgumentError(f"lengths must satisfy 1 <= MIN <= MAX <= 999, not {lim.min_length}-{lim.max_length}")
        if min(self.shard_size, self.breadth, self.generation, self.pool_size) < 1:
            raise ArgumentError("shard size, breadth, generation and pool size must be at least 1")
        if self.per_length is not None and (isinstance(self.per_length, bool) or not isinstance(self.per_length, int)
                                            or self.per_length < 1):
            raise ArgumentError(f"per-length must be a whole number of at least 1, not {self.per_length!r}")
        if self.material is not None:
            parse_material(self.material, self.variant)
        for fen, rule in self.parents:
            tsume_position(fen, self.variant, defender_hand=rule)
        return self

    def state(self) -> dict:
        """The settings as stored in a collection's header (JSON)."""
        d = asdict(self)
        d["methods"] = list(self.methods)
        d["parents"] = [list(p) for p in self.parents]
        return d


@dataclass
class ShardResult:
    """What one shard found: accepted problems (as plain dicts, so that any
    executor can ship them) and counts by filter stage."""

    index: int
    method: str
    accepted: list[dict] = field(default_factory=list)
    stages: dict[str, int] = field(default_factory=dict)
    candidates: int = 0
    nodes: int = 0
    cpu: float = 0.0
    parents: list[Parent] = field(default_factory=list)


#: A parent in the pool: (weight, proven length, position, defender rule,
#: solver nodes of its mate).  Weight is the length for a sound problem,
#: half of it for one that only mates (a mate of the wrong length, or unsound).
Parent = tuple[int, int, str, "str | None", int]


def merge_pool(pool: list[Parent], found: list[Parent], size: int) -> list[Parent]:
    """The pool after ``found`` joins ``pool``: the ``size`` heaviest
    parents, one per position, earlier ones first among equals."""
    best: dict[tuple[str, str | None], Parent] = {}
    for p in list(pool) + list(found):
        key = (p[2], p[3])
        if key not in best or p[0] > best[key][0]:
            best[key] = p
    # sorted() is stable and best keeps first-seen order: equals stay in order.
    return sorted(best.values(), key=lambda p: -p[0])[:size]


def _parent_entry(x: object) -> Parent:
    """A pool entry read back from a collection's header (ValueError if it is not one)."""
    if not isinstance(x, list) or len(x) != 5:
        raise ValueError(x)
    w, length, fen, rule, nodes = x
    if not (isinstance(w, int) and isinstance(length, int) and isinstance(fen, str) and isinstance(nodes, int)
            and (rule is None or isinstance(rule, str))):
        raise ValueError(x)
    return (w, length, fen, rule, nodes)


def _rng(s: Settings, index: int, method: str) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across
    # runs and machines, unlike hash().
    return random.Random(f"tsume-compose/{s.variant}/{s.seed}/{method}/{index}")


class _Shard:
    def __init__(self, s: Settings, index: int, pool: list[Parent], full: frozenset[int]) -> None:
        self.s = s
        self.index = index
        self.method = s.methods[index % len(s.methods)]
        self.rng = _rng(s, index, self.method)
        self.material = parse_material(s.material, s.variant) if s.material else None
        self.out = ShardResult(index, self.method, stages={k: 0 for k in STAGES})
        # (weight, length or None, candidate, nodes or None): the user's
        # parents (length unknown, weight 1), then the pool's, then what this
        # shard finds.
        self.parents: list[tuple[int, int | None, Candidate, int | None]] = [
            (1, None, Candidate.from_position(tsume_position(fen, s.variant, defender_hand=rule), rule), None)
            for fen, rule in s.parents
        ]
        for w, length, fen, rule, nodes in pool:
            c = Candidate.from_position(tsume_position(fen, s.variant, defender_hand=rule), rule)
            self.parents.append((w, length, c, nodes))
        self.found: list[Parent] = []
        self.full = full

    def _parent(self) -> tuple[int | None, Candidate, int | None]:
        """A parent drawn at random, weighted towards the longest: its
        length, itself and the nodes its mate took."""
        weights = [w * w for w, _, _, _ in self.parents]
        _, length, c, nodes = self.rng.choices(self.parents, weights=weights)[0]
        return length, c, nodes

    def _keep(self, weight: int, length: int, c: Candidate, nodes: int) -> None:
        self.parents.append((weight, length, c, nodes))
        self.found.append((weight, length, c.fen(), c.defender, nodes))

    def budget_left(self) -> bool:
        return self.out.candidates < self.s.shard_size

    def try_one(self, c: Candidate, parent_nodes: int | None = None) -> tuple[str, int | None, int | None]:
        """Filter one candidate (made from a parent whose mate took
        ``parent_nodes``, if known: the node limits grow with it); returns
        its stage, and its length and solver nodes when it mates."""
        self.out.candidates += 1
        o = consider(c, self.s.limits.for_parent(parent_nodes), self.full)
        self.out.stages[o.stage] += 1
        self.out.nodes += o.nodes
        length = o.result.length if o.result is not None else None
        nodes = o.result.stats.get("nodes", 0) if o.result is not None else None
        if o.stage == "accepted":
            from .rating import rate  # networkx is imported only when rating

            assert o.report is not None
            rating = rate(o.report, solve_nodes=o.result.stats.get("nodes") if o.result else None)
            self.out.accepted.append({
                "position": o.candidate.fen(),
                "defender": o.candidate.defender,
                "length": o.report.length,
                "solution": o.report.mainline,
                "method": self.method,
                "shard": self.index,
                "removed": o.removed,
                "score": rating.score,
                "stars": rating.stars,
                "features": rating.features,
            })
            self._keep(o.report.length or 1, o.report.length or 1, o.candidate, nodes or 0)
            return o.stage, o.report.length, nodes
        if o.stage in ("unsound", "length") and length:
            # A clean mate that is not sound yet: a parent, with less weight.
            self._keep(max(1, length // 2), length, o.candidate, nodes or 0)
        return o.stage, length, nodes

    def run(self) -> ShardResult:
        started = time.process_time()
        getattr(self, f"_{self.method}")()
        self.out.cpu = time.process_time() - started
        self.out.parents = merge_pool([], self.found, self.s.pool_size)
        return self.out

    def _random(self) -> None:
        source = random_candidates(self.rng, self.s.variant, self.material)
        while self.budget_left():
            self.try_one(next(source))

    def _mutate(self) -> None:
        source = random_candidates(self.rng, self.s.variant, self.material)
        while self.budget_left():
            if not self.parents:
                self.try_one(next(source))  # no parent yet: random ones until one mates
                continue
            _, child, nodes = self._parent()
            for _ in range(self.rng.randint(1, 3)):
                child = mutate(child, self.rng)
            self.try_one(child, nodes)

    def _reverse(self) -> None:
        pictures = mate_pictures(self.rng, self.s.variant, self.material)
        while self.budget_left():
            # Mostly from a parent (the longest first), now and then from a
            # fresh mate picture, so that new lines keep coming.
            if self.parents and self.rng.random() < 0.75:
                length, current, nodes = self._parent()
            else:
                _mated, current = next(pictures)
                stage, length, nodes = self.try_one(current)
                if stage != "accepted" and length != 1:
                    continue
            # Walk back two plies at a time while the problem stays sound.
            while self.budget_left():
                backs = two_plies_back(current, self.rng, self.s.breadth)
                nxt = None
                for cand in backs:
                    if not self.budget_left():
                        break
                    stage, got, spent = self.try_one(cand, nodes)
                    if got is not None and (length is None or got > length) and stage in ("accepted", "length", "unsound"):
                        if nxt is None or stage == "accepted":
                            nxt, nlen, nnodes = cand, got, spent
                            if stage == "accepted":
                                break
                if nxt is None:
                    break
                current, length, nodes = nxt, nlen, nnodes


def run_shard(settings: Settings, index: int, pool: "list[Parent] | tuple[Parent, ...]" = (),
              full: "frozenset[int] | tuple[int, ...]" = ()) -> ShardResult:
    """Run shard ``index`` of a composing run from the parent ``pool`` of
    its generation and the lengths the run already has ``per_length`` of
    (``full``: mates of those lengths are not verified; module docstring).
    A plain top-level function, so that process pools and Dask can ship it."""
    return _Shard(settings, index, list(pool), frozenset(full)).run()


@dataclass
class Summary:
    """Where a composing run stopped and what it found."""

    accepted: int = 0
    total: int = 0
    shards: int = 0
    candidates: int = 0
    nodes: int = 0
    cpu: float = 0.0
    by_length: dict[int, int] = field(default_factory=dict)
    stages: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    over_quota: int = 0  # sound problems refused because their length had per_length already
    stopped: str = "count"
    elapsed: float = 0.0


def _header(settings: Settings, next_shard: int, skip: int, pools: dict[int, list[Parent]],
            running: list[Parent], fulls: dict[int, list[int]]) -> str:
    state = {"next_shard": next_shard, "skip": skip, "settings": settings.state(),
             "pools": {str(g): [list(x) for x in pool] for g, pool in sorted(pools.items())},
             "running": [list(x) for x in running],
             "full": {str(g): lengths for g, lengths in sorted(fulls.items())}}
    return ("Composed by tsume compose (docs/compose.md); the next line lets --resume go on.\n"
            f"{HEADER_TAG} {json.dumps(state, sort_keys=True)}")


def read_state(path: Path) -> tuple[list[Problem], dict | None]:
    """The problems of a composed collection and its stored state (None for a
    collection without one)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ArgumentError(f"{path}: not a UTF-8 text file") from None
    state = None
    for line in text.split("\n"):
        if not line.startswith("#"):
            break
        body = line[1:].strip()
        if body.startswith(HEADER_TAG):
            try:
                state = json.loads(body[len(HEADER_TAG):])
            except json.JSONDecodeError:
                raise ArgumentError(f"{path}: its {HEADER_TAG} line is not valid JSON") from None
    # A run stopped before its first problem leaves only the header.
    has_problem = any(line.strip().startswith("[") for line in text.split("\n"))
    return (loads(text, str(path)) if has_problem else []), state


def _problem(settings: Settings, record: dict, serial: int, version: str) -> Problem:
    feats = record["features"]
    rating = "; ".join(f"{k}={feats[k]}" for k in sorted(feats))
    return Problem(
        id=f"{ABBREV.get(settings.variant, settings.variant)}-c{serial:04d}",
        position=record["position"],
        variant=settings.variant,
        defender=record["defender"],
        length=record["length"],
        solution=record["solution"],
        author="tsume compose",
        tags=["composed", f"len{record['length']:02d}", record["method"]],
        provenance=(f"method={record['method']}; seed={settings.seed}; shard={record['shard']}; "
                    f"tool=tsume {version}" + (f"; removed={' '.join(record['removed'])}" if record["removed"] else "")),
        rating=f"score={record['score']}; stars={record['stars']}; {rating}",
    )


def accepted_json(problem: Problem, record: dict) -> dict:
    """An accepted problem as ``tsume compose --json`` prints it (and the
    studio shows it): the problem's keys, its score, stars and features, and
    its provenance as a dict."""
    return {
        "id": problem.id, "variant": problem.variant, "position": problem.position,
        "defender": problem.defender, "length": problem.length, "solution": problem.solution,
        "score": record["score"], "stars": record["stars"], "features": record["features"],
        "provenance": problem.fields("provenance"),
    }


def compose(
    settings: Settings,
    out: "str | os.PathLike",
    *,
    count: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    resume: bool = False,
    on_accept: Callable[[Problem, dict], None] | None = None,
    progress: Callable[[Summary], None] | None = None,
) -> Summary:
    """Compose into the collection ``out`` until ``count`` problems are in it
    (counting those a resumed file holds) or ``time_limit`` seconds pass.

    ``executor`` runs the shards (default: a process pool of ``workers``,
    all cores when None).  ``out`` must not exist unless ``resume``, which
    goes on from its stored state (the settings must be the same).
    ``on_accept(problem, record)`` is called for every problem written.
    KeyboardInterrupt propagates, with ``out`` as it was after the last
    accepted shard."""
    from .. import __version__

    settings = settings.check()
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise ArgumentError(f"count must be a whole number of at least 1, not {count!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and 0 < time_limit < float("inf")):
        raise ArgumentError(f"time limit must be a positive number of seconds, not {time_limit!r}")
    if count is None and time_limit is None:
        raise ArgumentError("give a count, a time limit or both: composing has no natural end")
    path = Path(out)
    problems: list[Problem] = []
    # The next shard to take, and how many of its records a count already
    # cut off from it were taken (so a resumed run takes exactly the rest).
    next_shard = skip = 0
    # pools[g]: the parent pool of generation g's shards, the pool after
    # every shard before generation g-1 (so generation g can start while
    # g-1 runs); running: the pool after every shard merged so far.
    G = settings.generation
    pools: dict[int, list[Parent]] = {0: [], 1: []}
    running: list[Parent] = []
    # fulls[g]: the lengths generation g's shards need not verify (the run
    # had per_length problems of each when pools[g] was fixed).
    fulls: dict[int, list[int]] = {0: [], 1: []}
    if path.exists() and path.stat().st_size > 0:
        if not resume:
            raise ArgumentError(f"{path} exists: --resume to go on with it, or choose another --out")
        problems, state = read_state(path)
        if state is None:
            raise ArgumentError(f"{path} holds no {HEADER_TAG} line: it was not written by tsume compose")
        if state.get("settings") != settings.state():
            raise ArgumentError(f"{path} was composed with other settings: resume with the same options "
                                f"(stored: {json.dumps(state.get('settings'), sort_keys=True)})")
        next_shard = int(state.get("next_shard", 0))
        skip = int(state.get("skip", 0))
        try:
            pools = {int(g): [_parent_entry(x) for x in pool] for g, pool in state["pools"].items()}
            running = [_parent_entry(x) for x in state["running"]]
            fulls = {int(g): [int(n) for n in lengths] for g, lengths in state["full"].items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ArgumentError(f"{path}: its {HEADER_TAG} line is not one this version of tsume compose "
                                "can go on from: compose into a new file") from None
    seen = set()
    per_length: dict[int, int] = {}
    for p in problems:
        seen.add(canonical_key(tsume_position(p.position, p.variant, defender_hand=p.defender)))
        per_length[p.length or 0] = per_length.get(p.length or 0, 0) + 1
    summary = Summary(total=len(problems))
    started = time.monotonic()
    deadline = started + time_limit if time_limit is not None else None
    own = executor is None
    if own:
        executor = cf.ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    assert executor is not None
    width = 2 * (workers or os.cpu_count() or 1) if own else 8
    pending: dict[int, cf.Future] = {}
    results: dict[int, ShardResult] = {}
    submitted = next_shard
    try:
        while True:
            if count is not None and summary.total >= count:
                summary.stopped = "count"
                break
            if deadline is not None and time.monotonic() >= deadline:
                summary.stopped = "time"
                break
            while len(pending) < width and submitted // G in pools:
                pending[submitted] = executor.submit(run_shard, settings, submitted, pools[submitted // G],
                                                     tuple(fulls[submitted // G]))
                submitted += 1
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = cf.wait(list(pending.values()), timeout=min(wait, 0.5) if wait is not None else 0.5,
                              return_when=cf.FIRST_COMPLETED)
            for i in [i for i, f in pending.items() if f in done]:
                results[i] = pending.pop(i).result()
            # Take finished shards in order only: the same seed gives the same file.
            while next_shard in results:
                r = results.pop(next_shard)
                summary.shards += 1
                summary.candidates += r.candidates
                summary.nodes += r.nodes
                summary.cpu += r.cpu
                for k, v in r.stages.items():
                    summary.stages[k] = summary.stages.get(k, 0) + v
                fresh: list[tuple[Problem, dict]] = []
                taken = skip
                for rec in r.accepted[skip:]:
                    if count is not None and summary.total + len(fresh) >= count:
                        break
                    taken += 1
                    key = canonical_key(tsume_position(rec["position"], settings.variant, defender_hand=rec["defender"]))
                    if key in seen:
                        summary.duplicates += 1
                        continue
                    if settings.per_length is not None and per_length.get(rec["length"], 0) >= settings.per_length:
                        summary.over_quota += 1
                        continue
                    seen.add(key)
                    per_length[rec["length"]] = per_length.get(rec["length"], 0) + 1
                    fresh.append((_problem(settings, rec, len(problems) + len(fresh) + 1, __version__), rec))
                if taken < len(r.accepted):
                    skip = taken  # cut by the count: the rest of this shard is for a resumed run
                    results[next_shard] = r
                else:
                    next_shard, skip = next_shard + 1, 0
                    running = merge_pool(running, r.parents, settings.pool_size)
                    if next_shard % G == 0:
                        # Every shard before generation k = next_shard // G
                        # is merged: the pool of generation k + 1 is known.
                        pools[next_shard // G + 1] = running
                        pools.pop(next_shard // G - 1, None)
                        fulls[next_shard // G + 1] = sorted(
                            n for n, k in per_length.items() if settings.per_length is not None and k >= settings.per_length)
                        fulls.pop(next_shard // G - 1, None)
                problems.extend(p for p, _ in fresh)
                # One atomic write per shard: the file and its state move together.
                save(path, problems, header=_header(settings, next_shard, skip, pools, running, fulls))
                for p, rec in fresh:
                    summary.accepted += 1
                    summary.total += 1
                    summary.by_length[rec["length"]] = summary.by_length.get(rec["length"], 0) + 1
                    if on_accept is not None:
                        on_accept(p, rec)
                if count is not None and summary.total >= count:
                    break
            summary.elapsed = time.monotonic() - started
            if progress is not None:
                progress(summary)
    finally:
        for f in pending.values():
            f.cancel()
        if own:
            _stop_pool(executor)
    summary.elapsed = time.monotonic() - started
    return summary


def _stop_pool(executor: cf.Executor) -> None:
    """Shut a process pool down at once: running shards are abandoned (their
    work is redone on resume), never waited for."""
    # shutdown() forgets the processes: take them first.
    procs = dict(getattr(executor, "_processes", None) or {})
    executor.shutdown(wait=False, cancel_futures=True)
    for p in list(procs.values()):
        try:
            p.terminate()
        except (OSError, AttributeError):
            pass
    for p in list(procs.values()):
        try:
            p.join(timeout=2)
        except (OSError, AttributeError, AssertionError):
            pass


def settings_from(variant: str, *, methods: str = "random,mutate,reverse", seed: int = 1,
                  material: str | None = None, length: str | None = None, strict: bool = False,
                  parents: list[Problem] | None = None, shard_size: int = 40,
                  per_length: int | None = None) -> Settings:
    """Settings from the CLI's strings (``length`` is ``N`` or ``MIN-MAX``)."""
    ms = tuple(m.strip() for m in methods.split(",") if m.strip())
    # MIN alone: at least MIN plies.
    lo, hi = (1, 99) if length is None else check_range(length, "--length", 1, open_end=99)
    var = get_variant(variant).name
    ps = tuple((p.position, p.defender) for p in (parents or []))
    return Settings(variant=var, methods=ms, seed=seed, material=material,
                    limits=Limits(min_length=lo, max_length=hi, strict=strict), shard_size=shard_size,
                    parents=ps, per_length=per_length).check()
