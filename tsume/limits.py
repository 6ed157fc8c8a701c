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

# The engine defines Limits (one definition, handed to the search as it is):
# time in seconds, df-pn nodes, memory in megabytes, each None for no limit,
# each checked when the value is made.  What a limit stops is reported, never
# guessed: a solve's status becomes unknown, a verification's questions
# unknown findings.  The time counts from when the search starts; memory is
# what a df-pn search adds to the process (its table gives way first,
# docs/solver.md), or what the SAT engine holds (docs/sat.md).
from ._engine import Limits
from .errors import ArgumentError

__all__ = ["Limits", "NO_LIMITS", "check_limits"]


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
