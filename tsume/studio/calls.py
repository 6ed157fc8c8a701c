"""The studio's one door into the library: every call it makes to solve,
verify, compose, play or print goes through here.

A request arrives as plain JSON values (checked by :mod:`tsume.studio.api`);
this module turns them into the library's arguments, runs the call, and
returns the answer as the same JSON the command line prints with
``--json`` (``tsume solve --json``, ``tsume verify --json``, ``tsume compose
--json``'s objects).  :func:`run` is what a job's worker process executes.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..collection import Record, find, load
from ..errors import ArgumentError
from ..files import write_atomic
from ..limits import Limits
from ..problem import Problem

__all__ = ["problem", "check_problem", "check_compose", "run", "KINDS"]

KINDS = ("solve", "verify", "compose", "play", "booklet")

Report = Callable[..., None]


def problem(fields: dict[str, Any]) -> Record:
    """A collection record from the API's problem object."""
    return Record(
        id=fields.get("id") or "position",
        position=fields["position"],
        variant=fields.get("variant") or "ito",
        defender=fields.get("defender"),
        length=fields.get("length"),
        solution=list(fields["solution"]) if fields.get("solution") else None,
        title=fields.get("title"),
        author=fields.get("author"),
        tags=list(fields.get("tags") or []),
        notes=fields.get("notes"),
    )


def check_problem(fields: dict[str, Any]) -> Problem:
    """The tsume a problem states (raises a TsumeError in one line): what
    the server checks before it starts a job for it."""
    return problem(fields).problem()


def _limits(payload: dict) -> Limits:
    lim = payload.get("limits") or {}
    return Limits(time=lim.get("time_limit"), nodes=lim.get("nodes"), memory=lim.get("memory"))


def _search_progress(report: Report) -> Callable[[dict], None]:
    def progress(stats: dict) -> None:
        report({"nodes": stats.get("nodes", 0), "seconds": round(stats.get("seconds", 0.0), 2),
                "nodes_per_second": round(stats.get("nodes_per_second", 0.0)),
                "table_entries": stats.get("table_entries", 0), "gc_runs": stats.get("gc_runs", 0)})
    return progress


def _solve(payload: dict, report: Report) -> dict:
    from ..solve import solve

    result = solve(check_problem(payload["problem"]), max_length=payload.get("max_length"), limits=_limits(payload),
                   progress=_search_progress(report), progress_interval=0.25)
    if payload.get("max_length") is not None:
        result.stats["max_length"] = payload["max_length"]
    return result.to_dict()


def _verify(payload: dict, report: Report) -> dict:
    from ..verify import LENGTH_BUDGET, verify

    budget = None if payload.get("exact_lengths") else payload.get("length_budget") or LENGTH_BUDGET
    record = problem(payload["problem"])
    result = verify(record.problem(), strict=bool(payload.get("strict")),
                    longer_with_leftover_ok=bool(payload.get("longer_ok")), limits=_limits(payload),
                    progress=_search_progress(report), length_budget=budget, id=record.id)
    out = result.to_dict()
    if payload.get("certificate_out"):
        out["certificate"] = _certify(record.problem(), result, payload)
    return {"problems": [out]}


def _certify(tsume: Problem, result: Any, payload: dict) -> dict:
    """A sound problem's certificate (docs/certificates.md), written where the
    payload says when the checker accepts it; what became of it, as JSON."""
    from ..certificate import file_name
    from ..certificate.write import CertificateError, write_certificate

    if result.verdict != "sound":
        return {"certified": False, "reason": f"not certified: the problem is {result.verdict}"}
    if payload.get("strict") or payload.get("longer_ok"):
        return {"certified": False, "reason": "not certified: a certificate takes the default conventions"}
    try:
        data = write_certificate(tsume, result, limits=_limits(payload))
    except CertificateError as exc:
        return {"certified": False, "reason": str(exc)}
    write_atomic(payload["certificate_out"], data)
    return {"certified": True, "bytes": len(data), "file_name": file_name(payload["problem"].get("id"))}


def _settings(payload: dict) -> Any:
    from ..compose.run import settings_from

    lo, hi = payload.get("min_length", 1), payload.get("max_length", 99)
    return settings_from(payload.get("variant") or "ito", methods=",".join(payload.get("methods") or []) or
                         "random,mutate,reverse", seed=payload.get("seed", 1), material=payload.get("material"),
                         length=f"{lo}-{hi}", strict=bool(payload.get("strict")), per_length=payload.get("per_length"))


def check_compose(payload: dict) -> None:
    """Check a compose request's settings (material, lengths, methods) before
    a job starts: a TsumeError in one line."""
    _settings(payload)


def _compose(payload: dict, report: Report) -> dict:
    from ..compose.run import accepted_json, compose

    accepted: list[dict] = []
    settings = _settings(payload)
    state: dict[str, Any] = {"accepted": accepted}

    def on_accept(pr: Record, record: dict) -> None:
        accepted.append(accepted_json(pr, record))
        report({**state, "accepted": list(accepted)}, True)

    def progress(summary: Any) -> None:
        state.update(candidates=summary.candidates, shards=summary.shards, total=summary.total,
                     elapsed=round(summary.elapsed, 1),
                     by_length={str(k): v for k, v in sorted(summary.by_length.items())})
        report({**state, "accepted": list(accepted)})

    workers = payload.get("workers") or 1
    # One worker: the shards run on a thread of this (already separate) process,
    # not in a pool of processes of its own.
    executor = ThreadPoolExecutor(1) if workers == 1 else None
    try:
        summary = compose(settings, payload["out"], count=payload.get("count"), time_limit=payload.get("time_limit"),
                          workers=workers, executor=executor, on_accept=on_accept, progress=progress)
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return {"problems": accepted, "summary": {"accepted": summary.accepted, "total": summary.total,
                                              "candidates": summary.candidates, "shards": summary.shards,
                                              "stopped": summary.stopped, "elapsed": round(summary.elapsed, 1),
                                              "by_length": {str(k): v for k, v in sorted(summary.by_length.items())}}}


def _play(payload: dict, report: Report) -> dict:
    from ..play import frames, play_tree

    tree = play_tree(check_problem(payload["problem"]), limits=_limits(payload), progress=report)
    return {**tree, "frames": frames(tree, kanji=bool(payload.get("kanji")))}


def _booklet(payload: dict, report: Report) -> dict:
    from ..booklet import DEFAULT_NODE_LIMIT, build

    path = Path(payload["collection_path"])
    problems = load(path)
    if payload.get("ids"):
        problems = [find(problems, pid, payload["collection"]) for pid in payload["ids"]]
    given = _limits(payload)
    # Per problem: the node limit given (the booklet's own by default), the job's time and memory.
    limits = Limits(time=given.time, nodes=given.nodes or DEFAULT_NODE_LIMIT, memory=given.memory)

    def progress(done: int, total: int, entry: Any) -> None:
        report({"done": done, "total": total, "id": entry.problem.id})

    html = build(problems, title=payload.get("title"), solutions=payload.get("solutions") or "end",
                 verify=bool(payload.get("verify")), kanji=bool(payload.get("kanji")), play=bool(payload.get("play")),
                 certify=bool(payload.get("verify") and payload.get("certify")),
                 limits=limits, source=payload["collection"], progress=progress)
    write_atomic(payload["out"], html)
    return {"problems": len(problems), "bytes": len(html.encode("utf-8")), "file": Path(payload["out"]).name}


_RUN = {"solve": _solve, "verify": _verify, "compose": _compose, "play": _play, "booklet": _booklet}


def run(kind: str, payload: dict, report: Report) -> dict:
    """Run one job of ``kind`` (:data:`KINDS`); ``report(progress, urgent=False)``
    receives its progress as a dict.  Raises a TsumeError for bad input."""
    if kind not in _RUN:
        raise ArgumentError(f"unknown job kind {kind!r}")
    return _RUN[kind](payload, report)
