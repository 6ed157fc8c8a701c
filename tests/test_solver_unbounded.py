"""Unbounded searches (no max_length) must agree with bounded ones.

Regression: a table entry's "not proven" marker once equalled the unbounded
bound, so every entry looked proven to an unbounded search.
"""

from __future__ import annotations

import random

import pytest

from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.problem import DefenderHand, Problem
from tsume.reference import reference_solve
from tsume.search import Search
from tsume.solve import solve


def test_goose_chase_is_no_mate_without_a_bound():
    # A lone goose drop checks the king on 1; k1-2 leaves the goose no check.
    pos = Problem("k30 b G", variant="ito").position()
    assert Search(pos, limits=Limits(nodes=10_000)).mate() is False
    assert solve(Problem("k30 b G", variant="ito"), limits=Limits(nodes=10_000)).status == "nomate"


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_unbounded_status_matches_reference(variant):
    rng = random.Random(4242)
    checked = 0
    for _ in range(60):
        pos = Problem(random_tsume(rng, variant, attacker_hand=(0, 2)), variant=variant, defender="none").position()
        r = solve(Problem(pos, defender=DefenderHand.held(pos)), limits=Limits(nodes=50_000))
        if r.status == "unknown":
            continue
        line, _ = reference_solve(pos, 5)
        if line is not None:
            # A mate within 5 exists: the unbounded solve must find exactly it.
            assert r.status == "mate" and r.length == line.length, pos.fen()
        elif r.status == "mate":
            assert r.length > 5, pos.fen()
        checked += 1
    assert checked >= 40
