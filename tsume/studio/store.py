"""Where the studio reads and writes problems: the bundled collections (read
only) and the ``.tsume`` files under its root folder (``tsume serve --root``).

A name from a request is a bundled collection's name (``examples``) or a
path relative to the root with forward slashes (``mine.tsume``,
``drafts/long.tsume``).  Nothing else is opened: an absolute path, a ``..``
or ``.`` part, a backslash, a hidden part, a name that does not end in
``.tsume`` (or the extension asked for) and a path that leads out of the root
through a link are refused with one line (:class:`StoreError`).  Writes are
atomic (:func:`tsume.files.write_atomic`) and one at a time.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path, PurePosixPath
from typing import Any

from ..collection import Record, bundled_names, bundled_path, dumps, find, load, loads
from ..errors import TsumeError, quote
from ..files import write_atomic

__all__ = ["Store", "StoreError", "MAX_FILES", "MAX_DEPTH", "MAX_FOLDERS", "MAX_FILE_BYTES"]

#: The most .tsume files listed under the root, how deep the listing looks,
#: and how many folders it opens at most (a root as wide as a home folder).
MAX_FILES = 2000
MAX_DEPTH = 6
MAX_FOLDERS = 5000
#: The largest collection file read (bytes); the bundled ones are well under 1 MB.
MAX_FILE_BYTES = 20_000_000


class StoreError(TsumeError):
    """A name or file the studio refuses (one line); ``status`` is the HTTP
    status the API answers with (403 refused, 404 missing, 409 a conflict)."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


class Store:
    """The collections a studio serves (module docstring)."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise StoreError(f"--root {quote(str(root))}: not a folder")
        self._write = threading.Lock()

    # --- names --------------------------------------------------------------------------

    def path(self, name: str, suffix: str = ".tsume", *, must_exist: bool = True) -> Path:
        """The file under the root that ``name`` names (module docstring)."""
        if not isinstance(name, str) or not name or len(name) > 1000 or "\x00" in name:
            raise StoreError(f"file name {quote(name)}: not a usable name")
        if "\\" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
            raise StoreError(f"file name {quote(name)}: give a path relative to the root, with '/'")
        parts = PurePosixPath(name).parts
        if any(p in ("", ".", "..") or p.startswith(".") for p in parts) or name.endswith("/"):
            raise StoreError(f"file name {quote(name)}: no '..', '.' or hidden parts")
        if not name.endswith(suffix) or len(parts[-1]) <= len(suffix):
            raise StoreError(f"file name {quote(name)}: must end in {suffix}")
        target = self.root.joinpath(*parts)
        try:
            real = target.resolve()
            inside = real.is_relative_to(self.root) and real.parent.is_relative_to(self.root)
            exists = target.exists()
            parent_ok = target.parent.resolve().is_dir()
        except (OSError, RuntimeError, ValueError):  # a link loop, a name the system refuses
            raise StoreError(f"file name {quote(name)}: not a usable path") from None
        if not inside:
            raise StoreError(f"file name {quote(name)}: leads out of the root folder")
        if must_exist and not exists:
            raise StoreError(f"no file {quote(name)} under the root folder, and no bundled collection of that name", 404)
        if not parent_ok:
            raise StoreError(f"file name {quote(name)}: its folder does not exist under the root", 404)
        if exists and not real.is_file():
            raise StoreError(f"{quote(name)} is not a file")
        return real

    def is_bundled(self, name: str) -> bool:
        return name in bundled_names()

    def locate(self, name: str) -> Path:
        """A bundled collection by name, else a file under the root (never a
        file of the server's current folder that bears a bundled name)."""
        found = bundled_path(name) if self.is_bundled(name) else None
        return found if found is not None else self.path(name)

    # --- reading ------------------------------------------------------------------------

    def listing(self) -> list[dict[str, Any]]:
        """The bundled collections, then the .tsume files under the root (at
        most :data:`MAX_FILES`, :data:`MAX_DEPTH` folders deep; hidden ones and
        links out of the root are left out).  Each file once: a bundled
        collection that is also a file under the root (the root is tsume's
        own checkout) is listed as bundled, with that file's ``path``."""
        out: list[dict[str, Any]] = [{"name": n, "bundled": True, "writable": False} for n in bundled_names()]
        bundled: dict[Path, dict[str, Any]] = {}
        for entry in out:
            found_at = bundled_path(entry["name"])
            if found_at is not None:
                try:
                    bundled[found_at.resolve()] = entry
                except (OSError, RuntimeError):
                    pass
        found: list[str] = []
        for seen, (folder, dirs, files) in enumerate(os.walk(self.root, followlinks=False)):
            if seen >= MAX_FOLDERS or len(found) >= MAX_FILES:
                break
            here = Path(folder)
            depth = len(here.relative_to(self.root).parts)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < MAX_DEPTH)
            for f in sorted(files):
                if f.endswith(".tsume") and not f.startswith(".") and len(found) < MAX_FILES:
                    rel = (here / f).relative_to(self.root).as_posix()
                    try:
                        real = self.path(rel)
                    except StoreError:
                        continue  # a link out of the root
                    if real in bundled:
                        bundled[real]["path"] = rel
                        continue
                    found.append(rel)
        out.extend({"name": rel, "bundled": False, "writable": True} for rel in found)
        return out

    def read(self, name: str) -> tuple[Path, list[Record]]:
        """The problems of a collection.  Raises StoreError / CollectionError."""
        path = self.locate(name)
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise StoreError(f"{quote(name)}: cannot read: {exc.strerror or exc}") from None
        if size > MAX_FILE_BYTES:
            raise StoreError(f"{quote(name)}: {size:,} bytes, more than the {MAX_FILE_BYTES:,} the studio reads")
        return path, load(path)

    # --- writing ------------------------------------------------------------------------

    def _writable(self, name: str, must_exist: bool = False) -> Path:
        if self.is_bundled(name):
            raise StoreError(f"{quote(name)} is a bundled collection, read only: save into a file under the root")
        path = self.path(name, must_exist=must_exist)
        if path.exists() and not os.access(path, os.W_OK):
            raise StoreError(f"{quote(name)}: not writable")
        return path

    def save_problem(self, name: str, problem: Record, *, replace: bool) -> dict[str, Any]:
        """Put ``problem`` into the collection ``name`` under the root (made if
        missing): in place of the problem with its id if ``replace``, else
        after the others (an id already there is then refused).  The file's
        leading comment lines are kept; it is checked by reading it back
        before it is written, and written atomically."""
        with self._write:
            path = self._writable(name)
            problems: list[Record] = []
            header = None
            if path.exists() and path.stat().st_size > 0:
                _, problems = self.read(name)
                header = _leading_comments(path)
            try:
                index = next(i for i, p in enumerate(problems) if p.id == problem.id)
            except StopIteration:
                problems.append(problem)
            else:
                if not replace:
                    raise StoreError(f"{quote(name)} already holds [{problem.id}]: replace it, or choose another id", 409)
                problems[index] = problem
            text = dumps(problems, header)
            loads(text, name)  # what is written must read back
            write_atomic(path, text)
            return {"file": name, "count": len(problems), "id": problem.id}

    def save_text(self, name: str, text: str, *, replace: bool) -> dict[str, Any]:
        """Write a whole collection (a composer's run) to ``name`` under the root."""
        with self._write:
            path = self._writable(name)
            if path.exists() and not replace:
                raise StoreError(f"{quote(name)} exists: replace it, or choose another name", 409)
            problems = loads(text, name)
            write_atomic(path, text)
            return {"file": name, "count": len(problems)}

    def find(self, name: str, pid: str) -> Record:
        _, problems = self.read(name)
        return find(problems, pid, name)


def _leading_comments(path: Path) -> str | None:
    """The comment lines at the top of a collection, without their '# '."""
    lines = []
    try:
        with open(path, encoding="utf-8-sig") as fh:
            for line in fh:
                if not line.startswith("#"):
                    break
                lines.append(line[1:].rstrip("\n").removeprefix(" "))
    except (OSError, UnicodeDecodeError):
        return None
    return "\n".join(lines) or None
