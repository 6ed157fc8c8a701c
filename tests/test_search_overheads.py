"""What keeps the search's overheads down: the collector paused during a
search (tsume.gcpause), 62-bit Zobrist keys (unboxed in compiled code), the
move cache of DfPn and its widened thresholds (fewer nodes expanded again) --
each checked present, bounded and without effect on any answer."""

from __future__ import annotations

import gc

import pytest

from tsume.dfpn import DfPn
from tsume.gcpause import PausedGC
from tsume.limits import Limits
from tsume.position import Position
from tsume.solve import solve
from tsume.variant import get_variant
from tsume.verify import verify

NINE = "7H1+F2k18 b TCG 1"  # a 9-ply Ito problem (tsume generator, seed 27)
THIRTEEN = "l3k1n+P1S15 b PL 1"  # a 13-ply Rutherford problem


def test_paused_gc_restores_the_callers_state_and_nests():
    assert gc.isenabled()
    with PausedGC():
        assert not gc.isenabled()
        with PausedGC():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner one leaves it to the outer
    assert gc.isenabled()
    gc.disable()
    try:
        with PausedGC():
            pass
        assert not gc.isenabled()  # a caller's own choice is kept
    finally:
        gc.enable()


def test_paused_gc_comes_back_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with PausedGC():
            1 / 0
    assert gc.isenabled()


@pytest.mark.parametrize("run", [
    lambda report: solve(NINE, variant="ito", progress=report, progress_interval=0.0),
    lambda report: verify(NINE, variant="ito", progress=report, time_limit=1.5),  # stopped: the point is the state inside
    lambda report: solve(THIRTEEN, variant="rutherford", node_limit=3000, progress=report, progress_interval=0.0),
])
def test_the_collector_is_off_while_searching_and_on_after(run):
    states: list[bool] = []
    run(lambda stats: states.append(gc.isenabled()))
    assert states and not any(states)
    assert gc.isenabled()


@pytest.mark.parametrize("spec", ["ito", "rutherford"])
def test_zobrist_keys_fit_below_2_to_the_62(spec):
    pos = Position.start(get_variant(spec))
    for m in pos.legal_moves()[:20]:
        pos.push(m)
        assert 0 <= pos.hash < 1 << 62 and 0 <= pos.hand_hash < 1 << 62
        pos.pop()


def test_move_cache_is_used_bounded_and_changes_no_answer():
    pos = Position(THIRTEEN, get_variant("rutherford"))
    free = DfPn(pos)
    assert free.search(13) == "proven" and free.search(11) == "disproven"
    assert 0 < len(free._kids) <= free._kids_cap == 16384
    tight = DfPn(pos, limits=Limits(memory=0.05))  # a cache of 64 positions, emptied again and again
    assert tight._kids_cap == 64
    assert tight.search(13) == "proven" and tight.search(11) == "disproven"
    assert 0 < len(tight._kids) <= 64
    assert solve(THIRTEEN, variant="rutherford", memory_limit_mb=0.05).mainline == solve(THIRTEEN, variant="rutherford").mainline


def test_one_plus_epsilon_keeps_the_answers_and_expands_less():
    # The widened thresholds (Options.one_plus_epsilon) change only how often
    # nodes are expanded again: the same answers, here in fewer nodes.
    from tsume.conventions import tsume_position
    from tsume.dfpn import Options

    pos = tsume_position("2T1k5+P20 b C2G2H 1", "ito")

    def climb(options: Options) -> tuple[list[str], int]:
        engine = DfPn(pos, options=options)
        engine.anchor(engine.pos.hash)
        engine.pos.push(engine.pos.parse_move("C*1"))
        return [engine.search(b) for b in (9, 11, 13, 15)], engine.nodes

    plain, plain_nodes = climb(Options(one_plus_epsilon=0))
    wide, wide_nodes = climb(Options())
    assert Options().one_plus_epsilon > 0
    assert plain == wide == ["disproven"] * 4
    assert wide_nodes < plain_nodes
