"""Seeded random cross-checks of the SAT engine against df-pn and the reference solver.

All three count every interposition (``Options(useless_interpositions=False)``,
``reference_solve(..., useless_interpositions=False)``; the SAT engine cannot
express the useless-interposition rule, see docs/sat.md).  For every position
they must agree on

* mate or no mate within the bound, and the shortest length;
* every legal checking first move, and for those that mate within the bound
  their shortest length (so the set of mating first moves agrees).

Positions come from :func:`tsume.generate.random_tsume` with fixed seeds; one
in four is solved with ``defender_hand="none"``.  Each engine runs under a
budget (reference nodes, df-pn nodes, SAT seconds); a position over any budget
is skipped and each group asserts it still compared its quota.  The full sweep
without budgets is ``benchmarks/sat_bench.py --cross``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

import tsume.reference as reference_module
from tsume.search import Options
from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.problem import Problem
from tsume.sat import DEFAULT_MEMORY_MB, SatEngine, SatTimeout
from tsume.sat.engine import engine_move
from tsume.solve import solve

from budgeted_reference import BudgetedReferenceSolver, OverBudget
from test_solver_cross import SMALL, SMALL_HAND1  # the same random_tsume presets

DFPN_NODE_LIMIT = 100_000
RAW = Options(useless_interpositions=False)


@dataclass(frozen=True)
class Group:
    variant: str
    bound: int
    seeds: range
    minimum: int          # positions that must be compared
    sat_seconds: float    # SAT time budget per position
    generator: tuple

    @property
    def id(self) -> str:
        return f"{self.variant}-b{self.bound}-{self.seeds.start}"


TIGHT = (("attacker_men", (2, 3)), ("defender_men", (0, 1)), ("attacker_hand", (0, 1)), ("spread", 3))

GROUPS = [
    Group("ito", 3, range(0, 230), 225, 1.0, SMALL),
    Group("ito", 5, range(10_000, 10_100), 80, 0.6, TIGHT),
    Group("rutherford", 3, range(0, 200), 198, 1.0, SMALL),
    Group("rutherford", 5, range(10_000, 10_110), 100, 1.5, SMALL),
    Group("rutherford", 7, range(20_000, 20_012), 9, 3.0, SMALL_HAND1),
]


class SatOverBudget(Exception):
    """The SAT engine spent its time budget on this position."""


def three_way(variant: str, seed: int, bound: int, generator: dict, sat_seconds: float | None) -> tuple[list[str], dict]:
    """Solve one position with the three engines: (disagreements, the SAT first-move lengths)."""
    raw = random_tsume(random.Random(seed), variant, **generator)
    dh = "none" if seed % 4 == 0 else None
    problem = Problem(raw, defender=dh)
    pos = problem.position()
    line, firsts = reference_module.reference_solve(pos, bound, useless_interpositions=False)
    eng = SatEngine(pos, limits=Limits(time=sat_seconds, memory=DEFAULT_MEMORY_MB))
    try:
        sat_first = {str(engine_move(pos, m)): v for m, v in eng.first_move_lengths(bound).items()}
    except SatTimeout:
        raise SatOverBudget from None
    finally:
        eng.close()
    r = solve(problem, max_length=bound, all_first_moves=True, limits=Limits(nodes=DFPN_NODE_LIMIT),
              variations=False, options=RAW)
    where = f"{variant} seed={seed} bound={bound} defender_hand={dh} {pos.fen()!r}"
    problems = []
    ref_first = {str(m): v for m, v in firsts.items()}
    dfpn_first = {d["move"]: (d["length"] if d["status"] == "mate" else None) for d in (r.first_moves or [])}
    ref_len = line.length if line else None
    sat_len = min((v for v in sat_first.values() if v is not None), default=None)
    dfpn_len = r.length if r.status == "mate" else None
    if r.status == "unknown":
        problems.append(f"{where}: df-pn stopped: {r.reason}")
    if not (ref_len == sat_len == dfpn_len):
        problems.append(f"{where}: length: reference {ref_len}, SAT {sat_len}, df-pn {dfpn_len}")
    if not (ref_first == sat_first == dfpn_first):
        keys = ref_first.keys() | sat_first.keys() | dfpn_first.keys()
        diff = {k: (ref_first.get(k), sat_first.get(k), dfpn_first.get(k)) for k in sorted(keys)
                if not ref_first.get(k) == sat_first.get(k) == dfpn_first.get(k)}
        problems.append(f"{where}: first moves (reference, SAT, df-pn): {diff}")
    return problems, sat_first


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.id)
def test_sat_agrees_with_dfpn_and_reference(group: Group, monkeypatch):
    monkeypatch.setattr(BudgetedReferenceSolver, "budget", 3000)
    monkeypatch.setattr(reference_module, "ReferenceSolver", BudgetedReferenceSolver)
    generator = dict(group.generator)
    compared = skipped = mates = 0
    problems: list[str] = []
    for seed in group.seeds:
        try:
            found, firsts = three_way(group.variant, seed, group.bound, generator, group.sat_seconds)
        except (OverBudget, SatOverBudget):
            skipped += 1
            continue
        problems += found
        compared += 1
        mates += any(v is not None for v in firsts.values())
    assert not problems, "\n".join(problems)
    assert compared >= group.minimum, (compared, skipped)
    assert mates >= compared // 10, "too few mates to be a useful cross-check"


def test_the_groups_cover_the_quota():
    for variant in ("ito", "rutherford"):
        groups = [g for g in GROUPS if g.variant == variant]
        assert sum(g.minimum for g in groups) >= 300
        assert any(g.bound == 5 for g in groups)
