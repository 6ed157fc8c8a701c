"""The ``tsume`` command line.

Every command reads its input the same way (a POSITION string, or ``--file FILE``
with ``--id ID``; see :func:`problem_input`), and the limits the same way
(:func:`limit_options`).  Exit statuses (README, docs/solver.md, docs/verify.md):

* 0 -- done (mate; every problem sound or flawed);
* 1 -- no mate / some problem unsound;
* 2 -- bad input: one line on stderr naming what is wrong;
* 3 -- a time, node or memory limit stopped the search;
* 70 -- an internal error (a bug): one line naming the input that caused it;
* 74 -- the output could not be written (a full disk): one line;
* 130 -- interrupted (Ctrl-C);
* 141 -- the reader of the output went away (``| head``): silence, as Unix tools.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from .certificate.check import check_certificate
from .certificate.write import MAX_NODES as MAX_CERTIFICATE_NODES
from .certificate.write import CertificateError, certificate_for, pack
from .arguments import MAX_DEPTH, check_depth, check_max_length, check_memory_mb, check_positive_int, check_time_limit
from ._engine import PanicException
from .clock import process_seconds
from .collection import Record, bundled_names, find, load, locate
from .compose.themes import THEMES
from .files import write_atomic
from .errors import ArgumentError, TsumeError, quote
from .limits import Limits
from .notation import ascii_int
from .outcome import Status, Verdict
from .perft import divide, perft
from .position import COLOUR_NAMES, WHITE, Position
from .problem import Problem
from .render import (counted, describe, diagram, hand_text, mated, numbered, plies, sorted_moves, useless_by_check,
                     wrap_words)
from .svg import MAX_SIZE
from .variant import get_variant

F = TypeVar("F", bound=Callable[..., Any])

EXIT_MATE = EXIT_SOUND = 0
EXIT_NOMATE = EXIT_UNSOUND = 1
EXIT_BAD_INPUT = 2
EXIT_LIMIT = 3
EXIT_INTERNAL = 70  # EX_SOFTWARE of sysexits.h
EXIT_OUTPUT = 74  # EX_IOERR
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader left

#: The longest error line printed (click's own messages quote what was typed).
MESSAGE_LIMIT = 300


def _fail(message: str, status: int = EXIT_BAD_INPUT, kind: str | None = "error") -> NoReturn:
    """One line on stderr, ``tsume: <kind>: <message>``, and exit with ``status``."""
    text = " ".join(message.split())
    if len(text) > MESSAGE_LIMIT:
        text = text[:MESSAGE_LIMIT] + "..."
    try:
        click.echo(f"tsume: {kind}: {text}" if kind else f"tsume: {text}", err=True)
    except OSError:  # stderr gone too: the status still tells
        pass
    sys.exit(status)


class _OutputFailed(Exception):
    """Writing to stdout failed (closed pipe, full disk)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def echo(text: str = "") -> None:
    """Print a line on stdout; a failed write becomes :class:`_OutputFailed`."""
    try:
        click.echo(text)
    except OSError as exc:
        raise _OutputFailed(exc) from None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush of what
    could not be written does not print a traceback of its own."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (tests)
        pass


def _output_failed(error: OSError) -> NoReturn:
    _silence_stdout()
    if isinstance(error, BrokenPipeError):
        sys.exit(EXIT_PIPE)  # the reader has all it wanted: no message, as `yes | head`
    _fail(f"cannot write the output: {error.strerror or error}", EXIT_OUTPUT)


def make_parent(out: str) -> None:
    """Make the folder an output file goes into (``-o out/booklet.html``), as a
    user expects; a name the file system refuses is one line and status 74."""
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_OUTPUT)


def write_output(out: str, text: str | bytes) -> None:
    """Write a command's output file atomically, its folder made if missing."""
    make_parent(out)
    try:
        write_atomic(out, text)
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_OUTPUT)


def _describe_input(kwargs: dict[str, Any]) -> str:
    """The input a command was given, for the internal-error line."""
    parts = []
    if kwargs.get("file"):
        parts.append(f"--file {quote(str(kwargs['file']))}")
    if kwargs.get("pid"):
        parts.append(f"--id {quote(str(kwargs['pid']))}")
    if kwargs.get("position"):
        parts.append(quote(str(kwargs["position"]), 80))
    if kwargs.get("variant_spec"):
        parts.append(f"--variant {quote(str(kwargs['variant_spec']))}")
    return " ".join(parts) or "the default position"


def friendly_errors(func: F) -> F:
    """Run a command: input errors become one line and status 2, an unexpected
    exception one line and status 70 (never 1, which means "no mate"), a failed
    write of the output one line and 74 (or silence and 141 for a closed pipe),
    Ctrl-C status 130."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        code: Any = 0
        try:
            func(*args, **kwargs)
        except SystemExit as exc:
            code = exc.code
        except TsumeError as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted", EXIT_INTERRUPTED, None)
        except _OutputFailed as exc:
            _output_failed(exc.error)
        except (Exception, PanicException) as exc:  # a bug (a panic in the engine too): say so, with what caused it
            name = f"tsume {click.get_current_context().info_name}"
            what = " ".join(str(exc).split())[:150]
            _fail(
                f"'{name}' on {_describe_input(kwargs)}: {type(exc).__name__}: {what} (please report it)",
                EXIT_INTERNAL,
                "internal error",
            )
        try:
            sys.stdout.flush()
        except OSError as exc:
            _output_failed(exc)
        sys.exit(code)

    return wrapper  # type: ignore[return-value]


def _certificate_nodes(value: int | None, certifying: bool, option: str) -> int:
    """``--certificate-nodes``: only with the option that certifies (``option``);
    the writer's limit when not given."""
    if value is not None and not certifying:
        raise ArgumentError(f"--certificate-nodes needs {option}")
    return value if value is not None else MAX_CERTIFICATE_NODES


# --- option types: the library's checks, and numbers read as the library reads them ---------


class _Number(click.ParamType):
    """A number option checked by the same function as the library argument.

    Whole numbers are read by :func:`tsume.notation.ascii_int` (digits 0-9, a
    bounded count of them); decimals by ``float`` after the same guards.  A bad
    value is one short line naming the option.
    """

    def __init__(self, name: str, check: Callable[[Any, str], Any], whole: bool, max_digits: int = 18) -> None:
        self.name = name
        self.check = check
        self.whole = whole
        self.max_digits = max_digits

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        option = param.opts[0] if param is not None and param.opts else self.name
        text = value.strip()
        try:
            if self.whole:
                if text[:1] in "+-" and text[1:].isascii() and text[1:].isdigit() and len(text) <= 19:
                    number: Any = int(text)  # signed: the check says what range it needs
                elif not text.isdigit() and _is_decimal(text):
                    raise ArgumentError(f"{option}: expected a whole number, got {quote(value)}")
                else:
                    number = ascii_int(text, option, error=ArgumentError, max_digits=self.max_digits)
            else:
                if not text.isascii() or len(text) > 40:
                    raise ArgumentError(f"{option}: expected a number, got {quote(value)}")
                try:
                    number = float(text)
                except ValueError:
                    raise ArgumentError(f"{option}: expected a number, got {quote(value)}") from None
            return self.check(number, option)
        except ArgumentError as exc:
            message = str(exc)  # click names the option already
            for head in (f"{option}: ", f"{option} "):
                message = message.removeprefix(head)
            self.fail(message, param, ctx)


def _is_decimal(text: str) -> bool:
    """Whether ``text`` reads as a number with a fraction or an exponent (``2.5``, ``1e6``)."""
    if not text.isascii() or len(text) > 40:
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


SECONDS = _Number("seconds", check_time_limit, whole=False)
MEGABYTES = _Number("megabytes", check_memory_mb, whole=False)
COUNT = _Number("count", lambda v, name: check_positive_int(v, name), whole=True)
PLIES = _Number("plies", check_max_length, whole=True)
DEPTH = _Number("depth", check_depth, whole=True, max_digits=2)


# --- the shared options ---------------------------------------------------------------------


def variant_option(help_text: str) -> Callable[[F], F]:
    # No short form: -v is --verbose, as chess and shogi engines' tools use it.
    return click.option("--variant", "variant_spec", default=None, metavar="V", help=help_text)


VARIANT_HELP = (
    "ito (default) or rutherford, optionally with switches: ito:drop_mate=no, ito:stalemate=loss, "
    "rutherford:repetition=off.  Overrides a collection's."
)


def problem_input(func: F) -> F:
    """POSITION, or --file FILE --id ID, and --variant: the same on every command."""
    for decorator in reversed(
        (
            variant_option(VARIANT_HELP),
            click.option(
                "--file", "-f", "file", default=None, metavar="FILE",
                help="A problem collection: a path, or the name of a bundled one (e.g. examples).",
            ),
            click.option("--id", "pid", default=None, metavar="ID", help="The problem's id in FILE."),
            click.argument("position", required=False),
        )
    ):
        func = decorator(func)
    return func


def limit_options(func: F) -> F:
    """--time-limit, --nodes, --memory: the same on solve and verify, checked as the library checks them."""
    for decorator in reversed(
        (
            click.option("--time-limit", "time_limit", type=SECONDS, default=None, metavar="S",
                         help="Stop after S seconds (per problem); what it stops is reported unknown."),
            click.option("--nodes", "node_limit", type=COUNT, default=None, metavar="N",
                         help="Stop after N nodes (per problem)."),
            click.option("--memory", "memory_mb", type=MEGABYTES, default=None, metavar="MB",
                         help="Stop before the search grows the process by MB megabytes (its table gives way first)."),
        )
    ):
        func = decorator(func)
    return func


defender_hand_option = click.option(
    "--defender-hand", default=None, metavar="H",
    help="rest (default), none, or letters such as 2PT: what the defender holds.  Overrides a collection's.",
)
verbose_option = click.option("--verbose", "-v", is_flag=True, help="More detail.")
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")


def _looks_like_a_path(text: str) -> bool:
    """Whether a POSITION argument reads as a file name, so that a missing one is
    "no such file" and never a position with too few fields: it holds a ``/``
    or a ``\\``, starts with ``~``, ends in ``.tsume``, or is one word with a
    dot (a position string has none of these)."""
    return (any(mark in text for mark in ("/", "\\", os.sep)) or text.startswith("~")
            or text.lower().endswith(".tsume") or ("." in text and len(text.split()) == 1))


def _is_position_text(text: str) -> bool:
    """A position has three or four fields; a FILE given in its place has one
    (or is an existing file whose name holds spaces, or looks like a path)."""
    if len(text.split()) < 2 or _looks_like_a_path(text):
        return False
    try:
        return not Path(text).is_file()
    except (OSError, ValueError):  # a name the file system refuses is no file
        return True


def open_collection(file: str) -> tuple[Path, list[Record]]:
    """The collection FILE names and its problems: a path if it exists, else a
    bundled collection's name (:func:`tsume.collection.locate`), read by
    :func:`tsume.collection.load`.  How every command reads a FILE."""
    path = locate(file)
    return path, load(path)


def load_problems(
    position: str | None, file: str | None, pid: str | None, variant_spec: str | None, *, every: bool = False
) -> list[Record]:
    """The problems a command was given: a POSITION string, or --file FILE with --id ID.

    FILE is a path or the name of a bundled collection.  For the old spelling
    ``tsume verify FILE``, a POSITION argument that is not a position string
    (a position has at least three space-separated fields), or that reads as
    a file name (:func:`_looks_like_a_path`), is taken as FILE.
    Without --id, a FILE must hold exactly one problem unless ``every``.
    ``--variant`` overrides the collection's variant.  A POSITION of None is
    the variant's start position (``show`` and ``perft``).
    """
    if position is not None and file is None and not _is_position_text(position):
        try:
            locate(position)
        except TsumeError:
            if _looks_like_a_path(position):
                raise  # "no such file": it cannot have been meant as a position
            known = ", ".join(bundled_names()) or "none"
            raise TsumeError(
                f"position {quote(position)}: expected '<board> <side> <hands> [<move number>]', got 1 field; "
                f"and no file named {quote(position)} (bundled collections: {known})"
            ) from None
        position, file = None, position
    if file is not None:
        if position is not None:
            raise TsumeError("give either a POSITION or --file FILE, not both")
        path, problems = open_collection(file)
        if pid is not None:
            problems = [find(problems, pid, str(path))]
        elif not every and len(problems) != 1:
            raise TsumeError(f"{path}: holds {len(problems)} problems; choose one with --id")
        if variant_spec is not None:
            for pr in problems:
                pr.variant = variant_spec
        return problems
    if pid is not None:
        raise TsumeError("--id needs a collection FILE: --file FILE (a path, or the name of a bundled one)")
    return [Record(id="position", position=position, variant=variant_spec or "ito")]  # type: ignore[arg-type]


def load_position(position: str | None, file: str | None, pid: str | None, variant_spec: str | None) -> Position:
    """The one position of show and perft (the start position if none is given).

    A collection problem is taken as it is solved (:meth:`Record.problem
    <tsume.collection.Record.problem>`): the defender holds what its
    ``defender:`` line says, by default the rest of the set.  A POSITION is
    taken as written.
    """
    pr = load_problems(position, file, pid, variant_spec)[0]
    if pr.source is not None:  # read from a collection
        return pr.problem().position()
    return _record_position(pr)


def _record_position(pr: Record) -> Position:
    """A POSITION as written (None: the variant's start position)."""
    return Position(pr.position, get_variant(pr.variant))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tsume")
def main() -> None:
    """Solve, verify and compose tsume for one-dimensional shogi.

    Every command takes a POSITION string, or --file FILE --id ID (FILE a
    collection path or the name of a bundled one, e.g. examples).
    """


def _subcommand(ctx: click.Context) -> str:
    """The command a usage error is about, without the program's name (which
    heads every message already): ``solve`` for ``tsume solve``."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


def run(args: list[str] | None = None) -> None:
    """The console entry point: click's own usage errors also become one line and status 2."""
    try:
        code = main.main(args=args, prog_name="tsume", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click >= 8.2
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        sys.exit(EXIT_BAD_INPUT)
    except click.ClickException as exc:
        ctx = getattr(exc, "ctx", None)  # only UsageError and its subclasses have one
        where = f"{_subcommand(ctx)}: " if ctx is not None and ctx.parent is not None else ""
        hint = ""
        if isinstance(exc, click.NoSuchOption) and exc.option_name == "-v":
            hint = " (-v is --verbose, on solve and verify; the variant is --variant)"
        _fail(where + exc.format_message() + hint)
    except click.exceptions.Abort:
        _fail("interrupted", EXIT_INTERRUPTED, None)
    except OSError as exc:  # writing --help or --version
        _output_failed(exc)
    except (Exception, PanicException) as exc:  # a bug outside any command
        _fail(f"{type(exc).__name__}: {exc}; please report it", EXIT_INTERNAL, "internal error")
    try:
        sys.stdout.flush()
    except OSError as exc:
        _output_failed(exc)
    sys.exit(code if isinstance(code, int) else 0)


# --- show and perft ---------------------------------------------------------------------------


@main.command()
@problem_input
@click.option("--format", "fmt", type=click.Choice(["text", "svg", "json"]), default="text", show_default=True,
              help="A text diagram with the legal moves, an SVG diagram (docs/booklet.md), or JSON.")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json (see docs/notation.md).")
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="Write to FILE (atomically) instead of standard output.")
@click.option("--compact", is_flag=True, help="Text: a two-line diagram instead of one square per line.")
@click.option("--kanji", is_flag=True, help="SVG: the kanji of each piece's shogi name where it has one.")
@click.option("--fold", type=_Number("--fold", lambda v, name: check_positive_int(v, name, "a number of squares"),
                                     whole=True),
              default=None, metavar="N", help="SVG: at most N squares per row (default: the whole file in one row).")
@click.option("--size", type=_Number("--size", lambda v, name: check_positive_int(v, name, "a number of pixels",
                                                                                 most=MAX_SIZE), whole=True),
              default=None, metavar="PX", help="SVG: a square's size in pixels (default: scale to the window).")
@defender_hand_option
@friendly_errors
def show(variant_spec: str | None, file: str | None, pid: str | None, position: str | None, fmt: str,
         as_json: bool, out: str | None, compact: bool, kanji: bool, fold: int | None, size: int | None,
         defender_hand: str | None) -> None:
    """Draw POSITION (default: the variant's start position) and list its legal moves.

    A collection problem (--file FILE --id ID), or a POSITION with
    --defender-hand, is drawn as it is solved: the defender holds what its
    `defender:` line (or --defender-hand) says, by default the rest of the
    set, and a collection problem's id, title and stated length head the
    diagram.  A POSITION alone is drawn as written; where `solve` would give
    the defender other pieces, a line (and the JSON's "tsume") says which.
    """
    from . import svg

    if as_json:
        fmt = "json"
    pr = load_problems(position, file, pid, variant_spec)[0]
    tsume: Problem | None = None
    if pr.source is not None or defender_hand is not None:
        # A collection's problem, or one given a hand, must be a tsume: else say why not.
        tsume = pr.problem(defender=defender_hand)
        pos = tsume.position()
    else:
        pos = _record_position(pr)
        if position is not None:
            try:  # what `solve` would make of it, if it is a tsume at all
                tsume = pr.problem()
            except TsumeError:
                pass
    heading = _problem_heading(pr) if pr.source is not None else None
    if fmt == "json":
        data = describe(pos)
        if heading is not None:
            # Nested: describe() has a "title" of its own (the variant's).
            data["problem"] = {"id": pr.id, "title": pr.title, "author": pr.author, "length": pr.length}
        data["tsume"] = None if tsume is None else {
            "position": tsume.fen, "defender": tsume.defender.rule, "defender_hand": _defender_letters(tsume)}
        text = json.dumps(data)
    elif fmt == "svg":
        caption = None
        if heading is not None:
            caption = f"{heading}.  {pos.fen()}"
        text = svg.board(pos, kanji=kanji, fold=fold, size=size, caption=caption)
    else:
        moves = sorted_moves(pos)
        lines = [heading] if heading is not None else []
        lines.append(diagram(pos, compact=compact, tsume=tsume is not None and tsume.fen == pos.fen()))
        if tsume is not None and tsume.fen != pos.fen():
            lines.append(_solved_with(tsume))
        lines.append(f"Legal moves ({len(moves)}): " + " ".join(str(m) for m in moves))
        text = "\n".join(lines)
    if out is None:
        echo(text)
        return
    write_output(out, text + "\n")


def _defender_letters(tsume: "Problem") -> str:
    """The defender's hand of a tsume as a position string writes it (White's in lowercase)."""
    pos = tsume.position()
    letters = pos.hand_string(pos.turn ^ 1)
    return letters.lower() if pos.turn ^ 1 == WHITE else letters


def _solved_with(tsume: "Problem") -> str:
    """The line under a POSITION's diagram saying what the defender holds when it is solved."""
    pos = tsume.position()
    side = COLOUR_NAMES[pos.turn ^ 1]
    letters = _defender_letters(tsume)
    what = {"rest": "the rest of the set", "none": "nothing"}.get(tsume.defender.rule, "given pieces")
    held = f": {letters} ({hand_text(pos, pos.turn ^ 1)})" if tsume.defender.rule != "none" else ""
    return f"As a tsume (solve, verify), {side} holds {what}{held}; --defender-hand chooses."


def _problem_heading(pr: Record) -> str:
    """``ito-09: A title, by someone (mate in 9)``: what a diagram of a collection problem is headed with."""
    words = pr.id
    if pr.title:
        words += f": {pr.title}"
    if pr.author:
        words += f", by {pr.author}"
    if pr.length is not None:
        words += f" (mate in {pr.length})"
    return words


# --- list ---------------------------------------------------------------------------------------

#: The widest title ``tsume list`` prints in its column; a longer one is cut
#: (with "...") so that the tags stay in view.  ``--json`` has it whole.
_LIST_TITLE_WIDTH = 40


def _list_rows(problems: list[Record]) -> list[tuple[str, ...]]:
    """The cells of ``tsume list``: id, variant, stated and proven length, title, tags ("-" for none)."""

    def number(n: int | None) -> str:
        return "-" if n is None else str(n)

    rows: list[tuple[str, ...]] = []
    for pr in problems:
        title = pr.title or "-"
        if len(title) > _LIST_TITLE_WIDTH:
            title = title[: _LIST_TITLE_WIDTH - 3] + "..."
        rows.append((pr.id, pr.variant, number(pr.length), number(pr.proven_length()), title,
                     ", ".join(pr.tags) or "-"))
    return rows


@main.command("list")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/problems.md).")
@friendly_errors
def list_command(file: str, as_json: bool) -> None:
    """List the problems of the collection FILE (a path, or the name of a bundled one, e.g. seed-ito):
    id, variant, stated length, proven length, title and tags.

    Exit status: 0 listed, 2 a missing, unreadable, malformed or empty FILE.
    """
    path, problems = open_collection(file)
    if as_json:
        echo(json.dumps({"file": str(path), "count": len(problems), "problems": [pr.to_dict() for pr in problems]}))
        return
    header = ("ID", "VARIANT", "LENGTH", "PROVEN", "TITLE", "TAGS")
    rows = _list_rows(problems)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    numeric = {2, 3}  # the lengths, right-aligned so that their digits line up
    for row in [header, *rows]:
        cells = [cell.rjust(w) if i in numeric else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        echo("  ".join(cells).rstrip())
    echo(f"{counted(len(problems), 'problem', 'problems')} in {path}")


@main.command("perft")
@problem_input
@click.option("--position", "-p", "position_option", default=None, metavar="P", hidden=True,
              help="The position (old spelling of the POSITION argument).")
@click.option("--depth", "-d", type=DEPTH, required=True, help=f"Depth in plies (0 to {MAX_DEPTH}).")
@click.option("--divide", "do_divide", is_flag=True, help="Also count per first move.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly_errors
def perft_command(variant_spec: str | None, file: str | None, pid: str | None, position: str | None,
                  position_option: str | None, depth: int, do_divide: bool, as_json: bool) -> None:
    """Count the legal move sequences of a given length from POSITION (default: start)."""
    if position_option is not None:
        if position is not None:
            raise TsumeError("give the position once: as POSITION or --position, not both")
        position = position_option
    pos = load_position(position, file, pid, variant_spec)
    start = time.perf_counter()
    if do_divide and depth >= 1:
        parts = divide(pos, depth)
        nodes = sum(parts.values())
    else:
        parts = {}
        nodes = perft(pos, depth)
    seconds = time.perf_counter() - start
    if as_json:
        out: dict[str, Any] = {"depth": depth, "nodes": nodes}
        if do_divide:
            out["divide"] = parts
        echo(json.dumps(out))
        return
    if do_divide:
        for move, count in parts.items():
            echo(f"{move}: {count}")
    rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
    echo(f"perft {depth}: {nodes} nodes in {seconds:.3f} s{rate}")


# --- solve ------------------------------------------------------------------------------------


def _table_full(stats: dict) -> str:
    """What the statistics line adds when the table filled up: each time
    it dropped entries, searched again later, so a small ``--memory`` can
    cost far more nodes than it saves."""
    runs = stats.get("gc_runs", 0)
    if not runs:
        return ""
    return f"; the table filled up {runs:,} time{'s' if runs != 1 else ''} (a larger --memory may be faster)"


def _progress_printer(enabled: bool) -> "Callable[[dict], None] | None":
    if not enabled:
        return None

    def report(stats: dict) -> None:
        try:
            click.echo(
                f"tsume: searching... {stats['nodes']:,} nodes, {stats['seconds']:.1f} s, "
                f"{stats['nodes_per_second']:,.0f} nodes/s, {stats['table_entries']:,} table entries"
                f"{_table_full(stats)}",
                err=True,
            )
        except OSError:  # progress is a courtesy: a closed stderr must not stop the search
            pass

    return report


#: Where the lines of ``Main line:`` after the first start: under its first move.
_MAIN_LINE_HEAD = "Main line: "
#: Where a long variation's lines after the first start (its head is too wide to hang under).
_VARIATION_INDENT = " " * 6


def _human_report(result, pos: Position, verbose: bool) -> str:
    """``tsume solve``'s report for people (docs/solver.md, "Reading a report").

    The diagram shows the defender's hand as the solver read it; every line of
    play is in the readable notation, numbered by ply, wrapped at
    :data:`~tsume.render.LINE_WIDTH` columns, with ``#`` on its mating move.
    ``Move strings:`` keeps the plain main line, ready for ``--solution``.
    """
    out = [diagram(pos, compact=True, tsume=True), ""]
    if result.status == Status.MATE:
        out.append(f"Mate in {plies(result.length)}.")
        out.extend(wrap_words(_MAIN_LINE_HEAD, numbered(mated(result.readable)), " " * len(_MAIN_LINE_HEAD)))
        out.append("Move strings: " + " ".join(result.mainline))
        out.append(f"Left in the attacker's hand: {result.leftover}")
        defences = [v for v in result.variations if not v.useless]
        if defences:
            out.append("Variations (defender alternatives on the main line):")
            for v in defences:
                # The head names the defence; its line goes on from the next ply,
                # numbered as the main line it replaces.
                moves = numbered(mated(v.readable_line)[1:], v.ply + 1)
                out.extend(wrap_words(f"  at ply {v.ply}: {v.readable}  -> {plies(v.length)}, leftover {v.leftover}: ",
                                      moves, _VARIATION_INDENT))
        useless = useless_by_check(result.variations)
        if useless:
            # Each group answers a check of the main line, the mating one included.
            out.append("Useless interpositions (refuted, not counted):")
            checks = numbered(mated(result.readable))
            for ply, moves in useless.items():
                out.extend(wrap_words(f"  after {checks[ply - 1]}: ", moves, _VARIATION_INDENT))
    elif result.status == Status.NOMATE:
        bound = result.stats.get("max_length")
        out.append(f"No mate within {plies(bound)}." if bound else "No mate.")
    else:
        out.append(f"Unknown: stopped by the {result.reason or 'limit'}.")
        if result.upper_bound:
            out.append(f"A mate in at most {plies(result.upper_bound)} was found; the shortest is not proven.")
            if result.readable_line:
                out.extend(wrap_words(f"A mating line ({plies(len(result.readable_line))}): ",
                                      numbered(mated(result.readable_line)), _VARIATION_INDENT))
    if result.first_moves is not None:
        out.append("First moves:")
        for fm in result.first_moves:
            # The engines name first moves by move string; read as the main line is.
            move = pos.move_readable(pos.parse_move(fm["move"]))
            if fm["status"] == Status.MATE and fm["length"]:
                what = f"mate in {plies(fm['length'])}"
            else:
                what = "no mate" if fm["status"] == Status.NOMATE else fm["status"]
            out.append(f"  {move}: {what}")
    st = result.stats
    if st.get("engine") == "sat":
        each = [f"n={n}: {st['variables'][n]:,} variables / {st['clauses'][n]:,} clauses" for n in st["variables"]]
        sizes = ", ".join(each if len(each) <= 4 else each[:2] + [f"... ({len(each) - 3} more)", each[-1]])
        out.append(f"Engine: SAT (every interposition counted). Encodings: {sizes or '-'}")
        out.append(f"Statistics: {st['seconds']:.3f} s, {st['cpu_seconds']:.3f} s CPU, "
                   f"{st['oracle_positions']:,} positions listed by the oracle, about {st['memory_mb']} MB held")
        if verbose:
            out.append(f"Position: {result.position}  variant: {result.variant}")
        return "\n".join(out)
    out.append(
        f"Statistics: {st['nodes']:,} nodes, {st['seconds']:.3f} s, {st['nodes_per_second']:,.0f} nodes/s, "
        f"{st['table_entries']:,} table entries, peak memory {st['peak_memory_mb']} MB{_table_full(st)}"
    )
    if verbose:
        out.append(f"Position: {result.position}  variant: {result.variant}")
    return "\n".join(out)


@main.command("solve")
@problem_input
@defender_hand_option
@limit_options
@click.option("--max-length", type=PLIES, default=None, metavar="L", help="Only mates within L plies.")
@click.option("--all-first-moves", is_flag=True, help="Also solve after every legal checking first move.")
@click.option("--engine", type=click.Choice(["dfpn", "sat"]), default="dfpn", show_default=True,
              help="df-pn search, or the SAT engine (needs --max-length; counts every interposition, see docs/sat.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@verbose_option
@quiet_option
@friendly_errors
def solve_command(
    variant_spec: str | None,
    file: str | None,
    pid: str | None,
    position: str | None,
    defender_hand: str | None,
    time_limit: float | None,
    node_limit: int | None,
    memory_mb: float | None,
    max_length: int | None,
    all_first_moves: bool,
    engine: str,
    as_json: bool,
    verbose: bool,
    quiet: bool,
) -> None:
    """Solve a tsume: shortest mate by continuous checks against the longest defence.

    Exit status: 0 mate, 1 no mate, 3 a limit stopped the search, 2 bad input,
    70 internal error.
    """
    from .solve import solve

    if engine == "sat":
        if max_length is None:
            raise TsumeError("--engine sat needs --max-length N (it proves mates within N plies)")
        if node_limit is not None:
            raise TsumeError("--nodes is a df-pn limit; --engine sat takes --time-limit and --memory")
    if position is None and file is None:
        raise TsumeError("give a POSITION, or --file FILE --id ID")
    problem = load_problems(position, file, pid, variant_spec)[0].problem(defender=defender_hand)
    pos = problem.position()
    # The limit counts from the command's start (Python's start-up and imports included).
    left = None if time_limit is None else max(time_limit - process_seconds(), 1e-3)
    if engine == "sat":
        from .sat import DEFAULT_MEMORY_MB, sat_solve

        result = sat_solve(problem, max_length=max_length, all_first_moves=all_first_moves,
                           limits=Limits(time=left, memory=memory_mb or DEFAULT_MEMORY_MB))
        result.stats["max_length"] = max_length
        _print_result(result, pos, as_json, verbose)
    result = solve(
        problem,
        max_length=max_length,
        limits=Limits(time=left, nodes=node_limit, memory=memory_mb),
        progress=_progress_printer(not quiet),
        all_first_moves=all_first_moves,
    )
    if max_length is not None:
        result.stats["max_length"] = max_length
    _print_result(result, pos, as_json, verbose)


def _print_result(result, pos: Position, as_json: bool, verbose: bool) -> NoReturn:
    """Print a solve result (either engine) and exit with its status."""
    if as_json:
        data = result.to_dict()
        if data["leftover"] is None and result.status == Status.MATE:
            data["leftover"] = "-"
        echo(json.dumps(data))
    else:
        echo(_human_report(result, pos, verbose))
    sys.exit(EXIT_MATE if result.status == Status.MATE else EXIT_NOMATE if result.status == Status.NOMATE
             else EXIT_LIMIT)


# --- verify -----------------------------------------------------------------------------------

#: The widest id column of ``tsume verify``'s table (a longer id pushes its own line's cells right).
_ID_WIDTH = 40
#: How many ids a summary names per verdict that needs a look, before "and N more".
_SUMMARY_IDS = 5


class _ProgressLine:
    """The progress of a command over a collection, on stderr.

    On a terminal it is one line redrawn in place and erased before anything
    is printed on stdout (:meth:`clear`), so that it never mixes with the
    output, and erased at the end.  Elsewhere (a log file) it is a line every
    10 s at most, as ``tsume compose`` and ``tsume census`` write theirs.
    Progress is a courtesy: a closed stderr never stops the work.
    """

    def __init__(self, enabled: bool, verb: str, total: int) -> None:
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()
        self.verb = verb
        self.total = total
        self.head = ""
        self.shown = False
        self.last = time.monotonic()

    def start(self, n: int, pid: str, note: str = "") -> None:
        """Problem ``n`` (from 1), whose id is ``pid``, is started (or, with a
        ``note`` such as its verdict, done)."""
        self.head = f"tsume: {self.verb} {n}/{self.total} {pid}"
        self._show(f"{self.head}: {note}" if note else self.head)

    def searching(self, stats: dict) -> None:
        """A search's progress report (``solve()``'s and ``verify()``'s ``progress``)."""
        self._show(f"{self.head}: {stats['nodes']:,} nodes, {stats['seconds']:.1f} s")

    def _show(self, line: str) -> None:
        if self.tty:
            self._draw(line)
        elif self.enabled and time.monotonic() - self.last >= 10:
            self.last = time.monotonic()
            self._write(line + "\n")

    def clear(self) -> None:
        """Erase the line (before a line of output on a terminal)."""
        if self.shown:
            self.shown = False
            self._write("\r\x1b[K")

    def _draw(self, line: str) -> None:
        self.shown = True
        self._write("\r" + line[: _terminal_width() - 1] + "\x1b[K")

    @staticmethod
    def _write(text: str) -> None:
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _terminal_width() -> int:
    """The width of the terminal stderr is on: a progress line longer than it
    would wrap, and a carriage return would then redraw only its last row."""
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):  # not a terminal, or no file descriptor (tests)
        return 80


def _verify_table_row(cells: tuple[str, ...], id_width: int) -> str:
    """One line of ``tsume verify``'s table: id, verdict, proven length, [nodes,
    seconds,] finding kinds."""
    pid, verdict, length, *rest = cells
    numbers = "".join(f"  {cell:>10}" for cell in rest[:-1])
    return f"{pid:<{id_width}}  {verdict:<7}  {length:>6}{numbers}  {rest[-1]}".rstrip()


def _verify_row_cells(report: Any, verbose: bool) -> tuple[str, ...]:
    """A report's cells in ``tsume verify``'s table (docs/verify.md, "A collection")."""
    kinds = ", ".join(dict.fromkeys(f.kind for f in report.findings)) or "-"
    length = "-" if report.length is None else str(report.length)
    if not verbose:
        return (str(report.id), report.verdict, length, kinds)
    st = report.stats
    return (str(report.id), report.verdict, length, f"{st.get('nodes', 0):,}", f"{st.get('seconds', 0):.2f}", kinds)


def _verify_summary(reports: list[Any], seconds: float) -> str:
    """The closing line of ``tsume verify`` on a collection: the count of each
    verdict, the time, and the ids of the problems that need a look."""
    verdicts = [r.verdict for r in reports]
    counts = ", ".join(f"{verdicts.count(v)} {v}" for v in Verdict)
    out = f"{counted(len(reports), 'problem', 'problems')}: {counts}; {seconds:.1f} s"
    for verdict in (Verdict.UNSOUND, Verdict.UNKNOWN):
        ids = [str(r.id) for r in reports if r.verdict == verdict]
        if ids:
            more = f" and {len(ids) - _SUMMARY_IDS} more" if len(ids) > _SUMMARY_IDS else ""
            out += f"; {verdict}: {', '.join(ids[:_SUMMARY_IDS])}{more}"
    return out


@main.command("verify")
@problem_input
@defender_hand_option
@click.option("--length", "stated_length", type=PLIES, default=None, metavar="L", help="The stated length, for a POSITION.")
@click.option("--solution", default=None, metavar="MOVES", help="The intended solution (space-separated moves), for a POSITION.")
@click.option("--strict", is_flag=True, help="Also demand a unique attacker move everywhere: final move, detours, variations.")
@click.option("--longer-ok", "longer_ok", is_flag=True, help='Excuse a variation "2 plies longer, pieces left".')
@limit_options
@click.option("--length-budget", "length_budget", type=COUNT, default=None, metavar="N",
              help="Nodes for a mating alternative's exact length, and again for its best line (default 100,000); "
                   "past them its length is shown as bounds, with a mating line.")
@click.option("--exact-lengths", "exact_lengths", is_flag=True,
              help="Read every mating alternative's exact length and best line, however long it takes.")
@click.option("--full", is_flag=True,
              help="For a collection, every problem's full report (as for one problem), not a line each.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--certificate", "certificate", default=None, metavar="OUT",
              help="Write a certificate of every sound problem to OUT (docs/certificates.md).")
@click.option("--certificate-nodes", "certificate_nodes", type=COUNT, default=None, metavar="N",
              help="The most refutation and strategy nodes of a certificate (default 100,000); "
                   "past them the problem is not certified.")
@verbose_option
@click.option("--quiet", "-q", is_flag=True,
              help="No progress lines on stderr; for a collection, only the summary line (with --full, the reports too).")
@friendly_errors
def verify_command(
    variant_spec: str | None,
    file: str | None,
    pid: str | None,
    position: str | None,
    defender_hand: str | None,
    stated_length: int | None,
    solution: str | None,
    strict: bool,
    longer_ok: bool,
    time_limit: float | None,
    node_limit: int | None,
    memory_mb: float | None,
    length_budget: int | None,
    exact_lengths: bool,
    full: bool,
    as_json: bool,
    certificate: str | None,
    certificate_nodes: int | None,
    verbose: bool,
    quiet: bool,
) -> None:
    """Verify the soundness of one POSITION, of the problem --id ID of --file FILE,
    or of every problem in FILE (also spelled `tsume verify FILE`).

    One problem gets a full report; a collection a line per problem (id,
    verdict, proven length, the kinds of its findings) and a summary line.

    With --certificate OUT, every sound problem's certificate goes into OUT
    (one file); a problem that is not certified gets a line on stderr saying
    why, and the exit status is then at least 1.

    Exit status: 0 every problem sound or flawed (tolerated blemishes only),
    1 some problem unsound (or not certified), 3 none unsound but some unknown
    (a limit stopped a proof), 2 bad input, 70 internal error.
    """
    from .verify import LENGTH_BUDGET, format_report, verify

    if position is None and file is None:
        raise TsumeError("give a POSITION, or --file FILE (every problem, or one with --id ID)")
    if exact_lengths and length_budget is not None:
        raise TsumeError("--length-budget and --exact-lengths exclude each other")
    if certificate is not None and longer_ok:
        raise TsumeError("--certificate certifies the main line as the longest defence: not with --longer-ok")
    max_nodes = _certificate_nodes(certificate_nodes, certificate is not None, "--certificate OUT")
    budget = None if exact_lengths else length_budget if length_budget is not None else LENGTH_BUDGET
    problems = load_problems(position, file, pid, variant_spec, every=True)
    if problems[0].source is not None:  # from a collection, which states its own
        if stated_length is not None or solution is not None:
            raise TsumeError("--length and --solution are for a POSITION; a collection states its own")
    else:
        problems[0].length = stated_length
        problems[0].solution = solution.split() if solution else None
    reports = []
    many = len(problems) > 1
    # A collection: a table, one line per problem, unless --full (or --json).
    table = many and not full and not as_json
    id_width = min(_ID_WIDTH, max(len("ID"), *(len(pr.id) for pr in problems)))
    if table and not quiet:
        columns = ("ID", "VERDICT", "PROVEN") + (("NODES", "SECONDS") if verbose else ()) + ("FINDINGS",)
        echo(_verify_table_row(columns, id_width))
    # One problem reports its search as solve does; a collection on one line.
    status = _ProgressLine(many and not quiet, "verifying", len(problems))
    searching = status.searching if many else _progress_printer(not quiet)
    started = time.monotonic()
    # Per problem; the first one's limit counts from the command's start (as solve's).
    first_limit = None if time_limit is None else max(time_limit - process_seconds(), 1e-3)
    certified: list[dict] = []
    refused: list[str] = []
    try:
        for n, pr in enumerate(problems, 1):
            status.start(n, pr.id)
            problem = pr.problem(defender=defender_hand)
            report = verify(
                problem,
                strict=strict,
                longer_with_leftover_ok=longer_ok,
                limits=Limits(time=first_limit if n == 1 else time_limit, nodes=node_limit, memory=memory_mb),
                progress=searching,
                length_budget=budget,
                id=pr.id,
            )
            reports.append(report)
            if certificate is not None:
                status.start(n, pr.id, "certifying")
                limits = Limits(time=time_limit, nodes=node_limit, memory=memory_mb)
                try:
                    certified.append(certificate_for(problem, report, limits=limits, max_nodes=max_nodes))
                except CertificateError as exc:
                    refused.append(f"{pr.id}: {exc}")
            status.clear()
            if table:
                if not quiet:
                    echo(_verify_table_row(_verify_row_cells(report, verbose), id_width))
            elif not as_json:
                echo(format_report(report, title=pr.title,
                                   diagram_text=diagram(problem.position(), compact=True, tsume=True)))
                if verbose:
                    st = report.stats
                    echo(f"Statistics: {st['nodes']:,} nodes, {st['seconds']:.3f} s, {st['table_entries']:,} table entries"
                         f"{_table_full(st)}")
                    echo("Nodes by question: " + ", ".join(f"{k} {n:,}" for k, n in st["nodes_by_question"].items()))
                echo("")
    finally:
        status.clear()
    verdicts = [r.verdict for r in reports]
    if as_json:
        echo(json.dumps({"problems": [r.to_dict() for r in reports]}))
    elif many:
        echo(_verify_summary(reports, time.monotonic() - started))
    if certificate is not None:
        for line in refused:
            _status_line(f"tsume: not certified: {' '.join(line.split())[:MESSAGE_LIMIT]}", False)
        if certified:
            write_output(certificate, pack(certified))
            if not quiet:
                _status_line(f"tsume: {counted(len(certified), 'certificate', 'certificates')} written to {certificate}",
                             False)
    sys.exit(EXIT_UNSOUND if Verdict.UNSOUND in verdicts or refused else EXIT_LIMIT if Verdict.UNKNOWN in verdicts
             else EXIT_SOUND)


@main.command("check")
@click.argument("cert", metavar="CERT")
@click.option("--quiet", "-q", is_flag=True, help="No output: the exit status says it.")
@friendly_errors
def check_command(cert: str, quiet: bool) -> None:
    """Check the certificate file CERT (written by `tsume verify --certificate`)
    with the independent checker (docs/certificates.md).

    Exit status: 0 accepted, 1 rejected (with the reason and the moves that
    lead to the fault), 2 unreadable.
    """
    try:
        data = Path(cert).read_bytes()
    except OSError as exc:
        _fail(f"cannot read {cert}: {exc.strerror or exc}")
    result = check_certificate(data)
    if result.status == "unreadable":
        _fail(f"{cert}: unreadable: {result.reason}")
    if not quiet:
        echo(f"{cert}: {result.line()}")
    sys.exit(0 if result.accepted else 1)


# --- compose -------------------------------------------------------------------------------------


def _status_line(line: str, tty: bool) -> None:
    """A progress line on stderr: redrawn in place on a terminal, one line
    each otherwise.  Progress is a courtesy: a closed stderr must not stop
    the work."""
    try:
        click.echo(("\r" + line + "\x1b[K") if tty else line, err=True, nl=not tty)
    except OSError:
        pass


def _compose_progress(enabled: bool, count: int | None, time_limit: float | None) -> "Callable[[Any], None] | None":
    """The progress bar of ``tsume compose`` on stderr: problems accepted (by
    length), candidates tried, mates found and the longest so far (the
    running shards included), candidates per second and the time left
    (redrawn in place on a terminal, one line every 10 s otherwise)."""
    if not enabled:
        return None
    tty = sys.stderr.isatty()
    last = [0.0]

    def report(s: Any) -> None:
        now = time.monotonic()
        if not tty and now - last[0] < 10:
            return
        last[0] = now
        rate = s.tried / s.elapsed if s.elapsed > 0 else 0.0
        lengths = " ".join(f"{k}:{v}" for k, v in sorted(s.by_length.items())) or "-"
        left = []
        if time_limit is not None:
            left.append(max(0.0, time_limit - s.elapsed))
        if count is not None and s.accepted:
            left.append((count - s.total) * s.elapsed / s.accepted)
        eta = f", {min(left):.0f} s left" if left else ""
        bar = ""
        if count is not None:
            done = min(20, 20 * s.total // count)
            bar = f"[{'#' * done}{'.' * (20 - done)}] {s.total}/{count} "
        longest = f", longest {s.longest_seen}" if s.longest_seen else ""
        line = (f"tsume: composing {bar}accepted {s.accepted} (by length {lengths}), "
                f"{s.tried:,} tried, {s.mating:,} mates{longest}, {rate:.1f}/s{eta}")
        _status_line(line, tty)

    return report


@main.command("compose")
@variant_option("ito (default) or rutherford.")
@click.option("--out", "-o", "out", required=True, metavar="FILE",
              help="The collection to write (must not exist, unless --resume).")
@click.option("--count", type=COUNT, default=None, metavar="N",
              help="Stop when FILE holds N problems (default 10 when no --time-limit).")
@click.option("--time-limit", "time_limit", type=SECONDS, default=None, metavar="S", help="Stop after S seconds.")
@click.option("--length", "length", default=None, metavar="MIN[-MAX]",
              help="Keep problems of MIN to MAX plies (MIN alone: at least MIN).")
@click.option("--method", "methods", default="random,mutate,reverse", show_default=True, metavar="M,...",
              help="Candidate sources (random, mutate, reverse, climb, stretch), taken in turn shard by shard.")
@click.option("--material", default=None, metavar="SPEC",
              help="Material profile, e.g. 'attacker=G+T, hand=2P, defender=1-2' (docs/compose.md).")
@click.option("--parents", "parents_file", default=None, metavar="FILE",
              help="A collection whose problems seed the mutate, reverse, climb and stretch methods.")
@click.option("--strict", is_flag=True, help="Also demand a unique attacker move in every variation.")
@click.option("--per-length", "per_length", type=COUNT, default=None, metavar="N",
              help="Keep at most N problems of each length (a collection that spans the lengths).")
@click.option("--theme", type=click.Choice(list(THEMES)), default=None, metavar="T",
              help="Keep only problems with theme label T, and climb from them (docs/compose.md).")
@click.option("--avoid-theme", "avoid", multiple=True, type=click.Choice(list(THEMES)), metavar="T",
              help="Refuse problems with theme label T (may be given more than once), and climb away from them.")
@click.option("--novelty", is_flag=True,
              help="The climb's beam prefers children whose theme labels are rare among those taken.")
@click.option("--seed", type=_Number("seed", lambda v, name: v, whole=True), default=1, show_default=True,
              metavar="K", help="The run's seed: the same seed, the same problems.")
@click.option("--workers", type=COUNT, default=None, metavar="W", help="Worker processes (default: all cores).")
@click.option("--threads", is_flag=True,
              help="Run the workers as threads of this process: less memory, the searches still in parallel.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="A Dask scheduler (tcp://HOST:PORT) to run the work on (needs the 'cluster' extra).")
@click.option("--resume", is_flag=True, help="Go on with FILE from where it stopped (same options).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per accepted problem.")
@quiet_option
@friendly_errors
def compose_command(variant_spec: str | None, out: str, count: int | None, time_limit: float | None,
                    length: str | None, methods: str, material: str | None, parents_file: str | None,
                    strict: bool, per_length: int | None, theme: str | None, avoid: tuple[str, ...],
                    novelty: bool, seed: int, workers: int | None,
                    threads: bool, scheduler: str | None, resume: bool,
                    as_json: bool, quiet: bool) -> None:
    """Compose sound, economical, rated problems into the collection FILE.

    Exit status: 0 when it stopped on --count or --time-limit, 2 on bad input,
    74 when FILE could not be written, 130 on Ctrl-C (FILE holds every problem
    accepted until then)."""
    from .compose.run import accepted_json, compose, settings_from
    from .shards import shard_executor

    if count is None and time_limit is None:
        count = 10
    parents = load(locate(parents_file)) if parents_file else None
    settings = settings_from(variant_spec or "ito", methods=methods, seed=seed, material=material,
                             length=length, strict=strict, parents=parents, per_length=per_length,
                             theme=theme, avoid=",".join(avoid), novelty=novelty)
    make_parent(out)

    def accepted(problem: Record, record: dict) -> None:
        if as_json:
            echo(json.dumps(accepted_json(problem, record)))

    try:
        with shard_executor(scheduler, threads, workers) as executor:
            summary = compose(settings, out, count=count, time_limit=time_limit, workers=workers,
                              executor=executor, resume=resume, on_accept=accepted,
                              progress=_compose_progress(not quiet, count, time_limit))
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_OUTPUT)
    if not quiet:
        if sys.stderr.isatty():
            click.echo("", err=True)
        click.echo(f"tsume: composed {summary.accepted} new problem(s), {summary.total} in {out}; "
                   f"{summary.candidates:,} candidates in {summary.shards} shard(s), {summary.elapsed:.1f} s "
                   f"(stopped on {summary.stopped}); refused {summary.duplicates} as the same idea as an earlier "
                   f"problem, {summary.over_quota} for their length's share", err=True)
        if summary.by_theme:
            click.echo("tsume: themes of the new problems: "
                       + ", ".join(f"{t} {n}" for t, n in sorted(summary.by_theme.items(), key=lambda x: -x[1])),
                       err=True)


# --- booklet ----------------------------------------------------------------------------------


@main.command("booklet")
@click.argument("file", metavar="FILE")
@click.option("--out", "-o", "out", required=True, metavar="OUT.html", help="The HTML file to write (atomically).")
@click.option("--title", default=None, metavar="T", help="The booklet's title (default: from FILE's name).")
@click.option("--solutions", type=click.Choice(["end", "hidden", "inline"]), default="end", show_default=True,
              help="At the back, behind a 'Show solution' button, or under each diagram.")
@click.option("--verify", "do_verify", is_flag=True, help="Verify every problem first and mark any that is not sound.")
@click.option("--certify", is_flag=True,
              help="With --verify: certify every sound problem, mark those whose certificate checks, embed it.")
@click.option("--certificate-nodes", "certificate_nodes", type=COUNT, default=None, metavar="N",
              help="With --certify: the most refutation and strategy nodes of a certificate (default 100,000).")
@click.option("--kanji", is_flag=True, help="The kanji of each piece's shogi name on the diagrams, where it has one.")
@click.option("--id", "pids", multiple=True, metavar="ID", help="Only this problem (repeat for several; default: all).")
@click.option("--play", is_flag=True,
              help="A 'Solve it yourself' mode for each problem, its play tree embedded (works offline).")
@limit_options
@quiet_option
@friendly_errors
def booklet_command(file: str, out: str, title: str | None, solutions: str, do_verify: bool, certify: bool,
                    certificate_nodes: int | None, kanji: bool, pids: tuple[str, ...], play: bool, time_limit: float | None, node_limit: int | None,
                    memory_mb: float | None, quiet: bool) -> None:
    """Make an HTML booklet of the problems in FILE: numbered diagrams, solutions you can step through.

    FILE is a collection path or the name of a bundled one.  The page is
    self-contained (no network) and prints as a booklet.  Limits are per
    problem (default: 5,000,000 nodes).  Exit status: 0 written, 1 written
    but a limit left some problem unsettled or, with --verify, some problem
    is unsound (a flawed one is marked but counts as `tsume verify` counts
    it), 2 bad input, 74 the file could not be written.  A problem proven to
    have no mate is an answer: the booklet shows it and the closing line
    names it.
    """
    from .booklet import DEFAULT_NODE_LIMIT, build

    if memory_mb is not None:
        raise ArgumentError("--memory is not a booklet option; --nodes and --time-limit bound each problem")
    max_nodes = _certificate_nodes(certificate_nodes, certify, "--certify")
    path = locate(file)
    problems = load(path)
    if pids:
        problems = [find(problems, pid, str(path)) for pid in pids]
    troubled: list[str] = []
    no_mate: list[str] = []
    uncertified: list[str] = []
    status = _ProgressLine(not quiet, "booklet", len(problems))

    def report(done: int, total: int, entry: Any) -> None:
        # As `tsume verify` exits: a flawed problem is marked, not a failure;
        # a proven "no mate" is an answer, unsound only when verifying.
        if entry.status == Status.UNKNOWN or entry.verdict in (Verdict.UNSOUND, Verdict.UNKNOWN):
            troubled.append(entry.problem.id)
        elif entry.status == Status.NOMATE:
            no_mate.append(entry.problem.id)
        if entry.uncertified is not None:
            uncertified.append(entry.problem.id)
        word = entry.verdict or (f"mate in {entry.length}" if entry.status == Status.MATE else entry.status)
        status.start(done, entry.problem.id, word)

    name = Path(str(path)).stem
    try:
        limits = Limits(time=time_limit, nodes=node_limit if node_limit is not None else DEFAULT_NODE_LIMIT)
        html = build(problems, title=title, solutions=solutions, verify=do_verify, kanji=kanji, limits=limits,
                     source=name, progress=report, play=play, certify=certify,
                     certificate_nodes=max_nodes)
    finally:
        status.clear()
    write_output(out, html)
    if not quiet:
        extra = f"; no mate: {', '.join(no_mate)}" if no_mate else ""
        extra += f"; unsound or not settled: {', '.join(troubled)}" if troubled else ""
        extra += f"; sound but not certified: {', '.join(uncertified)}" if uncertified else ""
        click.echo(f"tsume: wrote {out}: {len(problems)} problem(s), {len(html) / 1e6:.1f} MB{extra}", err=True)
    sys.exit(EXIT_UNSOUND if troubled else 0)


# --- serve ----------------------------------------------------------------------------------------


def _check_port(value: int, name: str) -> int:
    if not 0 <= value <= 65535:
        raise ArgumentError(f"{name} must be from 0 to 65535 (0: any free port), not {value}")
    return value


@main.command("serve")
@click.option("--port", type=_Number("--port", _check_port, whole=True, max_digits=5), default=8000,
              show_default=True, metavar="P", help="The port to listen on (0: any free port; the address is printed).")
@click.option("--root", default=".", show_default=True, metavar="DIR",
              help="The folder whose .tsume files the studio may read and write (nothing outside it).")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="HOST",
              help="The address to listen on; anything but a loopback address opens the studio to the network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the studio in the default web browser.")
@click.option("--jobs", "parallel", type=COUNT, default=2, show_default=True, metavar="N",
              help="Jobs (solve, verify, compose...) that run at once; up to four times as many may wait.")
@friendly_errors
def serve_command(port: int, root: str, host: str, open_browser: bool, parallel: int) -> None:
    """Start the studio, a local web application to set up, solve, verify,
    compose and play problems (docs/studio.md), and serve it until Ctrl-C.

    Exit status: 130 when stopped (Ctrl-C), 2 bad input (a --root that is not
    a folder, a port in use)."""
    from .studio.server import is_loopback, serve

    if not Path(root).is_dir():
        raise ArgumentError(f"--root {quote(root)}: not a folder")
    if not is_loopback(host):
        click.echo(f"tsume: warning: the studio has no authentication: anyone who can reach {host}:{port} "
                   f"can run jobs and read and write the .tsume files under {Path(root).resolve()}", err=True)

    def say(line: str) -> None:
        try:
            click.echo(line)
            sys.stdout.flush()
        except OSError:
            pass

    serve(root, host=host, port=port, open_browser=open_browser, parallel=parallel, max_jobs=4 * parallel, say=say)


# --- census ---------------------------------------------------------------------------------------


def _census_progress(enabled: bool) -> "Callable[[Any], None] | None":
    """The progress bar of ``tsume census`` on stderr: shards done, positions
    solved, positions per second and the time left (redrawn in place on a
    terminal, one line every 10 s otherwise)."""
    if not enabled:
        return None
    tty = sys.stderr.isatty()
    last = [0.0]

    def report(s: Any) -> None:
        now = time.monotonic()
        finished = s.shards_done == s.shards_total
        if not tty and now - last[0] < 10 and not finished:
            return
        last[0] = now
        done = 20 * s.shards_done // max(1, s.shards_total)
        left = s.seconds_left
        eta = f", {left:,.0f} s left" if left is not None and not finished else ""
        line = (f"tsume: census [{'#' * done}{'.' * (20 - done)}] {s.shards_done}/{s.shards_total} shards, "
                f"{s.positions_done:,}/{s.positions_total:,} positions, {s.rate:,.1f} positions/s{eta}")
        _status_line(line, tty)

    return report


@main.command("census")
@variant_option("ito (default) or rutherford.")
@click.option("--material", required=True, metavar="SPEC",
              help="The family, e.g. 'attacker=G, hand=G, defender-hand=none' (docs/census.md).")
@click.option("--out", "-o", "out", required=True, metavar="DIR",
              help="The census directory (missing or empty, unless --resume).")
@click.option("--max-length", "max_length", type=PLIES, default=15, show_default=True, metavar="L",
              help="Solve every position to L plies (a longer mate counts as none).")
@click.option("--workers", type=COUNT, default=None, metavar="W", help="Worker processes (default: all cores).")
@click.option("--threads", is_flag=True,
              help="Run the workers as threads of this process: less memory, the same work.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="A Dask scheduler (tcp://HOST:PORT) to run the shards on (needs the 'cluster' extra).")
@click.option("--resume", is_flag=True, help="Go on with DIR: run only the shards it lacks (same options).")
@click.option("--memory", "memory_mb", type=MEGABYTES, default=None, metavar="MB",
              help="The memory budget (default: half of the memory available); refuse a census that needs more.")
@click.option("--parts", type=COUNT, default=1, show_default=True, metavar="P",
              help="Cut each shard (king square) into P tasks: less memory per task, the same table.")
@click.option("--json", "as_json", is_flag=True, help="Print the census table as one JSON object.")
@quiet_option
@friendly_errors
def census_command(variant_spec: str | None, material: str, out: str, max_length: int, workers: int | None,
                   threads: bool, scheduler: str | None, resume: bool, memory_mb: float | None, parts: int,
                   as_json: bool, quiet: bool) -> None:
    """Solve every position of a material family and tabulate it into DIR.

    DIR receives a file per shard (the defender king's square), the table
    (table.json, table.md) and the sound problems (sound.tsume).  Exit status:
    0 done, 2 bad input (or a census that would not fit in --memory), 74 DIR
    could not be written, 130 on Ctrl-C (every finished shard is kept:
    --resume goes on)."""
    from .census.family import parse_family
    from .census.run import census, table_text

    from .shards import shard_executor

    family = parse_family(material, variant_spec or "ito")
    try:
        with shard_executor(scheduler, threads, workers) as executor:
            if threads:
                workers = workers or os.cpu_count() or 1  # (the census sizes its memory by them)
            summary = census(family, out, max_plies=max_length, workers=workers, executor=executor, resume=resume,
                             memory_mb=memory_mb, parts=parts, progress=_census_progress(not quiet))
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_OUTPUT)
    if not quiet:
        if sys.stderr.isatty():
            click.echo("", err=True)
        exact = "" if summary.factor_exact else " at least"
        tasks = (f"{summary.shards_total} parts ({summary.shards_total // parts} shards x {parts})" if parts > 1
                 else f"{summary.shards_total} shard(s)")
        click.echo(f"tsume: census of {summary.positions_total:,} positions in {tasks} "
                   f"({summary.shards_skipped} already done) in {summary.elapsed:.1f} s, {summary.rate:,.1f} positions/s; "
                   f"memory{exact} "
                   f"{summary.estimate_mb:,.0f} MB per shard x {summary.workers} (budget {summary.budget_mb:,.0f} MB); "
                   f"written to {out}", err=True)
    assert summary.table is not None
    echo(json.dumps(summary.table) if as_json else table_text(summary.table))


# Last: every command above is registered before it runs.
if __name__ == "__main__":  # pragma: no cover
    run()
