"""The process a studio job runs in (started by :mod:`tsume.studio.jobs`).

It runs one job, :func:`tsume.studio.calls.run`, and talks to the server
through one pipe: ``("progress", dict)`` while it works, then
``("done", result)`` or ``("failed", one line)``.  It leads a process group
of its own, so that cancelling the job ends everything it started (the
composer's worker processes too), and a terminal's Ctrl-C reaches only the
server, which then ends its jobs.  SIGTERM becomes a clean exit; the address
space is capped as a backstop to the searches' own memory limits.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
import time
from typing import Any

__all__ = ["main"]

#: At most this many progress messages a second (compose's accepted problems always go).
_PROGRESS_EVERY = 0.2


class _Stopped(BaseException):
    """SIGTERM: the job was cancelled or the server is stopping."""


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped()


def _cap_memory(memory_mb: float | None) -> None:
    """Cap the address space: the process's size now, twice the search's
    memory budget and 256 MB for the rest (the searches stop themselves
    well before; this only keeps a runaway job from taking the machine)."""
    if not memory_mb:
        return
    try:
        with open(f"/proc/{os.getpid()}/status", encoding="ascii") as fh:
            size_kb = next((int(line.split()[1]) for line in fh if line.startswith("VmSize:")), 0)
        cap = size_kb * 1024 + int(2 * memory_mb * 1e6) + 256 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (OSError, ValueError, StopIteration):
        pass  # no /proc or no permission: the searches' own limits still hold


def main(kind: str, payload: dict, conn: Any) -> None:
    """Run one job and report on ``conn``; never returns normally."""
    try:
        os.setpgrp()
    except OSError:
        pass
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    last = [0.0]

    def report(progress: dict, urgent: bool = False) -> None:
        now = time.monotonic()
        if not urgent and now - last[0] < _PROGRESS_EVERY:
            return
        last[0] = now
        try:
            conn.send(("progress", progress))
        except (OSError, ValueError):
            pass

    status = 0
    try:
        _cap_memory((payload.get("limits") or {}).get("memory"))
        from . import calls
        from ..errors import TsumeError

        try:
            result = calls.run(kind, payload, report)
            conn.send(("done", result))
        except TsumeError as exc:
            conn.send(("failed", " ".join(str(exc).split())))
        except MemoryError:
            conn.send(("failed", "stopped: the job ran out of its memory"))
        except OSError as exc:
            conn.send(("failed", f"cannot write: {exc.strerror or exc}"))
        except Exception as exc:  # a bug: one line, never a traceback
            what = " ".join(str(exc).split())[:200]
            conn.send(("failed", f"internal error: {type(exc).__name__}: {what} (please report it)"))
    except _Stopped:
        status = 143
    except BaseException:  # the pipe is gone (the server died): nothing to tell
        status = 1
    finally:
        try:
            conn.close()
        except OSError:
            pass
        sys.stdout.flush()
        # No interpreter teardown: worker threads of the composer must not hold the exit up.
        os._exit(status)
