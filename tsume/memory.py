"""How much memory this process holds.

``peak_mb`` is the largest resident size so far (a solve's statistics
report it), ``resident_bytes`` the size now.  The df-pn search needs
neither to keep within ``--memory``: its table and the rest of what it
keeps are sized from the budget when the search is made (docs/solver.md,
"Memory").
"""

from __future__ import annotations

import os
import resource
import sys

__all__ = ["resident_bytes", "peak_mb"]

try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # not a POSIX system
    _PAGE = 4096


def resident_bytes() -> int:
    """The process's resident size now, in bytes; 0 where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _maxrss() -> int:
    """``ru_maxrss`` in KiB (macOS counts bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


# ru_maxrss when this module was imported: at least any high-water mark
# carried over from before ``exec`` (peak_mb).
_AT_IMPORT = _maxrss()


def peak_mb() -> float:
    """The process's largest resident size so far, in MiB.

    Linux's ``VmHWM``: ``ru_maxrss`` carries over the high-water mark of the
    process image that ``exec`` replaced, so a command started by a large
    process (a test run of 300 MB) would report its parent's peak.  Once
    ``ru_maxrss`` has passed its value at import, it is this process's own
    peak, and a system call reads it (the composer asks after every solve).
    """
    own = _maxrss()
    if own > _AT_IMPORT:
        return own / 1024
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return own / 1024
