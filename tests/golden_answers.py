"""Golden answers: what the engine says today, recorded to hold a rewrite of it to.

The files in ``tests/golden/`` (``tests/golden/README.md``) record perft
divides, the answer of ``solve`` and the report of ``verify`` for every
bundled problem.  This module computes an entry the way the files record it,
reads and writes the files, and compares an entry computed now with the
recorded one.  It is shared by ``benchmarks/make_golden.py`` (writes the
files), ``benchmarks/golden_check.py`` (checks all of them) and
``tests/test_golden.py`` (checks a sample in the normal test run).

Only answers are recorded and compared: node counts and times change with
every improvement of the search and sit in an ``info`` field nobody compares.
"""

from __future__ import annotations

import enum

import functools
import gzip
import json
import time
from pathlib import Path
from typing import Any

from tsume import Limits, Position, Variant, get_variant
from tsume.collection import Record as Problem
from tsume.collection import load, locate
from tsume.perft import divide, perft
from tsume.solve import solve
from tsume.variant import VARIANTS
from tsume.verify import LENGTH_BUDGET, verify

try:
    from tests import random_positions as _random
    from tests.test_variant_data import MINI
except ImportError:  # when tests/ itself is on sys.path
    import random_positions as _random  # type: ignore[no-redef]
    from test_variant_data import MINI  # type: ignore[no-redef]

GOLDEN = Path(__file__).resolve().parent / "golden"

#: The bundled collections, every problem of which is recorded.
COLLECTIONS = ("examples", "flawed", "seed-ito", "seed-rutherford", "long-ito", "long-rutherford", "records",
               "bench-ito", "bench-rutherford")
PARTS = ("perft", "solve", "verify")

#: The test files whose positions the perft file records (benchmarks/make_golden.py collects them).
RULES_TESTS = ("test_rules_ito.py", "test_rules_rutherford.py", "test_position_basics.py", "test_cross_movegen.py",
               "test_variant_data.py")
#: The variants whose start position the perft files record, besides those of every variant the tests use.
VARIANTS_FOR_START = ("ito", "rutherford", "mini")
#: A position is counted to the greatest depth whose perft stays within this many leaves.
PERFT_LEAVES = 200_000
#: Extra seeded random positions (tests/random_positions.py) of both games, counted to depth 2 or 3.
RANDOM_SEED = 20250707
RANDOM_COUNTS = {"ito": 200, "rutherford": 200}
RANDOM_DEPTHS = (2, 3)
#: The deepest count of any position (a position with very few moves stays within the leaves for long).
MAX_DEPTH = 12

#: A solve or verify that has not ended after this many CPU seconds is run
#: again with CAP_NODES as its node limit, and recorded as capped.
CAP_SECONDS = 300.0
CAP_NODES = 15_000_000

#: Variants defined by the tests (tests/test_variant_data.py), by name: a
#: spec ``mini:drop_mate=no`` names one with its switches as for built-in ones.
TEST_VARIANTS: dict[str, Variant] = {MINI.name: MINI}

_SWITCH_WORDS = {"yes": True, "no": False}


# --- variants -------------------------------------------------------------------------------------


def _switch_text(value: object) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def variant_spec(variant: Variant) -> str | None:
    """The spec that names ``variant`` in the golden files, or None if none does
    (a variant built by a test to be broken, say)."""
    if variant.name in VARIANTS:
        spec = variant.spec
    elif variant.name in TEST_VARIANTS:
        base = TEST_VARIANTS[variant.name]
        diffs = [f"{key}={_switch_text(getattr(variant, key))}" for key in base.switches
                 if getattr(variant, key) != getattr(base, key)]
        spec = variant.name + (":" + ",".join(diffs) if diffs else "")
    else:
        return None
    return spec if resolve_variant(spec) == variant else None


def resolve_variant(spec: str) -> Variant:
    """The variant a golden file's spec names: a built-in one or a test variant."""
    name, _, switches = spec.partition(":")
    if name not in TEST_VARIANTS:
        return get_variant(spec)
    options: dict[str, object] = {}
    for item in filter(None, switches.split(",")):
        key, _, value = item.partition("=")
        options[key] = _SWITCH_WORDS.get(value, value)
    return TEST_VARIANTS[name].with_options(**options)


# --- perft ----------------------------------------------------------------------------------------


def random_positions() -> list[tuple[str, str]]:
    """The extra random positions: (spec, position string)."""
    return [(spec, text) for spec, count in RANDOM_COUNTS.items()
            for text in _random.random_positions(RANDOM_SEED, spec, count)]


def _bounded_perft(pos: Position, depth: int, leaves: int) -> int | None:
    """``perft(pos, depth)``, or None as soon as it passes ``leaves`` (the
    count stops inside a subtree, so that a level far too large costs little)."""
    total = 0
    for m in pos.legal_moves():
        pos.push(m)
        n = perft(pos, depth - 1) if depth <= 3 else _bounded_perft(pos, depth - 1, leaves - total)
        pos.pop()
        if n is None:
            return None
        total += n
        if total > leaves:
            return None
    return total


def _bounded_divide(pos: Position, depth: int, leaves: int) -> dict[str, int] | None:
    """``divide(pos, depth)``, or None as soon as its total passes ``leaves``."""
    out: dict[str, int] = {}
    total = 0
    for m in pos.legal_moves():
        pos.push(m)
        n = _bounded_perft(pos, depth - 1, leaves - total) if depth > 1 else 1
        pos.pop()
        if n is None:
            return None
        out[str(m)] = n
        total += n
        if total > leaves:
            return None
    return out


def perft_entry(spec: str, text: str, leaves: int = PERFT_LEAVES, depths: tuple[int, int] = (1, MAX_DEPTH)) -> dict[str, Any]:
    """A position's divides at depths 1..d: d is the greatest depth (within
    ``depths``) whose total stays within ``leaves``, but at least ``depths[0]``.

    ``divide`` maps each first move to its counts at depths 1..d (the first
    is always 1); ``totals`` are the perft counts at depths 1..d.
    """
    pos = Position(text, resolve_variant(spec))
    by_depth: list[dict[str, int]] = []
    for depth in range(1, depths[1] + 1):
        if depth <= depths[0]:
            counts = divide(pos, depth)
        else:
            counts = _bounded_divide(pos, depth, leaves)
            if counts is None:
                break
        by_depth.append(counts)
        if not counts:  # no legal move: every depth is 0
            break
    # The depth was chosen by counting move by move; the record is divide's own answer.
    if by_depth and divide(pos, len(by_depth)) != by_depth[-1]:
        raise AssertionError(f"divide disagrees with a count move by move: {spec} {text}")
    return {
        "variant": spec,
        "position": text,
        "depth": len(by_depth),
        "totals": [sum(d.values()) for d in by_depth],
        "divide": {m: [d[m] for d in by_depth] for m in (by_depth[0] if by_depth else {})},
    }


def perft_now(entry: dict[str, Any], depth: int) -> dict[str, Any]:
    """The engine's answer now for ``entry``'s position at depths 1..``depth``,
    in the golden entry's form (depth, totals, divide)."""
    pos = Position(entry["position"], resolve_variant(entry["variant"]))
    by_depth = [divide(pos, d) for d in range(1, depth + 1)]
    moves = list(by_depth[0]) if by_depth else []
    return {
        "depth": depth,
        "totals": [sum(d.values()) for d in by_depth],
        "divide": {m: [d.get(m) for d in by_depth] for m in moves},
    }


def perft_cut(entry: dict[str, Any], depth: int) -> dict[str, Any]:
    """The golden entry cut to depths 1..``depth``, for comparison with :func:`perft_now`."""
    return {
        "depth": depth,
        "totals": entry["totals"][:depth],
        "divide": {m: counts[:depth] for m, counts in entry["divide"].items()},
    }


def cheap_depth(entry: dict[str, Any], leaves: int) -> int:
    """The greatest recorded depth whose total stays within ``leaves`` (at least 1)."""
    depth = 1
    for d, total in enumerate(entry["totals"], 1):
        if total <= leaves:
            depth = d
    return min(depth, entry["depth"])


# --- solve and verify -----------------------------------------------------------------------------


class _CpuCap(Exception):
    """A run passed CAP_SECONDS of CPU time."""


def _cpu_watch(seconds: float | None):
    """A progress callback that stops a run past ``seconds`` of CPU time."""
    if seconds is None:
        return None
    started = time.process_time()

    def check(_stats: dict) -> None:
        if time.process_time() - started > seconds:
            raise _CpuCap
    return check


def problem_input(problem: Problem) -> dict[str, Any]:
    """What the answer was computed from: the collection's lines that the engine reads."""
    return {"variant": problem.variant, "position": problem.position, "defender": problem.defender,
            "length": problem.length, "solution": problem.solution}


def solve_answer(problem: Problem, node_limit: int | None = None, progress=None) -> tuple[dict, dict]:
    """``tsume solve --file F --id X``'s answer (the call solve_command makes in
    tsume/cli.py), and the nodes it took."""
    r = solve(problem.problem(), limits=Limits(nodes=node_limit), progress=progress)
    return {
        "variant": r.variant,
        "position": r.position,
        "status": r.status,
        "length": r.length,
        "mainline": r.mainline,
        "readable": r.readable,
        "leftover": r.leftover,
        "upper_bound": r.upper_bound,
        "variations": [
            {"ply": v.ply, "move": v.move, "useless": v.useless, "length": v.length, "leftover": v.leftover,
             "line": v.line}
            for v in r.variations
        ],
    }, {"nodes": r.stats.get("nodes")}


def verify_answer(problem: Problem, node_limit: int | None = None, progress=None) -> tuple[dict, dict]:
    """``tsume verify --file F --id X``'s report (the call verify_command makes
    in tsume/cli.py: not strict, no longer-ok exception, the default length
    budget), and the nodes it took."""
    r = verify(problem.problem(), strict=False, longer_with_leftover_ok=False, limits=Limits(nodes=node_limit),
               progress=progress, length_budget=LENGTH_BUDGET)
    return {
        "variant": r.variant,
        "position": r.position,
        "verdict": r.verdict,
        "length": r.length,
        "mainline": r.mainline,
        "leftover": r.leftover,
        "findings": [{"kind": f.kind, "severity": f.severity, "ply": f.ply, "move": f.move, "length": f.length}
                     for f in r.findings],
        "alternatives": [
            # An inexact alternative's length is a bound that depends on the budget's nodes.
            {"ply": a.ply, "move": a.move, "status": a.status, "exact": a.exact, "kind": a.kind,
             "length": a.length if a.exact else None}
            for a in r.alternatives
        ],
        "variations": [{"ply": v.ply, "move": v.move, "status": v.status, "useless": v.useless, "length": v.length}
                       for v in r.variations],
    }, {"nodes": r.stats.get("nodes")}


def _plain(answer_of):
    """``answer_of`` with its answer as the files hold it: plain JSON values
    (a status or verdict enum becomes its word)."""
    @functools.wraps(answer_of)
    def plain(*args: Any, **kwargs: Any) -> tuple[dict, dict]:
        answer, info = answer_of(*args, **kwargs)
        return json.loads(json.dumps(answer)), info
    return plain


ANSWER = {"solve": _plain(solve_answer), "verify": _plain(verify_answer)}


def answer_entry(part: str, collection: str, problem: Problem, node_limit: int | None = None,
                 cpu_cap: float | None = None) -> dict[str, Any]:
    """One problem's golden entry for ``part`` (solve or verify): its input,
    the answer, whether it was capped (node limit) and, as ``info``, the
    nodes and CPU seconds it took (never compared).

    With ``cpu_cap``, a run past that many CPU seconds is stopped and run
    again with :data:`CAP_NODES` as its node limit.
    """
    started = time.process_time()
    try:
        # A progress callback only watches (the command line passes one too).
        answer, info = ANSWER[part](problem, node_limit=node_limit, progress=_cpu_watch(cpu_cap))
        cap = node_limit
    except _CpuCap:
        started = time.process_time()
        cap = CAP_NODES
        answer, info = ANSWER[part](problem, node_limit=cap)
    info["cpu_seconds"] = round(time.process_time() - started, 3)
    return {"collection": collection, "id": problem.id, "input": problem_input(problem), "answer": answer,
            "node_limit": cap, "info": info}


def collection_problems(name: str) -> list[Problem]:
    return load(locate(name))


# --- files ----------------------------------------------------------------------------------------


def golden_path(part: str, directory: Path = GOLDEN) -> Path:
    """The file of a part: ``perft.json``, ``solve.json``, ``verify.json`` (``.json.gz`` when large)."""
    plain = directory / f"{part}.json"
    zipped = directory / f"{part}.json.gz"
    return zipped if zipped.exists() and not plain.exists() else plain


#: A list or object whose items are all scalars is written on one line when it fits.
_LINE = 160


def _flat(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return all(not isinstance(v, (dict, list)) or (isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v))
               for v in items)


def _dump(value: Any, indent: str) -> str:
    if isinstance(value, (dict, list)) and value:
        one = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))
        if _flat(value) and len(indent) + len(one) <= _LINE:
            return one
        inner = indent + " "
        if isinstance(value, dict):
            items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(value[k], inner)}" for k in sorted(value)]
            return "{\n" + ",\n".join(items) + "\n" + indent + "}"
        return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def dumps(data: Any) -> str:
    """Pretty-printed JSON with sorted keys, short lists and objects of plain
    values on one line (one alternative, one divide entry, one main line a
    line): diff-friendly."""
    return _dump(data, "") + "\n"


#: A file larger than this is written gzipped.
GZIP_BYTES = 5_000_000


def write(part: str, data: Any, directory: Path = GOLDEN) -> Path:
    text = dumps(data)
    directory.mkdir(parents=True, exist_ok=True)
    plain, zipped = directory / f"{part}.json", directory / f"{part}.json.gz"
    path = zipped if len(text.encode("utf-8")) > GZIP_BYTES else plain
    tmp = path.with_name(path.name + ".tmp")
    if path is zipped:
        tmp.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    (plain if path is zipped else zipped).unlink(missing_ok=True)
    return path


def read(part: str, directory: Path = GOLDEN) -> Any:
    path = golden_path(part, directory)
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return json.loads(raw.decode("utf-8"))


# --- comparison -----------------------------------------------------------------------------------


def differences(golden: Any, now: Any, where: str = "") -> list[tuple[str, Any, Any]]:
    """Every difference between two JSON values: (field path, golden, now)."""
    if isinstance(golden, dict) and isinstance(now, dict):
        out = []
        for key in sorted(set(golden) | set(now)):
            path = f"{where}.{key}" if where else str(key)
            if key not in golden or key not in now:
                out.append((path, golden.get(key, "<absent>"), now.get(key, "<absent>")))
            else:
                out.extend(differences(golden[key], now[key], path))
        return out
    if isinstance(golden, list) and isinstance(now, list) and len(golden) == len(now):
        return [d for i, (g, n) in enumerate(zip(golden, now)) for d in differences(g, n, f"{where}[{i}]")]
    if isinstance(now, enum.Enum):  # (Status and Verdict are string enums; the files hold their strings)
        now = now.value
    return [] if golden == now and type(golden) is type(now) else [(where, golden, now)]


@functools.cache
def _problems_by_id(collection: str) -> dict[str, Problem]:
    return {p.id: p for p in collection_problems(collection)}


def check_answer(part: str, entry: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The differences between a recorded solve or verify entry and the engine's answer now
    (under the entry's node limit if it was capped).

    A problem whose collection lines changed since the file was made is a
    difference of ``input``; its answer is not compared."""
    problem = _problems_by_id(entry["collection"]).get(entry["id"])
    if problem is None:
        return [("input", entry["input"], "<problem gone>")]
    diffs = differences(entry["input"], problem_input(problem), "input")
    if diffs:
        return diffs
    answer, _info = ANSWER[part](problem, node_limit=entry["node_limit"])
    return differences(entry["answer"], answer, "answer")


def check_perft(entry: dict[str, Any], depth: int | None = None) -> list[tuple[str, Any, Any]]:
    """The differences between a recorded perft entry and the engine's divides
    now, at depths 1..``depth`` (default: every recorded depth)."""
    depth = entry["depth"] if depth is None else min(depth, entry["depth"])
    return differences(perft_cut(entry, depth), perft_now(entry, depth))


def perft_files(directory: Path = GOLDEN) -> list[str]:
    """The perft parts present: ``perft-rules``, ``perft-cross``, ``perft-random``."""
    return sorted({p.name.split(".")[0] for p in directory.glob("perft-*.json*")})


def sample(keys: list[str], every: int) -> list[str]:
    """Every ``every``-th of the sorted keys, from the first: a sample that stays the same."""
    return sorted(keys)[::every]


def describe(diffs: list[tuple[str, Any, Any]], limit: int = 400) -> list[str]:
    """One line per difference: ``field: golden X, now Y`` (long values cut short)."""
    def short(value: Any) -> str:
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= limit else text[:limit] + "..."
    return [f"{where or '(whole)'}: golden {short(g)}, now {short(n)}" for where, g, n in diffs]
