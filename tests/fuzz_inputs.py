"""A seeded fuzzer of the public entry points and the command line, from outside.

It mutates real position strings, move strings, variant specs, defender hands,
collections, numbers and option values, calls the library and the CLI with
them, and sorts what happens: a result, a TsumeError (the one way bad input
may fail), or anything else (a bug).  Used by tests/test_fuzz.py (fixed seed, a
few thousand inputs) and benchmarks/fuzz.py (as many as asked).

Every search it starts is bounded (a small node or time limit is always one of
its arguments), so a run takes milliseconds.
"""

from __future__ import annotations

import _thread
import math
import os
import random
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from click.testing import CliRunner

import tsume
from tsume import ITO, RUTHERFORD, Limits, Position, Problem, TsumeError
from tsume.cli import main
from tsume.collection import load, loads, locate
from tsume.perft import divide, perft
from tsume.sat import DEFAULT_MEMORY_MB, sat_solve
from tsume.solve import solve
from tsume.verify import verify

# --- the material mutated ----------------------------------------------------------------------

BASE_POSITIONS: list[tuple[str, str]] = [
    ("ito", ITO.start or ""),
    ("rutherford", RUTHERFORD.start or ""),
    ("ito", "k1P2H25 b G"),
    ("ito", "H1kf1P1c2K20 b PHG 1"),
    ("ito", "k30 b G"),
    ("ito", "k29K b 2P2g 1"),
    ("ito", "k19+Fp1h1P4K w T 1"),
    ("rutherford", "k19K b lNp 3"),
    ("rutherford", "2k3s2K2 b N 1"),
    ("rutherford", "k62K b - 1"),
]
for _name in ("examples", "flawed", "seed-ito", "seed-rutherford"):
    try:
        BASE_POSITIONS += [(p.variant, p.position) for p in load(locate(_name))[:6]]
    except TsumeError:  # a collection renamed by another branch: fuzz without it
        pass

VARIANT_SPECS = ["ito", "rutherford", "ito:drop_mate=no", "ito:stalemate=loss", "rutherford:repetition=off",
                 "ITO", " rutherford ", "ito:drop-mate=yes,stalemate=illegal"]
DEFENDER_HANDS = ["rest", "none", "NONE", "2PT", "g", "99g", "3g", "9223372036854775808g", "²g", "+g", "-", "", "k",
                  "O", "2", "P2", "pt", "ſ"]
ODD_CHARS = list("0123456789+-*/ bwkKpPOo\t\n:=,.#[]") + ["²", "٣", "①", "０", "ſ", "ı", "\x00", "\u2028", "é", "🂡", "\\"]
ODD_CHUNKS = ["99", "0", "00", "-1", "nan", "inf", "1e999", "9223372036854775808", "18446744073709551616",
              "9" * 4299, "9" * 4300, "9" * 4301, "1" * 20, "²", "٣٣", "O", " ", "  ", "\n", "+", "*", "--", "-", "b", "w"]
BAD_NUMBERS: list[Any] = [0, -1, -0.5, math.nan, math.inf, -math.inf, 10**400, "5", "", None, True, False, [], 1e308,
                          2**63, 1.5, "nan", object()]
COLLECTION_KEYS = ["variant", "position", "defender", "length", "solution", "title", "tags", "notes", "bogus"]


def mutate(rng: random.Random, text: str, rounds: int | None = None) -> str:
    """``text`` after a few random edits (characters, chunks, deletions, swaps)."""
    for _ in range(rounds if rounds is not None else rng.choice((1, 1, 1, 2, 3))):
        op = rng.randrange(8)
        i = rng.randint(0, len(text))
        if op == 0 and text:  # replace a character
            i = min(i, len(text) - 1)
            text = text[:i] + rng.choice(ODD_CHARS) + text[i + 1:]
        elif op == 1:  # insert a chunk
            text = text[:i] + rng.choice(ODD_CHUNKS) + text[i:]
        elif op == 2 and text:  # delete a span
            j = min(len(text), i + rng.randint(1, 4))
            text = text[:i] + text[j:]
        elif op == 3:  # duplicate a span
            j = min(len(text), i + rng.randint(1, 6))
            text = text[:j] + text[i:j] + text[j:]
        elif op == 4:  # swap two fields
            fields = text.split(" ")
            if len(fields) > 1:
                a, b = rng.sample(range(len(fields)), 2)
                fields[a], fields[b] = fields[b], fields[a]
                text = " ".join(fields)
        elif op == 5:  # flip case
            text = text.swapcase() if rng.random() < 0.3 else text[:i] + text[i:i + 1].swapcase() + text[i + 1:]
        elif op == 6:  # cut
            text = text[:i]
        else:  # a number made bigger
            text = text[:i] + str(rng.choice((0, 1, 2, 9, 31, 64, 65, 99, 120, 121, 10**9, 10**18))) + text[i:]
    return text


@dataclass
class Generator:
    """Random arguments, each well-formed with probability ``good``."""

    rng: random.Random
    good: float = 0.85

    def choose(self, valid: list[Any], invalid: list[Any]) -> Any:
        return self.rng.choice(valid if self.rng.random() < self.good else invalid)

    def position(self) -> tuple[str, str]:
        variant, text = self.rng.choice(BASE_POSITIONS)
        if self.rng.random() < 0.6:
            text = mutate(self.rng, text)
        return variant, text

    def variant(self, variant: str) -> Any:
        if self.rng.random() < 0.8:
            return variant
        return self.rng.choice([mutate(self.rng, self.rng.choice(VARIANT_SPECS)), self.rng.choice(VARIANT_SPECS),
                                None, 5, ITO, RUTHERFORD, b"ito", ["ito"]])

    def defender_hand(self) -> Any:
        return self.rng.choice([None, None, None, self.rng.choice(DEFENDER_HANDS),
                                mutate(self.rng, self.rng.choice(DEFENDER_HANDS)), 5, ["P"]])

    def move(self, pos: Position | None) -> Any:
        moves = [str(m) for m in pos.legal_moves()] if pos is not None else []
        text = self.rng.choice(moves) if moves else self.rng.choice(["19-18", "P*5", "+L*18", "1-2"])
        if self.rng.random() < 0.8:
            text = mutate(self.rng, text)
        return self.rng.choice([text] * 8 + [None, 1823, b"19-18"])

    def limit(self, valid: list[Any]) -> Any:
        return self.choose(valid, BAD_NUMBERS)

    def flag(self) -> Any:
        return self.choose([True, False], ["no", 1, None])

    def collection(self) -> str:
        lines = ["# fuzz", "variant: " + self.rng.choice(VARIANT_SPECS)]
        for k in range(self.rng.randint(1, 3)):
            variant, text = self.rng.choice(BASE_POSITIONS)
            lines += [f"[p-{k}]", f"variant: {variant}", f"position: {text}",
                      f"length: {self.rng.choice(['1', '5', '²', '0', '9' * 4301, 'O', '-3', '1.5'])}",
                      f"{self.rng.choice(COLLECTION_KEYS)}: {mutate(self.rng, 'G*5 3-2')}"]
        return mutate(self.rng, "\n".join(lines), self.rng.choice((0, 1, 2)))


# --- the library ------------------------------------------------------------------------------


def _valid_position(variant: str, text: str) -> Position | None:
    """The position, if ``text`` reads as one (used to build a case, outside the call fuzzed)."""
    try:
        return Position(text, variant)
    except Exception:  # noqa: BLE001 - whatever it raises is the "position" kind's business
        return None


#: The kinds of library call, each as often as it is listed.
LIBRARY_KINDS = ("position", "position", "move", "variant", "problem", "solve", "solve", "verify", "verify",
                 "sat", "perft", "loads")


@dataclass
class Case:
    """One library call: the function and its (fuzzed) arguments."""

    kind: str
    func: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __call__(self) -> Any:
        return self.func(*self.args, **self.kwargs)

    def __str__(self) -> str:
        name = getattr(self.func, "__qualname__", repr(self.func))
        return f"{name}(*{self.args!r:.300}, **{self.kwargs!r:.400})"


def _front_door(entry: Callable[..., Any]) -> Callable[..., Any]:
    """``entry`` called as a program calls it: the problem and the limits
    made first from the values given (as the command line and the studio
    do), then passed in."""

    def call(text: Any, *, variant: Any, defender: Any, length: Any = None, solution: Any = None, nodes: Any = None,
             seconds: Any = None, memory: Any = None, **kwargs: Any) -> Any:
        problem = Problem(text, variant=variant, defender=defender, length=length, solution=solution)
        return entry(problem, limits=Limits(time=seconds, nodes=nodes, memory=memory), **kwargs)

    call.__qualname__ = f"{entry.__qualname__} (front door)"
    return call


def _problem_position(text: Any, variant: Any, *, defender: Any) -> Position:
    """A problem's position, as a caller that needs the position only makes it."""
    return Problem(text, variant=variant, defender=defender).position()


def library_case(g: Generator, kinds: tuple[str, ...] = LIBRARY_KINDS) -> Case:
    """One library call with fuzzed arguments."""
    rng = g.rng
    variant, text = g.position()
    kind = rng.choice(kinds)
    if kind == "position":
        text_arg = text if rng.random() < 0.95 else rng.choice([None, 5, b"k30 b G"])
        kwargs = {"validate": g.flag()} if rng.random() < 0.2 else {}
        return Case(kind, Position, (text_arg, g.variant(variant)), kwargs)
    if kind == "move":
        pos = _valid_position(*rng.choice(BASE_POSITIONS))
        base = pos if pos is not None else Position()
        func = base.parse_move if rng.random() < 0.5 else base.copy().push_str
        return Case(kind, func, (g.move(pos),))
    if kind == "variant":
        spec = g.variant(rng.choice(VARIANT_SPECS))
        spec = mutate(rng, spec) if isinstance(spec, str) and rng.random() < 0.5 else spec
        return Case(kind, tsume.get_variant, (spec,))
    if kind == "problem":
        return Case(kind, _problem_position, (text, g.variant(variant)), {"defender": g.defender_hand()})
    # the searches: always bounded by a small node limit or a short time limit
    nodes = g.limit([50, 200, 1000])
    seconds = g.limit([0.05, 0.2])
    if not (isinstance(nodes, int) and not isinstance(nodes, bool) and 1 <= nodes <= 1000):
        seconds = rng.choice([0.05, 0.2])
    if kind in ("solve", "verify", "sat") and rng.random() < 0.05:
        # The string itself, as a caller might pass it: refused, one line.
        return Case(kind, {"solve": solve, "verify": verify, "sat": sat_solve}[kind], (text,))
    if kind == "solve":
        kwargs = dict(variant=g.variant(variant), defender=g.defender_hand(), nodes=nodes, seconds=seconds,
                      max_length=g.limit([None, 1, 3, 9]), memory=g.limit([None, 1, 64]), all_first_moves=g.flag())
        return Case(kind, _front_door(solve), (text,), kwargs)
    if kind == "verify":
        pos = _valid_position(variant, text)
        solution = rng.choice([None, None, [g.move(pos) for _ in range(rng.randint(0, 3))], "G*5", [5]])
        kwargs = dict(variant=g.variant(variant), defender=g.defender_hand(), nodes=nodes, seconds=seconds,
                      memory=g.limit([None, 1, 64]), length=g.limit([None, 1, 3]), solution=solution,
                      strict=g.flag())
        return Case(kind, _front_door(verify), (text,), kwargs)
    if kind == "sat":
        kwargs = dict(variant=g.variant(variant), defender=g.defender_hand(), max_length=g.limit([1, 2, 3]),
                      seconds=rng.choice([0.05, 0.2]), memory=DEFAULT_MEMORY_MB)
        return Case(kind, _front_door(sat_solve), (text,), kwargs)
    if kind == "perft":
        pos = _valid_position(variant, text)
        target = pos if pos is not None and rng.random() < 0.9 else text
        depth = g.choose([0, 1, 2], [-1, "2", 2.0, None, True, 31, 10**400])
        return Case(kind, perft if rng.random() < 0.5 else divide, (target, depth))
    return Case(kind, loads, (g.collection(), "fuzz.tsume"))


# --- the command line ---------------------------------------------------------------------------

CLI_NUMBERS = ["1", "2", "0", "-1", "nan", "inf", "-inf", "1e999", "1.5", "x", "", "٣", "²", "9" * 4301, "0x10",
               "1_000", " 5 ", "O"]


def cli_case(g: Generator) -> list[str]:
    """The arguments of one ``tsume`` run with fuzzed values."""
    rng = g.rng
    variant, text = g.position()
    command = rng.choice(["show", "perft", "solve", "solve", "verify", "verify"])
    args = [command]
    if rng.random() < 0.15:
        pr_file = rng.choice(["examples", "flawed", "seed-ito", "nosuch", mutate(rng, "examples"), "problems/examples.tsume",
                              "x" * 5000, "a\x00b", "/", "."])
        args += ["--file", pr_file]
        if rng.random() < 0.8:
            args += ["--id", rng.choice(["ito-01", "ito-05", "x", mutate(rng, "ito-05"), ""])]
    else:
        if rng.random() < 0.9:
            args.append(text if rng.random() < 0.95 else rng.choice(["x" * 5000, "a\x00b", "/", ".", "-"]))
        if variant != "ito" or rng.random() < 0.2:
            args += ["--variant", variant if rng.random() < 0.8 else mutate(rng, rng.choice(VARIANT_SPECS))]
    if command == "show":
        args += rng.sample(["--json", "--compact"], rng.randint(0, 2))
    elif command == "perft":
        args += ["--depth", rng.choice(["0", "1", "2", "2", "31", "-1", "x", "²"])]
        args += rng.sample(["--json", "--divide"], rng.randint(0, 2))
    else:
        sat = command == "solve" and rng.random() < 0.05
        args += ["-q", "--time-limit", rng.choice(["0.2", "0.5"]) if rng.random() < 0.85 else rng.choice(CLI_NUMBERS)]
        if sat:  # the time limit bounds it (the SAT engine takes no --nodes)
            args[-1] = rng.choice(["0.2", "0.5"])
            args += ["--engine", "sat", "--max-length", "1"]
        else:
            args += ["--nodes", g.choose(["50", "300"], CLI_NUMBERS)]
        if rng.random() < 0.2 and not sat:
            args += ["--memory", rng.choice(["16", "100"] + CLI_NUMBERS)]
        if rng.random() < 0.2:
            args += ["--defender-hand", str(g.defender_hand())]
        if rng.random() < 0.3:
            args.append("--json")
        if command == "solve":
            if rng.random() < 0.2 and not sat:
                args += ["--max-length", rng.choice(["1", "3", "9"] + CLI_NUMBERS)]
        elif rng.random() < 0.2:
            args += ["--length", rng.choice(["1", "5"] + CLI_NUMBERS), "--solution", str(g.move(None))]
    if rng.random() < 0.1:  # a stray option or argument
        args.insert(rng.randint(1, len(args)), rng.choice(["-v", "-x", "--nope", "--json", "extra", "--", "-"]))
    return args


# --- running and counting -----------------------------------------------------------------------


@dataclass
class Tally:
    """What the fuzz saw."""

    tried: Counter = field(default_factory=Counter)  # by kind
    ok: Counter = field(default_factory=Counter)  # by kind
    tsume_errors: Counter = field(default_factory=Counter)  # by class
    others: Counter = field(default_factory=Counter)  # by class: the bugs
    examples: dict[str, str] = field(default_factory=dict)  # first case and traceback per bug class
    cli_runs: int = 0
    cli_statuses: Counter = field(default_factory=Counter)
    tracebacks: int = 0
    cli_bad: dict[str, str] = field(default_factory=dict)

    cli_bad_count: int = 0  # runs with a traceback or a status outside CLI_STATUSES

    @property
    def library_inputs(self) -> int:
        return sum(self.tried.values())

    def failures(self) -> int:
        """Library calls that raised something other than a TsumeError, and bad CLI runs."""
        return sum(self.others.values()) + self.cli_bad_count


class Watchdog:
    """Stops a call that runs longer than ``seconds``: every search the fuzzer
    starts is bounded, so a long call is a bug (a limit not honoured).  It
    interrupts the main thread (a KeyboardInterrupt, recorded as a hang), and
    if that goes unnoticed for 30 s more, ends the process naming the case."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.case: object = None
        self.started = 0.0
        self.fired: object = None
        thread = threading.Thread(target=self._watch, daemon=True)
        thread.start()

    def _watch(self) -> None:
        while True:
            time.sleep(1)
            case, elapsed = self.case, time.monotonic() - self.started
            if case is None:
                continue
            if elapsed > self.seconds and self.fired is None:
                self.fired = case
                _thread.interrupt_main()
            elif elapsed > self.seconds + 30:
                os.write(2, f"fuzz: HANG: over {elapsed:.0f} s in {case}\n".encode())
                os._exit(1)

    def watch(self, case: object) -> None:
        self.started = time.monotonic()
        self.fired = None
        self.case = case

    def done(self) -> None:
        self.case = None


_WATCHDOG: Watchdog | None = None


def watchdog(seconds: float = 60) -> Watchdog:
    global _WATCHDOG
    if _WATCHDOG is None:
        _WATCHDOG = Watchdog(seconds)
    return _WATCHDOG


def run_library(tally: Tally, g: Generator, count: int, kinds: tuple[str, ...] = LIBRARY_KINDS) -> None:
    dog = watchdog()
    for _ in range(count):
        case = library_case(g, kinds)
        kind = case.kind
        tally.tried[kind] += 1
        dog.watch(case)
        try:
            case()
            tally.ok[kind] += 1
        except TsumeError as exc:
            tally.tsume_errors[type(exc).__name__] += 1
            msg = str(exc)
            if "\n" in msg or not msg or len(msg) > 400:  # one line naming what is wrong
                key = f"{kind}: TsumeError message not one short line"
                tally.others[key] += 1
                tally.examples.setdefault(key, f"{case}\n{msg[:500]!r}")
        except KeyboardInterrupt:
            if dog.fired is not case:
                raise
            key = f"{kind}: over {dog.seconds:g} s"
            tally.others[key] += 1
            tally.examples.setdefault(key, str(case))
        except Exception as exc:  # noqa: BLE001 - the point is to catch anything
            key = f"{kind}: {type(exc).__name__}"
            tally.others[key] += 1
            tally.examples.setdefault(key, f"{case}\n{traceback.format_exc()[-1500:]}")
        finally:
            dog.done()


#: Exit statuses a run may end with (README): 0, 1, 2, 3; 70 is a bug by definition.
CLI_STATUSES = {0, 1, 2, 3}


def run_cli(tally: Tally, g: Generator, count: int) -> None:
    runner = CliRunner()
    dog = watchdog()
    for _ in range(count):
        args = cli_case(g)
        dog.watch(f"tsume {args!r:.600}")
        result = runner.invoke(main, args)
        dog.done()
        tally.cli_runs += 1
        tally.cli_statuses[result.exit_code] += 1
        output = result.stdout + result.stderr
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        if "Traceback" in output or crashed:
            tally.tracebacks += 1
        if "Traceback" in output or crashed or result.exit_code not in CLI_STATUSES:
            tally.cli_bad_count += 1
            key = f"{args[0]} exit {result.exit_code}"
            detail = "".join(traceback.format_exception(result.exception))[-1500:] if crashed else result.stderr[-800:]
            tally.cli_bad.setdefault(key, f"{args!r:.600}\n{detail}")
