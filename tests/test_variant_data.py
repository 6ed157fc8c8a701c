"""A third variant defined purely as data: the engine needs no change to play it.

"Mini": 12 squares.  Pieces (forward = toward the opponent; Black moves toward 1):

  K King     +1, -1 (never flips)
  J Jumper   leaps +5, -5         -> +J Super Jumper: leaps +-5, +-1
  C Cannon   Korean cannon both ways (moves and captures only over exactly one
             screen)              -> +C Chariot: slides both ways
  P Pawn     +1                   -> +P Tokin: +1, -1
  S Skipper  stride-3 rider forward, at most 6 squares
                                  -> +S: stride-3 rider both ways, unlimited

Start: kcj1p2P1JCK (White k1 c2 j3 p5; Black P8 J10 C11 K12).
"""

from __future__ import annotations

import pytest

from tsume import BLACK, Position, VariantError, get_variant
from tsume.perft import divide, perft
from tsume.variant import Face, PieceKind, Ride, Variant

MINI = Variant(
    name="mini",
    title="Mini test shogi",
    kinds=(
        PieceKind("K", Face("King", leaps=(1, -1)), royal=True, count=1),
        PieceKind("J", Face("Jumper", leaps=(5, -5)), Face("Super Jumper", leaps=(5, -5, 1, -1))),
        PieceKind(
            "C",
            Face("Cannon", rides=(Ride(1, move="hop", capture="hop"), Ride(-1, move="hop", capture="hop"))),
            Face("Chariot", rides=(Ride(1), Ride(-1))),
        ),
        PieceKind("P", Face("Pawn", leaps=(1,)), Face("Tokin", leaps=(1, -1))),
        PieceKind(
            "S",
            Face("Skipper", rides=(Ride(1, stride=3, max_distance=6),)),
            Face("Great Skipper", rides=(Ride(1, stride=3), Ride(-1, stride=3))),
        ),
    ),
    board_length=12,
    min_length=12,
    max_length=12,
    start="kcj1p2P1JCK b - 1",
)


def moves(p: Position) -> set[str]:
    return {str(m) for m in p.legal_moves()}


def moves_from(p: Position, sq: int) -> set[str]:
    return {s for s in moves(p) if "-" in s and s.split("-")[0] == str(sq)}


def test_get_variant_accepts_a_variant_object():
    assert get_variant(MINI) is MINI
    assert Position(None, MINI).n == 12


def test_start_moves_by_hand():
    # K12: +1 = 11 own C, -1 off.  C11: forward J10 is the screen, 9 empty ->
    # move, own P8 stops; backward K12 is the screen, nothing beyond.
    # J10: +5 = 5 takes p; -5 off.  P8: 7.
    p = Position.start(MINI)
    assert moves(p) == {"11-9", "10-5", "8-7"}


def test_start_perft_by_hand():
    # White's answers (White k1 cannot move: 2 is its own c, 0 is off):
    #  after 11-9: c2-4 (screen j3; own p5 stops), j3-8 (takes P), p5-6      = 3
    #  after 10-5 (J takes p, becomes +J): c2-4, c2-5 (takes +J over j3),
    #             j3-8                                                       = 3
    #  after 8-7: c2-4, j3-8, p5-6                                           = 3
    p = Position.start(MINI)
    assert perft(p, 1) == 3
    assert perft(p, 2) == 9
    assert divide(p, 2) == {"11-9": 3, "10-5": 3, "8-7": 3}


def test_capture_flips_in_the_new_variant():
    p = Position.start(MINI)
    p.push_str("10-5")
    assert str(p.piece_at(5)) == "+J"
    assert p.hand_string(0) == "P"
    # White's answers computed by hand above
    assert moves(p) == {"2-4", "2-5", "3-8"}


def test_cannon_check_and_mate():
    # White k1, Black P3 (screen), Black C6: the cannon sees 5, 4 empty, the
    # screen on 3, 2 empty and the king -> check.  The king's only square 2 is
    # beyond the same screen -> mate.
    p = Position("k1P2C5K w - 1", MINI)
    assert p.is_check()
    assert p.is_checkmate()
    assert p.outcome().winner == BLACK
    # Without the screen no check; with a second piece (White p2) no check.
    assert not Position("k4C5K w - 1", MINI).is_check()
    assert not Position("kpP2C5K w - 1", MINI).is_check()


def test_jumper_check_over_pieces():
    # Black J6 leaps +5 to 1 over the pieces on 2..5.
    p = Position("kpPcjJ5K w - 1", MINI)
    assert p.is_check()


def test_skipper_stride_three_and_range():
    # Black S11: lands 8 (10, 9 passed though occupied), 5 = White j (distance
    # 6) -> capture; 2 would be distance 9.
    p = Position("k3j3PpSK b - 1", MINI)
    assert moves_from(p, 11) == {"11-8", "11-5"}


def test_great_skipper_both_ways():
    # Black +S 6: forward 3, then 0 is off; backward 9, then the own K on 12 stops it.
    p = Position("k4+S5K b - 1", MINI)
    assert moves_from(p, 6) == {"6-3", "6-9"}


def test_drops_and_rule_switches_apply():
    # Black holds a P: every empty square (no drop limits in this variant)
    # except 3: a pawn there covers 2, the White king's only square, without
    # check -> stalemate, illegal by the (default) stalemate switch.
    p = Position("k10K b P 1", MINI)
    assert {s.upper() for s in moves(p) if "*" in s} == {f"P*{s}" for s in range(2, 12) if s != 3}
    # Drop mate switch on the new variant works through with_options.
    no_dm = MINI.with_options(drop_mate=False)
    # White k1, Black J7 covers 2 (+5 from 7 is 2): a P dropped on 2 would
    # mate (k takes 2? J7 guards it) -> legal by default, illegal with the switch.
    q = Position("k5J4K b P 1", MINI)
    assert "P*2" in moves(q)
    q2 = Position("k5J4K b P 1", no_dm)
    assert "P*2" not in moves(q2)
    with pytest.raises(VariantError):
        MINI.with_options(castling=True)


def test_mirror_symmetry_on_new_variant():
    p = Position.start(MINI)
    p.push_str("10-5")
    q = p.mirror()
    assert perft(p, 4) == perft(q, 4)


def test_bad_variant_definitions_are_rejected():
    with pytest.raises(VariantError):
        Ride(2)
    with pytest.raises(VariantError):
        Ride(1, move="jump")
    with pytest.raises(VariantError):
        Variant(
            name="bad",
            title="Two royals",
            kinds=(
                PieceKind("K", Face("King", leaps=(1,)), royal=True, count=1),
                PieceKind("Q", Face("Queen", leaps=(1,)), royal=True, count=1),
            ),
            board_length=9,
            min_length=9,
            max_length=9,
        )
