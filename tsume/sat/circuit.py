"""A small Boolean circuit builder that writes CNF (Tseitin) with constant folding.

Literals are DIMACS ints.  Variable 1 is reserved for the constant TRUE (a unit
clause says so), so ``TRUE == 1`` and ``FALSE == -1`` are ordinary literals and
every gate can fold them away.  Folding matters twice over: near the root of a
problem most squares are known, so most of the rules encoding collapses to
constants before a clause is written; and with *every* input constant the same
code simply evaluates the rules (the engine uses that to list the legal moves
of a concrete position, see :mod:`tsume.sat.oracle`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pysat.card import CardEnc, EncType

from .budget import BYTES_PER_LITERAL, BYTES_PER_VAR, CHECK_EVERY

__all__ = ["TRUE", "FALSE", "Circuit"]

TRUE = 1
FALSE = -1


class Circuit:
    """Gates with structural hashing; clauses go to ``sink`` (None: evaluation only).

    In evaluation-only mode a gate whose inputs are not all constant is an error:
    it means a concrete position was not fully concrete.
    """

    __slots__ = ("sink", "nv", "nclauses", "nlits", "_and", "on_grow", "_next_check")

    def __init__(self, sink: Callable[[list[int]], object] | None = None,
                 on_grow: Callable[[], None] | None = None) -> None:
        self.sink = sink
        self.nv = 1
        self.nclauses = 0
        #: literals in the clauses written so far (what the solver stores)
        self.nlits = 0
        self._and: dict[tuple[int, ...], int] = {}
        #: called every CHECK_EVERY new variables (the budget's check: it may raise)
        self.on_grow = on_grow
        self._next_check = CHECK_EVERY
        self.clause([TRUE])

    # --- variables and clauses -------------------------------------------

    def var(self) -> int:
        if self.sink is None:
            raise RuntimeError("evaluation-only circuit asked for a variable")
        self.nv += 1
        if self.nv >= self._next_check:
            self._grown()
        return self.nv

    def _grown(self) -> None:
        self._next_check = self.nv + CHECK_EVERY
        if self.on_grow is not None:
            self.on_grow()

    def held_bytes(self) -> int:
        """Estimated bytes this circuit and its solver hold (see :mod:`tsume.sat.budget`)."""
        return self.nv * BYTES_PER_VAR + self.nlits * BYTES_PER_LITERAL

    def clause(self, lits: Iterable[int]) -> None:
        """Add a clause, dropping FALSE literals; a clause holding TRUE is skipped."""
        out = []
        for lit in lits:
            if lit == TRUE:
                return
            if lit != FALSE:
                out.append(lit)
        if self.sink is None:
            if not out:
                raise RuntimeError("evaluation-only circuit: a constraint is violated")
            raise RuntimeError("evaluation-only circuit asked for a clause")
        if not out:
            out = [FALSE]  # the empty clause: with the TRUE unit, unsatisfiable
        self.nclauses += 1
        self.nlits += len(out)
        self.sink(out)

    # --- gates -----------------------------------------------------------

    def AND(self, lits: Iterable[int]) -> int:
        s = set()
        for lit in lits:
            if lit == TRUE:
                continue
            if lit == FALSE or -lit in s:
                return FALSE
            s.add(lit)
        if not s:
            return TRUE
        if len(s) == 1:
            return next(iter(s))
        key = tuple(sorted(s))
        v = self._and.get(key)
        if v is None:
            v = self.var()
            self._and[key] = v
            sink = self.sink
            assert sink is not None  # var() raised otherwise
            for lit in key:
                sink([-v, lit])
            sink([v] + [-lit for lit in key])
            self.nclauses += len(key) + 1
            self.nlits += 3 * len(key) + 1
        return v

    def OR(self, lits: Iterable[int]) -> int:
        return -self.AND([-lit for lit in lits])

    def IFF(self, a: int, b: int) -> int:
        if a == b:
            return TRUE
        if a == -b:
            return FALSE
        return self.OR([self.AND([a, b]), self.AND([-a, -b])])

    # --- cardinality (pysat.card) ------------------------------------------

    def at_most_one(self, lits: list[int]) -> None:
        lits = [lit for lit in lits if lit != FALSE]
        if len(lits) <= 1:
            return
        if len(lits) <= 5:
            for i, a in enumerate(lits):
                for b in lits[i + 1:]:
                    self.clause([-a, -b])
            return
        self._card(CardEnc.atmost(lits=lits, bound=1, top_id=self.nv, encoding=EncType.seqcounter))

    def at_least(self, lits: list[int], bound: int, switch: int) -> None:
        """``switch`` -> at least ``bound`` of ``lits`` (pysat.card, sequential counter)."""
        if bound > len(lits):
            self.clause([-switch])
            return
        cnf = CardEnc.atleast(lits=lits, bound=bound, top_id=self.nv, encoding=EncType.seqcounter)
        self._card(cnf, guard=-switch)

    def _card(self, cnf, guard: int | None = None) -> None:
        self.nv = max(self.nv, cnf.nv)
        for cl in cnf.clauses:
            self.clause(cl + [guard] if guard is not None else cl)
        if self.nv >= self._next_check:
            self._grown()
