"""Two searches in two threads of one process: how much faster than one after the other.

The Rust search releases the GIL while it searches, so two threads verifying
(or solving) two problems run on two cores at once.  This script verifies a
list of problems one after the other in one thread, then the same list split
between ``--threads`` threads (one problem at a time each, as a thread pool
hands them out), and prints the wall seconds of both runs, the speed-up and
the CPU seconds of the process.  The answers of both runs must be the same.

    .venv/bin/python benchmarks/threads.py bench-ito --threads 2
    .venv/bin/python benchmarks/threads.py bench-rutherford --solve --repeat 3

The speed-up can reach the number of threads only on a machine with that
many cores free; the Python work between searches (reading a problem,
writing the lines as strings) holds the GIL and stays serial.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

from tsume.collection import load, locate
from tsume.solve import solve
from tsume.verify import verify


def answer(problem, use_solve: bool) -> tuple:
    if use_solve:
        r = solve(problem)
        return (r.status, r.length, tuple(r.mainline))
    rep = verify(problem)
    return (rep.verdict, rep.length, tuple(sorted(f.kind for f in rep.findings)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("collection")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--solve", action="store_true", help="solve the problems instead of verifying them")
    ap.add_argument("--repeat", type=int, default=1, help="the list this many times over (default 1)")
    args = ap.parse_args()
    problems = [p.problem() for p in load(locate(args.collection))] * args.repeat

    started, cpu = time.perf_counter(), time.process_time()
    serial = [answer(p, args.solve) for p in problems]
    serial_wall, serial_cpu = time.perf_counter() - started, time.process_time() - cpu

    started, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        parallel = list(pool.map(lambda p: answer(p, args.solve), problems))
    parallel_wall, parallel_cpu = time.perf_counter() - started, time.process_time() - cpu

    what = "solved" if args.solve else "verified"
    print(f"{len(problems)} problems of {args.collection} {what}")
    print(f"  one thread:    {serial_wall:8.2f} s wall, {serial_cpu:8.2f} s CPU")
    print(f"  {args.threads} threads:     {parallel_wall:8.2f} s wall, {parallel_cpu:8.2f} s CPU")
    print(f"  speed-up: {serial_wall / parallel_wall:.2f}x; same answers: {serial == parallel}")
    return 0 if serial == parallel else 1


if __name__ == "__main__":
    raise SystemExit(main())
