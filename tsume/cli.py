"""The ``tsume`` command line.  Bad input prints one line and exits with status 2."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from .collection import find, load
from .errors import TsumeError
from .perft import divide, perft
from .position import Position
from .render import diagram
from .variant import get_variant

F = TypeVar("F", bound=Callable[..., Any])

EXIT_BAD_INPUT = 2


def _fail(message: str) -> "None":
    click.echo(f"tsume: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def friendly_errors(func: F) -> F:
    """Turn the library's input errors into one line on stderr and exit status 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TsumeError as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            click.echo("tsume: interrupted", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


variant_option = click.option(
    "--variant",
    "-v",
    "variant_spec",
    default="ito",
    show_default=True,
    metavar="V",
    help="ito or rutherford, optionally with switches: ito:drop_mate=no, ito:stalemate=loss, rutherford:repetition=off.",
)


def load_position(text: str | None, variant_spec: str) -> Position:
    variant = get_variant(variant_spec)
    return Position(text, variant)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tsume")
def main() -> None:
    """Solve, verify and compose tsume for one-dimensional shogi."""


def run(args: list[str] | None = None) -> None:
    """The console entry point: click's own usage errors also become one line and status 2."""
    try:
        code = main.main(args=args, prog_name="tsume", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click >= 8.2
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        sys.exit(EXIT_BAD_INPUT)
    except click.ClickException as exc:
        ctx = getattr(exc, "ctx", None)  # only UsageError and its subclasses have one
        where = f"{ctx.command_path}: " if ctx is not None else ""
        _fail(where + " ".join(exc.format_message().split()))
    except click.exceptions.Abort:
        click.echo("tsume: interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


@main.command()
@variant_option
@click.option("--compact", is_flag=True, help="Two-line diagram instead of one square per line.")
@click.argument("position", required=False)
@friendly_errors
def show(variant_spec: str, compact: bool, position: str | None) -> None:
    """Draw POSITION (default: the variant's start position)."""
    pos = load_position(position, variant_spec)
    click.echo(diagram(pos, compact=compact))
    moves = sorted(pos.legal_moves(), key=lambda m: (m & 127 == 0, m & 127, m >> 7))
    click.echo(f"Legal moves ({len(moves)}): " + " ".join(pos.move_str(m) for m in moves))


@main.command("perft")
@variant_option
@click.option("--position", "-p", "position", default=None, metavar="P", help="Position string (default: start).")
@click.option("--depth", "-d", type=click.IntRange(0, 30), required=True, help="Depth in plies.")
@click.option("--divide", "do_divide", is_flag=True, help="Also count per first move.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@friendly_errors
def perft_command(variant_spec: str, position: str | None, depth: int, do_divide: bool, as_json: bool) -> None:
    """Count the legal move sequences of a given length (every move made and unmade)."""
    pos = load_position(position, variant_spec)
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
        click.echo(json.dumps(out))
        return
    if do_divide:
        for move, count in parts.items():
            click.echo(f"{move}: {count}")
    rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 else ""
    click.echo(f"perft {depth}: {nodes} nodes in {seconds:.3f} s{rate}")


EXIT_MATE, EXIT_NOMATE, EXIT_LIMIT = 0, 1, 3


def _progress_printer(enabled: bool) -> "Callable[[dict], None] | None":
    if not enabled:
        return None

    def report(stats: dict) -> None:
        click.echo(
            f"tsume: searching... {stats['nodes']:,} nodes, {stats['seconds']:.1f} s, "
            f"{stats['nodes_per_second']:,.0f} nodes/s, {stats['table_entries']:,} table entries",
            err=True,
        )

    return report


def _load_problem(position: str | None, file: str | None, pid: str | None, variant_spec: str | None) -> tuple[str, str, str | None]:
    """(position, variant spec, defender hand) from the arguments or a collection."""
    if file is not None:
        if position is not None:
            raise TsumeError("give either POSITION or --file/--id, not both")
        problems = load(file)
        if pid is None:
            if len(problems) != 1:
                raise TsumeError(f"{file}: holds {len(problems)} problems; choose one with --id")
            pr = problems[0]
        else:
            pr = find(problems, pid, file)
        return pr.position, variant_spec or pr.variant, pr.defender
    if pid is not None:
        raise TsumeError("--id needs --file")
    if position is None:
        raise TsumeError("give a POSITION or --file F --id ID")
    return position, variant_spec or "ito", None


def _human_report(result, pos: Position, verbose: bool) -> str:
    from .solve import MATE, NOMATE

    out = [diagram(pos, compact=True), ""]
    if result.status == MATE:
        out.append(f"Mate in {result.length} plies.")
        pairs = []
        for i, (plain, readable) in enumerate(zip(result.mainline, result.readable), 1):
            pairs.append(f"{i}. {readable}")
        out.append("Main line: " + "  ".join(pairs))
        out.append("Move strings: " + " ".join(result.mainline))
        out.append(f"Left in the attacker's hand: {result.leftover}")
        if result.variations:
            out.append("Variations (defender alternatives on the main line):")
            for v in result.variations:
                head = f"  at ply {v.ply + 1}: {v.readable}"
                if v.useless:
                    out.append(f"{head}  -- useless interposition (refuted, not counted)")
                else:
                    line = " ".join(v.line)
                    out.append(f"{head}  -> {v.length} plies, leftover {v.leftover}: {line}")
    elif result.status == NOMATE:
        out.append("No mate" + (f" within {result.stats.get('max_length')} plies." if result.stats.get("max_length") else "."))
    else:
        extra = f"; a mate within {result.upper_bound} plies was found" if result.upper_bound else ""
        out.append(f"Unknown: stopped by the {result.reason or 'limit'}{extra}.")
    if result.first_moves is not None:
        out.append("First moves:")
        for fm in result.first_moves:
            length = f" in {fm['length']}" if fm["length"] else ""
            out.append(f"  {fm['move']}: {fm['status']}{length}")
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
        f"{st['table_entries']:,} table entries, peak memory {st['peak_memory_mb']} MB"
    )
    if verbose:
        out.append(f"Position: {result.position}  variant: {result.variant}")
    return "\n".join(out)


@main.command("solve")
@click.option("--variant", "-v", "variant_spec", default=None, metavar="V", help="ito (default) or rutherford, with switches as for show.")
@click.option("--file", "-f", "file", default=None, metavar="F", help="A problem collection file.")
@click.option("--id", "pid", default=None, metavar="ID", help="The problem's id in --file.")
@click.option("--defender-hand", default=None, metavar="H", help="rest (default), none, or letters: what the defender holds.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="S", help="Stop after S seconds.")
@click.option("--nodes", "node_limit", type=click.IntRange(min=1), default=None, metavar="N", help="Stop after N nodes.")
@click.option("--memory", "memory_mb", type=click.FloatRange(min=1), default=None, metavar="MB", help="Bound the table (df-pn) or the encodings (SAT, default 2048) to about MB megabytes.")
@click.option("--max-length", type=click.IntRange(min=1), default=None, metavar="L", help="Only mates within L plies.")
@click.option("--all-first-moves", is_flag=True, help="Also solve after every legal checking first move.")
@click.option("--engine", type=click.Choice(["dfpn", "sat"]), default="dfpn", show_default=True,
              help="df-pn search, or the SAT engine (needs --max-length; counts every interposition, see docs/sat.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--verbose", is_flag=True, help="More detail.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.argument("position", required=False)
@friendly_errors
def solve_command(
    engine: str,
    variant_spec: str | None,
    file: str | None,
    pid: str | None,
    defender_hand: str | None,
    time_limit: float | None,
    node_limit: int | None,
    memory_mb: float | None,
    max_length: int | None,
    all_first_moves: bool,
    as_json: bool,
    verbose: bool,
    quiet: bool,
    position: str | None,
) -> None:
    """Solve a tsume: shortest mate by continuous checks against the longest defence.

    Exit status: 0 mate, 1 no mate, 3 a limit stopped the search, 2 bad input.
    """
    from .conventions import tsume_position
    from .solve import MATE, NOMATE, solve

    if engine == "sat":
        if max_length is None:
            raise TsumeError("--engine sat needs --max-length N (it proves mates within N plies)")
        if node_limit is not None:
            raise TsumeError("--nodes is a df-pn limit; --engine sat takes --time-limit and --memory")
    text, spec, defender = _load_problem(position, file, pid, variant_spec)
    variant = get_variant(spec)
    pos = tsume_position(text, variant, defender_hand=defender_hand or defender)
    if engine == "sat":
        from .clock import process_seconds
        from .sat import DEFAULT_MEMORY_MB, sat_solve

        # The limit counts from the command's start (Python's start-up and imports included).
        left = None if time_limit is None else max(time_limit - process_seconds(), 1e-3)
        result = sat_solve(pos, variant=variant, max_length=max_length, defender_hand="as-given",
                           all_first_moves=all_first_moves, time_limit=left,
                           memory_limit_mb=memory_mb or DEFAULT_MEMORY_MB)
        result.stats["max_length"] = max_length
        _print_result(result, pos, as_json, verbose)
    result = solve(
        pos,
        variant=variant,
        max_length=max_length,
        time_limit=time_limit,
        node_limit=node_limit,
        memory_limit_mb=memory_mb,
        progress=_progress_printer(not quiet),
        defender_hand="as-given",
        all_first_moves=all_first_moves,
    )
    if max_length is not None:
        result.stats["max_length"] = max_length
    _print_result(result, pos, as_json, verbose)


def _print_result(result, pos: Position, as_json: bool, verbose: bool) -> None:
    """Print a solve result (either engine) and exit with its status."""
    from .solve import MATE, NOMATE

    if as_json:
        data = result.to_dict()
        if data["leftover"] is None and result.status == MATE:
            data["leftover"] = "-"
        click.echo(json.dumps(data))
    else:
        click.echo(_human_report(result, pos, verbose))
    sys.exit(EXIT_MATE if result.status == MATE else EXIT_NOMATE if result.status == NOMATE else EXIT_LIMIT)


EXIT_UNSOUND = 1


@main.command("verify")
@click.option("--variant", "-v", "variant_spec", default=None, metavar="V", help="ito (default) or rutherford, with switches; overrides a collection's.")
@click.option("--id", "pid", default=None, metavar="ID", help="Only this problem of FILE.")
@click.option("--defender-hand", default=None, metavar="H", help="rest (default), none, or letters: what the defender holds.")
@click.option("--length", "stated_length", type=click.IntRange(min=1), default=None, metavar="L", help="The stated length, for a POSITION.")
@click.option("--solution", default=None, metavar="MOVES", help="The intended solution (space-separated moves), for a POSITION.")
@click.option("--strict", is_flag=True, help="Also demand a unique attacker move everywhere: final move, detours, variations.")
@click.option("--longer-ok", "longer_ok", is_flag=True, help='Excuse a variation "2 plies longer, pieces left".')
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="S", help="Seconds per problem; what it stops is reported unknown.")
@click.option("--nodes", "node_limit", type=click.IntRange(min=1), default=None, metavar="N", help="Nodes per problem.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.argument("target")
@friendly_errors
def verify_command(
    variant_spec: str | None,
    pid: str | None,
    defender_hand: str | None,
    stated_length: int | None,
    solution: str | None,
    strict: bool,
    longer_ok: bool,
    time_limit: float | None,
    node_limit: int | None,
    as_json: bool,
    quiet: bool,
    target: str,
) -> None:
    """Verify the soundness of the problems in FILE, or of one POSITION.

    Exit status: 0 every problem sound or flawed (tolerated blemishes only),
    1 some problem unsound, 3 none unsound but some unknown (a limit stopped a
    proof), 2 bad input.
    """
    import os

    from .collection import Problem
    from .verify import UNKNOWN, UNSOUND, format_report, verify

    if os.path.isfile(target):
        problems = load(target)
        if pid is not None:
            problems = [find(problems, pid, target)]
        if stated_length is not None or solution is not None:
            raise TsumeError("--length and --solution are for a POSITION; a collection states its own")
    else:
        if pid is not None:
            raise TsumeError(f"--id needs a collection FILE; no file named {target!r}")
        if " " not in target.strip():
            raise TsumeError(f"no file named {target!r}, and it is not a position string")
        problems = [Problem(id="position", position=target, variant=variant_spec or "ito",
                            length=stated_length, solution=solution.split() if solution else None)]
    reports = []
    for n, pr in enumerate(problems, 1):
        if not quiet and len(problems) > 1:
            click.echo(f"tsume: verifying [{pr.id}] ({n}/{len(problems)})...", err=True)
        report = verify(
            pr,
            variant=variant_spec,
            defender_hand=defender_hand,
            strict=strict,
            longer_with_leftover_ok=longer_ok,
            time_limit=time_limit,
            node_limit=node_limit,
            progress=_progress_printer(not quiet),
        )
        reports.append(report)
        if not as_json:
            pos = Position(report.position, get_variant(report.variant))
            click.echo(format_report(report, title=pr.title, diagram_text=diagram(pos, compact=True)))
            click.echo("")
    verdicts = [r.verdict for r in reports]
    if as_json:
        click.echo(json.dumps({"problems": [r.to_dict() for r in reports]}))
    elif len(reports) > 1:
        counts = {v: verdicts.count(v) for v in ("sound", "flawed", "unsound", "unknown") if v in verdicts}
        click.echo("Summary: " + ", ".join(f"{c} {v}" for v, c in counts.items()) + f" of {len(reports)}")
    sys.exit(EXIT_UNSOUND if UNSOUND in verdicts else EXIT_LIMIT if UNKNOWN in verdicts else 0)


if __name__ == "__main__":  # pragma: no cover
    run()
