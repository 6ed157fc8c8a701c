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
intended main line as space-separated move strings.  Composed problems also
carry ``provenance`` (how they were made) and ``rating`` (score and
features), each as ``key=value; ...`` pairs (docs/compose.md).
"""

from __future__ import annotations

import difflib

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import QUOTE_LIMIT, TsumeError, quote
from .files import write_atomic
from .notation import ascii_int
from .problem import DefenderHand
from .problem import Problem as Tsume
from .variant import get_variant

__all__ = ["Record", "Problem", "CollectionError", "load", "loads", "dumps", "save", "find", "locate", "bundled_names",
           "bundled_path"]

KNOWN_KEYS = ("variant", "position", "defender", "length", "solution", "title", "author", "tags", "notes",
              "provenance", "rating")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
#: A ``#`` standing alone as a word -- at the start of a value or after a space
#: or tab, and before a space, a tab or the end of the line -- with the
#: backslashes right before it.  Without any, it starts a comment; with some,
#: it is text, one backslash fewer (``\#`` reads ``#``), so that any value can
#: be written and read back.  A ``#`` inside a word (``C#``, ``#5``, ``P*2#``)
#: is always text.
_COMMENT = re.compile(r"(?:(?<=[ \t])|^)(\\*)#(?=[ \t]|$)")


def _read_value(text: str) -> str:
    """The value of a line from what follows its ``key:`` (or a whole ``[id]``
    line): up to a comment, if any, with its escapes read; stripped."""
    if "#" not in text:
        return text.strip()
    for match in _COMMENT.finditer(text):
        if not match.group(1):
            text = text[: match.start()]
            break
    return _COMMENT.sub(lambda m: m.group(0)[1:], text).strip()


def _write_value(value: str) -> str:
    """``value`` as a line holds it: every ``#`` that :func:`_read_value` would
    take for a comment (or an escape) gets one more backslash."""
    if "#" not in value:  # the common case: no regex scan of a long value
        return value
    return _COMMENT.sub(lambda m: "\\" + m.group(0), value)


#: The widest line :func:`save` writes: a longer value goes on indented
#: continuation lines (docs/problems.md).
WIDTH = 100


def _wrap(line: str, width: int = WIDTH) -> str:
    """``line`` (``key: value``) broken at single spaces into lines of at most
    ``width`` characters where it can be, each after the first indented by two
    spaces; :func:`loads` joins them back with one space.  A run of spaces is
    never broken (joining would shorten it), nor a break made before a word
    that starts with ``#`` (the line would read as a comment) or right after
    the key."""
    if len(line) <= width:
        return line
    out: list[str] = []
    rest, lo = line, line.find(": ") + 2
    while len(rest) > width:
        cut = rest.rfind(" ", lo, width + 1)
        while cut > lo and (rest[cut - 1] == " " or rest[cut + 1:cut + 2] in ("", " ", "#")):
            cut = rest.rfind(" ", lo, cut)
        if cut <= lo:
            break  # one word longer than a line: it stays whole
        out.append(rest[:cut])
        rest, lo = "  " + rest[cut + 1:], 2
    out.append(rest)
    return "\n".join(out)


def _tag(pid: str) -> str:
    """``[id]`` for a message, cut short like :func:`tsume.errors.quote`: an
    id has no length limit, and a message stays one short line."""
    if len(pid) <= 2 * QUOTE_LIMIT:
        return f"[{pid}]"
    return f"[{pid[:QUOTE_LIMIT]}...] (an id of {len(pid):,} characters)"


class CollectionError(TsumeError):
    """A collection file that cannot be read: the message names file and line."""


@dataclass
class Record:
    """One problem of a collection, as the file writes it: the text of its
    keys (``position``, ``variant``, ``defender``, ``length``, ...) and its
    id, title, tags, provenance and rating.  :meth:`problem` gives the tsume
    it states, as the solvers take it (:class:`tsume.problem.Problem`)."""

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
    #: How a composed problem was made, ``key=value; ...`` (docs/compose.md).
    provenance: str | None = None
    #: A composed problem's score and features, ``key=value; ...`` (docs/compose.md).
    rating: str | None = None
    source: str | None = None  # "file:line" it was read from
    # The problem() last made, with the fields it was made from.
    _made: tuple[tuple, Tsume] | None = field(default=None, init=False, repr=False, compare=False)

    def problem(self, *, defender: "DefenderHand | str | None" = None) -> Tsume:
        """The tsume this record states: its position, variant, defender's
        hand, stated length and intended solution as a
        :class:`tsume.problem.Problem`; ``defender`` in place of the record's
        (a command line's ``--defender-hand``).  Raises a
        :class:`~tsume.errors.TsumeError` as ``Problem()`` does."""
        fields = (self.position, self.variant, self.defender if defender is None else defender, self.length,
                  None if self.solution is None else tuple(self.solution))
        if self._made is None or self._made[0] != fields:
            made = Tsume(fields[0], variant=get_variant(fields[1]), defender=fields[2], length=fields[3],
                         solution=fields[4])
            self._made = (fields, made)
        return self._made[1]

    def fields(self, name: str) -> dict[str, str]:
        """The ``key=value; ...`` pairs of ``provenance`` or ``rating`` as a dict."""
        if name not in ("provenance", "rating"):
            raise ValueError(f"fields() reads provenance or rating, not {name!r}")
        out: dict[str, str] = {}
        for part in (getattr(self, name) or "").split(";"):
            key, eq, value = part.partition("=")
            if eq:
                out[key.strip()] = value.strip()
        return out

    def proven_length(self) -> int | None:
        """The length a composed problem's ``rating`` records (``length=``): the
        main line's length as ``verify()`` proved it when the problem was rated.
        None without one, or when it is not a whole number: ``rating`` is free
        ``key=value`` text that :func:`load` does not check, and a listing
        should show what it can read rather than refuse the collection."""
        raw = self.fields("rating").get("length")
        if raw is None:
            return None
        try:
            return ascii_int(raw, "rating length", error=CollectionError, max_digits=_LENGTH_DIGITS)
        except CollectionError:
            return None

    def to_dict(self) -> dict[str, Any]:
        """The problem as plain JSON values (what ``tsume list --json`` prints,
        docs/problems.md): every key of the file, absent ones as null (``tags``
        as []), ``provenance`` and ``rating`` as dicts (:meth:`fields`), plus
        ``proven_length`` and ``source``, the ``file:line`` it was read from."""
        return {
            "id": self.id,
            "variant": self.variant,
            "position": self.position,
            "defender": self.defender,
            "length": self.length,
            "proven_length": self.proven_length(),
            "solution": self.solution,
            "title": self.title,
            "author": self.author,
            "tags": list(self.tags),
            "notes": self.notes,
            "provenance": self.fields("provenance"),
            "rating": self.fields("rating"),
            "source": self.source,
        }

    def to_text(self) -> str:
        """The problem as a collection file holds it; :func:`loads` reads it back
        the same (a ``#`` that would start a comment is escaped)."""
        values: list[tuple[str, str | None]] = [("variant", self.variant), ("position", self.position),
                                                ("defender", self.defender)]
        values.append(("length", None if self.length is None else str(self.length)))
        values.append(("solution", None if self.solution is None else " ".join(self.solution)))
        values += [("title", self.title or None), ("author", self.author or None),
                   ("tags", ", ".join(self.tags) or None)]
        values += [(key, getattr(self, key) or None) for key in ("notes", "provenance", "rating")]
        return "\n".join([f"[{self.id}]"] + [_wrap(f"{key}: {_write_value(v)}") for key, v in values if v is not None])


#: Another name for :class:`Record`.
Problem = Record


#: The longest ``length:`` accepted, in digits: a million plies is far beyond any
#: tsume, and a bound keeps int() away from Python's 4,300-digit limit.
_LENGTH_DIGITS = 6


def loads(text: str, name: str = "<string>") -> list[Record]:
    """Read a collection from text; errors name ``name``, the line and the problem.

    Lines are counted as editors count them: only ``\\n`` ends a line (a ``\\r``
    before it is dropped), and a leading byte-order mark is ignored.  Every
    problem's ``position`` and ``defender`` are read here, with its variant, so
    that a bad one is reported with its file, line and id before any work
    starts.  A collection with no problem is an error.
    """
    problems: list[Record] = []
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
            raise CollectionError(f"{where}: {_tag(pid)} has no 'position'")
        variant, variant_line = current.get("variant", (default_variant, line_no))
        try:
            get_variant(variant)
        except TsumeError as exc:
            raise CollectionError(f"{name}:{variant_line}: {_tag(pid)} {exc}") from None
        length = None
        if "length" in current:
            raw, ln = current["length"]
            length = ascii_int(raw, "length", f"{name}:{ln}: {_tag(pid)}", CollectionError, _LENGTH_DIGITS)
            if length < 1:
                raise CollectionError(f"{name}:{ln}: {_tag(pid)}: length must be at least 1 ply, not {length}")
        position, position_line = current["position"]
        defender, defender_line = current.get("defender", (None, 0))
        record = Record(
            id=pid,
            position=position,
            variant=variant,
            defender=defender,
            length=length,
            solution=current["solution"][0].split() if "solution" in current else None,
            title=current.get("title", (None, 0))[0],
            author=current.get("author", (None, 0))[0],
            tags=[t.strip() for t in current.get("tags", ("", 0))[0].split(",") if t.strip()],
            notes=current.get("notes", (None, 0))[0],
            provenance=current.get("provenance", (None, 0))[0],
            rating=current.get("rating", (None, 0))[0],
            source=where,
        )
        # Make the problem as the solvers will take it, once, here (the
        # callers use it as it is), so that a bad position or defender is
        # named with its file, line and id rather than part-way through a run.
        try:
            record.problem()
        except TsumeError as exc:
            try:
                Tsume(position, variant=variant)
            except TsumeError as alone:
                raise CollectionError(f"{name}:{position_line}: {_tag(pid)} position: {alone}") from None
            raise CollectionError(f"{name}:{defender_line}: {_tag(pid)} defender {quote(defender)}: {exc}") from None
        problems.append(record)

    if text.startswith("\ufeff"):
        text = text[1:]
    # The key whose value an indented line continues (None: no value open).
    open_key: str | None = None
    # split("\n"), not splitlines(): the latter also breaks at \f, \x85, U+2028
    # and others, and the line numbers would disagree with the user's editor.
    for line_no, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()  # also drops the \r of a \r\n ending
        if not line or line.startswith("#"):
            open_key = None  # a blank line or a comment ends a value
            continue
        if raw[:1] in (" ", "\t"):
            in_problem = f"{_tag(current_id[0])} " if current_id else ""
            if open_key is None or current is None:
                raise CollectionError(f"{name}:{line_no}: {in_problem}an indented line continues the value of the "
                                      f"line above it, and there is none: {quote(line)}")
            key = line.partition(":")[0].strip().lower()
            if ":" in line and key in KNOWN_KEYS:
                raise CollectionError(f"{name}:{line_no}: {in_problem}{quote(key)} is indented: an indented line "
                                      "continues the value above it; start a key at the beginning of its line")
            value, first_line = current[open_key]
            current[open_key] = (f"{value} {_read_value(line)}".strip(), first_line)
            continue
        open_key = None
        if line.startswith("["):
            line = _read_value(line)  # "[id]  # a comment"
            if not line.endswith("]"):
                raise CollectionError(f"{name}:{line_no}: problem header must be '[id]', got {quote(line)}")
            finish()
            pid = line[1:-1].strip()
            if not _ID_RE.fullmatch(pid):
                raise CollectionError(f"{name}:{line_no}: bad problem id {quote(pid)} (letters, digits, '.', '_', '-')")
            if pid in seen:
                raise CollectionError(f"{name}:{line_no}: duplicate problem id {_tag(pid)} (first at line {seen[pid]})")
            seen[pid] = line_no
            current_id = (pid, line_no)
            current = {}
            continue
        in_problem = f"{_tag(current_id[0])} " if current_id else ""
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon:
            raise CollectionError(f"{name}:{line_no}: {in_problem}expected 'key: value', got {quote(line)}")
        if key not in KNOWN_KEYS:
            raise CollectionError(f"{name}:{line_no}: {in_problem}unknown key {quote(key)} (known: {', '.join(KNOWN_KEYS)})")
        value = _read_value(value)
        if current is None:
            if key != "variant":
                raise CollectionError(f"{name}:{line_no}: only 'variant' may come before the first [id]")
            try:
                get_variant(value)
            except TsumeError as exc:
                raise CollectionError(f"{name}:{line_no}: {exc}") from None
            default_variant = value
            continue
        if key in current:
            raise CollectionError(f"{name}:{line_no}: {in_problem}key {key!r} given twice")
        current[key] = (value, line_no)
        open_key = key
    finish()
    if not problems:
        raise CollectionError(f"{name}: holds no problem")
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


def _has_folder(name: str | os.PathLike) -> bool:
    """Whether ``name`` has a folder part as written (``./x`` has one)."""
    text = os.fspath(name)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    return any(sep in text for sep in (os.sep, os.altsep) if sep)


def bundled_path(name: str) -> Path | None:
    """The bundled collection ``name`` (``examples`` or ``examples.tsume``),
    or None: never a file of the current folder, whatever its name (the
    studio serves the bundled collections and nothing beside its root)."""
    if not isinstance(name, str) or _has_folder(name) or "\x00" in name:
        return None
    stem = name[: -len(".tsume")] if name.endswith(".tsume") else name
    if not stem or stem.startswith("."):
        return None
    for folder in _BUNDLED_DIRS:
        candidate = folder / f"{stem}.tsume"
        try:
            if candidate.is_file():
                return candidate
        except (OSError, ValueError):  # a name the system refuses: too long
            return None
    return None


def locate(name: str | os.PathLike) -> Path:
    """The collection file ``name`` names: an existing path, else a bundled
    collection by name (``examples`` or ``examples.tsume``), so that the
    bundled problems can be named from any folder after a plain install."""
    if not isinstance(name, (str, os.PathLike)):
        raise CollectionError(f"a collection is named by a path or a name, not {quote(name)}")
    p = Path(name)
    try:
        if p.is_file():
            return p
        found = None if _has_folder(name) else bundled_path(os.fspath(p))
        if found is not None:
            return found
    except (OSError, ValueError) as exc:  # a name the system refuses: too long, a NUL byte
        raise CollectionError(f"{quote(str(name))}: not a usable file name ({type(exc).__name__})") from None
    if p.is_dir():
        raise CollectionError(f"{quote(str(name))}: {_folder_hint(p)}")
    if _has_folder(name):  # names no bundled collection: "./examples" is a path
        raise CollectionError(f"{quote(str(name))}: no such file")
    known = ", ".join(bundled_names()) or "none found"
    raise CollectionError(f"{quote(str(name))}: no such file, and no bundled collection of that name (bundled: {known})")


def load(path: str | os.PathLike) -> list[Record]:
    """Read a collection file (UTF-8, with or without a byte-order mark).

    Raises :class:`CollectionError` naming the file and line: unreadable,
    not UTF-8 (the line and byte offset of the first bad byte), malformed,
    a bad position or defender's hand, or no problem at all.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise CollectionError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CollectionError(
            f"{p}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start:,})"
        ) from None
    return loads(text, str(p))


def _folder_hint(folder: Path) -> str:
    """Why a folder is not a collection, and the collections in it."""
    try:
        inside = sorted(p.name for p in folder.glob("*.tsume") if p.is_file())
    except OSError:
        inside = []
    if not inside:
        return "is a folder, not a collection file (a .tsume file)"
    shown = ", ".join(inside[:6]) + (f" and {len(inside) - 6} more" if len(inside) > 6 else "")
    return f"is a folder, not a collection file; it holds {shown}"


#: The most ids an unknown id's message lists in full.
_IDS_LISTED = 10


def _closest(pid: str, ids: list[str], n: int = 5) -> list[str]:
    """The ids most like ``pid`` (a typo, a digit too few), best first: by
    likeness, then by the length of the beginning they share."""
    def score(other: str) -> tuple[float, int]:
        a, b = pid.lower(), other.lower()
        shared = len(os.path.commonprefix([a, b]))
        return difflib.SequenceMatcher(None, a, b).ratio(), shared

    scored = sorted(((score(i), i) for i in ids), key=lambda x: x[0], reverse=True)
    return [i for (ratio, _), i in scored[:n] if ratio >= 0.5]


def find(problems: Iterable[Record], pid: str, name: str = "collection") -> Record:
    """The problem ``pid`` of a collection; an unknown id raises a
    :class:`CollectionError` naming the closest ids (or all, if few)."""
    problems = list(problems)
    for pr in problems:
        if pr.id == pid:
            return pr
    ids = [pr.id for pr in problems]
    if len(ids) <= _IDS_LISTED:
        hint = f"its problems: {', '.join(ids)}" if ids else "it holds no problem"
    else:
        close = _closest(str(pid), ids)
        hint = f"{len(ids)} problems; " + (f"the closest ids: {', '.join(close)}" if close
                                            else f"from {ids[0]} to {ids[-1]}; tsume list names them all")
    raise CollectionError(f"{name}: no problem {_tag(pid)} ({hint})")


def dumps(problems: Iterable[Record], header: str | None = None) -> str:
    parts = []
    if header:
        parts.append("\n".join(f"# {line}" if line else "#" for line in header.splitlines()))
    parts.extend(pr.to_text() for pr in problems)
    return "\n\n".join(parts) + "\n"


def save(path: str | os.PathLike, problems: Iterable[Record], header: str | None = None) -> None:
    """Write a collection atomically (:func:`tsume.files.write_atomic`): a reader
    sees the old file or the new one, never a part."""
    write_atomic(path, dumps(problems, header))
