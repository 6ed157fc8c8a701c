"""The work a search may do: :class:`Limits` (time, nodes, memory), one value checked once.

Modelled on python-chess's ``engine.Limit``: an immutable value that the
entry points (``solve``, ``verify``, ``sat_solve``, the booklet, the
composer's filters, the census) and the df-pn engine take as it is::

    >>> from tsume import Limits, Problem, solve
    >>> solve(Problem("k1P2H25 b G"), limits=Limits(nodes=100_000, time=5)).status
    <Status.MATE: 'mate'>

A value that is not a positive finite number is refused when the value is
made (:class:`~tsume.errors.ArgumentError`), so no engine ever reads a NaN
time limit as "no limit" or a node limit of 0 as "no mate".
"""

from __future__ import annotations

from dataclasses import dataclass

from .arguments import check_memory_mb, check_node_limit, check_time_limit
from .errors import ArgumentError

__all__ = ["Limits", "NO_LIMITS", "check_limits"]


@dataclass(frozen=True)
class Limits:
    """Stop a search after ``time`` seconds, ``nodes`` df-pn nodes, or once it
    has grown the process by ``memory`` megabytes; None for no limit.

    What a limit stops is reported, never guessed: a solve's status becomes
    ``unknown``, a verification's questions ``unknown`` findings.  The time
    counts from when the search starts; ``memory`` is what a df-pn search
    adds to the process (its table gives way first, docs/solver.md), or
    what the SAT engine holds (docs/sat.md).
    """

    time: float | None = None
    nodes: int | None = None
    memory: float | None = None

    def __post_init__(self) -> None:
        # Checked (and normalised: a time of 5 is 5.0) once, here.
        object.__setattr__(self, "time", check_time_limit(self.time, "Limits.time"))
        object.__setattr__(self, "nodes", check_node_limit(self.nodes, "Limits.nodes"))
        object.__setattr__(self, "memory", check_memory_mb(self.memory, "Limits.memory"))


#: No limit at all.
NO_LIMITS = Limits()


def check_limits(value: object, default: Limits = NO_LIMITS) -> Limits:
    """The :class:`Limits` an entry point runs under: its ``limits`` argument,
    or ``default`` for None."""
    if value is None:
        return default
    if not isinstance(value, Limits):
        raise ArgumentError(f"limits must be a tsume.Limits or None, not {type(value).__name__}")
    return value
