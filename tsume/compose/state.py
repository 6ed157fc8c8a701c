"""The state of a composing run, kept beside its collection.

A composed collection is for people: its lines are problems and short
comments.  What ``tsume compose --resume`` needs to go on -- the settings,
the next shard, the parent pools -- is kept in a **state file** beside it,
``FILE.state.json`` (:func:`state_path`), JSON that nobody needs to read::

    {"format": 1, "tool": "tsume compose",
     "current":  {"problems": 14, "fingerprint": "...", "state": {...}},
     "previous": {"problems": 12, "fingerprint": "...", "state": {...}}}

The two files cannot be replaced in one step, so :func:`save` writes the
state file first -- holding the new state and the one before it, each with
the *fingerprint* of the problems it goes with (their ids, positions and
defender's hands) -- then the collection, each atomically
(:func:`tsume.files.write_atomic`).  Whenever a run is stopped, the
collection matches one of the two: :func:`load` takes that one.

A collection whose problems match neither (edited by hand: a problem removed,
added or changed; or a state file of another collection) cannot be resumed:
going on from a state that does not describe it could repeat an id or skip
the shards that found the problems it lacks.  :func:`load` refuses it in one
line and writes nothing; so does it a collection without a state file.  A
collection written by an earlier tsume, with its state on a ``#
compose-state:`` line inside, is read as before; its next save moves the
state beside it.  Comments above the first problem are kept.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..collection import Problem, dumps, loads
from ..errors import ArgumentError
from ..files import write_atomic

__all__ = ["state_path", "fingerprint", "load", "save", "Saved", "SUFFIX", "INLINE_TAG", "HEADER"]

SUFFIX = ".state.json"
FORMAT = 1
#: The comment line of a collection from an earlier tsume that held the state.
INLINE_TAG = "compose-state:"
#: The comment line a composed collection starts with (the state file's name follows).
HEADER = "Composed by tsume compose (docs/compose.md)"


def state_path(collection: "str | Path") -> Path:
    """The state file of ``collection``: its name with ``.state.json`` added."""
    p = Path(collection)
    return p.with_name(p.name + SUFFIX)


def fingerprint(problems: Iterable[Problem]) -> str:
    """What a state goes with: a hash of every problem's id, position and
    defender's hand, in order (titles, notes and comments may be edited)."""
    h = hashlib.sha256()
    for p in problems:
        h.update(f"{p.id}\t{p.position}\t{p.defender or ''}\n".encode())
    return h.hexdigest()[:32]


class Saved:
    """A collection's problems, its own comments and the run's state."""

    def __init__(self, problems: list[Problem], comments: list[str], state: dict[str, Any] | None) -> None:
        self.problems = problems
        self.comments = comments
        self.state = state

    def entry(self) -> dict[str, Any] | None:
        """The state as the state file holds it, with its fingerprint."""
        if self.state is None:
            return None
        return {"problems": len(self.problems), "fingerprint": fingerprint(self.problems), "state": self.state}


def _read(path: Path) -> tuple[list[Problem], list[str], dict[str, Any] | None]:
    """The problems of a collection, the comments above its first problem
    (without the composer's own lines) and the state of an inline line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ArgumentError(f"{path}: not a UTF-8 text file") from None
    inline = None
    comments: list[str] = []
    lines = text.split("\n")
    for line in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        if not stripped:
            continue
        body = stripped[1:]
        body = body[1:] if body.startswith(" ") else body
        if body.startswith(INLINE_TAG):
            try:
                inline = json.loads(body[len(INLINE_TAG):])
            except json.JSONDecodeError:
                raise ArgumentError(f"{path}: its {INLINE_TAG} line is not valid JSON") from None
            continue
        if body.startswith(HEADER):
            continue
        comments.append(body)
    # A run stopped before its first problem leaves only comments.
    has_problem = any(line.strip().startswith("[") for line in lines)
    return (loads(text, str(path)) if has_problem else []), comments, inline


def load(path: "str | Path") -> Saved:
    """The collection ``path`` and the state that goes with it (module
    docstring); one-line :class:`~tsume.errors.ArgumentError` when there is
    none or it does not match."""
    path = Path(path)
    side = state_path(path)
    problems, comments, inline = _read(path)
    if not side.exists():
        if inline is None:
            raise ArgumentError(f"{path} has no state file {side.name} beside it: --resume cannot go on; "
                                f"compose into a new file (--parents {path.name} builds on its problems)")
        return Saved(problems, comments, inline)
    try:
        data = json.loads(side.read_text(encoding="utf-8"))
        entries = [data[k] for k in ("current", "previous") if data.get(k) is not None]
        if not isinstance(data, dict) or data.get("format") != FORMAT or not entries:
            raise ValueError
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        raise ArgumentError(f"{side}: not a state file this version of tsume compose can go on from: "
                            "compose into a new file") from None
    mark = fingerprint(problems)
    for entry in entries:
        if isinstance(entry, dict) and entry.get("fingerprint") == mark and isinstance(entry.get("state"), dict):
            return Saved(problems, comments, entry["state"])
    held = entries[0].get("problems") if isinstance(entries[0], dict) else "?"
    raise ArgumentError(f"{path} ({len(problems)} problems) is not the collection its state file {side.name} "
                        f"was saved with ({held} problems): edited since?  --resume cannot go on from it; "
                        f"compose into a new file (--parents {path.name} builds on its problems)")


def save(path: "str | Path", saved: Saved, previous: dict[str, Any] | None) -> dict[str, Any]:
    """Write the state file, then the collection (module docstring);
    ``previous`` is the entry the last save returned (or the one the run
    started from).  Returns this save's entry."""
    path = Path(path)
    entry = saved.entry()
    assert entry is not None
    data = {"format": FORMAT, "tool": "tsume compose", "current": entry, "previous": previous}
    write_atomic(state_path(path), json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
    header = "\n".join(saved.comments + [f"{HEADER}; --resume goes on from this file's name + {SUFFIX}."])
    write_atomic(path, dumps(saved.problems, header=header))
    return entry
