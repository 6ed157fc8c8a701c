"""The thorough line reader's alpha-beta on the leftover (Search.best_line).

Pruned and full readings must give the same line, move for move, on every
position; the pruned one must read far fewer lines where many equal mates
exist (the reason it is there: reading the lines of mating alternatives was
most of verify's time on the slow bench problems, docs/performance.md).
That the reader asks whether an interposition is useless only of defences
that could be longest is tested in the engine's unit tests.
"""

from __future__ import annotations

import random

import pytest

from tsume.problem import Problem
from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.search import Options, Search, SearchLimit


def _read(pos, prune: bool, node_limit: int = 400_000) -> tuple[list[int], int, int]:
    """(line, leftover, attacker nodes read) of the best line from ``pos``, on a fresh search."""
    search = Search(pos, limits=Limits(nodes=node_limit), options=Options(leftover_pruning=prune))
    assert search.mate()
    v = search.value()
    before = search.stats()["lines_read"]
    moves, left = search.best_line(v)
    return moves, left, search.stats()["lines_read"] - before


# Bench problems with many mates of equal length (the full reading reads 5 to
# 20 times as many attacker nodes as the pruned one).
MANY_EQUAL_MATES = [
    ("rutherford", "2k+BP6+S1l5 b BL2NPS 1", None),
    ("rutherford", "1s2kn1PSB4 b 2LP 1", None),
    ("ito", "kf+pT+PGh+CtF21 b G 1", None),
    ("ito", "1Pt1k5K2HP16 b 2FT 1", None),
]


@pytest.mark.parametrize("variant,text,defender", MANY_EQUAL_MATES)
def test_pruned_reading_is_the_full_reading_for_less(variant, text, defender):
    pos = Problem(text, variant=variant, defender=defender).position()
    pruned = _read(pos, True)
    full = _read(pos, False)
    assert pruned[:2] == full[:2]
    # The full reading reads every line of the best length; alpha-beta stops
    # a line as soon as its caller cannot take it.
    assert pruned[2] * 4 < full[2], (pruned[2], full[2])


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_pruned_and_full_readings_agree_on_random_mates(variant):
    rng = random.Random(4242)
    compared = 0
    for _ in range(80):
        pos = random_tsume(rng, variant, attacker_men=(2, 4), defender_men=(0, 2), attacker_hand=(1, 3), spread=4)
        try:
            if not Search(pos, limits=Limits(nodes=5_000)).mate():
                continue
            pruned = _read(pos, True, 20_000)
            full = _read(pos, False, 20_000)
        except SearchLimit:  # a line too costly for a unit test
            continue
        assert pruned[:2] == full[:2], pos.fen()
        compared += 1
    assert compared >= 25, compared
