"""Writing files so that nothing a user has is ever left half-written.

:func:`write_atomic` writes a temporary file in the target's folder, then
renames it over the target: a reader sees the old file or the new one, never a
part, and a write killed midway leaves the old file whole.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

__all__ = ["write_atomic"]

#: Temporary files of write_atomic() are named ``.<target>.tsume-save-<pid>-<random>.tmp``:
#: recognisable, so that the next write_atomic() removes those an interrupted one left.
_TEMP_TAG = ".tsume-save-"
#: A temporary whose writer still runs is left alone unless it is this old
#: (seconds): the writer's pid may since have been reused by another process.
_STALE_SECONDS = 600.0


def _writer_alive(pid: int) -> bool:
    """Whether process ``pid`` may still be writing (unsure counts as yes)."""
    if pid == os.getpid():
        return True  # another thread of ours may be saving
    if os.name != "posix":
        return True  # no harmless probe (os.kill would end the process): rely on age
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: it exists, run by someone else
        return True
    return True


def _remove_stale_temporaries(p: Path) -> None:
    """Remove the temporaries earlier write_atomic()s of ``p`` left when killed mid-write:
    those whose writer is gone, or that are older than ``_STALE_SECONDS``."""
    folder = p.parent
    pattern = re.compile(re.escape(f".{p.name}{_TEMP_TAG}") + r"(\d{1,10})-[A-Za-z0-9_]+\.tmp")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return  # the write below reports an unusable folder
    now = time.time()
    for entry in entries:
        m = pattern.fullmatch(entry.name)
        if m is None:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if _writer_alive(int(m.group(1))) and now - entry.stat(follow_symlinks=False).st_mtime < _STALE_SECONDS:
                continue
            os.unlink(entry.path)
        except OSError:
            pass  # gone already (another saver cleaned it), or not ours to remove


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``path`` through a temporary file and a rename.

    A write killed mid-way leaves its temporary behind; the next write of the
    same file removes it (see ``_remove_stale_temporaries``).  The file keeps
    the mode an existing one had.  ``OSError`` propagates (the CLI reports it
    in one line).
    """
    p = Path(path)
    _remove_stale_temporaries(p)
    # mkstemp makes a private file; give the result the mode the old file had,
    # or the usual one for a new file.
    try:
        mode = p.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}{_TEMP_TAG}{os.getpid()}-", suffix=".tmp", dir=str(p.parent) or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text if isinstance(text, bytes) else text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
