"""What keeps overheads down: 62-bit Zobrist keys and the search's widened
thresholds (fewer nodes expanded again) -- each checked present and without
effect on any answer."""

from __future__ import annotations

import pytest

from tsume.position import Position
from tsume.search import Options, Search
from tsume.variant import get_variant


@pytest.mark.parametrize("spec", ["ito", "rutherford"])
def test_zobrist_keys_fit_below_2_to_the_62(spec):
    pos = Position.start(get_variant(spec))
    for m in pos.legal_moves()[:20]:
        pos.push(m)
        assert 0 <= pos.hash < 1 << 62 and 0 <= pos.hand_hash < 1 << 62
        pos.pop()


def test_one_plus_epsilon_keeps_the_answers_and_expands_less():
    # The widened thresholds (Options.one_plus_epsilon) change only how often
    # nodes are expanded again: the same answers, here in fewer nodes.
    from tsume.problem import Problem

    pos = Problem("2T1k5+P20 b C2G2H 1", variant="ito").position()

    def climb(options: Options) -> tuple[list[bool], int]:
        search = Search(pos, options=options)
        search.walk(pos.parse_move("C*1"))
        return [search.mate(b) for b in (9, 11, 13, 15)], search.nodes

    plain, plain_nodes = climb(Options(one_plus_epsilon=0))
    wide, wide_nodes = climb(Options())
    assert Options().one_plus_epsilon > 0
    assert plain == wide == [False] * 4
    assert wide_nodes < plain_nodes
