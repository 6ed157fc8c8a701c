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
workers, not on the machine, not on timing.  Shards run on any
:class:`concurrent.futures.Executor` through :class:`tsume.shards.Runner` (a
local process pool by default; a Dask cluster's executor with
``scheduler``), and their results are taken **in shard order**.  So the same
seed gives the same collection on 1 worker, 2, or a cluster.

A sound problem is taken unless it is **the same idea** as one the
collection or the parents hold (:mod:`tsume.compose.idea`) or its length
already has its share: with a ``count``, the run aims it across the lengths
of its range (:func:`spread_target`, rising by one after every generation
that added nothing), and ``per_length`` caps every length.

After every shard taken the collection and its **state file** are rewritten
(:mod:`tsume.compose.state`: the state first, then the collection, each
atomically), so a run stopped by Ctrl-C, a kill or a full disk leaves them
as they were after the last shard taken, and ``resume`` goes on from there
with nothing lost and nothing repeated.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from ..arguments import check_range
from ..collection import Problem
from ..errors import ArgumentError
from ..problem import Problem as Tsume
from ..shards import Runner, report
from ..variant import get_variant
from .candidate import Candidate
from .filters import STAGES, Criteria
from .idea import Ideas, candidate_keys, problem_keys
from .memo import considered, mated
from .material import Material, parse_material, sparse_profile
from .climb import CLIMB_BUDGET, POOL_PER_MATERIAL, Rung, fen_material, mates_by_drop, next_beam
from .sources import DEFAULT_METHODS, METHODS, mate_pictures, mutate, random_candidates, two_plies_back
from .stretch import stretches
from .state import Saved
from .state import load as load_state
from .state import save as save_state
from .themes import LASTING, THEMES

__all__ = ["Settings", "ShardResult", "run_shard", "compose", "Summary", "settings_from", "spread_target",
           "settings_differences", "merge_pool", "pool_cap", "Generations", "accepted_json"]

#: The stages a candidate that mates can stop at.
MATING = ("length", "te-amari", "unsound", "accepted")
#: Settings keys added since the first state files: a stored state without
#: one counts as having this version's value.
ADDED_SETTINGS = ("parent_ideas", "theme", "beam", "avoid", "novelty")
#: The stage of a sound problem that lacks the run's ``--theme``.
OFF_THEME = "off-theme"
#: The stage of a sound problem with a label of the run's ``--avoid-theme``.
AVOIDED = "avoided"
#: The stages of a stretched problem that mates longer and that a stretch
#: goes on from (a clean mate not sound yet may become sound further on).
STRETCHED = ("accepted", "length", "unsound", OFF_THEME, AVOIDED)
#: How often a stretching shard, about to start a walk, draws a fresh random
#: candidate instead of a parent (a walk starts from it if it mates).
FRESH_STRETCH = 0.25
ABBREV = {"ito": "ito", "rutherford": "ruth"}


@dataclass(frozen=True)
class Settings:
    """A composing run: everything its result depends on (and nothing else)."""

    variant: str = "ito"
    methods: tuple[str, ...] = DEFAULT_METHODS
    seed: int = 1
    material: str | None = None
    limits: Criteria = field(default_factory=Criteria)
    shard_size: int = 40
    breadth: int = 6
    generation: int = 8  # shards per generation (see the module docstring)
    pool_size: int = 32  # parents kept in the pool
    per_length: int | None = None  # keep at most this many problems of each length
    parents: tuple[tuple[str, str | None], ...] = ()  # (position, defender rule) seeds for mutate and reverse
    parent_ideas: tuple[str, ...] = ()  # the parents' ideas (tsume.compose.idea): a problem must not repeat one
    theme: str | None = None  # keep only problems with this label (tsume.compose.themes)
    beam: int = 4  # the climb's beam: partial problems kept at each length (tsume.compose.climb)
    avoid: tuple[str, ...] = ()  # refuse problems with any of these labels (tsume.compose.themes)
    novelty: bool = False  # the climb's beam prefers children with rare labels (tsume.compose.climb.next_beam)

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
        if min(self.shard_size, self.breadth, self.generation, self.pool_size, self.beam) < 1:
            raise ArgumentError("shard size, breadth, beam, generation and pool size must be at least 1")
        if self.per_length is not None and (isinstance(self.per_length, bool) or not isinstance(self.per_length, int)
                                            or self.per_length < 1):
            raise ArgumentError(f"per-length must be a whole number of at least 1, not {self.per_length!r}")
        if self.material is not None:
            parse_material(self.material, self.variant)
        for fen, rule in self.parents:
            Tsume(fen, variant=self.variant, defender=rule)
        if self.theme is not None and self.theme not in THEMES:
            raise ArgumentError(f"theme must be one of {', '.join(THEMES)}, not {self.theme!r}")
        if not isinstance(self.avoid, tuple):
            raise ArgumentError(f"avoided themes must be a tuple of labels, not {self.avoid!r}")
        for t in self.avoid:
            if t not in THEMES:
                raise ArgumentError(f"avoided themes must be some of {', '.join(THEMES)}, not {t!r}")
            if t == self.theme:
                raise ArgumentError(f"theme {t} cannot be both wanted and avoided")
        if not all(isinstance(k, str) for k in self.parent_ideas):
            raise ArgumentError("parent ideas must be strings (tsume.compose.idea.problem_keys)")
        return self

    def avoids(self, labels: Iterable[str]) -> bool:
        """Has a problem with these theme labels one the run avoids?"""
        return not set(self.avoid).isdisjoint(labels)

    def avoids_for_good(self, labels: Iterable[str]) -> bool:
        """Has it one the run avoids that a longer problem made from it keeps
        (tsume.compose.themes.LASTING): a dead end for the climb."""
        return not LASTING.isdisjoint(set(self.avoid).intersection(labels))

    def state(self) -> dict:
        """The settings as stored in a collection's header (JSON)."""
        d = asdict(self)
        d["methods"] = list(self.methods)
        d["parents"] = [list(p) for p in self.parents]
        d["parent_ideas"] = list(self.parent_ideas)
        d["avoid"] = list(self.avoid)
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
    mates: int = 0  # candidates that mate (whatever stage stopped them after that)
    longest: int = 0  # the longest of those mates
    nodes: int = 0
    cpu: float = 0.0
    parents: list[Parent] = field(default_factory=list)


#: A parent in the pool: (weight, proven length, position, defender rule,
#: solver nodes of its mate).  Weight is the length for a sound problem,
#: half of it for one that only mates (a mate of the wrong length, or unsound).
Parent = tuple[int, int, str, "str | None", int]


def merge_pool(pool: list[Parent], found: list[Parent], size: int, per_material: int | None = None) -> list[Parent]:
    """The pool after ``found`` joins ``pool``: the ``size`` heaviest
    parents, one per position, earlier ones first among equals; with
    ``per_material``, at most that many of one material
    (:func:`tsume.compose.climb.fen_material`), the heaviest."""
    best: dict[tuple[str, str | None], Parent] = {}
    for p in list(pool) + list(found):
        key = (p[2], p[3])
        if key not in best or p[0] > best[key][0]:
            best[key] = p
    # sorted() is stable and best keeps first-seen order: equals stay in order.
    ranked = sorted(best.values(), key=lambda p: -p[0])
    if per_material is not None:
        held: dict[str, int] = {}
        kept = []
        for p in ranked:
            m = fen_material(p[2], p[3])
            if held.get(m, 0) < per_material:
                held[m] = held.get(m, 0) + 1
                kept.append(p)
        ranked = kept
    return ranked[:size]


def _parent_entry(x: object) -> Parent:
    """A pool entry read back from a collection's header (ValueError if it is not one)."""
    if not isinstance(x, list) or len(x) != 5:
        raise ValueError(x)
    w, length, fen, rule, nodes = x
    if not (isinstance(w, int) and isinstance(length, int) and isinstance(fen, str) and isinstance(nodes, int)
            and (rule is None or isinstance(rule, str))):
        raise ValueError(x)
    return (w, length, fen, rule, nodes)


def pool_cap(s: Settings) -> int | None:
    """The pool's cap per material (:func:`merge_pool`): a climbing run's
    only (tsume.compose.climb)."""
    return POOL_PER_MATERIAL if "climb" in s.methods else None


class Generations:
    """The parent pools of a run's shards (module docstring): shard ``i``
    of generation ``g = i // generation`` starts from the pool after every
    shard before generation ``g - 1``; ``running`` is the pool after every
    shard merged so far.  Shards are merged in order."""

    def __init__(self, settings: Settings, pools: dict[int, list[Parent]] | None = None,
                 running: list[Parent] | None = None) -> None:
        self.settings = settings
        self.pools: dict[int, list[Parent]] = {0: [], 1: []} if pools is None else pools
        self.running: list[Parent] = [] if running is None else running

    def pool(self, shard: int) -> list[Parent] | None:
        """Shard ``shard``'s pool, or None while it is not known yet."""
        return self.pools.get(shard // self.settings.generation)

    def merge(self, shard: int, parents: list[Parent]) -> bool:
        """Merges the parents of ``shard``, the next in order; True when it
        ends a generation (the pool of the generation after next is then known)."""
        s = self.settings
        self.running = merge_pool(self.running, parents, s.pool_size, pool_cap(s))
        done = shard + 1
        if done % s.generation:
            return False
        self.pools[done // s.generation + 1] = self.running
        self.pools.pop(done // s.generation - 1, None)
        return True

    def state(self) -> dict[str, Any]:
        """The pools as a run's state file holds them."""
        return {"pools": {str(g): [list(x) for x in pool] for g, pool in sorted(self.pools.items())},
                "running": [list(x) for x in self.running]}

    @classmethod
    def from_state(cls, settings: Settings, state: dict[str, Any]) -> Generations:
        """Read back from :meth:`state` (KeyError, TypeError, ValueError or
        AttributeError if it is not one)."""
        return cls(settings, {int(g): [_parent_entry(x) for x in pool] for g, pool in state["pools"].items()},
                   [_parent_entry(x) for x in state["running"]])


def _rng(s: Settings, index: int, method: str) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across
    # runs and machines, unlike hash().
    return random.Random(f"tsume-compose/{s.variant}/{s.seed}/{method}/{index}")


class Tried(NamedTuple):
    """One candidate filtered: its stage, its length and solver nodes when it
    mates, the candidate as the filters left it (repaired, economised) and,
    when accepted, its idea keys (tsume.compose.idea)."""

    stage: str
    length: int | None
    nodes: int | None
    candidate: Candidate
    ideas: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()  # its theme labels when sound (tsume.compose.themes)


class _Shard:
    def __init__(self, s: Settings, index: int, pool: list[Parent], full: frozenset[int]) -> None:
        self.s = s
        self.index = index
        self.method = s.methods[index % len(s.methods)]
        self.rng = _rng(s, index, self.method)
        self.material = parse_material(s.material, s.variant) if s.material else None
        self.out = ShardResult(index, self.method, stages={k: 0 for k in STAGES + (OFF_THEME, AVOIDED)})
        # (weight, length or None, candidate, nodes or None): the user's
        # parents (length unknown, weight 1), then the pool's, then what this
        # shard finds.
        # The parents come in as strings (the run's settings and state): read
        # here, once; what the shard makes from them stays a position.
        self.parents: list[tuple[int, int | None, Candidate, int | None]] = [
            (1, None, _candidate(fen, s.variant, rule), None) for fen, rule in s.parents
        ]
        for w, length, fen, rule, nodes in pool:
            self.parents.append((w, length, _candidate(fen, s.variant, rule), nodes))
        self.found: list[Parent] = []
        self.full = full
        self.parent_ideas = frozenset(s.parent_ideas)
        self.labels: dict[str, int] = {}  # the labels of the problems this shard accepted, counted

    def _parent(self) -> tuple[int | None, Candidate, int | None]:
        """A parent drawn at random, weighted towards the longest: its
        length, itself and the nodes its mate took."""
        weights = [w * w for w, _, _, _ in self.parents]
        _, length, c, nodes = self.rng.choices(self.parents, weights=weights)[0]
        return length, c, nodes

    def _indexed_parent(self) -> tuple[int | None, Candidate, int | None]:
        """The parent this shard's index points at (as :meth:`_parent`
        gives one): a shard's first walk starts there, so that the shards of
        a generation start from different parents, not all from the
        heaviest."""
        _w, length, c, nodes = self.parents[(self.index // len(self.s.methods)) % len(self.parents)]
        return length, c, nodes

    def _keep(self, weight: int, length: int, c: Candidate, nodes: int) -> None:
        self.parents.append((weight, length, c, nodes))
        self.found.append((weight, length, c.fen(), c.defender, nodes))

    def budget_left(self) -> bool:
        # A climb or a stretch reads many children at each length: a longer
        # shard keeps one going for several lengths.
        size = self.s.shard_size * (CLIMB_BUDGET if self.method in ("climb", "stretch") else 1)
        return self.out.candidates < size

    def try_one(self, c: Candidate, parent_nodes: int | None = None,
                max_length: int | None = None) -> Tried:
        """Filter one candidate (made from a parent whose mate took
        ``parent_nodes``, if known: the node limits grow with it; mates
        longer than ``max_length`` are not looked for)."""
        self.out.candidates += 1
        criteria = self.s.limits.for_parent(parent_nodes)
        if max_length is not None and max_length < criteria.max_length:
            criteria = replace(criteria, max_length=max_length)
        # The same child is met again and again (tsume.compose.memo).
        o = considered(c, criteria, self.full)
        self.out.stages[o.stage] += 1
        self.out.nodes += o.nodes
        length = o.result.length if o.result is not None else None
        nodes = o.result.stats.get("nodes", 0) if o.result is not None else None
        if o.stage in MATING and length:
            self.out.mates += 1
            self.out.longest = max(self.out.longest, length)
        report({"shard": self.index, "candidates": self.out.candidates, "mates": self.out.mates,
                "longest": self.out.longest})
        if o.stage == "accepted":
            # networkx is imported only when rating.
            from .rating import rate
            from .themes import themes

            assert o.report is not None
            # The problem's own position: the report's string is not read again.
            problem = o.candidate.problem()
            assert problem is not None
            start = problem.position()
            labels = themes(o.report, position=start)
            if self.s.avoids(labels):
                # A label the run avoids: no problem, and no parent when a
                # longer problem made from it keeps the label (themes.LASTING).
                self.out.stages["accepted"] -= 1
                self.out.stages[AVOIDED] += 1
                if not self.s.avoids_for_good(labels):
                    # Only labels that a longer problem may lose: a parent still, with less weight.
                    self._keep(max(1, (o.report.length or 1) // 2), o.report.length or 1, o.candidate, nodes or 0)
                return Tried(AVOIDED, o.report.length, nodes, o.candidate, labels=tuple(labels))
            if self.s.theme is not None and self.s.theme not in labels:
                # Sound but off the theme: a parent still, with less weight.
                self.out.stages["accepted"] -= 1
                self.out.stages[OFF_THEME] += 1
                self._keep(max(1, (o.report.length or 1) // 2), o.report.length or 1, o.candidate, nodes or 0)
                return Tried(OFF_THEME, o.report.length, nodes, o.candidate, labels=tuple(labels))
            rating = rate(o.report, solve_nodes=o.result.stats.get("nodes") if o.result else None, position=start)
            shape = rating.features.get("shape")
            # The idea keys, made from the candidate held here (the merge
            # does not read the position string back).
            ideas = candidate_keys(o.candidate, o.report.mainline, shape if isinstance(shape, str) else None)
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
                "themes": labels,
                "ideas": ideas,
            })
            for t in labels:
                self.labels[t] = self.labels.get(t, 0) + 1
            # A parent's idea found again (the run refuses it): a parent
            # with half the weight, so that the pool climbs from new ones.
            known = not self.parent_ideas.isdisjoint(ideas)
            length = o.report.length or 1
            self._keep(max(1, length // 2) if known else length, length, o.candidate, nodes or 0)
            return Tried(o.stage, o.report.length, nodes, o.candidate, tuple(ideas), tuple(labels))
        if o.stage in ("unsound", "length") and length:
            # A clean mate that is not sound yet: a parent, with less weight.
            self._keep(max(1, length // 2), length, o.candidate, nodes or 0)
        return Tried(o.stage, length, nodes, o.candidate)

    def run(self) -> ShardResult:
        # This thread's CPU: shards run as threads of one process too, where
        # the process's time would count the other shards' work as well.
        started = time.thread_time()
        getattr(self, f"_{self.method}")()
        self.out.cpu = time.thread_time() - started
        self.out.parents = merge_pool([], self.found, self.s.pool_size, pool_cap(self.s))
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
                tried = self.try_one(current)
                length, nodes = tried.length, tried.nodes
                if tried.stage != "accepted" and length != 1:
                    continue
            # Walk back two plies at a time while the problem stays sound.
            while self.budget_left():
                backs = two_plies_back(current, self.rng, self.s.breadth)
                nxt = None
                for cand in backs:
                    if not self.budget_left():
                        break
                    stage, got, spent = self.try_one(cand, nodes)[:3]
                    if got is not None and (length is None or got > length) and stage in ("accepted", "length", "unsound"):
                        if nxt is None or stage == "accepted":
                            nxt, nlen, nnodes = cand, got, spent
                            if stage == "accepted":
                                break
                if nxt is None:
                    break
                current, length, nodes = nxt, nlen, nnodes

    def _measured(self, c: Candidate) -> tuple[int | None, int | None]:
        """The length of a parent of --parents and the nodes its mate took,
        from a plain solve under the widest limits (a long one costs more
        than the base); no length when that finds no mate."""
        r, nodes = mated(c, self.s.limits.widest())
        return (None, None) if r is None or r.length is None else (r.length, nodes)

    def _stretch(self) -> None:
        # Fresh starts: a stretch slides men, so few of them (the run's
        # material, or else the sparse profile).
        source = random_candidates(self.rng, self.s.variant, self.material or sparse_profile(self.s.variant))
        walks = 0
        while self.budget_left():
            if not self.parents or (walks > 0 and self.rng.random() < FRESH_STRETCH):
                # A fresh random candidate (as the reverse method's fresh
                # pictures): a walk starts from it if it mates; if not, the
                # next turn of the loop draws again.
                t = self.try_one(next(source))
                if t.length is None or t.stage not in STRETCHED:
                    continue
                length, current, nodes = t.length, t.candidate, t.nodes
            else:
                length, current, nodes = self._indexed_parent() if walks == 0 else self._parent()
            walks += 1
            if length is None:
                length, nodes = self._measured(current)
                if length is None:
                    # A parent that does not mate: counted as a candidate, so
                    # that a shard whose parents all fail still ends.
                    self.out.candidates += 1
                    continue
            # Uphill: every stretch of the current problem is tried, and the
            # walk goes on from the longest that mates (a sound one first).
            while self.budget_left():
                best: tuple[tuple[bool, int], Candidate, int | None] | None = None
                children = stretches(current)
                self.rng.shuffle(children)
                for child in children:
                    if not self.budget_left():
                        break
                    t = self.try_one(child, nodes)
                    if t.length is None or t.length <= length or t.stage not in STRETCHED:
                        continue
                    rank = (t.stage != "length", t.length)
                    if best is None or rank > best[0]:
                        best = (rank, t.candidate, t.nodes)
                if best is None:
                    break
                (_sound, length), current, nodes = best

    def _climb(self) -> None:
        pictures = mate_pictures(self.rng, self.s.variant, self.material)
        walks = 0
        # The ideas this shard's beams took, and the parents' (which the run
        # refuses): tsume.compose.climb.next_beam puts a child of one last.
        ideas: set[str] = set(self.parent_ideas)
        while self.budget_left():
            # A start: a parent (the longest most often) or a fresh mate
            # picture.  A shard's first walk starts from the parent its index
            # points at, so that the shards of a generation climb from
            # different parents, not all from the heaviest.
            walks += 1
            start: Candidate | None = None
            if self.parents and walks == 1:
                length, start, nodes = self._indexed_parent()
            elif self.parents and self.rng.random() < 0.75:
                length, start, nodes = self._parent()
            if start is not None and length is None:
                length, nodes = self._measured(start)
                if length is None:
                    continue
            if start is None or length is None:
                _mated, start = next(pictures)
                if "drop-mate" in self.s.avoid and mates_by_drop(start):
                    # Every problem climbed from it would end in a drop: counted
                    # as a candidate, so that a shard of such pictures ends.
                    self.out.candidates += 1
                    self.out.stages[AVOIDED] += 1
                    continue
                tried = self.try_one(start, max_length=1)
                length, nodes = tried.length, tried.nodes
                if length != 1:
                    continue
            beam = [Rung(length, start, nodes or 0, True)]
            # Un-move two plies at a time from every partial problem of the
            # beam; a child stays only if it mates in exactly two plies more
            # (its solve bounded there: cheap).
            while beam and self.budget_left():
                children: list[Rung] = []
                seen: set[str] = set()
                for rung in beam:
                    for child in two_plies_back(rung.candidate, self.rng, self.s.breadth):
                        if not self.budget_left():
                            break
                        key = child.fen() + str(child.defender)
                        if key in seen:
                            continue
                        seen.add(key)
                        want = rung.length + 2
                        t = self.try_one(child, rung.nodes, max_length=want)
                        if t.stage == AVOIDED and self.s.avoids_for_good(t.labels):
                            continue  # its longer problems keep the label: a dead end
                        if t.length == want and t.stage in ("accepted", "length", OFF_THEME, AVOIDED):
                            # The candidate as repaired and economised: the problem itself;
                            # one with a label avoided climbs after the others, as an unverified one.
                            children.append(Rung(want, t.candidate, t.nodes or 0, t.stage not in ("length", AVOIDED),
                                                 t.ideas, t.labels))
                beam = next_beam(children, self.s.beam, self.rng, ideas, self.labels if self.s.novelty else None)


def _candidate(fen: str, variant: str, rule: str | None) -> Candidate:
    """The candidate of a parent as stored (its position string and defender rule)."""
    # The rule as written, not as the position reads it: a parent whose string
    # names the defender's pieces under no rule holds "the rest" (as before it
    # became a parent).
    return Candidate.from_position(Tsume(fen, variant=variant, defender=rule).position(), rule)


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
    by_method: dict[str, int] = field(default_factory=dict)  # problems taken, by the method that made them
    by_theme: dict[str, int] = field(default_factory=dict)  # problems taken with each theme label
    stages: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0  # sound problems refused as the same idea as one before (tsume.compose.idea)
    same_idea: dict[str, int] = field(default_factory=dict)  # those by criterion: board, line, shape
    over_quota: int = 0  # sound problems refused because their length had its share already
    target: int | None = None  # problems of each length the run takes now (spread_target), None: no target
    stopped: str = "count"
    elapsed: float = 0.0
    mates: int = 0  # mating candidates of the shards merged
    longest: int = 0  # the longest mate of the shards merged
    # With the shards still running (what they reported so far): for progress.
    tried: int = 0
    mating: int = 0
    longest_seen: int = 0


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
        tags=["composed", f"len{record['length']:02d}", record["method"], *record.get("themes", ())],
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
        "themes": record.get("themes", []), "provenance": problem.fields("provenance"),
    }


def _lengths(settings: Settings) -> list[int]:
    """The lengths a run may keep: the odd ones of its range (a tsume's
    attacker moves first and last)."""
    lim = settings.limits
    return [n for n in range(lim.min_length, lim.max_length + 1) if n % 2 == 1]


def spread_target(settings: Settings, count: int | None) -> int | None:
    """How many problems of each length a run of ``count`` problems aims at
    first: the count shared over the lengths of the range, rounded up (None
    without a count).  The target rises by one after every generation that
    adds no problem (docs/compose.md)."""
    if count is None:
        return None
    return max(1, -(-count // max(1, len(_lengths(settings)))))


def _cap(settings: Settings, target: int | None) -> int | None:
    """The most problems of one length the run takes now."""
    caps = [c for c in (settings.per_length, target) if c is not None]
    return min(caps) if caps else None


#: The settings keys as the command line names them, and how it writes their values.
_OPTIONS: dict[str, tuple[str, Callable[[Any], str]]] = {
    "variant": ("--variant", str),
    "methods": ("--method", lambda v: ",".join(v)),
    "seed": ("--seed", str),
    "material": ("--material", lambda v: "none" if v is None else repr(v)),
    "length": ("--length", str),
    "strict": ("--strict", lambda v: "on" if v else "off"),
    "per_length": ("--per-length", lambda v: "none" if v is None else str(v)),
    "parents": ("--parents", lambda v: f"{len(v)} problem(s)" if v else "none"),
    "parent_ideas": ("--parents", lambda v: f"{len(v)} idea key(s)"),
    "avoid": ("--avoid-theme", lambda v: ",".join(v) or "none"),
    "novelty": ("--novelty", lambda v: "on" if v else "off"),
}


def _flat(settings: dict[str, Any]) -> dict[str, Any]:
    """A stored settings dict with ``--length`` as the user wrote it."""
    flat = dict(settings)
    limits = dict(flat.pop("limits", None) or {})
    if "min_length" in limits or "max_length" in limits:
        flat["length"] = f"{limits.pop('min_length', '?')}-{limits.pop('max_length', '?')}"
    flat["strict"] = limits.pop("strict", None)
    for k, v in limits.items():
        flat[f"limits.{k}"] = v
    return flat


def settings_differences(stored: Any, current: Settings) -> list[str]:
    """How the settings a collection was composed with differ from
    ``current``, one phrase each (``--seed 1, not 2``).  Settings this
    version added and the stored ones lack count as the same."""
    if not isinstance(stored, dict):
        return ["no settings stored"]
    new = _flat(current.state())
    old = _flat(stored)
    for key in ADDED_SETTINGS:
        old.setdefault(key, new.get(key))
    out: list[str] = []
    order = list(_OPTIONS)
    for key in sorted(set(new) | set(old), key=lambda k: (order.index(k) if k in order else len(order), k)):
        if old.get(key) == new.get(key):
            continue
        name, show = _OPTIONS.get(key, (key, repr))
        if any(d.startswith(name + " ") for d in out):
            continue  # --parents: one phrase
        try:
            was, now = show(old.get(key)), show(new.get(key))
        except (TypeError, ValueError):
            was, now = repr(old.get(key)), repr(new.get(key))
        out.append(f"{name} {_short(was)} (stored), not {_short(now)}")
    return out


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


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
    all cores when None; :class:`tsume.shards.Runner`).  ``out`` must not
    exist unless ``resume``, which goes on from its state file
    (:mod:`tsume.compose.state`; the settings must be the same).  A problem
    that is the same idea as one of ``out`` or of the settings' parents
    (:mod:`tsume.compose.idea`) is refused; with a ``count``, the run is
    spread over the lengths (:func:`spread_target`).
    ``on_accept(problem, record)`` is called for every problem written;
    ``progress(summary)`` about twice a second.  KeyboardInterrupt
    propagates, with ``out`` as it was after the last accepted shard."""
    from .. import __version__

    settings = settings.check()
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise ArgumentError(f"count must be a whole number of at least 1, not {count!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and 0 < time_limit < float("inf")):
        raise ArgumentError(f"time limit must be a positive number of seconds, not {time_limit!r}")
    if count is None and time_limit is None:
        raise ArgumentError("give a count, a time limit or both: composing has no natural end")
    path = Path(out)
    G = settings.generation
    saved = Saved([], [], None)
    previous: dict[str, Any] | None = None
    # The next shard to take, and how many of its records a count already
    # cut off from it were taken (so a resumed run takes exactly the rest).
    next_shard = skip = 0
    generations = Generations(settings)
    # fulls[g]: the lengths generation g's shards need not verify (the run
    # had as many problems of each as it takes when generation g's pool was fixed).
    fulls: dict[int, list[int]] = {0: [], 1: []}
    target = spread_target(settings, count)
    generation_accepted = 0  # problems taken since the current generation began
    if path.exists() and path.stat().st_size > 0:
        if not resume:
            raise ArgumentError(f"{path} exists: --resume to go on with it, or choose another --out")
        saved = load_state(path)
        state = saved.state
        assert state is not None
        differ = settings_differences(state.get("settings"), settings)
        if differ:
            raise ArgumentError(f"{path} was composed with other options: {'; '.join(differ)}: "
                                "resume with the same options")
        try:
            next_shard = int(state.get("next_shard", 0))
            skip = int(state.get("skip", 0))
            generations = Generations.from_state(settings, state)
            fulls = {int(g): [int(n) for n in lengths] for g, lengths in state["full"].items()}
            if "target" in state:
                target = None if state["target"] is None else int(state["target"])
            generation_accepted = int(state.get("generation_accepted", 0))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ArgumentError(f"{path}: its state is not one this version of tsume compose "
                                "can go on from: compose into a new file") from None
        previous = saved.entry()
    problems = saved.problems
    ideas = Ideas()
    ideas.add(settings.parent_ideas, "a parent")
    per_length: dict[int, int] = {}
    for p in problems:
        ideas.add(problem_keys(p), p.id)
        per_length[p.length or 0] = per_length.get(p.length or 0, 0) + 1
    summary = Summary(total=len(problems), target=target)
    started = time.monotonic()
    deadline = started + time_limit if time_limit is not None else None
    results: dict[int, ShardResult] = {}
    # What the shards not merged yet have done so far (their reports, then
    # their results): candidates, mates, longest mate.
    live: dict[int, tuple[int, int, int]] = {}

    def heard(data: dict[str, Any]) -> None:
        try:
            if int(data["shard"]) >= next_shard:
                live[int(data["shard"])] = (int(data["candidates"]), int(data["mates"]), int(data["longest"]))
        except (KeyError, TypeError, ValueError):
            pass  # a report of another shape: progress is a courtesy

    submitted = next_shard
    with Runner(run_shard, executor=executor, workers=workers, on_report=heard) as runner:
        while True:
            if count is not None and summary.total >= count:
                summary.stopped = "count"
                break
            if deadline is not None and time.monotonic() >= deadline:
                summary.stopped = "time"
                break
            while runner.room and (pool := generations.pool(submitted)) is not None:
                runner.submit(submitted, settings, submitted, pool, tuple(fulls[submitted // G]))
                submitted += 1
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            for fin in runner.wait(timeout=min(wait, 0.5) if wait is not None else 0.5):
                r = fin.get()
                results[fin.key] = r
                live[fin.key] = (r.candidates, r.mates, r.longest)
            # Take finished shards in order only: the same seed gives the same file.
            while next_shard in results:
                r = results.pop(next_shard)
                summary.shards += 1
                summary.candidates += r.candidates
                summary.mates += r.mates
                summary.longest = max(summary.longest, r.longest)
                summary.nodes += r.nodes
                summary.cpu += r.cpu
                for k, v in r.stages.items():
                    summary.stages[k] = summary.stages.get(k, 0) + v
                fresh: list[tuple[Problem, dict]] = []
                taken = skip
                cap = _cap(settings, target)
                for rec in r.accepted[skip:]:
                    if count is not None and summary.total + len(fresh) >= count:
                        break
                    taken += 1
                    keys = rec["ideas"]
                    hit = ideas.match(keys)
                    if hit is not None:
                        summary.duplicates += 1
                        summary.same_idea[hit[0]] = summary.same_idea.get(hit[0], 0) + 1
                        continue
                    if cap is not None and per_length.get(rec["length"], 0) >= cap:
                        summary.over_quota += 1
                        continue
                    problem = _problem(settings, rec, len(problems) + len(fresh) + 1, __version__)
                    ideas.add(keys, problem.id)
                    per_length[rec["length"]] = per_length.get(rec["length"], 0) + 1
                    fresh.append((problem, rec))
                generation_accepted += len(fresh)
                if taken < len(r.accepted):
                    skip = taken  # cut by the count: the rest of this shard is for a resumed run
                    results[next_shard] = r
                else:
                    live.pop(next_shard, None)
                    ended = generations.merge(next_shard, r.parents)
                    next_shard, skip = next_shard + 1, 0
                    if ended:
                        # Every shard before generation k = next_shard // G
                        # is merged: the pool of generation k + 1 is known.
                        if target is not None and generation_accepted == 0:
                            target += 1  # a dry generation: take more of the lengths that come
                        generation_accepted = 0
                        cap = _cap(settings, target)
                        fulls[next_shard // G + 1] = sorted(n for n, k in per_length.items()
                                                            if cap is not None and k >= cap)
                        fulls.pop(next_shard // G - 1, None)
                problems.extend(p for p, _ in fresh)
                state = {"next_shard": next_shard, "skip": skip, "settings": settings.state(),
                         **generations.state(),
                         "full": {str(g): lengths for g, lengths in sorted(fulls.items())},
                         "target": target, "generation_accepted": generation_accepted}
                # The state file, then the collection: one atomic write each (tsume.compose.state).
                previous = save_state(path, Saved(problems, saved.comments, state), previous)
                summary.target = target
                for p, rec in fresh:
                    summary.accepted += 1
                    summary.total += 1
                    summary.by_length[rec["length"]] = summary.by_length.get(rec["length"], 0) + 1
                    summary.by_method[rec["method"]] = summary.by_method.get(rec["method"], 0) + 1
                    for t in rec.get("themes", ()):
                        summary.by_theme[t] = summary.by_theme.get(t, 0) + 1
                    if on_accept is not None:
                        on_accept(p, rec)
                if count is not None and summary.total >= count:
                    break
            summary.elapsed = time.monotonic() - started
            summary.tried = summary.candidates + sum(c for c, _, _ in live.values())
            summary.mating = summary.mates + sum(m for _, m, _ in live.values())
            summary.longest_seen = max([summary.longest] + [n for _, _, n in live.values()])
            if progress is not None:
                progress(summary)
    summary.elapsed = time.monotonic() - started
    return summary


def settings_from(variant: str, *, methods: str = "random,mutate,reverse", seed: int = 1,
                  material: str | None = None, length: str | None = None, strict: bool = False,
                  parents: list[Problem] | None = None, shard_size: int = 40,
                  per_length: int | None = None, theme: str | None = None, avoid: str | None = None,
                  novelty: bool = False) -> Settings:
    """Settings from the CLI's strings (``length`` is ``N`` or ``MIN-MAX``,
    ``avoid`` comma-separated labels)."""
    ms = tuple(m.strip() for m in methods.split(",") if m.strip())
    # MIN alone: at least MIN plies.
    lo, hi = (1, 99) if length is None else check_range(length, "--length", 1, open_end=99)
    var = get_variant(variant).name
    ps = tuple((p.position, p.defender) for p in (parents or []))
    ideas = tuple(dict.fromkeys(k for p in (parents or []) for k in problem_keys(p)))
    return Settings(variant=var, methods=ms, seed=seed, material=material,
                    limits=Criteria(min_length=lo, max_length=hi, strict=strict), shard_size=shard_size,
                    parents=ps, parent_ideas=ideas, per_length=per_length, theme=theme,
                    avoid=tuple(t.strip() for t in (avoid or "").split(",") if t.strip()), novelty=novelty).check()
