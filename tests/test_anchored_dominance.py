"""Proofs reused for other hands while anchors stand (docs/solver.md, "Proofs
and the line"): a proof is reused for another hand set only if its tree
never met the board of an anchor on the line.  The table's rules and the
flag are tested in the engine's unit tests (``engine/src/search/table.rs``,
``node.rs``); here, that reuse changes no answer of the questions asked
with anchors standing."""

from __future__ import annotations

import pytest

from tsume.problem import Problem
from tsume.search import Options, Search
from tsume.solve import solve

NINE = "7H1+F2k18 b TCG 1"  # a 9-ply Ito problem (tsume generator, seed 27)


def _first_moves(options: Options, bounded: bool) -> tuple[list[tuple[int, object]], Search]:
    """Every first move of NINE valued with the root on the line, as the
    verifier and ``solve --all-first-moves`` do: its shortest mate within 9
    plies if ``bounded``, else whether it mates at all."""
    pos = Problem(NINE).position()
    search = Search(pos, options=options)
    values: list[tuple[int, object]] = []
    for m in sorted(pos.checks()):
        search.walk(m)
        values.append((m, search.value(9) if bounded else search.mate()))
        search.unwalk()
    return values, search


@pytest.mark.parametrize("bounded", [True, False])
def test_anchored_searches_reuse_proofs_for_other_hands_and_keep_every_answer(bounded):
    values, search = _first_moves(Options(), bounded)
    plain, _ = _first_moves(Options(hand_dominance=False), bounded)
    assert values == plain
    assert search.stats()["dominance_hits"] > 0


def test_all_first_moves_agree_with_and_without_reuse():
    on = solve(Problem(NINE), all_first_moves=True)
    off = solve(Problem(NINE), all_first_moves=True, options=Options(hand_dominance=False))
    assert on.first_moves == off.first_moves and on.mainline == off.mainline
