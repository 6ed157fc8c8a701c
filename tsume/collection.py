"""Problem collections: many problems in one readable, diffable text file.

Format (see docs/problems.md)::

    # comments start with '#'
    [ito-001]
    variant: ito
    position: k1P2H25 b G
    length: 1
    solution: G*5
    title: A first goose
    author: tsume
    tags: drop, short
    notes: any text

Each problem starts with ``[id]`` and continues with ``key: value`` lines.
``variant`` defaults to the collection's ``variant`` given before the first
problem (``variant: rutherford`` at the top), else ``ito``.  ``defender``
states the defender's hand: ``rest`` (the default when the position names no
defender piece), ``none``, or letters such as ``2PT``.  ``solution`` is the
intended main line as space-separated move strings.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import TsumeError
from .variant import get_variant

__all__ = ["Problem", "CollectionError", "load", "loads", "dumps", "save", "find", "locate", "bundled_names"]

KNOWN_KEYS = ("variant", "position", "defender", "length", "solution", "title", "author", "tags", "notes")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


class CollectionError(TsumeError):
    """A collection file that cannot be read: the message names file and line."""


@dataclass
class Problem:
    """One problem of a collection."""

    id: str
    position: str
    variant: str = "ito"
    defender: str | None = None
    length: int | None = None
    solution: list[str] | None = None
    title: str | None = None
    author: str | None = None
    tags: list[str] = field(default_factory=list)
    notes: str | None = None
    source: str | None = None  # "file:line" it was read from

    def to_text(self) -> str:
        lines = [f"[{self.id}]", f"variant: {self.variant}", f"position: {self.position}"]
        if self.defender is not None:
            lines.append(f"defender: {self.defender}")
        if self.length is not None:
            lines.append(f"length: {self.length}")
        if self.solution is not None:
            lines.append(f"solution: {' '.join(self.solution)}")
        for key in ("title", "author"):
            value = getattr(self, key)
            if value:
                lines.append(f"{key}: {value}")
        if self.tags:
            lines.append(f"tags: {', '.join(self.tags)}")
        if self.notes:
            lines.append(f"notes: {self.notes}")
        return "\n".join(lines)


def loads(text: str, name: str = "<string>") -> list[Problem]:
    """Read a collection from text; errors name ``name`` and the line."""
    problems: list[Problem] = []
    default_variant = "ito"
    current: dict[str, tuple[str, int]] | None = None
    current_id: tuple[str, int] | None = None
    seen: dict[str, int] = {}

    def finish() -> None:
        if current_id is None or current is None:
            return
        pid, line_no = current_id
        where = f"{name}:{line_no}"
        if "position" not in current:
            raise CollectionError(f"{where}: problem [{pid}] has no 'position'")
        variant = current.get("variant", (default_variant, line_no))[0]
        try:
            get_variant(variant)
        except TsumeError as exc:
            raise CollectionError(f"{name}:{current.get('variant', ('', line_no))[1]}: {exc}") from None
        length = None
        if "length" in current:
            raw, ln = current["length"]
            if not raw.isdigit() or int(raw) < 1:
                raise CollectionError(f"{name}:{ln}: length must be a positive whole number of plies, not {raw!r}")
            length = int(raw)
        problems.append(
            Problem(
                id=pid,
                position=current["position"][0],
                variant=variant,
                defender=current.get("defender", (None, 0))[0],
                length=length,
                solution=current["solution"][0].split() if "solution" in current else None,
                title=current.get("title", (None, 0))[0],
                author=current.get("author", (None, 0))[0],
                tags=[t.strip() for t in current.get("tags", ("", 0))[0].split(",") if t.strip()],
                notes=current.get("notes", (None, 0))[0],
                source=where,
            )
        )

    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise CollectionError(f"{name}:{line_no}: problem header must be '[id]', got {line!r}")
            finish()
            pid = line[1:-1].strip()
            if not _ID_RE.match(pid):
                raise CollectionError(f"{name}:{line_no}: bad problem id {pid!r} (letters, digits, '.', '_', '-')")
            if pid in seen:
                raise CollectionError(f"{name}:{line_no}: duplicate problem id [{pid}] (first at line {seen[pid]})")
            seen[pid] = line_no
            current_id = (pid, line_no)
            current = {}
            continue
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon:
            raise CollectionError(f"{name}:{line_no}: expected 'key: value', got {line!r}")
        if key not in KNOWN_KEYS:
            raise CollectionError(f"{name}:{line_no}: unknown key {key!r} (known: {', '.join(KNOWN_KEYS)})")
        value = value.strip()
        if current is None:
            if key != "variant":
                raise CollectionError(f"{name}:{line_no}: only 'variant' may come before the first [id]")
            default_variant = value
            continue
        if key in current:
            raise CollectionError(f"{name}:{line_no}: key {key!r} given twice in [{current_id[0] if current_id else '?'}]")
        current[key] = (value, line_no)
    finish()
    return problems


#: Where the bundled collections are: inside the installed package (a wheel
#: carries them as package data), else beside it in a source checkout.
_BUNDLED_DIRS = (Path(__file__).resolve().parent / "problems", Path(__file__).resolve().parent.parent / "problems")


def bundled_names() -> list[str]:
    """The names of the collections shipped with tsume (``examples``, ``seed-ito``, ...)."""
    for folder in _BUNDLED_DIRS:
        names = sorted(p.stem for p in folder.glob("*.tsume"))
        if names:
            return names
    return []


def locate(name: str | os.PathLike) -> Path:
    """The collection file ``name`` names: an existing path, else a bundled
    collection by name (``examples`` or ``examples.tsume``), so that the
    bundled problems can be named from any folder after a plain install."""
    p = Path(name)
    if p.is_file():
        return p
    stem = p.name[: -len(".tsume")] if p.name.endswith(".tsume") else p.name
    if p.parent == Path("."):
        for folder in _BUNDLED_DIRS:
            candidate = folder / f"{stem}.tsume"
            if candidate.is_file():
                return candidate
    known = ", ".join(bundled_names()) or "none found"
    raise CollectionError(f"{name}: no such file, and no bundled collection of that name (bundled: {known})")


def load(path: str | os.PathLike) -> list[Problem]:
    """Read a collection file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise CollectionError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CollectionError(f"{p}: not UTF-8 text") from None
    return loads(text, str(p))


def find(problems: Iterable[Problem], pid: str, name: str = "collection") -> Problem:
    for pr in problems:
        if pr.id == pid:
            return pr
    raise CollectionError(f"{name}: no problem [{pid}]")


def dumps(problems: Iterable[Problem], header: str | None = None) -> str:
    parts = []
    if header:
        parts.append("\n".join(f"# {line}" if line else "#" for line in header.splitlines()))
    parts.extend(pr.to_text() for pr in problems)
    return "\n\n".join(parts) + "\n"


def save(path: str | os.PathLike, problems: Iterable[Problem], header: str | None = None) -> None:
    """Write a collection atomically: a temporary file in the same folder, then a rename."""
    p = Path(path)
    text = dumps(problems, header)
    # mkstemp makes a private file; give the result the mode the old file had,
    # or the usual one for a new file.
    try:
        mode = p.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=str(p.parent) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
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

