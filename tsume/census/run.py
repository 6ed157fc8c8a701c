"""A census run: the shards of a family on an Executor, each written to disk
as it finishes, then the census table and the collection of sound problems.

The output directory holds::

    census.json       the manifest: family, max plies, tsume version (written first)
    shard-<K>.json    one per shard (the defender king on square K): every position's
                      record and the shard's statistics, written atomically
                      (shard-<K>-<P>.json, one per part, when shards are cut in parts)
    table.json        the census table (:func:`table`)
    table.md          the same as a Markdown table, with the longest sound problem's diagram
    sound.tsume       the sound problems, a collection with their provenance

Shards are independent tasks (:func:`run_shard`, a plain top-level function
with plain arguments, so a process pool or a Dask cluster can ship it): they
run on any :class:`concurrent.futures.Executor` -- a local process pool by
default, a Dask client's executor with ``tsume census --scheduler``.  A shard's
file is written the moment its result comes back, through a temporary file
and a rename (:func:`tsume.files.write_atomic`): a census stopped by Ctrl-C, a
kill or a full disk loses only the shards that were running, and
``resume=True`` runs only the shards whose file is missing.  The table and
the collection are made from the shard files alone, in shard order, so a
resumed census gives the same table (the rates aside) as one run straight
through, on any number of workers.

**Memory.**  Each shard builds its own game graph.  Before anything runs, the
memory a shard needs is estimated from the family's size and a probe of its
graph (:func:`estimate_mb`), and the census is refused, in one line, when
``workers`` shards at once would not fit in the budget (default: half of the
memory available).  While it runs, each shard's graph is held to the nodes the
budget allows (:func:`node_budget`): a shard that outgrows the estimate stops
the census with one line, the finished shards kept, instead of running the
machine out of memory.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..arguments import check_max_length, check_memory_mb, check_positive_int
from ..collection import Problem, save
from ..errors import ArgumentError
from ..files import write_atomic
from ..outcome import Status, Verdict
from ..problem import Problem as Tsume
from ..render import diagram, plies
from ..shards import Finished, Runner
from .classify import classify
from .family import Family, parse_family
from .._engine import census_cancel
from .retro import CensusLimit, analyse, solve_shard

__all__ = ["census", "run_shard", "table", "Summary", "estimate_mb", "memory_budget_mb", "read_shards",
           "probe_factor", "node_budget", "read_json", "shard_path", "shard_keys", "MANIFEST", "BYTES_PER_NODE", "BASE_MB", "PROBE_SAMPLES",
           "PROBE_NODES"]

MANIFEST = "census.json"
FORMAT = 1  # of the manifest and shard files

# --- the memory model ---------------------------------------------------------------------------
# A shard of P positions builds a graph of about F * P nodes, each costing
# about BYTES_PER_NODE while the shard runs, on top of BASE_MB for the worker
# process itself (the interpreter, tsume, the classification's df-pn tables).
#
# F, the graph-expansion factor, is not a constant: measured on the middle
# shard of small families at 15 plies it runs from 5 nodes per position (Ito
# attacker=GT, nothing in hand) through 75 (attacker=GT, hand=G) to over 700
# (a lone king against two pieces in hand), and a defender's hand of "the
# rest" against a rider makes it explode (Ito attacker=C, hand=G: a single
# position passes 1,000,000 nodes).  So it is measured for each census by a
# **probe** (:func:`probe_factor`): the graphs of 1, 4, 16, 64 and 256
# positions spread evenly over the middle shard, built to the census's
# max_plies, each under PROBE_NODES nodes; the largest sample that finishes
# gives F.  A sample shares fewer nodes between its positions than the whole
# shard does, so F is overestimated (x3.7 for Ito attacker=GT, hand=G: 278
# from 64 positions, 74.5 over the whole shard of 758), a safe side for a
# refusal.  When not even one position finishes, F >= PROBE_NODES: a lower
# bound, and the message says "at least".
#
# BYTES_PER_NODE and BASE_MB were measured (Python 3.11, x86-64) by running
# analyse() in a fresh process and reading the peak resident memory
# (ru_maxrss) before and after.  The graph is the engine's flat arrays
# (engine/src/census/): a finished graph costs 44-48 bytes a node (Ito
# attacker=GT, hand=GT, shard 12: 670,329 nodes, +30.4 MB, 47.5 bytes;
# Rutherford attacker=LS, hand=S, length=9, shard 3: 125,664 nodes, 44.5
# bytes), one stopped while it grows 38 (Ito attacker=C, hand=G, one
# position of shard 16 stopped at 1,000,000 and at 4,000,000 nodes: 38.2 and
# 37.5 bytes).  BYTES_PER_NODE is twice the most measured, for wider keys and
# more edges per node than these.  A worker process holds 23-25 MB before its
# first shard; BASE_MB adds room for the classification's df-pn tables and
# the shard's records.
#
# The budget is also enforced while the census runs: every shard gets the
# node limit NODES = (budget / shards at once - BASE_MB) / BYTES_PER_NODE,
# so a graph that outgrows the estimate stops its shard with one line
# (the finished shards are kept) instead of running the machine out of memory.
BYTES_PER_NODE = 100
BASE_MB = 60
PROBE_SAMPLES = (1, 4, 16, 64, 256)
PROBE_NODES = 100_000


def probe_factor(family: Family, max_plies: int) -> tuple[float, bool]:
    """The graph-expansion factor of ``family`` at ``max_plies`` (nodes per
    position, see above) and whether a probe finished (False: a lower bound)."""
    keys = family.shards()
    positions = list(family.positions(keys[len(keys) // 2])) if keys else []
    if not positions:
        return 1.0, True
    factor: float | None = None
    for size in PROBE_SAMPLES:
        step = -(-len(positions) // size)
        sample = positions[::step]
        try:
            _, stats = analyse(sample, max_plies, node_limit=PROBE_NODES)
        except CensusLimit:
            break
        factor = max(1.0, stats["graph_nodes"] / len(sample))
        if len(sample) == len(positions):
            break
    if factor is None:
        return float(PROBE_NODES), False
    return factor, True


def node_budget(budget_mb: float, parallel: int) -> int:
    """The most graph nodes one shard may build when ``parallel`` shards run
    at once within ``budget_mb`` (module comment above)."""
    return max(1_000, int((budget_mb / parallel - BASE_MB) * 1e6 / BYTES_PER_NODE))


def estimate_mb(family: Family, max_plies: int, count: int | None = None,
                factor: float | None = None, parts: int = 1) -> float:
    """The memory one shard of ``family`` (one part of it, when each is cut
    in ``parts``) needs at ``max_plies``, in MB: the family's positions per
    task x the probed factor x BYTES_PER_NODE, plus BASE_MB (module comment
    above)."""
    shards = max(1, len(family.shards()) * parts)
    n = family.count() if count is None else count
    f = probe_factor(family, max_plies)[0] if factor is None else factor
    return BASE_MB + n / shards * f * BYTES_PER_NODE / 1e6


def memory_budget_mb() -> float:
    """Half of the memory available now (MemAvailable of /proc/meminfo), or
    4096 MB where there is no /proc/meminfo."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024 / 2
    except (OSError, ValueError, IndexError):
        pass
    return 4096.0


def _material(family: Family) -> str:
    """The family's string without its variant (what :func:`parse_family` reads)."""
    return family.spec().split(": ", 1)[1]


def run_shard(material: str, variant_spec: str, shard: int, max_plies: int,
              node_limit: int | None = None, part: int = 0, parts: int = 1) -> dict[str, Any]:
    """Solve and classify every position of one shard (with ``parts`` > 1,
    of part ``part`` of it: :func:`~tsume.census.retro.shard_part`).  Plain
    arguments in, a plain dict out (what the shard's file holds), so that any
    executor can ship both."""
    family = parse_family(material, variant_spec)
    started = time.perf_counter()
    solved, stats = solve_shard(family, shard, max_plies, node_limit, part, parts)
    solved_at = time.perf_counter()
    records = []
    nodes = 0
    for s in solved:
        rec: dict[str, Any] = {"position": s.position, "status": s.status, "length": s.length,
                               "first_moves": list(s.first_moves), "method": s.method,
                               "verdict": None, "findings": [], "redundant": []}
        if s.status == Status.MATE:
            c = classify(s, family)
            nodes += c.pop("nodes", 0)
            rec.update(c)
        records.append(rec)
    stats = dict(stats)
    stats["seconds_solve"] = round(solved_at - started, 3)
    stats["seconds_classify"] = round(time.perf_counter() - solved_at, 3)
    stats["classify_nodes"] = nodes
    out = {"format": FORMAT, "family": family.spec(), "max_plies": max_plies, "shard": shard,
           "stats": stats, "records": records}
    if parts > 1:
        out.update(part=part, parts=parts)
    return out


@dataclass
class Summary:
    """Where a census stands (passed to ``progress`` after every shard) and,
    at the end, its table."""

    family: str
    out_dir: str
    max_plies: int
    shards_total: int = 0
    shards_done: int = 0        # finished, this run or an earlier one
    shards_skipped: int = 0     # found on disk by a resumed run
    positions_total: int = 0
    positions_done: int = 0     # in the finished shards, this run or earlier
    positions_run: int = 0      # solved by this run
    workers: int = 1
    estimate_mb: float = 0.0    # per shard
    factor: float = 0.0         # graph nodes per position, from the probe
    factor_exact: bool = True   # False: the probe hit its limit, the factor is a lower bound
    node_limit: int = 0         # the most graph nodes a shard may build (from the budget)
    budget_mb: float = 0.0
    elapsed: float = 0.0
    table: dict[str, Any] | None = None
    stats: dict[str, float] = field(default_factory=dict)  # this run's shard statistics, summed

    @property
    def rate(self) -> float:
        """Positions solved (and classified) per second by this run."""
        return self.positions_run / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        if not self.positions_run or self.elapsed <= 0:
            return None
        return (self.positions_total - self.positions_done) / self.rate


def _take(out: Path, key: tuple[int, int], parts: int, result: dict[str, Any], summary: Summary) -> None:
    """Write a finished shard's file (atomically) and count it in ``summary``."""
    write_atomic(shard_path(out, key[0], key[1], parts), json.dumps(result, separators=(",", ":")) + "\n")
    summary.shards_done += 1
    summary.positions_done += len(result["records"])
    summary.positions_run += len(result["records"])
    for k, v in result["stats"].items():
        if isinstance(v, (int, float)):
            summary.stats[k] = summary.stats.get(k, 0) + v


def shard_path(out: Path, key: int, part: int = 0, parts: int = 1) -> Path:
    """The file of shard ``key`` (of its part ``part`` when it is cut in
    ``parts``) in the census directory ``out``."""
    if parts > 1:
        return out / f"shard-{key:02d}-{part:0{max(2, len(str(parts - 1)))}d}.json"
    return out / f"shard-{key:02d}.json"


def shard_keys(family: Family, parts: int = 1) -> list[tuple[int, int]]:
    """The census's tasks in order: (king square, part) for every shard and part."""
    return [(k, p) for k in family.shards() for p in range(parts)]


def _key_name(key: tuple[int, int], parts: int) -> str:
    return f"{key[0]} part {key[1]}" if parts > 1 else str(key[0])


def _manifest(family: Family, max_plies: int, parts: int) -> dict[str, Any]:
    from .. import __version__

    out = {"format": FORMAT, "tool": "tsume census", "version": __version__, "family": family.spec(),
           "max_plies": max_plies}
    if parts > 1:
        out["parts"] = parts
    return out


def read_json(path: Path) -> Any:
    """The JSON of a census file, None when it is not UTF-8 JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None


def _prepare(family: Family, out: Path, max_plies: int, resume: bool, parts: int) -> set[tuple[int, int]]:
    """Check or create ``out`` and its manifest; the shards already done."""
    manifest = out / MANIFEST
    if out.exists() and not out.is_dir():
        raise ArgumentError(f"{out} is not a directory: choose another output directory")
    busy = out.is_dir() and any(out.iterdir())
    if busy and not resume:
        raise ArgumentError(f"{out} is not empty: --resume to go on with its census, or choose another directory")
    if not busy:
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(manifest, json.dumps(_manifest(family, max_plies, parts), indent=1) + "\n")
        return set()
    stored = read_json(manifest) if manifest.is_file() else None
    if not isinstance(stored, dict) or "family" not in stored:
        raise ArgumentError(f"{out} holds no {MANIFEST} of tsume census: it is not a census directory")
    if stored.get("family") != family.spec() or stored.get("max_plies") != max_plies:
        if stored.get("family") != family.spec():
            raise ArgumentError(f"{out} holds the census of another family ({stored.get('family')}): "
                                "resume with the same --material and --variant")
        raise ArgumentError(f"{out} holds a census to {plies(stored.get('max_plies') or 0)}, not {max_plies}: "
                            "resume with the same --max-length")
    if stored.get("parts", 1) != parts:
        raise ArgumentError(f"{out} holds a census cut in {stored.get('parts', 1)} part(s) a shard, not {parts}: "
                            "resume with the same --parts")
    done = set()
    for key in shard_keys(family, parts):
        path = shard_path(out, key[0], key[1], parts)
        data = read_json(path) if path.is_file() else None
        # A file that cannot be read back is run again (a write is atomic, so
        # only a hand-edited file is ever partial).
        if isinstance(data, dict) and data.get("family") == family.spec() and data.get("max_plies") == max_plies \
                and isinstance(data.get("records"), list):
            done.add(key)
    return done


def read_shards(out_dir: "str | os.PathLike", family: Family, parts: int = 1) -> list[dict[str, Any]]:
    """The shard files of a finished census directory, in shard order."""
    out = Path(out_dir)
    shards = []
    for key, part in shard_keys(family, parts):
        data = read_json(shard_path(out, key, part, parts))
        if not isinstance(data, dict):
            raise ArgumentError(f"{shard_path(out, key, part, parts)}: not a shard file of tsume census")
        shards.append(data)
    return shards


def census(
    family: Family,
    out_dir: "str | os.PathLike",
    *,
    max_plies: int,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    resume: bool = False,
    progress: Callable[[Summary], None] | None = None,
    memory_mb: float | None = None,
    node_limit: int | None = None,
    parts: int = 1,
) -> Summary:
    """Take the census of ``family`` into the directory ``out_dir`` (module
    docstring): every position solved to ``max_plies`` plies, every mate
    classified, the table and the sound problems written.

    ``executor`` runs the shards (default: a process pool of ``workers``,
    all cores when None).  ``out_dir`` must be missing or empty unless
    ``resume``, which runs only the shards not on disk (same family and
    ``max_plies``).  ``memory_mb`` is the budget (default: half of the memory
    available); ``workers`` shards at once must fit in it (one shard when an
    executor is given and ``workers`` is not).  ``node_limit`` bounds each
    shard's graph (default: what the budget allows, :func:`node_budget`); a
    shard that needs more stops the census with a
    :class:`~tsume.census.retro.CensusLimit` (finished shards are kept).
    ``parts`` cuts each shard into that many tasks of consecutive positions
    (:func:`~tsume.census.retro.shard_part`): a census whose shards do not
    fit in memory runs in smaller pieces, to the same table.
    ``progress(summary)`` is called after every shard.
    KeyboardInterrupt propagates, with every finished shard on disk."""
    if not isinstance(family, Family):
        raise ArgumentError(f"family must be a Family (tsume.census.parse_family), not {type(family).__name__}")
    bounded = check_max_length(max_plies, "max_plies")
    if bounded is None:
        raise ArgumentError("max_plies must be given: the census solves to a bounded length")
    max_plies = bounded
    workers = check_positive_int(workers, "workers")
    budget = check_memory_mb(memory_mb, "memory_mb")
    node_limit = check_positive_int(node_limit, "node_limit")
    parts = check_positive_int(parts, "parts") or 1
    material = _material(family)
    # The shards rebuild the family from its string: the same family, up to
    # the order of its men (the canonical string is the same).
    if parse_family(material, family.variant).spec() != family.spec():
        raise ArgumentError(f"family {family.spec()!r} does not read back as itself")
    keys = shard_keys(family, parts)
    started = time.monotonic()
    total = family.count()
    factor, probed = probe_factor(family, max_plies)
    per_shard = estimate_mb(family, max_plies, total, factor, parts)
    parallel = workers or (min(os.cpu_count() or 1, len(keys)) if executor is None else 1)
    if budget is None:
        budget = memory_budget_mb()
    if parallel * per_shard > budget:
        at_least = "" if probed else "at least "
        raise ArgumentError(f"the census of {family.spec()} needs {at_least}about {per_shard:,.0f} MB per shard, "
                            f"{parallel * per_shard:,.0f} MB for {parallel} at once: more than the "
                            f"{budget:,.0f} MB budget (use fewer workers, more parts, or more memory)")
    guard = node_limit if node_limit is not None else node_budget(budget, parallel)
    out = Path(out_dir)
    done = _prepare(family, out, max_plies, resume, parts)
    summary = Summary(family=family.spec(), out_dir=str(out), max_plies=max_plies, shards_total=len(keys),
                      shards_done=len(done), shards_skipped=len(done), positions_total=total,
                      workers=parallel, estimate_mb=per_shard, budget_mb=budget, factor=factor,
                      factor_exact=probed, node_limit=guard)
    for key in sorted(done):
        data = read_json(shard_path(out, key[0], key[1], parts))
        summary.positions_done += len(data["records"])
    todo = [k for k in keys if k not in done]
    if progress is not None:
        progress(summary)
    tasks = [(key, (material, family.variant.spec, key[0], max_plies, guard, key[1], parts)) for key in todo]
    width = None if executor is None else max(2 * parallel, 8)
    if tasks:
        try:
            with Runner(run_shard, executor=executor, workers=parallel, width=width) as runner:
                for batch in runner.run(tasks):
                    failed: Finished | None = None
                    for fin in batch:
                        if fin.error is not None:
                            failed = failed or fin
                            continue
                        _take(out, fin.key, parts, fin.value, summary)
                        summary.elapsed = time.monotonic() - started
                        if progress is not None:
                            progress(summary)
                    if failed is None:
                        continue
                    # Every shard that finished with it is on disk: nothing done is lost.
                    if isinstance(failed.error, CensusLimit):
                        why = ""
                        if "graph" in str(failed.error) and node_limit is None:
                            why = f" (the memory budget: {budget:,.0f} MB for {parallel} shard(s) at once)"
                        raise CensusLimit(f"shard {_key_name(failed.key, parts)}: {failed.error}{why}; the "
                                          f"{summary.shards_done} finished shard(s) are kept in {out}: --resume with "
                                          "more --memory or fewer --workers (or a new census with more --parts)")
                    failed.get()
        except BaseException:
            # Shards running as threads of this process (--threads) stop now,
            # instead of the pool waiting for their graphs to be finished.
            census_cancel()
            raise
    shards = read_shards(out, family, parts)
    summary.table = table([r for sh in shards for r in sh["records"]],
                          stats=[sh["stats"] for sh in shards], family=family, max_plies=max_plies)
    _write_outputs(out, family, max_plies, shards, summary.table)
    summary.elapsed = time.monotonic() - started
    return summary


# --- the table -------------------------------------------------------------------------------


def _by_length(records: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[int, int] = {}
    for r in records:
        counts[r["length"]] = counts.get(r["length"], 0) + 1
    return {str(k): counts[k] for k in sorted(counts)}


def _longest(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not records:
        return None
    best = min(records, key=lambda r: (-r["length"], r["position"]))
    out = {"position": best["position"], "length": best["length"], "verdict": best["verdict"],
           "first_moves": best["first_moves"]}
    if best.get("solution") is not None:
        out["solution"] = best["solution"]
    if best["verdict"] == Verdict.SOUND:
        out["redundant"] = best["redundant"]
    return out


def table(records: list[dict[str, Any]], *, stats: list[dict[str, Any]] | None = None,
          family: Family | None = None, max_plies: int | None = None) -> dict[str, Any]:
    """The census table of a family's records (those of :func:`run_shard`):
    positions, mates, sound and economical sound problems by length, the
    verdicts, the longest sound problem and the longest mate; with the shards'
    ``stats``, the positions per second of each method (``rates``, the only
    part that depends on the machine)."""
    mates = [r for r in records if r["status"] == Status.MATE]
    sound = [r for r in mates if r["verdict"] == Verdict.SOUND]
    economical = [r for r in sound if not r["redundant"]]
    verdicts: dict[str, int] = {}
    for r in mates:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    methods: dict[str, int] = {}
    for r in records:
        methods[r["method"]] = methods.get(r["method"], 0) + 1
    out: dict[str, Any] = {
        "family": family.spec() if family is not None else None,
        "max_plies": max_plies,
        "positions": len(records),
        "mates": len(mates),
        "nomates": len(records) - len(mates),
        "mates_by_length": _by_length(mates),
        "sound_by_length": _by_length(sound),
        "economical_by_length": _by_length(economical),
        "verdicts": dict(sorted(verdicts.items())),
        "sound": len(sound),
        "economical": len(economical),
        "methods": dict(sorted(methods.items())),
        "longest_sound": _longest(sound),
        "longest_economical": _longest(economical),
        "longest_mate": _longest(mates),
    }
    if stats is not None:
        out["rates"] = _rates(stats)
    return out


def _rates(stats: list[dict[str, Any]]) -> dict[str, Any]:
    """Positions per second of each method, summed over the shards: the
    retrograde pass's positions over its graph and backward seconds, df-pn's
    over its seconds; and the classification's."""
    def total(key: str) -> float:
        return float(sum(s.get(key, 0) or 0 for s in stats))

    retro_s = total("seconds_graph") + total("seconds_backward")
    dfpn_s = total("seconds_dfpn")
    classify_s = total("seconds_classify")
    positions = total("positions")

    def rate(n: float, secs: float) -> float | None:
        return round(n / secs, 1) if secs > 0 and n else None

    return {
        "retro_positions": int(total("retro")),
        "retro_seconds": round(retro_s, 3),
        "retro_per_second": rate(total("retro"), retro_s),
        "dfpn_positions": int(total("dfpn")),
        "dfpn_seconds": round(dfpn_s, 3),
        "dfpn_per_second": rate(total("dfpn"), dfpn_s),
        "graph_nodes": int(total("graph_nodes")),
        "classify_seconds": round(classify_s, 3),
        "overall_per_second": rate(positions, retro_s + dfpn_s + classify_s),
    }


def _variant_name(family: Family) -> str:
    return family.variant.name


def sound_problems(records: list[dict[str, Any]], shard_of: dict[str, int], family: Family,
                   max_plies: int) -> list[Problem]:
    """The sound problems as a collection, longest first (then by position):
    ids ``census-<variant>-<n>``, the provenance naming the family."""
    from .. import __version__

    sound = sorted((r for r in records if r["status"] == Status.MATE and r["verdict"] == Verdict.SOUND),
                   key=lambda r: (-r["length"], r["position"]))
    width = max(4, len(str(len(sound))))
    problems = []
    for n, r in enumerate(sound, 1):
        extra = f"; redundant={' '.join(r['redundant'])}" if r["redundant"] else ""
        problems.append(Problem(
            id=f"census-{_variant_name(family)}-{n:0{width}d}",
            variant=family.variant.spec,
            position=r["position"],
            defender=family.defender_hand,
            length=r["length"],
            solution=list(r["solution"]),
            author="tsume census",
            tags=["census", f"len{r['length']:02d}", "uneconomical" if r["redundant"] else "economical"],
            provenance=(f"census; family={family.spec()}; max-plies={max_plies}; shard={shard_of[r['position']]}; "
                        f"method={r['method']}; tool=tsume {__version__}{extra}"),
        ))
    return problems


def table_markdown(t: dict[str, Any], family: Family) -> str:
    """The table as Markdown, with the longest sound problem's diagram."""
    lengths = sorted({int(k) for k in t["mates_by_length"]})
    lines = [f"# Census: {t['family']}", "",
             f"Every position solved to {plies(t['max_plies'])} (tsume census, docs/census.md).", "",
             "| length | mates | sound | economical |", "|---:|---:|---:|---:|"]
    for n in lengths:
        k = str(n)
        lines.append(f"| {n} | {t['mates_by_length'].get(k, 0)} | {t['sound_by_length'].get(k, 0)} "
                     f"| {t['economical_by_length'].get(k, 0)} |")
    lines.append(f"| **all** | **{t['mates']}** | **{t['sound']}** | **{t['economical']}** |")
    lines += ["", f"- positions: {t['positions']:,}",
              f"- mates within {plies(t['max_plies'])}: {t['mates']:,}; no mate: {t['nomates']:,}",
              "- verdicts of the mates: " + (", ".join(f"{k} {v:,}" for k, v in t["verdicts"].items()) or "-"),
              "- settled by: " + ", ".join(f"{k} {v:,}" for k, v in t["methods"].items())]
    rates = t.get("rates")
    if rates:
        def r(x: float | None) -> str:
            return "-" if x is None else f"{x:,.1f}"

        lines.append(f"- {method_times(rates)}; per worker-second: retrograde {r(rates['retro_per_second'])} "
                     f"positions, df-pn {r(rates['dfpn_per_second'])}")
    lm = t["longest_mate"]
    if lm:
        lines.append(f"- longest mate: {plies(lm['length'])}, `{lm['position']}` ({lm['verdict']})")
    ls = t["longest_sound"]
    lines.append("")
    if ls is None:
        lines.append("No sound problem.")
    else:
        eco = "economical" if not ls.get("redundant") else "redundant: " + ", ".join(ls["redundant"])
        lines += [f"## The longest sound problem: {plies(ls['length'])} ({eco})", "", "```text",
                  diagram(Tsume(ls["position"], variant=family.variant, defender=family.defender_hand).position(),
                          tsume=True),
                  "```", "", f"Solution: {' '.join(ls['solution'])}"]
        le = t.get("longest_economical")
        if le and le["position"] != ls["position"]:
            lines += ["", f"The longest economical one: {plies(le['length'])}, `{le['position']}`."]
    return "\n".join(lines) + "\n"


def method_times(rates: dict[str, Any]) -> str:
    """Where the workers' time went, per method (summed over the workers, so
    not comparable with the run's elapsed time and its positions per second)."""
    return (f"worker time by method: retrograde {rates['retro_seconds']:.3f} s for {rates['retro_positions']:,} "
            f"positions ({rates['graph_nodes']:,} graph nodes), df-pn {rates['dfpn_seconds']:.3f} s for "
            f"{rates['dfpn_positions']:,}, classification {rates['classify_seconds']:.3f} s")


def table_text(t: dict[str, Any]) -> str:
    """The table as plain text (what ``tsume census`` prints)."""
    lengths = sorted({int(k) for k in t["mates_by_length"]})
    rows = [("length", "mates", "sound", "economical")]
    for n in lengths:
        k = str(n)
        rows.append((str(n), str(t["mates_by_length"].get(k, 0)), str(t["sound_by_length"].get(k, 0)),
                     str(t["economical_by_length"].get(k, 0))))
    rows.append(("all", str(t["mates"]), str(t["sound"]), str(t["economical"])))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"census of {t['family']}, to {plies(t['max_plies'])}: {t['positions']:,} positions, "
             f"{t['mates']:,} mate, {t['sound']:,} sound ({t['economical']:,} economical)"]
    lines += ["  " + "  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows]
    for key, word in (("longest_sound", "longest sound problem"), ("longest_mate", "longest mate")):
        x = t[key]
        if x:
            lines.append(f"{word}: {plies(x['length'])}: {x['position']}"
                         + (f"  {' '.join(x['solution'])}" if key == "longest_sound" else f" ({x['verdict']})"))
    rates = t.get("rates")
    if rates:
        lines.append(method_times(rates))
    return "\n".join(lines)


def _write_outputs(out: Path, family: Family, max_plies: int, shards: list[dict[str, Any]], t: dict[str, Any]) -> None:
    records = [r for sh in shards for r in sh["records"]]
    shard_of = {r["position"]: sh["shard"] for sh in shards for r in sh["records"]}
    write_atomic(out / "table.json", json.dumps(t, indent=1) + "\n")
    write_atomic(out / "table.md", table_markdown(t, family))
    problems = sound_problems(records, shard_of, family, max_plies)
    save(out / "sound.tsume", problems,
         header=(f"The sound problems of the census of {family.spec()}, to {plies(max_plies)}\n"
                 f"(tsume census, docs/census.md): {len(problems)} problem(s), longest first."))
