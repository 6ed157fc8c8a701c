"""Rutherford's 1-dimensional Shogi (2002), checked against move lists derived by hand.

Squares 1..N (N from the position string).  Black (uppercase) moves toward
square 1, so for Black "+k" means square - k; White toward N (square + k).
Every expected list below was worked out by hand from docs/rules.md.
"""

from __future__ import annotations

import pytest

from tsume import IllegalMoveError, Position
from tsume.perft import perft

from tests.rule_helpers import board, drops, moves, moves_from, targets

BLACK, WHITE = 0, 1




def pos(pieces, n=20, side="b", hands="-", variant="rutherford") -> Position:
    return Position(f"{board(pieces, n)} {side} {hands} 1", variant)










def both_faces(letter: str, squares) -> set[str]:
    return {f"{letter}*{s}" for s in squares} | {f"+{letter}*{s}" for s in squares}


# --- 1. every face, both colours, both ends (N = 20) ----------------------------------
#   RB1 Black piece near 1 : Black K 12 (attacks 11, 10), White k 16 (attacks 17, 18)
#   RB2 Black piece near 20: Black K 8 (attacks 7, 6),   White k 3 (attacks 4, 5)
#   RW1 White piece near 20: White k 10, Black K 14
#   RW2 White piece near 1 : White k 12, Black K 16

RB1 = {12: "K", 16: "k"}
RB2 = {8: "K", 3: "k"}
RW1 = {10: "k", 14: "K"}
RW2 = {12: "k", 16: "K"}

FACE_CASES = [
    # ---- Black ----
    # King +1, leap +2, forward only.  At 2: 1; 0 off.  At 19: 18, 17; never 20.
    ("K b near1", {2: "K", 16: "k"}, "b", 2, {1}),
    ("K b near20", {19: "K", 3: "k"}, "b", 19, {18, 17}),
    # Pawn +1.  At 1: off.  At 20: 19.
    ("P b near1", {**RB1, 1: "P"}, "b", 1, set()),
    ("P b near20", {**RB2, 20: "P"}, "b", 20, {19}),
    # Go-Between +-1.  At 1: 2.  At 20: 19 (21 off).
    ("+P b near1", {**RB1, 1: "+P"}, "b", 1, {2}),
    ("+P b near20", {**RB2, 20: "+P"}, "b", 20, {19}),
    # Silver +1, leap +2, leap -2.  At 2: 1, 0 off, 4.  At 19: 18, 17, 21 off.
    ("S b near1", {**RB1, 2: "S"}, "b", 2, {1, 4}),
    ("S b near20", {**RB2, 19: "S"}, "b", 19, {18, 17}),
    # Gold +1, leap +2, -1.  At 2: 1, 0 off, 3.  At 20: 19, 18, 21 off.
    ("+S b near1", {**RB1, 2: "+S"}, "b", 2, {1, 3}),
    ("+S b near20", {**RB2, 20: "+S"}, "b", 20, {19, 18}),
    # Knight +1, leap +3.  At 2: 1, -1 off.  At 20: 19, 17.
    ("N b near1", {**RB1, 2: "N"}, "b", 2, {1}),
    ("N b near20", {**RB2, 20: "N"}, "b", 20, {19, 17}),
    # Phoenix +-2, +-3.  At 3: 1, 0 off, 5, 6.  At 18: 16, 15, 20, 21 off.
    ("+N b near1", {**RB1, 3: "+N"}, "b", 3, {1, 5, 6}),
    ("+N b near20", {**RB2, 18: "+N"}, "b", 18, {16, 15, 20}),
    # Bishop stride 2 both ways, at most 8.  At 1: forward off; 3, 5, 7, 9;
    # 11 (distance 10) is empty but too far.
    ("B b near1", {**RB1, 1: "B"}, "b", 1, {3, 5, 7, 9}),
    # At 20: 18, 16, 14, 12; 10 (distance 10) too far; 22 off.
    ("B b near20", {**RB2, 20: "B"}, "b", 20, {18, 16, 14, 12}),
    # Cannon: quiet slide 1..8 both ways.  At 1: 2..9 (10, 11 empty but too
    # far); the first piece backward (own K 12) is no capture target.
    ("+B b near1", {**RB1, 1: "+B"}, "b", 1, set(range(2, 10))),
    # At 20: 19..12 (11..9 too far, own K 8 beyond); 21 off.
    ("+B b near20", {**RB2, 20: "+B"}, "b", 20, set(range(12, 20))),
    # Lance forward 1..8.  At 2: 1.  At 20: 19..12; 11, 10, 9 empty but too far.
    ("L b near1", {**RB1, 2: "L"}, "b", 2, {1}),
    ("L b near20", {**RB2, 20: "L"}, "b", 20, set(range(12, 20))),
    # Reverse Chariot both ways 1..4.  At 2: 1; 3..6 (7 too far).
    ("+L b near1", {**RB1, 2: "+L"}, "b", 2, {1, 3, 4, 5, 6}),
    # At 19: 18..15 (14 too far); 20.
    ("+L b near20", {**RB2, 19: "+L"}, "b", 19, {18, 17, 16, 15, 20}),
    # ---- White (forward = toward 20) ----
    # King at 19: 20, 21 off.  At 2: 3, 4; never 1.
    ("k w near20", {19: "k", 14: "K"}, "w", 19, {20}),
    ("k w near1", {2: "k", 16: "K"}, "w", 2, {3, 4}),
    ("p w near20", {**RW1, 20: "p"}, "w", 20, set()),
    ("p w near1", {**RW2, 1: "p"}, "w", 1, {2}),
    ("+p w near20", {**RW1, 20: "+p"}, "w", 20, {19}),
    ("+p w near1", {**RW2, 1: "+p"}, "w", 1, {2}),
    # Silver at 19: 20, 21 off, 17.  At 2: 3, 4, 0 off.
    ("s w near20", {**RW1, 19: "s"}, "w", 19, {20, 17}),
    ("s w near1", {**RW2, 2: "s"}, "w", 2, {3, 4}),
    # Gold at 19: 20, 21 off, 18.  At 1: 2, 3, 0 off.
    ("+s w near20", {**RW1, 19: "+s"}, "w", 19, {20, 18}),
    ("+s w near1", {**RW2, 1: "+s"}, "w", 1, {2, 3}),
    # Knight at 19: 20, 22 off.  At 2: 3, 5.
    ("n w near20", {**RW1, 19: "n"}, "w", 19, {20}),
    ("n w near1", {**RW2, 2: "n"}, "w", 2, {3, 5}),
    # Phoenix at 18: 20, 21 off, 16, 15.  At 3: 5, 6, 1, 0 off.
    ("+n w near20", {**RW1, 18: "+n"}, "w", 18, {20, 16, 15}),
    ("+n w near1", {**RW2, 3: "+n"}, "w", 3, {5, 6, 1}),
    # Bishop at 19: 21 off; 17, 15, 13, 11 (passing Black K 14 on an odd
    # offset); 9 (distance 10) too far.  At 1: 3, 5, 7, 9; 11 too far.
    ("b w near20", {**RW1, 19: "b"}, "w", 19, {17, 15, 13, 11}),
    ("b w near1", {**RW2, 1: "b"}, "w", 1, {3, 5, 7, 9}),
    # Cannon at 19: 20; 18..15, then Black K 14 is the first piece: no slide
    # capture; beyond it 13, 12, 11 empty and 10 (own k, distance 9) -> nothing.
    ("+b w near20", {**RW1, 19: "+b"}, "w", 19, {20, 18, 17, 16, 15}),
    # At 1: 2..9; 10, 11 too far.
    ("+b w near1", {**RW2, 1: "+b"}, "w", 1, set(range(2, 10))),
    # Lance at 19: 20.  At 1: 2..9; 10, 11 empty but too far.
    ("l w near20", {**RW1, 19: "l"}, "w", 19, {20}),
    ("l w near1", {**RW2, 1: "l"}, "w", 1, set(range(2, 10))),
    # Reverse Chariot at 20: 21 off; 19..16 (15 too far).  At 2: 3..6; 1.
    ("+l w near20", {**RW1, 20: "+l"}, "w", 20, {19, 18, 17, 16}),
    ("+l w near1", {**RW2, 2: "+l"}, "w", 2, {1, 3, 4, 5, 6}),
]


@pytest.mark.parametrize(
    "pieces, side, sq, expected", [c[1:] for c in FACE_CASES], ids=[c[0] for c in FACE_CASES]
)
def test_face_moves(pieces, side, sq, expected):
    p = pos(pieces, side=side)
    assert moves_from(p, sq) == targets(sq, expected)


def test_every_face_is_covered_for_both_colours_and_ends():
    faces = ("K", "P", "+P", "S", "+S", "N", "+N", "B", "+B", "L", "+L")
    for f in faces:
        for colour in ("b", "w"):
            ends = {
                c[0].split()[2] for c in FACE_CASES if c[0].split()[0].upper() == f and c[0].split()[1] == colour
            }
            assert ends == {"near1", "near20"}, (f, colour)


def test_provisional_start_moves_by_hand():
    # klsnbp9PBNSLK (21 squares): Black P16 B17 N18 S19 L20 K21.
    # P16: 15.  B17: 15, 13, 11, 9 (distance 8); backward 19 own S.  N18: +1 =
    # 17 own; +3 = 15.  S19: 18, 17 own; -2 = 21 own K.  L20: 19 own.  K21: 20,
    # 19 own.  -> 6 moves.
    p = Position.start("rutherford")
    assert p.n == 21
    assert moves(p) == {"16-15", "17-15", "17-13", "17-11", "17-9", "18-15"}


def test_provisional_start_perft_2_by_hand():
    # White has the mirrored 6 moves after 16-15, 17-15, 17-13 and 18-15.
    # After 17-11 its b 5 lands 7, 9, then takes on 11 (3 moves instead of 4):
    # 5 moves.  After 17-9 it lands 7 and takes on 9: 4 moves.  6+6+6+6+5+4 = 33.
    p = Position.start("rutherford")
    assert perft(p, 1) == 6
    assert perft(p, 2) == 33


# --- Lance and Reverse Chariot ranges (N = 30) ---------------------------------------


def test_lance_range_eight_capture_at_eight():
    # Black L 25: 24..17; White p on 17 (distance 8) is captured.
    p = pos({2: "k", 17: "p", 25: "L", 30: "K"}, n=30)
    assert moves_from(p, 25) == targets(25, range(17, 25))


def test_lance_range_eight_no_capture_at_nine():
    # White p on 16 is at distance 9: 24..17 only.
    p = pos({2: "k", 16: "p", 25: "L", 30: "K"}, n=30)
    assert moves_from(p, 25) == targets(25, range(17, 25))
    # and a ninth empty square is not reachable either
    p = pos({2: "k", 25: "L", 30: "K"}, n=30)
    assert moves_from(p, 25) == targets(25, range(17, 25))


def test_reverse_chariot_range_four():
    # Black +L 15: forward 14, 13, 12, White s 11 (distance 4) -> capture;
    # backward 16..19, White n 20 at distance 5 -> not reachable.
    p = pos({2: "k", 11: "s", 15: "+L", 20: "n", 30: "K"}, n=30)
    assert moves_from(p, 15) == targets(15, {14, 13, 12, 11, 16, 17, 18, 19})


# --- 2. the Cannon (promoted Bishop), N = 30 -------------------------------------------
# White k 2 (attacks 3, 4), Black K 5 (attacks 4, 3), Black Cannon 20.


def test_cannon_capture_over_one_screen_at_distance_eight():
    # Forward: quiet slide 19..12 (11 is distance 9).  Backward: 21, then own P
    # 22 is the screen; 23..27 are empty but a Cannon never moves quietly past
    # a screen; White s 28 (distance 8) -> capture.
    p = pos({2: "k", 5: "K", 20: "+B", 22: "P", 28: "s"}, n=30)
    assert moves_from(p, 20) == targets(20, set(range(12, 20)) | {21, 28})


def test_cannon_no_capture_at_distance_nine():
    p = pos({2: "k", 5: "K", 20: "+B", 22: "P", 29: "s"}, n=30)
    assert moves_from(p, 20) == targets(20, set(range(12, 20)) | {21})


def test_cannon_captures_only_first_piece_beyond_screen():
    # Screen P 22, White s 25 -> capture; White n 27 lies beyond a second piece.
    p = pos({2: "k", 5: "K", 20: "+B", 22: "P", 25: "s", 27: "n"}, n=30)
    assert moves_from(p, 20) == targets(20, set(range(12, 20)) | {21, 25})


def test_cannon_cannot_capture_without_screen():
    # Black Cannon 20, White p 19 adjacent: no slide capture.  It is the screen
    # for White s 12 (distance 8) -> capture.  Backward: 21..28, own K 30 is
    # at distance 10 (29 is distance 9).
    p = pos({2: "k", 12: "s", 19: "p", 20: "+B", 30: "K"}, n=30)
    assert moves_from(p, 20) == targets(20, {12} | set(range(21, 29)))


def test_cannon_check_range():
    # White to move, White k 2, Black P 6 as the screen.
    # Cannon on 10: king at distance 8 beyond one screen -> check.
    assert pos({2: "k", 6: "P", 10: "+B", 18: "K"}, side="w").is_check()
    # Cannon on 11: distance 9 -> no check.
    assert not pos({2: "k", 6: "P", 11: "+B", 18: "K"}, side="w").is_check()
    # No screen -> no check.
    assert not pos({2: "k", 10: "+B", 18: "K"}, side="w").is_check()


# --- 3. Bishop ----------------------------------------------------------------------


def test_bishop_passes_odd_squares_range_eight_and_captures():
    # Black B 20 (N 30): forward 19 (White p) and 17 (Black P) are passed; 18,
    # 16, 14, 12 land (12 is distance 8); 10 is not reached.  Backward: 22
    # empty, White n 24 -> capture.
    p = pos({2: "k", 5: "K", 17: "P", 19: "p", 20: "B", 24: "n"}, n=30)
    assert moves_from(p, 20) == targets(20, {18, 16, 14, 12, 22, 24})


def test_bishop_captures_at_eight_not_at_ten():
    # White p 10 (distance 10) is out of reach; White s 28 (distance 8) is taken.
    p = pos({2: "k", 5: "K", 10: "p", 20: "B", 28: "s"}, n=30)
    assert moves_from(p, 20) == targets(20, {18, 16, 14, 12, 22, 24, 26, 28})


def test_bishop_stops_before_own_piece_on_landing_square():
    # Own P 16 on a landing square: forward only 18.
    p = pos({2: "k", 5: "K", 16: "P", 20: "B"}, n=30)
    assert moves_from(p, 20) == targets(20, {18, 22, 24, 26, 28})


# --- 4. leaps -------------------------------------------------------------------------


def test_king_leaps_over_own_piece_and_never_backward():
    # Black K 10, own P 9: 9 own; leap to 8; no backward move to 11.
    p = pos({2: "k", 9: "P", 10: "K"})
    assert moves_from(p, 10) == targets(10, {8})


def test_white_king_leaps_over_enemy_piece():
    # White k 5, Black Phoenix 6 (attacks 4, 3, 8, 9): k takes 6 or leaps to 7.
    p = pos({5: "k", 6: "+N", 18: "K"}, side="w")
    assert moves_from(p, 5) == targets(5, {6, 7})


def test_kings_attack_forward_only():
    # White k 5 attacks 6 and 7 only.  Black K 9: 8 ok, leap 7 attacked.
    p = pos({5: "k", 9: "K"})
    assert moves_from(p, 9) == targets(9, {8})
    # Black K 4 attacks 3 and 2 only; a White king directly behind it on 5 is
    # not attacked by it, and from 5 its own moves are 6 and 7.
    p = pos({4: "K", 5: "k"}, side="w")
    assert not p.is_check()
    assert moves_from(p, 5) == targets(5, {6, 7})


def test_knight_leaps_three_over_pieces():
    # Black N 15 (N 24): +1 takes White p 14; +3 lands on 12 over 14 and Black P 13.
    p = pos({2: "k", 13: "P", 14: "p", 15: "N", 22: "K"}, n=24)
    assert moves_from(p, 15) == targets(15, {14, 12})


def test_phoenix_leaps_both_ways():
    # Black +N 10: +2 -> 8 (over Black P 9), +3 -> 7 White s (capture),
    # -2 -> 12 own S (no), -3 -> 13 (over White p 11 and own S 12).
    p = pos({2: "k", 7: "s", 9: "P", 10: "+N", 11: "p", 12: "S", 18: "K"})
    assert moves_from(p, 10) == targets(10, {8, 7, 13})


def test_silver_leaps_both_ways():
    # Black S 10: +1 -> 9 own P (no), +2 -> 8 over 9, -2 -> 12 (White p) over Black N 11.
    p = pos({2: "k", 9: "P", 10: "S", 11: "N", 12: "p", 18: "K"})
    assert moves_from(p, 10) == targets(10, {8, 12})


# --- 5. flips ---------------------------------------------------------------------------


def key_of(pieces, n, side, hands):
    return Position(f"{board(pieces, n)} {side} {hands} 1", "rutherford", validate=False).key()


def test_cannon_capture_demotes_to_bishop():
    p = pos({2: "k", 5: "K", 20: "+B", 22: "P", 28: "s"}, n=30)
    p.push_str("20-28")
    assert str(p.piece_at(28)) == "B"
    assert p.key() == key_of({2: "k", 5: "K", 22: "P", 28: "B"}, 30, "w", "S")


def test_lance_capture_promotes_and_captured_phoenix_goes_to_hand_as_knight():
    p = pos({2: "k", 17: "+n", 25: "L", 30: "K"}, n=30)
    p.push_str("25-17")
    assert str(p.piece_at(17)) == "+L"
    assert p.key() == key_of({2: "k", 17: "+L", 30: "K"}, 30, "w", "N")


def test_white_capture_flips():
    # White s 10 takes Black +P 12 (leap +2): s -> Gold, White hand gets a pawn.
    p = pos({2: "k", 10: "s", 12: "+P", 18: "K"}, side="w")
    p.push_str("10-12")
    assert str(p.piece_at(12)) == "+s"
    assert p.key() == key_of({2: "k", 12: "+s", 18: "K"}, 20, "b", "p")


def test_king_never_flips():
    p = pos({2: "k", 9: "p", 10: "K"})
    p.push_str("10-9")
    assert str(p.piece_at(9)) == "K"


# --- 6. drops -----------------------------------------------------------------------------


def test_black_drop_limits():
    # Black K 12: drops only on squares <= 10 (not behind = not > 12, and not
    # at distance 1 = not 11 or 13).  Either side up.  Square 3 holds White k.
    # No drop mates: the k on 3 can always take a checking +P/P on 4 or go to
    # 4/5 after +P*2.
    p = pos({3: "k", 12: "K"}, hands="P")
    assert drops(p) == both_faces("P", [1, 2, 4, 5, 6, 7, 8, 9, 10])


def test_white_drop_limits_and_drop_behind_enemy_king():
    # White k 8: squares >= 10 only.  19 and 20 are behind the Black K 18: allowed.
    p = pos({8: "k", 18: "K"}, side="w", hands="p")
    assert drops(p) == both_faces("P", [10, 11, 12, 13, 14, 15, 16, 17, 19, 20])


def test_drop_limits_lifted_without_own_king():
    # No Black king: every empty square (none of these drops mates: the k on 3
    # can take any checking piece on 2 or 4, or walk to 4/5).
    p = pos({3: "k"}, hands="P")
    assert drops(p) == both_faces("P", [s for s in range(1, 21) if s != 3])


def test_promoted_drop_string_and_piece():
    # +L*8: a Reverse Chariot on 8 reaches 7..4 and 9..11 -- no check on k 3.
    p = pos({3: "k", 12: "K"}, hands="L")
    p.push_str("+L*8")
    assert str(p.piece_at(8)) == "+L"
    assert p.hand_string(BLACK) == "-"


# Drop mate: White k 1 (its moves: 2, 3), Black P 4 guards 3, Black K 15.
DROP_MATE = {1: "k", 4: "P", 15: "K"}


def test_drop_may_check_but_not_mate():
    # S on s attacks s-1, s-2, s+2; Gold on s attacks s-1, s-2, s+1.
    # S*3 / +S*3: check (3-2 = 1), 2 covered by the dropped piece, 3 guarded
    # by P 4 -> mate -> illegal.  S*2 / +S*2: check but the k takes on 2.
    # 5..13: no check.  14 and 16+ break the limits near K 15.
    p = pos(DROP_MATE, hands="S")
    assert drops(p) == both_faces("S", [2] + list(range(5, 14)))
    with pytest.raises(IllegalMoveError):
        p.parse_move("S*3")
    p.push_str("S*2")
    assert p.is_check() and not p.is_checkmate()


def test_board_move_may_mate():
    # Same mate by the board move S 5 -> 3 (+2 leap).
    p = pos({**DROP_MATE, 5: "S"})
    assert moves_from(p, 5) == targets(5, {3, 7})
    p.push_str("5-3")
    assert p.is_checkmate()
    assert p.outcome().winner == BLACK


def test_drop_giving_cannon_a_screen_may_not_mate():
    # White k 1, Black Cannon 9 (distance 8), Black K 15, Black holds a P.
    # A drop on 2..8 becomes the screen: check.  On 2 or 3 the king takes it
    # (then it is the first piece of the line, no screen).  On 4..8 the king's
    # squares 2 and 3 stay beyond the screen -> mate -> illegal.
    p = pos({1: "k", 9: "+B", 15: "K"}, hands="P")
    assert drops(p) == both_faces("P", [2, 3, 10, 11, 12, 13])


def test_stalemate_is_a_win_for_the_staller():
    # White k 19 (N 20) can only go to 20.  Black S 16 -> 18 covers 20 (-2)
    # without attacking 19: legal in Rutherford, and White loses.
    p = pos({5: "K", 16: "S", 19: "k"})
    assert moves_from(p, 16) == targets(16, {15, 14, 18})
    p.push_str("16-18")
    assert not p.is_check()
    assert p.legal_moves() == []
    assert p.is_stalemate()
    assert p.outcome().winner == BLACK


def test_king_on_last_square_has_no_move():
    # Black K 1 cannot move (forward only); alone, Black is stalemated and loses.
    p = pos({1: "K", 20: "k"})
    assert moves(p) == set()
    assert p.is_stalemate()
    assert p.outcome().winner == WHITE


# --- 8. repetition ----------------------------------------------------------------


REP = {1: "k", 5: "+p", 16: "+P", 20: "K"}
SHUFFLE = ["16-15", "5-6", "15-16", "6-5", "16-15", "5-6", "15-16"]


def test_third_occurrence_is_illegal():
    p = pos(REP)
    for s in SHUFFLE:
        p.push_str(s)
    assert "6-5" not in moves(p)
    assert "6-5" in moves(p, repetition=False)
    with pytest.raises(IllegalMoveError):
        p.push_str("6-5")


def test_repetition_switch_off():
    p = pos(REP, variant="rutherford:repetition=off")
    for s in SHUFFLE:
        p.push_str(s)
    assert "6-5" in moves(p)
    p.push_str("6-5")
    assert p.repetitions() == 3


# --- a king on its last square ----------------------------------------------------


def test_white_king_on_last_square_may_not_drop():
    # N 20: Black K 1, White p 10, White k 20, White holds a p.  The White king
    # cannot move (forward only, 21 and 22 are off the board).  Drops must not
    # be behind it (squares < 20) nor at distance < 2 (19): no square is left.
    # So White's only move is p 10 -> 11.
    p = pos({1: "K", 10: "p", 20: "k"}, side="w", hands="p")
    assert moves(p) == {"10-11"}


def test_white_king_on_last_square_alone_is_stalemated():
    # Black K 1, White k 20 and nothing else: White, to move, has no move and
    # is not in check -> stalemate, a win for Black (who caused it).
    p = pos({1: "K", 20: "k"}, side="w")
    assert p.legal_moves() == []
    assert p.is_stalemate()
    assert p.outcome().winner == BLACK
