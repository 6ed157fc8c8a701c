"""Proofs reused for other hands while anchors stand (tsume.hands, "Proofs
and the current line"): a proof is reused for another hand set only if its
tree never met the board of an anchor on the line -- each rule checked
present, and the answers checked against a search that never reuses one."""

from __future__ import annotations

import pytest

from tsume.conventions import tsume_position
from tsume.dfpn import INF, DfPn, Options
from tsume.hands import HandTable, NOT_PROVEN, Probe
from tsume.solve import solve

NINE = "7H1+F2k18 b TCG 1"  # a 9-ply Ito problem (tsume generator, seed 27)
FIVE = "H1kf1P1c2K20 b PHG 1"  # examples.tsume, ito-05: a mate in 5


def _table_with_proof(pa: bool, anchors: tuple[int, ...] = ()) -> tuple[HandTable, int, int]:
    """A table holding one proof for other hands on board 77, needing one
    piece of kind 0 in the attacker's hand, stored with ``anchors`` (board
    keys) on the line; (table, that hand, a bigger one)."""
    table = HandTable(tsume_position(FIVE))
    for bkey in anchors:
        table.push_anchor(bkey)
    ops = table.ops
    need = ops.plus(0, 0)
    table.store_proof(1001, 77, 3, 10, need, ops.full, False, pa)
    return table, need, ops.plus(need, 1)


def _proven(table: HandTable, h: int, bkey: int, a: int) -> bool:
    out = Probe()
    table.lookup_into(out, h, bkey, a, 0, 9, {})
    return out.pn == 0


@pytest.mark.parametrize("pa", [False, True])
def test_without_anchors_every_proof_serves_other_hands(pa):
    table, _need, more = _table_with_proof(pa)
    assert _proven(table, 2002, 77, more)


def test_while_anchors_stand_only_a_proof_clear_of_their_boards_serves_other_hands():
    clear, _need, more = _table_with_proof(pa=False, anchors=(55,))
    met, _need, _more = _table_with_proof(pa=True, anchors=(55,))
    assert _proven(clear, 2002, 77, more)
    assert not _proven(met, 2002, 77, more)
    # The proof's own position is found whatever its flag.
    assert _proven(met, 1001, 77, more)
    # An anchor whose board is not known blocks every such reuse...
    blind, _need, _more = _table_with_proof(pa=False, anchors=(55, -1))
    assert not _proven(blind, 2002, 77, more)
    # ... until it leaves the line (the proof, found with it there, stays good).
    blind.pop_anchor()
    assert _proven(blind, 2002, 77, more)
    # A proof found before an anchor came is not used while it stands.
    clear.push_anchor(56)
    assert not _proven(clear, 2002, 77, more)


def test_the_anchor_board_count_follows_the_line():
    table = HandTable(tsume_position(FIVE))
    table.push_anchor(5)
    table.push_anchor(5)
    table.push_anchor(6)
    assert table.on_anchor_board(5) and table.on_anchor_board(6)
    table.pop_anchor()
    assert table.on_anchor_board(5) and not table.on_anchor_board(6)
    table.pop_anchor()
    assert table.on_anchor_board(5)
    table.pop_anchor()
    assert not table.on_anchor_board(5) and not table.anchors


def _mated_board(text: str) -> int:
    """The board key of the position the main line of ``text`` ends in."""
    pos = tsume_position(text)
    for move in solve(pos).mainline:
        pos.push(pos.parse_move(move))
    return pos.hash ^ pos.hand_hash


@pytest.mark.parametrize("anchor_on_the_mate", [False, True])
def test_a_proof_is_flagged_when_its_tree_meets_an_anchor_board(anchor_on_the_mate):
    # The flag is carried from the mated position up through every defence
    # and every mating move to the root.
    engine = DfPn(tsume_position(FIVE))
    engine.table.push_anchor(_mated_board(FIVE) if anchor_on_the_mate else 12345)
    assert engine.search(INF) == "proven"
    root = engine.table.get(engine.pos.hash)
    assert root is not None and root.proven_b < NOT_PROVEN
    assert root.pa is anchor_on_the_mate


def _first_moves(options: Options, bounded: bool) -> tuple[list[tuple[str, object]], DfPn]:
    """Every first move of NINE valued with the root anchored, as the
    verifier and ``solve --all-first-moves`` do: its shortest mate within 9
    plies if ``bounded``, else whether it mates at all (exact unbounded
    lengths with dominance off cost minutes)."""
    engine = DfPn(tsume_position(NINE), options=options)
    engine.anchor(engine.pos.hash)
    values: list[tuple[str, object]] = []
    for m in sorted(engine.pos.checks()):
        name = engine.pos.move_str(m)
        engine.pos.push(m)
        values.append((name, engine.shortest(9)[0] if bounded else engine.search(INF)))
        engine.pos.pop()
    return values, engine


@pytest.mark.parametrize("bounded", [True, False])
def test_anchored_searches_reuse_proofs_for_other_hands_and_keep_every_answer(bounded):
    values, engine = _first_moves(Options(), bounded)
    plain, _ = _first_moves(Options(hand_dominance=False), bounded)
    assert values == plain
    # Proofs found for other hands served these searches under the anchor...
    reusable = [e for e in engine.table.entries.values()
                if e.proven_b < NOT_PROVEN and not e.p_exact and e.listed]
    assert engine.table.dominance_hits > 0 and any(not e.pa for e in reusable)
    if not bounded:
        # ... and the unbounded ones met the root's board in some trees.
        assert any(e.pa for e in reusable)
