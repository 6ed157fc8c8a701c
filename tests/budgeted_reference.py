"""The reference solver under a node budget, for the random cross-checks: a
position over budget raises :class:`OverBudget` and is skipped by the caller
(which asserts it still compared its quota)."""

from __future__ import annotations

from tsume.reference import ReferenceSolver


class OverBudget(Exception):
    """The reference solver spent its node budget on this position."""


class BudgetedReferenceSolver(ReferenceSolver):
    """The reference solver, unchanged, except that it gives up past ``budget`` nodes
    (set the class attribute before use)."""

    budget = 1000

    def mate(self, b):
        if self.nodes > self.budget:
            raise OverBudget
        return super().mate(b)

    def defended(self, b):
        if self.nodes > self.budget:
            raise OverBudget
        return super().defended(b)
