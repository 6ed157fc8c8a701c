"""Soundness of a tsume: ``verify()`` and its :class:`Report`.

The verifier solves the problem (``tsume.solve``), then walks the main line
with one df-pn engine whose table serves every question, and proves each
point a composer cares about (docs/rules.md, tsume convention 6; docs/verify.md):

* every attacker alternative on the main line is proven to mate or not, with
  no length bound: a mating one is *yozume*, unless it is a mate-in-one at the
  final attacker turn (*final-move alternative*) or its own main line comes
  back to a later main-line position with the same hands (*detour*);
* every defender alternative gets its value (*variations*): equal length with
  no pieces left, branching four or more plies before the end, is a
  *same-length variation* (henka-do); longer than the main line is a *longer
  variation*, with the "2 plies longer, pieces left" exception as a switch;
* pieces left in the attacker's hand at the end are *te-amari*; attacker
  pieces the main line never moves or drops are *unused material*;
* a stated length or intended solution is compared with what was proven.

A limit (time or nodes) never hides a question: whatever it stops is reported
as an ``unknown`` finding, and the verdict is then ``unknown`` unless a defect
was proven anyway.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .arguments import check_positive_int, check_search_arguments
from .conventions import hand_count
from .errors import ArgumentError, MoveError
from .limits import Limits, check_limits
from .lines import hand_after, move_strings
from .outcome import Status, Verdict
from .position import Colour, Move, Position
from .problem import Problem, require_problem
from .render import canonical_order, mated, plies, useless_by_check
from .solve import Variation
from .search import Options, Search, SearchLimit, check_options

__all__ = [
    "verify",
    "sound_report",
    "Report",
    "Finding",
    "Alternative",
    "DefenderAlternative",
    "Severity",
    "FINDING_KINDS",
    "LENGTH_BUDGET",
    "QUESTIONS",
]

# Every finding kind.  Its weight (a Severity) is given where the finding is
# made, and some depend on the switches: a final-move alternative and a detour
# are blemishes, defects with ``strict`` (_attacker_turn); a longer variation
# "2 plies longer, pieces left" is information with ``longer_with_leftover_ok``
# (_defender_turn, _check_solution).
FINDING_KINDS = (
    "no-mate",
    "yozume",
    "final-move-alternative",
    "detour",
    "te-amari",
    "same-length-variation",
    "longer-variation",
    "unused-material",
    "stated-length-mismatch",
    "solution-mismatch",
    "variation-alternative",
    "unknown",
)


class Severity(StrEnum):
    """What a finding weighs towards the verdict."""

    #: Makes the problem unsound.
    DEFECT = "defect"
    #: Tolerated: makes a problem otherwise sound flawed.
    BLEMISH = "blemish"
    #: Weighs nothing.
    INFO = "info"
    #: A limit stopped a proof: the verdict is unknown unless a defect was proven.
    UNKNOWN = "unknown"


#: verify()'s default length budget, in nodes: what a mating attacker
#: alternative's exact length may cost beyond its first proof, and again its
#: best line.  A long alternative's exact length needs a disproof two plies
#: short of it, which grows 2.5- to 5-fold every two plies: in bench-ito,
#: 24 of 1,537 mating alternatives (in 16 of 145 problems) cost more than
#: this, and one of them (ito-L05-0013's C*8) 1.57 million nodes for its
#: disproof within 26 plies alone (docs/performance.md, "Verify").
LENGTH_BUDGET = 100_000

#: The kinds of question a verification spends its nodes on, as
#: ``Report.stats["nodes_by_question"]`` counts them (they add up to
#: ``stats["nodes"]``): solving the problem and reading its main line (and
#: checking a stated solution); whether each attacker alternative mates at
#: all (its first proof, or its disproof); the climb from a mating
#: alternative's first proof to its exact length and the reading of its line
#: (the two parts a length budget bounds); and the defender's alternatives
#: (useless-interposition tests, their values and lines, strict checks).
QUESTIONS = ("main line", "alternatives", "alternative lengths", "alternative lines", "defences")


@dataclass
class Finding:
    """One thing the verifier found.  ``ply`` is the main-line ply it is at,
    counted from 1 (the attacker's first move), as in the message."""

    kind: str
    severity: Severity
    message: str
    ply: int | None = None
    move: str | None = None
    length: int | None = None
    line: list[str] = field(default_factory=list)
    pieces: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "severity": self.severity, "message": self.message}
        for key in ("ply", "move", "length", "pieces"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.line:
            out["line"] = self.line
        return out


@dataclass
class Alternative:
    """An attacker move other than the main line's at an attacker turn of it
    (``ply``, counted from 1, is that turn's ply of the main line).

    ``status`` is a :class:`~tsume.outcome.Status`; ``length`` counts the
    plies from this move to the mate (the move included).  ``exact`` false:
    the length budget ran out (:func:`verify`), so ``length`` is only a
    proven upper bound, ``length_min`` the least length not disproved, and
    ``line`` a mating line that is not necessarily the best one.
    """

    ply: int
    move: str
    readable: str
    status: Status
    length: int | None = None
    line: list[str] = field(default_factory=list)
    kind: str | None = None  # yozume / final-move-alternative / detour for a mating one
    exact: bool = True
    length_min: int | None = None

    def length_text(self) -> str:
        """``in 13 plies``; with bounds ``in 11 to 17 plies``."""
        text = _length_text(self.length or 0, None if self.exact else self.length_min)
        return text + (" (not its best line)" if not self.exact and self.length_min == self.length else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move": self.move,
            "readable": self.readable,
            "status": self.status,
            "length": self.length,
            "line": self.line,
            "kind": self.kind,
            "exact": self.exact,
            "length_min": self.length_min,
        }


@dataclass
class DefenderAlternative(Variation):
    """A defence other than the main line's at a defender turn of it: a
    :class:`~tsume.solve.Variation` whose value was searched with no bound.

    ``status`` is ``MATE``, or ``NOMATE`` / ``UNKNOWN`` when no mate follows
    it or a limit stopped the proof (``length`` is then None, as it is for a
    useless interposition).
    """

    status: Status = Status.UNKNOWN

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "status": self.status}


@dataclass
class Report:
    """The verifier's answer for one problem."""

    id: str | None
    variant: str
    position: str
    verdict: Verdict
    length: int | None = None
    mainline: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)
    leftover: str | None = None
    variations: list[DefenderAlternative] = field(default_factory=list)
    alternatives: list[Alternative] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def kinds(self) -> set[str]:
        """The kinds of the findings, for quick tests."""
        return {f.kind for f in self.findings}

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "position": self.position,
            "verdict": self.verdict,
            "length": self.length,
            "mainline": self.mainline,
            "readable": self.readable,
            "leftover": self.leftover,
            "variations": [v.to_dict() for v in self.variations],
            "alternatives": [a.to_dict() for a in self.alternatives],
            "findings": [f.to_dict() for f in self.findings],
            "stats": self.stats,
        }


class _Account:
    """The engine's nodes by kind of question (:data:`QUESTIONS`): each node
    counts for the innermost question under way when it was searched."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.spent = dict.fromkeys(QUESTIONS, 0)
        self.label = QUESTIONS[0]
        self.mark = search.nodes

    def _switch(self, label: str) -> None:
        nodes = self.search.nodes
        self.spent[self.label] += nodes - self.mark
        self.label, self.mark = label, nodes

    @contextmanager
    def on(self, label: str) -> Iterator[None]:
        """Count the nodes searched inside the block for ``label``."""
        outer = self.label
        self._switch(label)
        try:
            yield
        finally:
            self._switch(outer)

    def move(self, nodes: int, source: str, target: str) -> None:
        """Count ``nodes`` already counted for ``source`` for ``target`` instead."""
        self._switch(self.label)
        self.spent[source] -= nodes
        self.spent[target] += nodes

    def totals(self) -> dict[str, int]:
        self._switch(self.label)
        return dict(self.spent)


class _Prover:
    """Questions about positions on and near one line, answered by one search.

    The search's walk holds the positions of the line walked so far, so a
    repetition of any of them fails for the attacker, as on the board;
    ``pos`` is the walk's current position, kept in step.
    """

    def __init__(self, search: Search, root: Position, account: _Account) -> None:
        self.search = search
        self.pos = root.copy()
        self.attacker = root.turn
        self.account = account

    # the line ------------------------------------------------------------------

    def push(self, m: Move) -> None:
        self.search.walk(m)
        self.pos.push(m)

    def pop(self) -> None:
        self.search.unwalk()
        self.pos.pop()

    def rewind(self) -> None:
        while self.search.walked:
            self.pop()

    # values ----------------------------------------------------------------------

    def value(self) -> int | None:
        """Counted plies to mate from the current position with best play (either
        side to move; 0 when the defender is mated), None if there is no mate.
        Raises SearchLimit."""
        return self.search.value()

    def value_within(self, budget: int | None) -> tuple[int | None, int]:
        """:meth:`value` with at most ``budget`` nodes (None: no budget) for
        the climb from its first proof to the exact length: ``(upper, low)``, mated within
        ``upper`` and not within any bound below ``low`` (equal: the exact
        value; ``upper`` None: no mate).  Raises SearchLimit."""
        return self.search.value_within(None, budget)

    def line_within(self, v: int, thorough: bool, budget: int | None) -> list[Move] | None:
        """The moves of :meth:`best_line`, or None if ``budget`` nodes do not
        read it (None: no budget, always read).  Raises SearchLimit."""
        return self.search.line_within(v, thorough, budget)

    def proof_line(self, b: int) -> list[Move]:
        """A mating line within ``b``, not the best (read off the table's proofs)."""
        return self.search.proof_line(b)

    def mates(self, b: int | None) -> bool:
        """Is the current position mated within ``b`` counted plies (None: at all)?  Raises SearchLimit."""
        return self.search.mate(b)

    def mates_at_all(self) -> bool:
        """Is the current position mated at any length?  The searches of
        :meth:`value` up to its first proof, without the climb to the exact
        length; so where there is no mate, the same searches.  Raises
        SearchLimit."""
        return self.search.mates_at_all()

    def best_line(self, v: int, thorough: bool = True) -> tuple[list[Move], int]:
        """The best line of value ``v`` from here and the attacker's pieces left;
        not ``thorough``: a line of that value without the leftover tie-break
        (see :meth:`tsume.search.Search.best_line`)."""
        return self.search.best_line(v, thorough)

    def useless(self, d: Move) -> bool:
        """Is the defence ``d`` here a useless interposition?"""
        return self.search.is_useless(d)


def _leftover(pos: Position, moves: list[Move], colour: Colour) -> str:
    return hand_after(pos, moves, colour)[0]


@dataclass
class _Settings:
    strict: bool
    longer_ok: bool
    fail_fast: bool = False
    # sound_report(): stop as soon as the problem cannot be sound.
    sound_only: bool = False
    # Nodes for a mating alternative's exact length, and again for its best
    # line, beyond its first proof (None: no budget).
    length_budget: int | None = None


class _Stop(Exception):
    """The caller asked to stop at a finding like this one (or, in
    sound_report(), at an attacker alternative that mates)."""


class _Findings(list):
    """The report's findings; a finding of a severity in ``stop_at`` ends the verification."""

    def __init__(self, stop_at: frozenset[Severity]) -> None:
        super().__init__()
        self.stop_at = stop_at

    def append(self, finding: Finding) -> None:  # type: ignore[override]
        super().append(finding)
        if finding.severity in self.stop_at:
            raise _Stop


def verify(
    problem: Problem,
    *,
    strict: bool = False,
    longer_with_leftover_ok: bool = False,
    limits: Limits | None = None,
    options: Options | None = None,
    progress: Callable[[dict], None] | None = None,
    fail_fast: bool = False,
    length_budget: int | None = LENGTH_BUDGET,
    id: str | None = None,
) -> Report:
    """Verify a tsume's soundness.

    ``problem`` is a :class:`~tsume.problem.Problem`; its stated length and
    intended solution, if it states them, are compared with what is proven
    (a collection's record makes its problem with ``record.problem()``).
    ``strict`` also demands a unique attacker move at every attacker turn,
    final move and detours included, and in the variations.
    ``longer_with_leftover_ok`` switches on the "2 plies longer, pieces
    left" exception.  ``limits`` (:class:`~tsume.limits.Limits`) bound the
    whole verification; what they stop is reported as ``unknown``.
    ``options`` (:class:`~tsume.search.Options`) are the search's switches;
    ``progress`` is called with the search's statistics now and then.
    ``fail_fast`` stops at the first defect (the report is then incomplete
    but its verdict, ``unsound``, is right).  ``length_budget`` bounds the
    nodes spent on a mating attacker alternative's exact length, and again
    on its best line, beyond its first proof: past it the alternative is
    reported with its proven bounds and a mating line
    (``Alternative.exact`` false); None reads every one exactly, however
    long that takes.  Whether an alternative mates is never left to a
    budget.  ``id`` labels the report (a record's id).  A bad argument
    raises a :class:`~tsume.errors.TsumeError`.
    """
    tsume = require_problem(problem, "verify")
    budget = check_positive_int(length_budget, "length_budget", "a number of nodes")
    limits = check_limits(limits)
    check_search_arguments(progress, strict=strict, fail_fast=fail_fast, longer_with_leftover_ok=longer_with_leftover_ok)
    check_options(options)
    _check_id(id)
    settings = _Settings(strict, longer_with_leftover_ok, fail_fast, length_budget=budget)
    return _verification(tsume, id, limits, settings, progress, options)[0]


def sound_report(
    problem: Problem,
    *,
    strict: bool = False,
    limits: Limits | None = None,
    options: Options | None = None,
    id: str | None = None,
) -> tuple[Report | None, int]:
    """``(report, nodes)``: :func:`verify`'s report if the problem is sound,
    else None, and the df-pn nodes spent.  For the composer and the census,
    which only keep sound problems: the verification stops as soon as the
    problem cannot be sound (a defect, a blemish, an unknown, or an attacker
    alternative that mates at all, whose length and line are then not read:
    they take most of verify's work, docs/performance.md).  A sound problem
    gets the same report as from :func:`verify`, and the same searches but
    at the last attacker turn, where, as with ``fail_fast``, an alternative
    is only asked whether it mates.  Arguments as for :func:`verify`."""
    tsume = require_problem(problem, "sound_report")
    limits = check_limits(limits)
    check_search_arguments(strict=strict)
    check_options(options)
    _check_id(id)
    settings = _Settings(strict, longer_ok=False, sound_only=True)
    report, stopped = _verification(tsume, id, limits, settings, None, options)
    nodes = int(report.stats.get("nodes", 0))
    return (report if not stopped and report.verdict == Verdict.SOUND else None), nodes


def _check_id(value: object) -> None:
    if value is not None and not isinstance(value, str):
        raise ArgumentError(f"id must be a string or None, not {type(value).__name__}")


def _verification(tsume: Problem, pid: str | None, limits: Limits, settings: "_Settings",
                  progress: Callable[[dict], None] | None, options: Options | None) -> tuple[Report, bool]:
    """verify() and sound_report(): the report, and whether it stopped early."""
    started = time.perf_counter()
    root = tsume.position()
    search = Search(root, limits=limits, options=options, progress=progress)
    report = Report(id=pid, variant=tsume.variant.spec, position=tsume.fen, verdict=Verdict.UNKNOWN)
    report.findings = _Findings(frozenset((Severity.DEFECT, Severity.BLEMISH, Severity.UNKNOWN)) if settings.sound_only
                                else frozenset((Severity.DEFECT,)) if settings.fail_fast else frozenset())
    stopped = False
    account = _Account(search)
    try:
        _verify(search, root, account, report, tsume.length, tsume.solution, settings)
    except _Stop:
        stopped = True
    finally:
        report.findings = list(report.findings)
        secs = time.perf_counter() - started
        table = search.stats()
        report.stats = {"nodes": search.nodes, "seconds": round(secs, 3), "table_entries": table["table_entries"],
                        "gc_runs": table["gc_runs"], "nodes_by_question": account.totals()}
    report.verdict = _verdict(report.findings)
    return report, stopped


def _verdict(findings: list[Finding]) -> Verdict:
    severities = {f.severity for f in findings}
    if Severity.DEFECT in severities:
        return Verdict.UNSOUND
    if Severity.UNKNOWN in severities:
        return Verdict.UNKNOWN
    if Severity.BLEMISH in severities:
        return Verdict.FLAWED
    return Verdict.SOUND


def _verify(search: Search, root: Position, account: _Account, report: Report, stated_length: int | None,
            solution: tuple[str, ...] | None, s: _Settings) -> None:
    prover = _Prover(search, root, account)
    pos = prover.pos
    findings = report.findings
    try:
        if ((s.fail_fast or s.sound_only) and stated_length is not None and solution is None and not s.longer_ok
                and not search.mate(stated_length)):
            # No mate within the stated length: no mate at all, or a longer
            # one; a defect either way, and the bounded search that says so
            # is far cheaper than finding which (the composer's economy asks
            # this of every man it takes out).
            findings.append(Finding("stated-length-mismatch", Severity.DEFECT,
                                    f"stated length {stated_length}, but no mate within it"))
            return
        mated = search.mate()
        if mated:
            total, moves = search.main_line()
    except SearchLimit as exc:
        findings.append(Finding("unknown", Severity.UNKNOWN, f"solving stopped by the {exc}: mate or not is unknown"))
        return
    if not mated:
        findings.append(Finding("no-mate", Severity.DEFECT, "no forced mate: the defender escapes"))
        if solution:
            findings.append(Finding("solution-mismatch", Severity.DEFECT, "an intended solution is stated, but there is no mate"))
        return

    # The composer's intended solution replaces ours when it is an equally good main line.
    if solution is not None:
        chosen = _check_solution(prover, solution, total, moves, s, findings)
        if chosen is not None:
            moves = chosen
            total = len(moves)
    elif s.longer_ok:
        moves = _clean_shorter_line(prover, moves)
        total = len(moves)

    report.length = total
    report.mainline, report.readable = move_strings(pos, moves)
    report.leftover = _leftover(pos, moves, prover.attacker)
    if stated_length is not None and stated_length != total:
        findings.append(Finding(
            "stated-length-mismatch", Severity.DEFECT,
            f"stated length {stated_length}, proven length {total}", length=total,
        ))
    if report.leftover != "-":
        findings.append(Finding(
            "te-amari", Severity.DEFECT, f"the attacker ends with {report.leftover} in hand", pieces=report.leftover,
        ))
    unused = _unused_material(pos, moves, prover.attacker)
    if unused:
        findings.append(Finding(
            "unused-material", Severity.INFO, f"never moved or dropped on the main line: {', '.join(unused)}",
            pieces=" ".join(unused),
        ))
    _walk_main_line(prover, moves, report, s)


def _check_solution(
    prover: _Prover, solution: tuple[str, ...], total: int, moves: list[Move], s: _Settings, findings: list[Finding]
) -> list[Move] | None:
    """Compare the intended solution with the proven values: the solution's
    moves if it is a main line (or one excused by the longer-variation
    switch), else None with the findings that say why."""
    pos = prover.pos
    start = pos.copy()  # the problem's position: the main line ``moves`` starts here
    parsed: list[Move] = []
    try:
        for i, text in enumerate(solution):
            try:
                m = pos.parse_move(text)
            except MoveError as exc:
                findings.append(Finding("solution-mismatch", Severity.DEFECT, f"intended solution, ply {i + 1}: {exc}", ply=i + 1, move=text))
                return None
            if pos.turn == prover.attacker and m not in pos.checks():
                findings.append(Finding("solution-mismatch", Severity.DEFECT, f"intended solution, ply {i + 1}: {text} does not give check", ply=i + 1, move=text))
                return None
            parsed.append(m)
            prover.push(m)
    finally:
        prover.rewind()
    if parsed == moves:
        return parsed
    # Walk it again, comparing every choice with the proven values.
    attacker = prover.attacker
    try:
        excused: Finding | None = None
        for i, m in enumerate(parsed):
            remaining = total - i
            if pos.turn == attacker:
                prover.push(m)
                v = prover.value()
                if v is None or 1 + v > remaining:
                    what = "does not mate" if v is None else f"mates only in {plies(1 + v)} from here, not {remaining}"
                    findings.append(Finding("solution-mismatch", Severity.DEFECT,
                                            f"intended solution, ply {i + 1}: {solution[i]} {what}", ply=i + 1, move=solution[i]))
                    return None
            else:
                useless = prover.useless(m)
                prover.push(m)
                v = prover.value()
                if v is None:
                    findings.append(Finding("solution-mismatch", Severity.DEFECT,
                                            f"intended solution, ply {i + 1}: the defence {solution[i]} escapes mate", ply=i + 1, move=solution[i]))
                    return None
                if useless:
                    findings.append(Finding("solution-mismatch", Severity.DEFECT,
                                            f"intended solution, ply {i + 1}: {solution[i]} is a useless interposition, not counted",
                                            ply=i + 1, move=solution[i]))
                    return None
                if 1 + v < remaining:
                    # The defender has a longer defence here than the intended line.
                    best = _best_defence_here(prover, i, m)
                    finding = Finding(
                        "longer-variation", Severity.DEFECT,
                        f"intended solution, ply {i + 1}: {best[0]} lasts {plies(best[1])} in all, longer than the intended line",
                        ply=i + 1, move=best[0], length=best[1], line=best[2], pieces=best[3],
                    )
                    if s.longer_ok and excused is None and best[1] == len(parsed) + 2 and best[3] != "-":
                        # Excusable only if the intended line is otherwise a main line
                        # of its own length: compare with that from here on.
                        finding.severity = Severity.INFO
                        finding.message += " (excused: 2 plies longer with pieces left)"
                        excused = finding
                        total = len(parsed)
                    else:
                        findings.append(finding)
                        return None
                if 1 + v != total - i:
                    findings.append(Finding("solution-mismatch", Severity.DEFECT,
                                            f"intended solution, ply {i + 1}: after {solution[i]} the mate takes {plies(1 + v)}, "
                                            f"not the {total - i} the intended line needs", ply=i + 1, move=solution[i]))
                    return None
        end = prover.pos
        if not all(prover.useless(d) for d in end.evasions()):
            findings.append(Finding("solution-mismatch", Severity.DEFECT, "the intended solution does not end in mate", ply=len(parsed) + 1))
            return None
        if len(parsed) != total:
            findings.append(Finding("solution-mismatch", Severity.DEFECT,
                                    f"the intended solution has {plies(len(parsed))}, the proven length is {total}"))
            return None
        left = hand_count(end, attacker)
        best_left = hand_after(start, moves, attacker)[1]
        if left != (0 if excused is not None else best_left):
            findings.append(Finding("solution-mismatch", Severity.DEFECT,
                                    f"the intended solution ends with {end.hand_string(attacker)} in hand; the main line leaves {best_left} pieces"))
            return None
    except SearchLimit as exc:
        findings.append(Finding("unknown", Severity.UNKNOWN, f"checking the intended solution stopped by the {exc}"))
        return None
    finally:
        prover.rewind()
    # An excused longer variation is reported by the walk along the chosen line.
    return parsed


def _best_defence_here(prover: _Prover, ply: int, played: Move) -> tuple[str, int, list[str], str]:
    """At a defender node (``played`` already pushed): the longest counted defence,
    as (move, total length, line, leftover)."""
    prover.pop()
    try:
        v = prover.value()
        assert v is not None  # this node was proven at the attacker's ply before it
        line, _left = prover.best_line(v)
        plain, _ = move_strings(prover.pos, line)
        return plain[0], ply + len(line), plain, _leftover(prover.pos, line, prover.attacker)
    finally:
        prover.push(played)


def _clean_shorter_line(prover: _Prover, moves: list[Move]) -> list[Move]:
    """The "2 plies longer, pieces left" switch: when the main line ends with
    pieces in hand and a defence on it lasts exactly 2 plies less with none
    left, that shorter clean line is the main line instead."""
    pos = prover.pos
    total = len(moves)
    if hand_after(pos, moves, prover.attacker)[1] == 0:
        return moves
    try:
        for i, m in enumerate(moves):
            if pos.turn != prover.attacker:
                for d in sorted(pos.evasions(), key=canonical_order(pos)):
                    if d == m or prover.useless(d):
                        continue
                    prover.push(d)
                    try:
                        v = prover.value()
                        if v is not None and i + 1 + v == total - 2:
                            line, left = prover.best_line(v)
                            if left == 0:
                                return moves[:i] + [d] + line
                    finally:
                        prover.pop()
            prover.push(m)
    except SearchLimit:
        return moves
    finally:
        prover.rewind()
    return moves


def _unused_material(pos: Position, moves: list[Move], attacker: Colour) -> list[str]:
    """Attacker board pieces (the king aside) the line never moves, as letter
    and square (``S10``).  Hand pieces are not listed: one never dropped is
    still in hand at the end, which te-amari reports."""
    p = pos.copy()
    # The attacker's pieces that have not moved, and so still stand where they started.
    untouched = {sq for sq, piece in enumerate(p.board(), 1)
                 if piece is not None and piece.colour == attacker and not piece.royal}
    for m in moves:
        # moved, or taken where it stood
        untouched.discard((m.from_square or 0) if p.turn == attacker else m.to_square)
        p.push(m)
    # A hand piece never dropped is still in hand at the end: te-amari says so.
    return [f"{pos.piece_at(sq)}{sq}" for sq in sorted(untouched)]


def _walk_main_line(prover: _Prover, moves: list[Move], report: Report, s: _Settings) -> None:
    pos = prover.pos
    total = len(moves)
    keys_after: list[tuple] = []
    q = pos.copy()
    for m in moves:
        q.push(m)
        keys_after.append(q.key())
    try:
        for i, m in enumerate(moves):
            if pos.turn == prover.attacker:
                with prover.account.on("alternatives"):
                    _attacker_turn(prover, i, m, moves, keys_after, report, s)
            else:
                with prover.account.on("defences"):
                    _defender_turn(prover, i, m, total, report, s)
            prover.push(m)
        # At the mate the defender may still interpose; all such moves are useless.
        for d in sorted(pos.evasions(), key=canonical_order(pos)):
            report.variations.append(DefenderAlternative(total + 1, str(d), pos.move_readable(d), True, None, None, status=Status.MATE))
    finally:
        prover.rewind()


def _attacker_turn(prover: _Prover, i: int, played: Move, moves: list[Move], keys_after: list[tuple],
                   report: Report, s: _Settings) -> None:
    pos = prover.pos
    total = len(moves)
    final = i == total - 1
    for c in sorted(pos.checks(), key=canonical_order(pos)):
        if c == played:
            continue
        alt = Alternative(i + 1, str(c), pos.move_readable(c), Status.UNKNOWN)
        report.alternatives.append(alt)
        prover.push(c)
        try:
            if s.sound_only and not final:
                # Any mate here keeps the problem from being sound (yozume or
                # detour alike): whether it mates is enough.
                if prover.mates_at_all():
                    alt.status = Status.MATE
                    raise _Stop
                alt.status = Status.NOMATE
                continue
            if final and (s.fail_fast or s.sound_only) and not prover.mates(0):
                # At the last turn a mate that is not at once is yozume
                # whatever its length, and a defect stops a fail-fast run:
                # whether it mates is enough.  Its exact length would take a
                # disproof two plies short of it, often thousands of times
                # the work (docs/performance.md, "Verify").
                if prover.mates(None):
                    alt.status = Status.MATE
                    report.findings.append(Finding(
                        "yozume", Severity.DEFECT, f"ply {i + 1}: {alt.readable} also mates (fail fast: its length not read)",
                        ply=i + 1, move=alt.move))  # a defect: the run stops here
                else:
                    alt.status = Status.NOMATE
                continue
            # Not the final position: two lines that only meet at the mate are
            # two solutions, not one solution with a detour.
            read = _read_alternative(prover, final, s.length_budget, set(keys_after[i + 1:total - 1]))
            if read is None:
                alt.status = Status.NOMATE
                continue
            v, low, line, back = read
            alt.status, alt.length = Status.MATE, 1 + v
            alt.line = [alt.move] + move_strings(prover.pos, line)[0]
            if low is not None:
                alt.exact, alt.length_min = False, 1 + low
            if final and alt.length == 1:
                alt.kind = "final-move-alternative"
                sev = Severity.DEFECT if s.strict else Severity.BLEMISH
                msg = f"ply {i + 1}: {alt.readable} also mates"
            elif back:
                alt.kind = "detour"
                sev = Severity.DEFECT if s.strict else Severity.BLEMISH
                within = f"in {alt.length}" if alt.exact else alt.length_text()
                msg = f"ply {i + 1}: {alt.readable} also mates {within}, by a detour back into the main line"
            else:
                alt.kind = "yozume"
                sev = Severity.DEFECT
                msg = f"ply {i + 1}: {alt.readable} also mates, {alt.length_text()}"
            report.findings.append(Finding(alt.kind, sev, msg, ply=i + 1, move=alt.move, length=alt.length, line=alt.line))
        except SearchLimit as exc:
            alt.status = Status.UNKNOWN
            report.findings.append(Finding("unknown", Severity.UNKNOWN, f"ply {i + 1}: {alt.readable}: proof stopped by the {exc}", ply=i + 1, move=alt.move))
        finally:
            prover.pop()


def _read_alternative(prover: _Prover, final: bool, budget: int | None, later: set[tuple]
                      ) -> tuple[int, int | None, list[Move], bool] | None:
    """The value of the alternative just played (None: it does not mate),
    with ``(v, low, line, back)``: ``low`` None when ``v`` is its exact value
    and ``line`` its best line (after the last attacker turn, any line of
    that length: there is no later main-line position to come back to, and
    it costs far less than the leftover tie-break), else the least value
    not disproved, ``v`` only a proven bound and ``line`` a mating line read
    off the proofs (the length budget ran out); ``back``: the line comes back
    to a position of ``later`` (main-line keys): a detour."""
    climbed = prover.search.climb_nodes
    try:
        v, low = prover.value_within(budget)  # (no budget: low == v, the exact value)
    finally:
        prover.account.move(prover.search.climb_nodes - climbed, "alternatives", "alternative lengths")
    if v is None:
        return None
    # With no budget the best line is always read, so the call below for a
    # line read off the proofs never recurses twice.
    with prover.account.on("alternative lines"):
        best = prover.line_within(v, not final, budget) if low == v or budget is None else None
    if best is not None:
        return v, None, best, _comes_back(prover.pos, best, later)
    with prover.account.on("alternative lines"):
        line = prover.proof_line(v)
    if _comes_back(prover.pos, line, later):
        # A detour is told by the best line, and this one is not: read it
        # whatever it costs rather than call a blemish a second solution
        # (or the other way round) on a line that may not be the best.
        return _read_alternative(prover, final, None, later)
    return v, low, line, False


def _length_text(length: int, least: int | None) -> str:
    """``in 13 plies``, or ``in 11 to 13 plies`` when the mate is known only
    to take from ``least`` to ``length`` plies."""
    if least is None or least == length:
        return f"in {plies(length)}"
    return f"in {least} to {plies(length)}"


def _comes_back(pos: Position, line: list[Move], later: set[tuple]) -> bool:
    """Does ``line`` from ``pos`` pass a position whose key is in ``later``?"""
    q = pos.copy()
    if q.key() in later:
        return True
    for m in line:
        q.push(m)
        if q.key() in later:
            return True
    return False


def _defender_turn(prover: _Prover, i: int, played: Move, total: int, report: Report, s: _Settings) -> None:
    pos = prover.pos
    for d in sorted(pos.evasions(), key=canonical_order(pos)):
        if d == played:
            continue
        var = DefenderAlternative(i + 1, str(d), pos.move_readable(d), False, None, None)
        report.variations.append(var)
        try:
            if prover.useless(d):
                var.useless, var.status = True, Status.MATE
                continue
            prover.push(d)
            try:
                v = prover.value()
                if v is None:
                    # Cannot happen below a proven main line; kept as a loud guard.
                    var.status = Status.NOMATE
                    report.findings.append(Finding("no-mate", Severity.DEFECT, f"ply {i + 1}: the defence {var.readable} escapes", ply=i + 1, move=var.move))
                    continue
                line, _left = prover.best_line(v)
                var.status, var.length = Status.MATE, i + 1 + v
                line_str, line_readable = move_strings(prover.pos, line)
                var.line, var.readable_line = [var.move] + line_str, [var.readable] + line_readable
                var.leftover = _leftover(prover.pos, line, prover.attacker)
                if s.strict:
                    _variation_alternatives(prover, i, var, line, report, s.length_budget)
            finally:
                prover.pop()
        except SearchLimit as exc:
            var.status = Status.UNKNOWN
            report.findings.append(Finding("unknown", Severity.UNKNOWN, f"ply {i + 1}: the defence {var.readable}: proof stopped by the {exc}", ply=i + 1, move=var.move))
            continue
        if var.length == total and var.leftover == "-" and total - i >= 4:
            report.findings.append(Finding(
                "same-length-variation", Severity.BLEMISH,
                f"ply {i + 1}: {var.readable} also lasts {plies(total)} with no pieces left (henka-do)",
                ply=i + 1, move=var.move, length=var.length, line=var.line,
            ))
        elif var.length is not None and var.length > total:
            excused = s.longer_ok and var.length == total + 2 and var.leftover != "-"
            report.findings.append(Finding(
                "longer-variation", Severity.INFO if excused else Severity.DEFECT,
                f"ply {i + 1}: {var.readable} lasts {plies(var.length)}, longer than the main line"
                + (" (excused: 2 plies longer with pieces left)" if excused else ""),
                ply=i + 1, move=var.move, length=var.length, line=var.line, pieces=var.leftover,
            ))


def _variation_alternatives(prover: _Prover, i: int, var: DefenderAlternative, line: list[Move], report: Report,
                            budget: int | None) -> None:
    """Strict mode: every attacker turn of a variation's line must have one mating move."""
    depth = 0
    try:
        for j, m in enumerate(line):
            if prover.pos.turn == prover.attacker:
                for c in sorted(prover.pos.checks(), key=canonical_order(prover.pos)):
                    if c == m:
                        continue
                    name = prover.pos.move_readable(c)
                    prover.push(c)
                    try:
                        v, low = prover.value_within(budget)
                    finally:
                        prover.pop()
                    if v is not None:
                        within = _length_text(1 + v, 1 + low)
                        report.findings.append(Finding(
                            "variation-alternative", Severity.DEFECT,
                            f"variation {var.readable} at ply {i + 1}, its ply {i + 2 + j}: {name} also mates, {within}",
                            ply=i + 1, move=var.move, length=1 + v,
                        ))
            prover.push(m)
            depth += 1
    finally:
        for _ in range(depth):
            prover.pop()


_SEVERITY_LABEL = {Severity.DEFECT: "DEFECT", Severity.BLEMISH: "blemish", Severity.INFO: "info", Severity.UNKNOWN: "UNKNOWN"}


def format_report(report: Report, *, title: str | None = None, diagram_text: str | None = None) -> str:
    """A solver's report for people: the solution tree with its variations and
    lengths, the attacker alternatives that mate, then the findings and the verdict."""
    head = f"[{report.id}] " if report.id else ""
    out = [f"{head}{title + ' -- ' if title else ''}{report.variant}: {report.position}"]
    if diagram_text:
        out.append(diagram_text)
    if report.length is not None:
        out.append(f"Solution, {plies(report.length)} (left in hand at the end: {report.leftover}):")
        by_ply: dict[int, list[DefenderAlternative]] = {}
        for v in report.variations:
            if not v.useless:
                by_ply.setdefault(v.ply, []).append(v)
        # Useless interpositions stand under the check they answer (the mating
        # move's too), not as a ply of their own.
        useless = useless_by_check(report.variations)
        for i, move in enumerate(mated(report.readable)):
            out.append(f"  {i + 1:>3}. {move}")
            for v in by_ply.get(i + 1, []):
                out.append("         " + _variation_text(v))
            if i + 1 in useless:
                out.append("         useless interpositions (refuted, not counted): " + "  ".join(useless[i + 1]))
        mating = [a for a in report.alternatives if a.status != Status.NOMATE]
        tried = len(report.alternatives)
        out.append(f"Attacker alternatives on the main line: {tried} tried, {len(mating)} mate or unknown")
        for a in mating:
            if a.status == Status.UNKNOWN:
                out.append(f"  {a.ply:>3}. {a.readable}: unknown (stopped by a limit)")
            else:
                out.append(f"  {a.ply:>3}. {a.readable}: {a.kind}, mate {a.length_text()}: {' '.join(a.line)}")
    if report.findings:
        out.append("Findings:")
        for f in report.findings:
            out.append(f"  {_SEVERITY_LABEL[f.severity]:<8} {f.kind}: {f.message}")
    else:
        out.append("Findings: none")
    st = report.stats
    out.append(f"Verdict: {report.verdict}  ({st.get('seconds', 0):.2f} s, {st.get('nodes', 0):,} nodes)")
    return "\n".join(out)


def _variation_text(v: DefenderAlternative) -> str:
    if v.status != Status.MATE:
        return f"{v.ply}. {v.readable}  {v.status}"
    return f"{v.ply}. {v.readable}  -> {plies(v.length or 0)}, left {v.leftover}: {' '.join(mated(v.readable_line)[1:])}"
