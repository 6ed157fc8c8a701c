"""The exact mate length (Search.value): climbing up to the first proof's
length or down from it gives the same answer; the main line climbs down.

Climbing down pays when the first proof is the shortest mate, as it most
often is for a main line found by a full solve; climbing up pays for
alternatives, whose first proofs are often long (docs/performance.md).
How the table guides the next step of a climb (a position not mated within
a smaller bound looks harder to prove; one left open there keeps its
numbers) is tested with the table itself, in the engine's unit tests.
"""

from __future__ import annotations

import random

import pytest

from tsume.problem import Problem
from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.search import Options, Search, SearchLimit


def _shortest(pos, descend: bool) -> tuple[int, int, int]:
    """(first proof's length, shortest length, nodes spent on the length) on a
    fresh, solved engine that searches at once past the first bound (random
    mates are short: past the default Options.short_first few would be left
    for the descent)."""
    search = Search(pos, limits=Limits(nodes=40_000), options=Options(short_first=1))
    assert search.mate()
    first = search.proof_length()
    before = search.nodes
    v = search.value(first, descend)
    assert v is not None
    return first, v, search.nodes - before


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_climbing_down_and_up_find_the_same_length(variant):
    rng = random.Random(977)
    compared = longer_first = 0
    for _ in range(150):
        pos = random_tsume(rng, variant, attacker_men=(2, 4), defender_men=(0, 2), attacker_hand=(1, 3), spread=4)
        try:
            if not Search(pos, limits=Limits(nodes=5_000)).mate():
                continue
        except SearchLimit:
            continue
        try:
            up = _shortest(pos, False)
            down = _shortest(pos, True)
        except SearchLimit:  # too costly for a unit test
            continue
        assert up[:2] == down[:2], pos.fen()
        compared += 1
        # The cases that test the descent: a first proof longer than the mate.
        longer_first += up[0] > up[1]
    assert compared >= 40 and longer_first >= 10, (compared, longer_first)


@pytest.mark.parametrize("variant,text,defender", [
    ("ito", "f1k21K6 b FGP 1", "none"),  # ito-L23-0003: 22,959 nodes up, 11,001 down
    ("rutherford", "3k1+s34 b N2P 1", None),  # ruth-L37-0003
])
def test_the_main_line_climbs_down_from_the_solve(variant, text, defender):
    pos = Problem(text, variant=variant, defender=defender).position()
    search = Search(pos)
    assert search.mate()
    before = search.nodes
    length, moves = search.main_line()
    down = search.nodes - before

    climb = Search(pos)
    assert climb.mate()
    before = climb.nodes
    up_length = climb.value(climb.proof_length())
    assert (up_length, climb.best_line(up_length)[0]) == (length, moves)
    assert down < climb.nodes - before, (down, climb.nodes - before)


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_solve_reads_the_line_only_for_the_lengths_wanted(variant):
    """``solve(lengths=...)``: the exact length always, the main line (and
    its leftover) only for a wanted length, with the nodes that reading
    costs spared and the answers unchanged."""
    from tsume.solve import solve
    from tsume.outcome import Status

    rng = random.Random(4242)
    checked = spared = 0
    while checked < 12:
        problem = Problem(random_tsume(rng, variant, attacker_men=(2, 4), attacker_hand=(1, 3), spread=4))
        full = solve(problem, limits=Limits(nodes=20_000), variations=False)
        if full.status != Status.MATE or full.length < 3:
            continue
        checked += 1
        other = solve(problem, limits=Limits(nodes=20_000), variations=False, lengths=range(full.length + 2, 99))
        assert (other.status, other.length, other.mainline, other.leftover) == (Status.MATE, full.length, [], None)
        assert other.stats["nodes"] <= full.stats["nodes"]
        spared += other.stats["nodes"] < full.stats["nodes"]
        wanted = solve(problem, limits=Limits(nodes=20_000), variations=False, lengths={full.length})
        assert (wanted.length, wanted.mainline, wanted.leftover) == (full.length, full.mainline, full.leftover)
        assert wanted.stats["nodes"] == full.stats["nodes"]
    assert spared > 0


def test_solve_refuses_lengths_that_are_no_container():
    from tsume.errors import ArgumentError
    from tsume.solve import solve

    with pytest.raises(ArgumentError, match="lengths must be"):
        solve(Problem("k1P2H25 b G"), lengths=5)
