"""Check a finished census against the df-pn solver, position by position.

The backward pass (:mod:`.retro`) and the df-pn solver are two independent
ways to the same answers.  The tests compare them on every position of small
families; for the families too big for that, :func:`check` takes a seeded
random sample of a census directory's records and solves each again with
df-pn (:func:`~tsume.census.retro.solve_dfpn`: status, length within the
census's bound, and the set of every optimal first move), on any
:class:`concurrent.futures.Executor`.

Mates are rare in most families (123 in 23,744 for Ito ``attacker=GT,
hand=G``), so a uniform sample would check almost only "no mate" answers; the
sample is therefore drawn in two parts: up to ``mates`` of the census's mates
and up to ``sample`` of its other positions, each uniformly and
deterministically (``seed``).  Positions the census itself settled with df-pn
(``method: dfpn``) are left out: comparing df-pn with itself proves nothing.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..arguments import check_callback, check_positive_int
from ..errors import ArgumentError, TsumeError
from ..limits import Limits
from ..outcome import Status
from ..position import Position
from .family import parse_family
from ..shards import Runner
from .retro import CensusLimit, solve_dfpn
from .run import MANIFEST, read_json, shard_keys, shard_path

__all__ = ["CheckReport", "check", "check_records", "draw_sample"]

CHUNK = 25  # positions per task: a few seconds of df-pn, enough to keep the workers busy


@dataclass
class CheckReport:
    """What :func:`check` found."""

    family: str
    max_plies: int
    mates: int = 0            # census mates checked
    nomates: int = 0          # census "no mate" answers checked
    agreed: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)  # position, census, dfpn answers
    unsettled: list[str] = field(default_factory=list)  # positions df-pn could not settle within its node limit
    seconds: float = 0.0

    @property
    def checked(self) -> int:
        return self.mates + self.nomates

    def to_dict(self) -> dict[str, Any]:
        return {"family": self.family, "max_plies": self.max_plies, "checked": self.checked,
                "mates": self.mates, "nomates": self.nomates, "agreed": self.agreed,
                "disagreements": self.disagreements, "unsettled": self.unsettled,
                "seconds": round(self.seconds, 3)}


def _answer(status: str, length: int | None, first_moves: list[str]) -> dict[str, Any]:
    return {"status": status, "length": length, "first_moves": sorted(first_moves)}


def check_records(variant_spec: str, records: list[dict[str, Any]], max_plies: int,
                  node_limit: int) -> list[dict[str, Any]]:
    """Solve each record's position with df-pn and compare.  Plain data in and
    out (one task of :func:`check`): per record ``position``, ``census`` and
    ``dfpn`` answers, and ``agree`` (None when df-pn hit ``node_limit``)."""
    out = []
    for rec in records:
        pos = Position(rec["position"], variant_spec)
        census = _answer(rec["status"], rec["length"], rec["first_moves"])
        try:
            s = solve_dfpn(pos, max_plies, Limits(nodes=node_limit))
        except CensusLimit:
            out.append({"position": rec["position"], "census": census, "dfpn": None, "agree": None})
            continue
        dfpn = _answer(s.status, s.length, s.first_moves)
        out.append({"position": rec["position"], "census": census, "dfpn": dfpn, "agree": dfpn == census})
    return out


def draw_sample(records: list[dict[str, Any]], *, sample: int, mates: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``mates`` mates and ``sample`` other positions, drawn uniformly
    with ``seed`` from the records the backward pass settled (module
    docstring), in the census's order."""
    rng = random.Random(seed)
    retro = [r for r in records if r.get("method") == "retro"]
    won = [i for i, r in enumerate(retro) if r["status"] == Status.MATE]
    rest = [i for i, r in enumerate(retro) if r["status"] != Status.MATE]
    chosen = rng.sample(won, min(mates, len(won))) + rng.sample(rest, min(sample, len(rest)))
    return [retro[i] for i in sorted(chosen)]


def check(
    out_dir: "str | os.PathLike",
    *,
    sample: int = 1000,
    mates: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    node_limit: int = 2_000_000,
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Check the census in ``out_dir`` (finished, or partly: the shards on disk)
    against df-pn on a sample of its positions (module docstring).

    ``executor`` runs the tasks (default: a process pool of ``workers``, all
    cores when None).  ``progress(done, total)`` is called as positions are
    checked.  Returns a :class:`CheckReport`; a disagreement is data, not an
    exception."""
    for name, value in (("sample", sample), ("mates", mates), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ArgumentError(f"{name} must be a whole number >= 0, not {value!r}")
    workers = check_positive_int(workers, "workers")
    node_limit = check_positive_int(node_limit, "node_limit") or 2_000_000
    progress = check_callback(progress, "progress")
    out = Path(out_dir)
    manifest = read_json(out / MANIFEST) if (out / MANIFEST).is_file() else None
    try:
        assert isinstance(manifest, dict)
        spec, max_plies = manifest["family"], int(manifest["max_plies"])
        # The family string is "<variant>: attacker=..." (Family.spec).
        variant_spec, material = spec.rsplit(": attacker=", 1)
        family = parse_family("attacker=" + material, variant_spec)
    except (AssertionError, ValueError, KeyError, TypeError, TsumeError):
        raise ArgumentError(f"{out}: not a census directory (no readable {MANIFEST})") from None
    parts = manifest.get("parts", 1)
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise ArgumentError(f"{out}: its {MANIFEST} names no whole number of parts")
    records: list[dict[str, Any]] = []
    for key, part in shard_keys(family, parts):
        path = shard_path(out, key, part, parts)
        if not path.is_file():
            continue  # a census still running, or stopped: check what is there
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("records"), list):
            raise ArgumentError(f"{path}: not a shard file of tsume census")
        records.extend(data["records"])
    if not records:
        raise ArgumentError(f"{out}: no finished shard to check")
    chosen = draw_sample(records, sample=sample, mates=mates, seed=seed)
    report = CheckReport(family=family.spec(), max_plies=max_plies)
    started = time.monotonic()
    chunks = [chosen[i:i + CHUNK] for i in range(0, len(chosen), CHUNK)]
    if executor is None and len(chunks) <= 1:
        # One task: no pool to start.
        _tally(report, [r for c in chunks for r in check_records(family.variant.spec, c, max_plies, node_limit)])
        if progress is not None:
            progress(report.checked, len(chosen))
    else:
        tasks = [(i, (family.variant.spec, c, max_plies, node_limit)) for i, c in enumerate(chunks)]
        with Runner(check_records, executor=executor, workers=workers) as runner:
            for batch in runner.run(tasks):
                for fin in batch:
                    _tally(report, fin.get())
                    if progress is not None:
                        progress(report.checked, len(chosen))
    report.disagreements.sort(key=lambda d: d["position"])
    report.unsettled.sort()
    report.seconds = time.monotonic() - started
    return report


def _tally(report: CheckReport, results: list[dict[str, Any]]) -> None:
    for r in results:
        if r["census"]["status"] == Status.MATE:
            report.mates += 1
        else:
            report.nomates += 1
        if r["agree"] is None:
            report.unsettled.append(r["position"])
        elif r["agree"]:
            report.agreed += 1
        else:
            report.disagreements.append({k: r[k] for k in ("position", "census", "dfpn")})
