"""Run ``tsume ARGS`` in a child process and measure it: exit status, wall time, peak resident size.

The peak is the child's own ``VmHWM`` (Linux ``/proc/self/status``), written by
the child as it exits.  ``os.wait4``'s ``ru_maxrss`` will not do: the kernel
carries the high-water mark of the process image replaced by ``exec`` over to
the new one, so a child started from a large parent (a test run that has
grown to 300 MB) reports the parent's peak.  Used by tests/test_sat_limits.py
and benchmarks/limits.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ChildRun", "run_tsume"]

ROOT = Path(__file__).resolve().parents[1]

# The child: record VmHWM at exit (atexit runs on the CLI's sys.exit), then run the command line.
_CHILD = """
import atexit, os, sys
def _peak():
    with open("/proc/self/status") as f:
        kb = next((line.split()[1] for line in f if line.startswith("VmHWM:")), "")
    with open(os.environ["TSUME_PEAK_FILE"], "w") as out:
        out.write(kb)
atexit.register(_peak)
from tsume.cli import run
run(sys.argv[1:])
"""


@dataclass
class ChildRun:
    status: int
    wall: float  #: seconds from starting the child to its exit
    peak_mb: float | None  #: the child's peak resident size (None where /proc has no VmHWM)
    stdout: str
    stderr: str


def run_tsume(args: list[str], cwd: Path = ROOT) -> ChildRun:
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = Path(tmp) / "peak"
        env = dict(os.environ, TSUME_PEAK_FILE=str(peak_file))
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, cwd=cwd, env=env)
        wall = time.perf_counter() - started
        kb = peak_file.read_text() if peak_file.exists() else ""
    return ChildRun(done.returncode, wall, int(kb) / 1024 if kb else None, done.stdout, done.stderr.strip())
