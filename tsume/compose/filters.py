"""The composer's filters, cheapest first.

1. **valid**: the candidate is a legal tsume position (defender king on the
   board, attacker not in check);
2. **mate**: ``solve()`` under a node limit finds a mate within the wanted
   lengths;
3. **te-amari repair**: a mate that ends with pieces in the attacker's hand
   is tried again with those pieces taken out of the hand (a few rounds);
4. **sound**: ``verify()`` (through ``sound_report()``, which stops as soon
   as the problem cannot be sound; default switches; ``strict`` also
   demands a unique attacker move in every variation) calls it ``sound``;
5. **economy**: a man whose removal leaves a problem still sound with the
   same length is redundant: it is removed and the smaller problem kept
   (repeated until no man can go).

Every search runs under node limits, never wall-clock ones, so that a seeded
run repeats exactly on any machine and any number of workers.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, replace

from ..errors import TsumeError
from ..limits import Limits
from ..outcome import Status
from ..position import BLACK, WHITE
from ..problem import Problem
from ..solve import Result, solve
from ..verify import Report, sound_report
from .candidate import Candidate

__all__ = ["Criteria", "Outcome", "consider", "problem_of", "mate", "repair", "sound", "economise", "STAGES"]

#: Where a candidate can stop, in order (``Outcome.stage``).
STAGES = ("invalid", "no-mate", "length", "te-amari", "unsound", "accepted")


#: How many times the base mate limit a child of a costly parent may get.
MOST = 16


@dataclass(frozen=True)
class Criteria:
    """What a candidate must satisfy, and the work allowed to find out
    (node limits only: see the module docstring)."""

    min_length: int = 1
    max_length: int = 99
    strict: bool = False
    mate_nodes: int = 20_000
    verify_nodes: int = 200_000
    repair_rounds: int = 2

    @property
    def mate_limits(self) -> Limits:
        """The limits of the mate filter's ``solve()``."""
        return Limits(nodes=self.mate_nodes)

    @property
    def verify_limits(self) -> Limits:
        """The limits of each ``sound_report()``."""
        return Limits(nodes=self.verify_nodes)

    def widest(self) -> "Criteria":
        """The limits of the costliest parent's child (:meth:`for_parent`):
        for a problem whose effort is not known yet, such as a parent the
        user gave (the longest take more than the base limit to solve)."""
        return self.for_parent(self.mate_nodes * MOST)

    def for_parent(self, nodes: int | None) -> "Criteria":
        """The limits for a child of a parent whose mate took ``nodes`` to
        find: a mate two plies longer may cost several times as much, and the
        climb towards long problems stalls at fixed limits (an Ito mate of 19
        plies already takes some 18,000 nodes).  So the mate limit is eight
        times the parent's effort when that is more (up to 16 times the
        base), and the verify limit grows alike (up to 4 times).  The
        parent's effort, not its length, decides: Rutherford's long king
        walks are cheap and keep the base limits."""
        if nodes is None or 8 * nodes <= self.mate_nodes:
            return self
        scale = min(8 * nodes / self.mate_nodes, MOST)
        return replace(self, mate_nodes=int(self.mate_nodes * scale),
                       verify_nodes=int(self.verify_nodes * min(scale, 4)))


@dataclass
class Outcome:
    """What the filters made of one candidate: the ``stage`` it stopped at
    (``accepted`` when it passed them all), the candidate as repaired and
    economised, its solve result and verify report, and the nodes spent."""

    stage: str
    candidate: Candidate
    result: Result | None = None
    report: Report | None = None
    nodes: int = 0
    removed: list[str] = field(default_factory=list)


def problem_of(c: Candidate) -> Problem | None:
    """The problem ``c`` states (its defender's hand by its rule), or None
    when it is no valid tsume: a bad position, no defender king, or the
    attacker in check."""
    return c.problem()


def mate(c: Candidate, criteria: Criteria, lengths: Container[int] | None = None) -> tuple[Result | None, int]:
    """The solve result of ``c`` if it mates within ``criteria.max_length``
    (found under ``criteria.mate_nodes``), else None; and the nodes spent.
    The main line is read only for a mate whose length is in ``lengths``
    (None: any; ``solve(lengths=...)``)."""
    problem = problem_of(c)
    if problem is None:
        return None, 0
    r = solve(problem, max_length=criteria.max_length, limits=criteria.mate_limits, variations=False,
              lengths=lengths)
    nodes = r.stats.get("nodes", 0)
    return (r if r.status == Status.MATE else None), nodes


def repair(c: Candidate, leftover: str) -> Candidate | None:
    """``c`` with the pieces ``leftover`` (a hand string such as ``2PG``)
    taken out of the attacker's hand; None if it does not hold them."""
    try:
        taken = c.pos.t.read_hands(leftover.upper())[BLACK]
    except TsumeError:
        return None
    hand = [held - out for held, out in zip(c.hand_counts(), taken)]
    return None if min(hand) < 0 else c.changed(hand=hand)


def sound(c: Candidate, criteria: Criteria, length: int | None = None) -> tuple[Report | None, int]:
    """The verify report of ``c`` if it is sound (and, given ``length``, of
    that length), else None; and the nodes spent."""
    problem = problem_of(c)
    if problem is None:
        return None, 0
    return sound_report(problem.replace(length=length), limits=criteria.verify_limits, strict=criteria.strict)


def economise(c: Candidate, report: Report, criteria: Criteria) -> tuple[Candidate, Report, list[str], int]:
    """Take out every redundant man (either side's, kings included for the
    attacker): one whose removal leaves a problem still sound with the same
    length.  Returns the smaller candidate, its report, the men removed (as
    ``G12``) and the nodes spent."""
    removed: list[str] = []
    nodes = 0
    changed = True
    while changed:
        changed = False
        for s, piece in enumerate(c.pos.board(), 1):
            if piece is None or (piece.royal and piece.colour == WHITE):
                continue
            smaller = c.changed([(s, None)])
            rep, spent = sound(smaller, criteria, length=report.length)
            nodes += spent
            if rep is not None and rep.length == report.length:
                removed.append(f"{piece.symbol()}{s}")
                c, report, changed = smaller, rep, True
                break
    return c, report, removed, nodes


@dataclass(frozen=True)
class _Wanted:
    """The lengths a run takes: from ``low`` to ``high``, less ``skip``."""

    low: int
    high: int
    skip: "frozenset[int] | set[int]"

    def __contains__(self, length: object) -> bool:
        return isinstance(length, int) and self.low <= length <= self.high and length not in self.skip


def consider(c: Candidate, criteria: Criteria, skip: "frozenset[int] | set[int]" = frozenset()) -> Outcome:
    """Run ``c`` through every filter, cheapest first (module docstring).
    A mate whose length is in ``skip`` (lengths the run needs no more of)
    stops at the ``length`` stage, before the costly ``verify()``."""
    if problem_of(c) is None:
        return Outcome("invalid", c)
    nodes = 0
    # Only a mate of a length the run takes goes on, and only its line is read.
    wanted = _Wanted(criteria.min_length, criteria.max_length, skip)
    for _ in range(criteria.repair_rounds + 1):
        r, spent = mate(c, criteria, wanted)
        nodes += spent
        if r is None or r.length is None:
            return Outcome("no-mate", c, r, nodes=nodes)
        if r.length not in wanted:
            return Outcome("length", c, r, nodes=nodes)
        if r.leftover in (None, "-"):
            break
        fixed = repair(c, r.leftover)
        if fixed is None:
            return Outcome("te-amari", c, r, nodes=nodes)
        c = fixed
    else:
        return Outcome("te-amari", c, r, nodes=nodes)
    report, spent = sound(c, criteria)
    nodes += spent
    if report is None or report.length not in wanted:
        return Outcome("unsound", c, r, nodes=nodes)
    c, report, removed, spent = economise(c, report, criteria)
    nodes += spent
    return Outcome("accepted", c, r, report, nodes, removed)
