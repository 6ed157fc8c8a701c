"""A census run end to end on a Dask ``LocalCluster``, compared with a local run.

Starts ``dask.distributed.LocalCluster(n_workers=W, threads_per_worker=1)``
(worker processes, as on a real cluster), runs ``tsume census ...
--scheduler <its address>`` as a separate process, as a user would, and
compares the census directory it wrote with one written by a local run of
the same family (``--reference``): every file must be the same apart from
the timing fields (the shards' ``seconds_*``, the table's ``rates`` and the
line of ``table.md`` that gives them).  Prints the run's CPU seconds (the
client and the workers) and the result of the comparison; exit status 1 on a
difference.

    .venv/bin/tsume census --variant ito --material 'attacker=GT, hand=GHT, defender-hand=none' \\
        --max-length 21 -o local
    .venv/bin/python benchmarks/census_cluster.py --reference local -o dask -- \\
        --variant ito --material 'attacker=GT, hand=GHT, defender-hand=none' --max-length 21

Needs the ``cluster`` extra (``pip install -e '.[cluster]'``).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _untimed(name: str, text: str) -> Any:
    """A census file without its timing fields."""
    if name.endswith(".json"):
        data = json.loads(text)
        data.pop("rates", None)
        stats = data.get("stats") if isinstance(data, dict) else None
        if isinstance(stats, dict):
            for key in [k for k in stats if k.startswith("seconds_")]:
                del stats[key]
        return data
    if name == "table.md":
        return [line for line in text.splitlines() if not line.startswith("- worker time by method")]
    return text


def compare(a: Path, b: Path) -> list[str]:
    """The files of two census directories that differ (timing fields aside)."""
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    differ = []
    for name in names:
        pa, pb = a / name, b / name
        if not (pa.is_file() and pb.is_file()):
            differ.append(f"{name} (only in one)")
        elif _untimed(name, pa.read_text(encoding="utf-8")) != _untimed(name, pb.read_text(encoding="utf-8")):
            differ.append(name)
    return differ


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="worker processes of the LocalCluster (default 2)")
    ap.add_argument("--reference", required=True, type=Path, help="a census directory of a local run")
    ap.add_argument("-o", "--out", required=True, type=Path, help="the census directory of the cluster run")
    ap.add_argument("census_args", nargs=argparse.REMAINDER, help="-- then the tsume census options")
    args = ap.parse_args()
    rest = [a for a in args.census_args if a != "--"]
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=":0") as cluster:
        # The workers are this process's children: their CPU time is counted
        # once the cluster has closed (RUSAGE_CHILDREN).
        started = time.monotonic()
        cmd = [sys.executable, "-m", "tsume", "census", *rest, "-o", str(args.out), "-q",
               "--scheduler", cluster.scheduler_address]
        run = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - started
    cpu = _cpu_children()
    if run.returncode != 0:
        print(f"tsume census failed ({run.returncode}): {run.stderr.strip()}", file=sys.stderr)
        return 1
    differ = compare(args.reference, args.out)
    print(f"census on a LocalCluster of {args.workers} worker(s): {wall:.1f} s wall, {cpu:.1f} CPU-s "
          f"(client and workers); against {args.reference}: "
          + ("the same files, timing fields aside" if not differ else "DIFFERENT: " + ", ".join(differ)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
