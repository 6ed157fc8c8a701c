"""Checks of the arguments of the public entry points: one function per kind of argument.

Each check returns the value (as the type the engines use) or raises
:class:`~tsume.errors.ArgumentError` with one line naming the argument and the
bad value.  The values and entry points (``Problem``, ``Limits``, ``solve``,
``verify``, ``sat_solve``, ``perft``, ``divide``) call them first, and the command
line's options use the same checks, so a bad value never reaches an engine: a
NaN time limit read as "no limit", a node limit of 0 or a negative time limit
that stops at once and reports "no mate", a memory bound of infinity that
overflows, ``None`` where a variant is expected, a string where a list of
moves is expected.

Strings and positions are checked by their own readers (:mod:`tsume.notation`,
:func:`tsume.variant.get_variant`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .errors import ArgumentError, quote

__all__ = [
    "check_time_limit",
    "check_node_limit",
    "check_memory_mb",
    "check_max_length",
    "check_positive_int",
    "check_range",
    "check_depth",
    "check_flag",
    "check_callback",
    "check_defender_hand",
    "check_solution",
    "check_search_arguments",
]


def _is_number(value: object) -> bool:
    # bool is an int subclass; True is not "1 second".
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _positive_finite(
    value: object, name: str, unit: str, most: float = math.inf, zero_ok: bool = False
) -> float | None:
    if value is None:
        return None
    if not _is_number(value):
        raise ArgumentError(f"{name} must be a number of {unit} or None, not {type(value).__name__} {quote(value)}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int beyond any float
        raise ArgumentError(f"{name} is too large: {quote(value)}") from None
    if not math.isfinite(number) or number < 0 or (number == 0 and not zero_ok):
        sign = "non-negative" if zero_ok else "positive"
        raise ArgumentError(f"{name} must be a {sign} finite number of {unit}, not {quote(value)}")
    if number > most:
        raise ArgumentError(f"{name} must be at most {most:g} {unit}, not {quote(value)}")
    return number


def check_time_limit(value: object, name: str = "time_limit") -> float | None:
    """A time limit: None (no limit) or a positive finite number of seconds."""
    return _positive_finite(value, name, "seconds")


#: The largest memory bound taken, in megabytes (a petabyte: the bound is
#: turned into a count of table entries, which must stay a finite number).
MAX_MEMORY_MB = 1e9


def check_memory_mb(value: object, name: str = "memory_limit_mb") -> float | None:
    """A memory bound: None (no bound) or a positive number of megabytes up to :data:`MAX_MEMORY_MB`."""
    return _positive_finite(value, name, "megabytes", MAX_MEMORY_MB)


def check_positive_int(value: object, name: str, what: str = "a whole number", most: int | None = None) -> int | None:
    """None or an int from 1 to ``most`` (a bool or a float is refused, not rounded)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{name} must be {what} (an int >= 1) or None, not {type(value).__name__} {quote(value)}")
    if value < 1:
        raise ArgumentError(f"{name} must be at least 1, not {quote(value)}")
    if most is not None and value > most:
        raise ArgumentError(f"{name} must be at most {most:,}, not {quote(value)}")
    return value


def check_range(text: object, name: str, low: int = 0, open_end: int | None = None) -> tuple[int, int]:
    """``(lo, hi)`` from the string ``N`` or ``N-M`` (ASCII digits, ``low <=
    N <= M``).  A lone ``N`` means exactly N, or N to ``open_end`` when one
    is given (``--length 9``: at least 9 plies)."""
    if not isinstance(text, str):
        raise ArgumentError(f"{name} must be a string N or N-M, not {type(text).__name__} {quote(text)}")
    a, dash, b = text.partition("-")
    # isascii: '²' passes isdigit() but not int(); the length cap keeps int() away from huge strings.
    if not (a.isascii() and a.isdigit() and (not dash or (b.isascii() and b.isdigit()))) or len(text) > 9:
        raise ArgumentError(f"{name} must be N or N-M (whole numbers), not {quote(text)}")
    lo = int(a)
    hi = int(b) if dash else (open_end if open_end is not None else lo)
    if lo < low or hi < lo:
        raise ArgumentError(f"{name} must satisfy {low} <= N <= M, not {quote(text)}")
    return lo, hi


def check_node_limit(value: object, name: str = "node_limit") -> int | None:
    """A node limit: None (no limit) or an int >= 1."""
    return check_positive_int(value, name, "a number of nodes")


#: The longest length bound or stated length taken, in plies.  The longest
#: known tsume are a few thousand plies; a bound near the search's own
#: "unbounded" (2**39) is not a bound (2**63 made df-pn run for ever).
MAX_LENGTH = 1_000_000


def check_max_length(value: object, name: str = "max_length") -> int | None:
    """A length in plies (a bound or a stated length): None or an int from 1 to :data:`MAX_LENGTH`."""
    return check_positive_int(value, name, "a number of plies", MAX_LENGTH)


#: The deepest perft: far beyond any count that finishes in a day from a real
#: position, and shallow enough for the recursion (a depth of 10**400 was taken).
MAX_DEPTH = 30


def check_depth(value: object, name: str = "depth") -> int:
    """A perft depth: an int from 0 to :data:`MAX_DEPTH`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{name} must be an int from 0 to {MAX_DEPTH}, not {type(value).__name__} {quote(value)}")
    if not 0 <= value <= MAX_DEPTH:
        raise ArgumentError(f"{name} must be from 0 to {MAX_DEPTH}, not {quote(value)}")
    return value


def check_flag(value: object, name: str) -> bool:
    """A yes/no switch: True or False (a string such as "no" would read as true)."""
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} must be True or False, not {type(value).__name__} {quote(value)}")
    return value


def check_callback(value: object, name: str = "progress") -> Callable[..., Any] | None:
    """None or something callable."""
    if value is not None and not callable(value):
        raise ArgumentError(f"{name} must be a function or None, not {type(value).__name__}")
    return value  # type: ignore[return-value]


def check_defender_hand(value: object) -> str | None:
    """None or a string ("rest", "none" or letters; the letters are read by the hands reader)."""
    if value is not None and not isinstance(value, str):
        raise ArgumentError(f"defender (the defender's hand) must be 'rest', 'none', letters such as '2PT', "
                            f"or None, not {type(value).__name__}")
    return value


def check_solution(value: object) -> tuple[str, ...] | None:
    """None or a list (or tuple) of move strings, as a tuple.  A single string
    is refused: ``"G*2 3-2"`` would otherwise be read character by character."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ArgumentError(f"solution must be a list of move strings, not {type(value).__name__} {quote(value)}")
    for i, move in enumerate(value):
        if not isinstance(move, str):
            raise ArgumentError(f"solution: move {i + 1} must be a move string, not {type(move).__name__}")
    return tuple(value)


def check_search_arguments(progress: object = None, progress_interval: object = 1.0, **flags: object) -> None:
    """The other arguments of a search: the progress callback and its interval,
    and yes/no switches given by name (``strict=...``).  (The limits are a
    :class:`tsume.limits.Limits`, the search's options checked by
    :func:`tsume.search.check_options`.)"""
    check_callback(progress, "progress")
    if progress_interval is None:
        raise ArgumentError("progress_interval must be a number of seconds, not None")
    _positive_finite(progress_interval, "progress_interval", "seconds", zero_ok=True)  # 0: at every check
    for name, value in flags.items():
        check_flag(value, name)
