"""The exact mate length (DfPn.shortest): climbing up to the first proof's
length or down from it gives the same answer; the main line climbs down.

Climbing down pays when the first proof is the shortest mate, as it most
often is for a main line found by a full solve; climbing up pays for
alternatives, whose first proofs are often long (docs/performance.md).
"""

from __future__ import annotations

import random

import pytest

from tsume.conventions import tsume_position
from tsume.dfpn import INF, PROVEN, DfPn, Options, SearchLimit
from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.lines import LineReader, main_line, proof_length


def _shortest(pos, descend: bool) -> tuple[int, int, int]:
    """(first proof's length, shortest length, nodes spent on the length) on a
    fresh, solved engine that searches at once past the first bound (random
    mates are short: past the default Options.short_first few would be left
    for the descent)."""
    engine = DfPn(pos, limits=Limits(nodes=40_000), options=Options(short_first=1))
    assert engine.prove(INF) == PROVEN
    first = proof_length(engine, INF)
    before = engine.nodes
    v, _ = engine.shortest(first, descend)
    assert v is not None
    return first, v, engine.nodes - before


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_climbing_down_and_up_find_the_same_length(variant):
    rng = random.Random(977)
    compared = longer_first = 0
    for _ in range(150):
        pos = random_tsume(rng, variant, attacker_men=(2, 4), defender_men=(0, 2), attacker_hand=(1, 3), spread=4)
        if DfPn(pos, limits=Limits(nodes=5_000)).search(INF) != PROVEN:
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
    pos = tsume_position(text, variant, defender_hand=defender)
    engine = DfPn(pos)
    assert engine.prove(INF) == PROVEN
    before = engine.nodes
    length, moves = main_line(engine, INF)
    down = engine.nodes - before

    climb = DfPn(pos)
    assert climb.prove(INF) == PROVEN
    before = climb.nodes
    ex = LineReader(climb)
    up_length = ex.shortest(proof_length(climb, INF))
    assert (up_length, ex.attacker_line(up_length)[0]) == (length, moves)
    assert down < climb.nodes - before, (down, climb.nodes - before)


def test_a_position_not_mated_within_a_smaller_bound_looks_harder_to_prove():
    # The next step of a climb meets the positions the last one disproved:
    # the table gives them a larger proof number than unseen ones, so the
    # attacker tries other checks first (hands.DISPROVEN_BELOW_PN).
    from tsume.hands import DISPROVEN_BELOW_PN, Probe

    pos = tsume_position("2T1k5+P20 b C2G2H 1", "ito")
    engine = DfPn(pos)
    engine.anchor(engine.pos.hash)
    engine.pos.push(engine.pos.parse_move("C*1"))
    assert engine.search(5) == "disproven"
    p = engine.pos
    out = Probe()
    table = engine.table
    a, d = table.ops.hand_of(p, engine.attacker), table.ops.hand_of(p, engine.attacker ^ 1)
    table.lookup_into(out, p.hash, p.hash ^ p.hand_hash, a, d, 7, engine.path)
    assert (out.pn, out.dn) == (DISPROVEN_BELOW_PN, 1) and DISPROVEN_BELOW_PN > 1
    table.lookup_into(out, p.hash ^ 1, p.hash ^ 1 ^ p.hand_hash, a, d, 7, engine.path)  # a position never seen
    assert (out.pn, out.dn) == (1, 1)
    table.lookup_into(out, p.hash, p.hash ^ p.hand_hash, a, d, 5, engine.path)
    assert out.dn == 0


def test_a_position_left_open_at_a_smaller_bound_keeps_its_numbers():
    # Its proof and disproof numbers there are the table's guess at a larger
    # bound (not (1, 1) as for a position never seen).
    from tsume.hands import NOT_PROVEN, Probe

    pos = tsume_position("2T1k5+P20 b C2G2H 1", "ito")
    engine = DfPn(pos, limits=Limits(nodes=300))
    engine.anchor(engine.pos.hash)
    engine.pos.push(engine.pos.parse_move("C*1"))
    assert engine.search(15) == "unknown"
    table = engine.table
    left_open = [(h, e) for h, e in table.entries.items()
                 if e.b >= 0 and e.proven_b == NOT_PROVEN and e.disproven_b < 0 and e.rep is None
                 and (e.pn, e.dn) != (1, 1)]
    assert left_open
    out = Probe()
    for h, e in left_open:
        # (-1: a board key that lists no entry, so only the position's own entry answers)
        table.lookup_into(out, h, -1, 0, 0, e.b + 2, {})
        assert (out.pn, out.dn) == (e.pn, e.dn)
        table.lookup_into(out, h, -1, 0, 0, e.b - 2, {})  # a smaller bound: nothing known
        assert (out.pn, out.dn) == (1, 1)
