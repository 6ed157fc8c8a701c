"""How long Ctrl-C takes to stop a long search: SIGINT to exit, over many trials.

Runs each long command of ``tests/test_interrupt.py`` (df-pn solve and verify,
perft, the SAT engine) in a child process, sends it SIGINT after a working
time that grows from trial to trial (so the signal lands at different places
of the search), and prints the seconds from the signal to the child's exit
(the interpreter's exit included): median and max per command.  Every run
must end with status 130 and the one line "tsume: interrupted".

    .venv/bin/python benchmarks/ctrl_c.py --trials 12
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_interrupt import LONG, interrupt  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=12, help="runs per command (default 12)")
    ap.add_argument("--only", choices=sorted(LONG), action="append", help="only these commands")
    args = ap.parse_args()
    bad = 0
    for name in args.only or ["solve", "verify", "perft", "sat"]:
        secs = []
        for trial in range(args.trials):
            status, seconds, out, err = interrupt(LONG[name], working=1.0 + 3.0 * trial / max(args.trials - 1, 1))
            if (status, out, err) != (130, "", "tsume: interrupted\n"):
                bad += 1
                print(f"  {name}: unexpected end: status {status}, stdout {out[:80]!r}, stderr {err[:80]!r}")
            secs.append(seconds)
        print(f"{name:7s} {len(secs)} trials: SIGINT to exit median {statistics.median(secs):.3f} s, "
              f"max {max(secs):.3f} s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
