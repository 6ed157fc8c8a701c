"""How long this process has run: limits a user gives on the command line count from its start."""

from __future__ import annotations

import os
import time

__all__ = ["process_seconds"]


def process_seconds() -> float:
    """Wall-clock seconds since this process started; 0.0 where the system does not say.

    A command's ``--time-limit S`` means "done within S seconds", and starting
    Python and importing the package takes a few tenths of a second before an
    engine starts its own clock (0.2-0.4 s measured for ``tsume --version`` on
    the project's machine); the command line subtracts this from the limit it
    passes on.  Read from Linux's ``/proc/self/stat`` (field 22, the start time
    in clock ticks since boot, 10 ms resolution).
    """
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0
