"""The ``tsume`` command line.  Bad input prints one line and exits with status 2."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

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
        where = f"{exc.ctx.command_path}: " if getattr(exc, "ctx", None) is not None else ""
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


if __name__ == "__main__":  # pragma: no cover
    run()
