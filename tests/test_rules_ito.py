"""Ito Shogi (2022) rules, checked against move lists derived by hand from docs/rules.md.

Conventions used in every comment below (docs/rules.md, "What both games share"):
squares 1..31, Black (uppercase) moves toward square 1, so for Black "+k"
means square - k; White (lowercase) moves toward 31, so for White "+k" means
square + k.  Every expected list was worked out by hand from the piece table;
none was copied from the engine.
"""

from __future__ import annotations

import pytest

from tsume import BLACK, ITO, IllegalMoveError, MoveError, Position

from tests.rule_helpers import board, drops, moves, moves_from, targets

N = 31


# --- helpers -------------------------------------------------------------------




def pos(pieces: dict[int, str], side: str = "b", hands: str = "-", variant: str = "ito") -> Position:
    return Position(f"{board(pieces, N)} {side} {hands} 1", variant)










# --- 1. every face, both colours, both ends ---------------------------------------
#
# Layouts (kings placed out of the way; the side not to move is never in check):
#   A  Black piece near square 1 : Black K 16, White k 26
#   B  Black piece near square 31: Black K 16, White k 6
#   WA White piece near square 31: White k 16, Black K 6
#   WB White piece near square 1 : White k 16, Black K 26

A = {16: "K", 26: "k"}
B = {16: "K", 6: "k"}
WA = {16: "k", 6: "K"}
WB = {16: "k", 26: "K"}

FACE_CASES = [
    # ---- Black ----
    # King: +1, leap +2, -1.  At 2: 1; 0 is off the board; 3.
    ("K b near1", {2: "K", 26: "k"}, "b", 2, {1, 3}),
    # At 31: 30, 29; -1 would be 32 (off).
    ("K b near31", {31: "K", 6: "k"}, "b", 31, {30, 29}),
    # Pawn +1: at 1 the only target (0) is off the board.
    ("P b near1", {**A, 1: "P"}, "b", 1, set()),
    ("P b near31", {**B, 31: "P"}, "b", 31, {30}),
    # Go-Between +1/-1: at 1 only -1 -> 2; at 31 only +1 -> 30.
    ("+P b near1", {**A, 1: "+P"}, "b", 1, {2}),
    ("+P b near31", {**B, 31: "+P"}, "b", 31, {30}),
    # Tile General leap +2, -1: at 2: 0 off, 3.  At 31: 29, 32 off.
    ("T b near1", {**A, 2: "T"}, "b", 2, {3}),
    ("T b near31", {**B, 31: "T"}, "b", 31, {29}),
    # Silver General +1, leap +2, leap -2: at 2: 1, 0 off, 4.  At 30: 29, 28, 32 off.
    ("+T b near1", {**A, 2: "+T"}, "b", 2, {1, 4}),
    ("+T b near31", {**B, 30: "+T"}, "b", 30, {29, 28}),
    # Heavenly Horse +-3: at 3: 0 off, 6.  At 29: 26, 32 off.
    ("H b near1", {**A, 3: "H"}, "b", 3, {6}),
    ("H b near31", {**B, 29: "H"}, "b", 29, {26}),
    # Cavalryman +-2, +-3: at 3: 1, 0 off, 5, 6.  At 29: 27, 26, 31, 32 off.
    ("+H b near1", {**A, 3: "+H"}, "b", 3, {1, 5, 6}),
    ("+H b near31", {**B, 29: "+H"}, "b", 29, {27, 26, 31}),
    # Goose leap +4, leap -2: at 3: -1 off, 5.  At 30: 26, 32 off.
    ("G b near1", {**A, 3: "G"}, "b", 3, {5}),
    ("G b near31", {**B, 30: "G"}, "b", 30, {26}),
    # Phoenix +-1, +-4: at 3: 2, 4, -1 off, 7.  At 30: 29, 31, 26, 34 off.
    ("+G b near1", {**A, 3: "+G"}, "b", 3, {2, 4, 7}),
    ("+G b near31", {**B, 30: "+G"}, "b", 30, {29, 31, 26}),
    # Flying Swallow: stride-2 forward, -1.  At 1: forward -1 off; -1 -> 2.
    ("F b near1", {**A, 1: "F"}, "b", 1, {2}),
    # At 30: 28, 26, ..., 18 empty, 16 is the own king -> stop; -1 -> 31.
    ("F b near31", {**B, 30: "F"}, "b", 30, {28, 26, 24, 22, 20, 18, 31}),
    # Bishop: stride 2 both ways.  At 2: forward 0 off; backward 4..14, own K 16 stops.
    ("+F b near1", {**A, 2: "+F"}, "b", 2, {4, 6, 8, 10, 12, 14}),
    # At 30: forward 28..18 (own K on 16); backward 32 off.
    ("+F b near31", {**B, 30: "+F"}, "b", 30, {28, 26, 24, 22, 20, 18}),
    # Silver Cannon at 2 (extra Black P 22): forward 1 is empty with no screen
    # -> nothing.  Backward 3..15 empty (no moves before a screen), screen = own
    # K 16, 17..21 empty -> moves, 22 own P -> stop.
    ("C b near1", {**A, 2: "C", 22: "P"}, "b", 2, {17, 18, 19, 20, 21}),
    # Silver Cannon at 30 (extra White p 10): forward 29..17 empty, screen own
    # K 16, 15..11 empty -> moves, 10 enemy p -> capture (k 6 lies beyond it).
    # Backward 31 empty and no screen -> nothing.
    ("C b near31", {**B, 30: "C", 10: "p"}, "b", 30, {15, 14, 13, 12, 11, 10}),
    # Reverse Chariot: slides both ways.  At 2: 1; 3..15 (own K 16).
    ("+C b near1", {**A, 2: "+C"}, "b", 2, {1} | set(range(3, 16))),
    # At 30: 29..17 (own K 16); 31.
    ("+C b near31", {**B, 30: "+C"}, "b", 30, set(range(17, 30)) | {31}),
    # ---- White (forward = toward 31) ----
    # King at 30: 31, 32 off, 29.  At 1: 2, 3, 0 off.
    ("k w near31", {30: "k", 6: "K"}, "w", 30, {31, 29}),
    ("k w near1", {1: "k", 26: "K"}, "w", 1, {2, 3}),
    # Pawn at 31: 32 off.  At 1: 2.
    ("p w near31", {**WA, 31: "p"}, "w", 31, set()),
    ("p w near1", {**WB, 1: "p"}, "w", 1, {2}),
    # Go-Between at 31: 30.  At 1: 2 (0 off).
    ("+p w near31", {**WA, 31: "+p"}, "w", 31, {30}),
    ("+p w near1", {**WB, 1: "+p"}, "w", 1, {2}),
    # Tile General at 30: 32 off, 29.  At 1: 3, 0 off.
    ("t w near31", {**WA, 30: "t"}, "w", 30, {29}),
    ("t w near1", {**WB, 1: "t"}, "w", 1, {3}),
    # Silver General at 30: 31, 32 off, 28.  At 2: 3, 4, 0 off.
    ("+t w near31", {**WA, 30: "+t"}, "w", 30, {31, 28}),
    ("+t w near1", {**WB, 2: "+t"}, "w", 2, {3, 4}),
    # Heavenly Horse at 29: 32 off, 26.  At 3: 6, 0 off.
    ("h w near31", {**WA, 29: "h"}, "w", 29, {26}),
    ("h w near1", {**WB, 3: "h"}, "w", 3, {6}),
    # Cavalryman at 29: 31, 32 off, 27, 26.  At 3: 5, 6, 1, 0 off.
    ("+h w near31", {**WA, 29: "+h"}, "w", 29, {31, 27, 26}),
    ("+h w near1", {**WB, 3: "+h"}, "w", 3, {5, 6, 1}),
    # Goose at 29: 33 off, 27.  At 2: 6, 0 off.
    ("g w near31", {**WA, 29: "g"}, "w", 29, {27}),
    ("g w near1", {**WB, 2: "g"}, "w", 2, {6}),
    # Phoenix at 29: 30, 28, 33 off, 25.  At 2: 3, 1, 6, -2 off.
    ("+g w near31", {**WA, 29: "+g"}, "w", 29, {30, 28, 25}),
    ("+g w near1", {**WB, 2: "+g"}, "w", 2, {3, 1, 6}),
    # Flying Swallow at 30: forward 32 off; -1 -> 29.
    ("f w near31", {**WA, 30: "f"}, "w", 30, {29}),
    # At 2: forward 4..14, own k 16 stops; -1 -> 1.
    ("f w near1", {**WB, 2: "f"}, "w", 2, {4, 6, 8, 10, 12, 14, 1}),
    # Bishop at 30: forward off; backward 28..18 (own k 16).  At 2: 4..14; 0 off.
    ("+f w near31", {**WA, 30: "+f"}, "w", 30, {28, 26, 24, 22, 20, 18}),
    ("+f w near1", {**WB, 2: "+f"}, "w", 2, {4, 6, 8, 10, 12, 14}),
    # Silver Cannon at 30 (extra White p 10): forward 31 empty, no screen.
    # Backward 29..17 empty, screen own k 16, 15..11 -> moves, own p 10 stops.
    ("c w near31", {**WA, 30: "c", 10: "p"}, "w", 30, {15, 14, 13, 12, 11}),
    # Silver Cannon at 2 (extra Black P 20): backward 1 empty, no screen.
    # Forward 3..15 empty, screen own k 16, 17..19 -> moves, Black P 20 -> capture.
    ("c w near1", {**WB, 2: "c", 20: "P"}, "w", 2, {17, 18, 19, 20}),
    # Reverse Chariot at 30: 31; 29..17.  At 2: 1; 3..15.
    ("+c w near31", {**WA, 30: "+c"}, "w", 30, {31} | set(range(17, 30))),
    ("+c w near1", {**WB, 2: "+c"}, "w", 2, {1} | set(range(3, 16))),
]


@pytest.mark.parametrize(
    "pieces, side, sq, expected", [c[1:] for c in FACE_CASES], ids=[c[0] for c in FACE_CASES]
)
def test_face_moves(pieces, side, sq, expected):
    p = pos(pieces, side)
    assert moves_from(p, sq) == targets(sq, expected)


def test_every_face_is_covered_for_both_colours_and_ends():
    faces = {c[0].split()[0] for c in FACE_CASES}
    assert {f.upper() for f in faces} == {"K", "P", "+P", "T", "+T", "C", "+C", "H", "+H", "G", "+G", "F", "+F"}
    for f in ("K", "P", "+P", "T", "+T", "C", "+C", "H", "+H", "G", "+G", "F", "+F"):
        for colour in ("b", "w"):
            ends = {c[0].split()[2] for c in FACE_CASES if c[0].split()[0].upper() == f and c[0].split()[1] == colour}
            assert ends == {"near1", "near31"}, (f, colour)


def test_start_position_moves_by_hand():
    # Start k3fg1hc2tp5PT2CH1GF3K: Black P19 T20 C23 H24 G26 F27 K31.
    # P19: 18.  T20: leap 18 (over P19), -1 21.  C23: forward screen T20, first
    # piece beyond is own P19 -> nothing; backward screen H24, 25 empty -> 25,
    # own G26 stops.  H24: 21; -3 = 27 own F.  G26: 22, 28.  F27: 25, then own
    # C23 stops; -1 28.  K31: 30, leap 29.  = 11 moves.
    p = Position()
    expected = {
        "19-18", "20-18", "20-21", "23-25", "24-21", "26-22", "26-28",
        "27-25", "27-28", "31-30", "31-29",
    }
    assert moves(p) == expected
    # White's answers after 19-18, seen from White: k1 f5 g6 h8 c9 t12 p13.
    # k1: 2, 3.  f5: 7, then 9 own c stops; -1 4.  g6: 10, -2 4.  h8: 11, 5 own f.
    # c9: backward screen h8, beyond 7 empty -> 7, own g6 stops; forward screen
    # t12, first piece beyond is own p13 -> nothing.  t12: 14, -1 11.  p13: 14.
    p.push_str("19-18")
    assert moves(p) == {
        "1-2", "1-3", "5-7", "5-4", "6-10", "6-4", "8-11", "9-7", "12-14", "12-11", "13-14",
    }


# --- 2. Silver Cannon and Reverse Chariot ------------------------------------------------


def test_silver_cannon_screens_kings_and_second_piece():
    # Black C 16.  Forward: 15, 14 empty (no screen yet -> no moves), White
    # king 12 is the screen, 11 10 9 empty -> moves, White p 8 -> capture; the
    # Black G on 5 lies beyond a second piece -> unreachable.
    # Backward: 17..20 empty -> no moves, own P 21 is the screen, 22 23 -> moves,
    # own T 24 is the first piece beyond -> no capture, stop.
    pieces = {5: "G", 8: "p", 12: "k", 16: "C", 21: "P", 24: "T", 28: "K"}
    p = pos(pieces)
    assert moves_from(p, 16) == targets(16, {11, 10, 9, 8, 22, 23})
    # The enemy king used as a screen is not in check.
    assert not pos(pieces, side="w").is_check()


def test_white_silver_cannon_own_king_and_enemy_king_as_screens():
    # White c 10 (White forward = toward 31).  Backward 9 8 7 empty, own k 6 =
    # screen, 5 4 -> moves, Black P 3 -> capture.  Forward 11..14 empty, Black K
    # 15 = screen, 16 17 -> moves, Black T 18 -> capture.
    p = pos({3: "P", 6: "k", 10: "c", 15: "K", 18: "T"}, side="w")
    assert moves_from(p, 10) == targets(10, {5, 4, 3, 16, 17, 18})


def test_silver_cannon_with_no_screen_has_no_moves():
    # Black C 16 and nothing on either side up to the kings at 1 and 31?  Put
    # the kings at the ends: forward 15..2 empty, k 1 is the first piece = a
    # screen with nothing beyond; backward 17..30 empty, own K 31 = screen,
    # nothing beyond.  No moves at all.
    p = pos({1: "k", 16: "C", 31: "K"})
    assert moves_from(p, 16) == set()


def test_silver_cannon_cannot_capture_own_piece_right_after_screen():
    # Black C 20, screen White p 18, own H 17 right behind it -> nothing that way.
    # Backward: 21 own P = screen, 22 White g = first piece beyond -> capture.
    p = pos({2: "k", 17: "H", 18: "p", 20: "C", 21: "P", 22: "g", 30: "K"})
    assert moves_from(p, 20) == targets(20, {22})


def test_silver_cannon_check_needs_exactly_one_screen():
    # White to move, White k 10, Black C 20.
    base = {10: "k", 20: "C", 30: "K"}
    # No screen: 19..11 empty, the king is the first piece -> no check.
    assert not pos(base, side="w").is_check()
    # One screen (Black P 15): the king is the first piece beyond -> check.
    assert pos({**base, 15: "P"}, side="w").is_check()
    # Two screens (Black P 15, White p 12): the cannon never crosses a second piece.
    assert not pos({**base, 15: "P", 12: "p"}, side="w").is_check()


def test_cannon_may_use_and_capture_a_cannon():
    # "No cannon-specific exceptions": a cannon is an ordinary screen and target.
    # Black C 20 forward: 19 empty, White c 18 = screen, 17 16 -> moves, White
    # p 15 -> capture.  Backward: 21..23 empty, own P 24 = screen, 25 26 ->
    # moves, own T 27 stops.  (White c 18 looking toward 31 sees C 20 as its
    # screen and P 24 as its target; with C gone it would see P 24 as the screen
    # and T 27 as the target -- the Black K 31 stays safe either way.)
    p = pos({3: "k", 15: "p", 18: "c", 20: "C", 24: "P", 27: "T", 31: "K"})
    assert moves_from(p, 20) == targets(20, {17, 16, 15, 25, 26})
    # Black C 20, own P 19 = screen, 18 17 -> moves, White c 16 -> capture.
    # Backward: 21..30 empty, own K 31 = screen, nothing beyond.
    p = pos({3: "k", 16: "c", 19: "P", 20: "C", 31: "K"})
    assert moves_from(p, 20) == targets(20, {18, 17, 16})


def test_removing_the_second_screen_exposes_the_king_to_a_cannon():
    # From Black K 30 toward 1: White p 25, Black C 20, White c 18.  The White
    # cannon now has two pieces (C 20, p 25) before the king.  If C 20 leaves
    # the stretch 19..29 only p 25 is left between them: the king is attacked.
    # So C 20 may go backward beyond the screen p 25 (26..29, still between),
    # but not forward to 17, 16 or 15 (taking p 15), which it otherwise could.
    p = pos({3: "k", 15: "p", 18: "c", 20: "C", 25: "p", 30: "K"})
    assert moves_from(p, 20) == targets(20, {26, 27, 28, 29})


def test_reverse_chariot_blocked_and_captures_first_piece():
    # Black +C 16: forward 15, 14, White g 13 -> capture, stop; backward 17, own P 18 stops.
    p = pos({5: "k", 13: "g", 16: "+C", 18: "P", 28: "K"})
    assert moves_from(p, 16) == targets(16, {15, 14, 13, 17})


# --- 3. stride-2 riders ---------------------------------------------------------------


def test_flying_swallow_passes_odd_squares_stops_on_even():
    # Black F 20: landing squares 18, 16, 14, ...; 19 (White p) and 17 (Black P)
    # are odd squares passed over; 18, 16 empty; White g 14 -> capture and stop.
    # Backward -1 -> 21.
    p = pos({5: "k", 14: "g", 17: "P", 19: "p", 20: "F", 28: "K"})
    assert moves_from(p, 20) == targets(20, {18, 16, 14, 21})


def test_bishop_both_ways_stops_at_own_and_captures_enemy():
    # White +f 10.  Forward (toward 31): 11 Black P and 13 White p are passed,
    # 12 and 14 empty, 16 own t -> stop.  Backward: 9 Black T passed, 8 empty,
    # 6 Black G -> capture and stop.
    p = pos({2: "K", 6: "G", 9: "T", 10: "+f", 11: "P", 13: "p", 16: "t", 26: "k"}, side="w")
    assert moves_from(p, 10) == targets(10, {12, 14, 8, 6})


def test_ito_bishop_range_unlimited():
    # Black +F 30 with only the kings on 1 (White) and 31 (Black): 28, 26, ..., 2.
    p = pos({1: "k", 30: "+F", 31: "K"})
    assert moves_from(p, 30) == targets(30, set(range(2, 29, 2)))


# --- 4. leaps ---------------------------------------------------------------------


def test_horse_leaps_over_pieces():
    # Black H 20: +3 -> 17 over White h 19 and Black P 18; -3 -> 23 (White g)
    # over White t 21 and Black P 22 -> capture.
    p = pos({3: "k", 18: "P", 19: "h", 20: "H", 21: "t", 22: "P", 23: "g", 30: "K"})
    assert moves_from(p, 20) == targets(20, {17, 23})


def test_goose_leaps_over_pieces():
    # Black G 20: +4 -> 16 (White p) over 19 t, 18 P, 17 h -> capture;
    # -2 -> 22 over Black T 21.
    p = pos({3: "k", 16: "p", 17: "h", 18: "P", 19: "t", 20: "G", 21: "T", 30: "K"})
    assert moves_from(p, 20) == targets(20, {16, 22})


def test_tile_general_leaps_over_piece():
    # White t 10: +2 -> 12 (Black G) over Black P 11 -> capture; -1 -> 9.
    p = pos({2: "K", 10: "t", 11: "P", 12: "G", 25: "k"}, side="w")
    assert moves_from(p, 10) == targets(10, {12, 9})


def test_king_leap_two_over_pieces():
    # Black K 20 with own P 19: 19 own -> no; leap 18 -> yes; -1 21 -> yes.
    p = pos({3: "k", 19: "P", 20: "K"})
    assert moves_from(p, 20) == targets(20, {18, 21})
    # White k 10 with Black G 11 (attacks 7 and 13): 11 capture, leap 12, 9.
    p = pos({10: "k", 11: "G", 28: "K"}, side="w")
    assert moves_from(p, 10) == targets(10, {11, 12, 9})


# --- king safety -------------------------------------------------------------------


def test_pinned_piece_cannot_leave_the_line():
    # White Reverse Chariot 10, Black H 12, Black K 20: H +3 -> 9 would leave
    # 11..19 empty and expose K 20 -> illegal; -3 -> 15 still blocks -> legal.
    p = pos({2: "k", 10: "+c", 12: "H", 20: "K"})
    assert moves_from(p, 12) == targets(12, {15})


def test_moving_into_cannon_line_gives_it_a_screen():
    # White Silver Cannon 10, Black K 20, Black G 21 (the cannon's target now).
    # G +4 -> 17 becomes a screen between 10 and 20 -> K attacked -> illegal;
    # -2 -> 23 -> legal.
    p = pos({2: "k", 10: "c", 20: "K", 21: "G"})
    assert moves_from(p, 21) == targets(21, {23})


def test_king_may_not_step_into_attack():
    # Black K 20, White g 11 (White goose attacks 15 and 9), White t 16 (attacks 18, 15).
    # K: 19 ok, leap 18 attacked by t, 21 ok.
    p = pos({2: "k", 11: "g", 16: "t", 20: "K"})
    assert moves_from(p, 20) == targets(20, {19, 21})


# --- 5. flip on capture ---------------------------------------------------------------


def key_of(pieces, side, hands):
    return Position(f"{board(pieces, N)} {side} {hands} 1", validate=False).key()


def test_capture_promotes_and_hand_gets_unpromoted_piece():
    # Black P 20 takes White +t 19: the pawn becomes a Go-Between, Black gets a T.
    p = pos({3: "k", 19: "+t", 20: "P", 30: "K"})
    p.push_str("20-19")
    assert p.key() == key_of({3: "k", 19: "+P", 30: "K"}, "w", "T")
    assert str(p.piece_at(19)) == "+P"
    # The Go-Between now moves with its new powers: +1 and -1.
    p.push_str("3-4")
    assert moves_from(p, 19) == targets(19, {18, 20})


def test_promoted_capturer_demotes():
    # Black Silver General 20 takes White Phoenix 18 (leap +2): it flips back to
    # a Tile General; Black's hand gets an unpromoted G.
    p = pos({3: "k", 18: "+g", 20: "+T", 30: "K"}, hands="p")
    p.push_str("20-18")
    assert p.key() == key_of({3: "k", 18: "T", 30: "K"}, "w", "Gp")


def test_capture_that_flips_into_a_checking_piece_gives_check():
    # Black Silver Cannon 20 jumps the White p 18 and takes the White t 16: it
    # flips to a Reverse Chariot, which from 16 sees 15..4 empty and the White
    # king on 3 -> White is in check and must answer it.
    p = pos({3: "k", 16: "t", 18: "p", 20: "C", 30: "K"})
    p.push_str("20-16")
    assert p.is_check()
    with pytest.raises(IllegalMoveError):
        p.push_str("18-19")
    # White's answers: k 3 -> 4 (still on the chariot's line: attacked), leap 5
    # (attacked), -1 -> 2 (attacked: 15..3 empty after the king left);
    # p 18 -> 19 does not help.  No drops (empty hand).  So it is mate.
    assert p.is_checkmate()
    assert p.outcome().winner == BLACK  # Black wins


def test_king_never_flips():
    # Black K 20 takes White p 19: still a plain king; Black gets a pawn.
    p = pos({3: "k", 19: "p", 20: "K"})
    p.push_str("20-19")
    assert str(p.piece_at(19)) == "K"
    assert p.key() == key_of({3: "k", 19: "K"}, "w", "P")


def test_white_capture_flips_and_black_piece_goes_to_white_hand():
    # White h 10 takes Black +F 13 (+3 for White): becomes +h, White hand gets F.
    p = pos({2: "k", 10: "h", 13: "+F", 30: "K"}, side="w")
    p.push_str("10-13")
    assert p.key() == key_of({2: "k", 13: "+h", 30: "K"}, "b", "f")


# --- 7. drops, drop mate, stalemate, checkmate ------------------------------------------


def test_drop_anywhere_even_dead_squares():
    # Black K 20, White k 10, Black holds a P: every empty square, including 1
    # where a Black pawn can never move again.  P*11 checks but k takes it.
    p = pos({10: "k", 20: "K"}, hands="P")
    assert drops(p) == {f"P*{s}" for s in range(1, 32) if s not in (10, 20)}


def test_white_drop_on_its_last_square():
    # White holds a g; square 31 (Black K elsewhere) is fine although a White
    # goose there has no move forward and only -2 backward.  Also square 30
    # where only -2 works.  All empty squares.
    p = pos({2: "K", 20: "k"}, side="w", hands="g")
    assert drops(p) == {f"G*{s}" for s in range(1, 32) if s not in (2, 20)}


def test_ito_drops_are_never_promoted():
    p = pos({2: "K", 20: "k"}, side="w", hands="g")
    with pytest.raises(MoveError):
        p.parse_move("+G*25")


# Drop mate: White k 1, Black T 4 (attacks 2 and 5), Black G 7 (attacks 3 and 9),
# Black K 25, Black holds a P.  P*2 attacks 1; the king's squares are 2 (capture,
# but T 4 guards 2) and 3 (G 7 guards it); no White pieces, empty White hand.
DROP_MATE = {1: "k", 4: "T", 7: "G", 25: "K"}


def test_drop_mate_is_legal_by_default():
    p = pos(DROP_MATE, hands="P")
    assert "P*2" in drops(p)
    p.push_str("P*2")
    assert p.is_check()
    assert p.is_checkmate()
    assert p.legal_moves() == []
    assert p.outcome().winner == BLACK  # BLACK


def test_drop_mate_illegal_with_switch():
    p = pos(DROP_MATE, hands="P", variant="ito:drop_mate=no")
    assert "P*2" not in drops(p)
    with pytest.raises(IllegalMoveError):
        p.parse_move("P*2")


def test_board_move_mate_legal_with_drop_mate_switch():
    # Same mate, made by a board move: Black P 3 -> 2 (the pawn on 3 attacks 2
    # only, so the start position is not check).
    p = pos({**DROP_MATE, 3: "P"}, variant="ito:drop_mate=no")
    assert "3-2" in moves(p)
    p.push_str("3-2")
    assert p.is_checkmate()


def test_drop_that_gives_a_cannon_its_screen_and_mates():
    # White k 1 (squares 2 and 3), Black Silver Cannon 10, Black K 25, Black P
    # in hand.  A pawn dropped on s in 4..9 is a screen: the king on 1 is the
    # first piece beyond it, and so would be the king on 2 or 3 -> mate.  On 2
    # or 3 the king takes it and is then the first piece of the line -> check
    # only.  On 11..31 the cannon still has no screen and White keeps 2 and 3.
    base = {1: "k", 10: "C", 25: "K"}
    everywhere = {f"P*{s}" for s in range(2, 32) if s not in (10, 25)}
    assert drops(pos(base, hands="P")) == everywhere
    no_dm = drops(pos(base, hands="P", variant="ito:drop_mate=no"))
    assert no_dm == everywhere - {f"P*{s}" for s in range(4, 10)}


def test_kings_may_not_approach_each_other():
    # White k 6 attacks 7, 8 (+1, +2) and 5.  Black K 10: 9 ok, leap 8
    # attacked by the king, 11 ok.
    p = pos({6: "k", 10: "K"})
    assert moves_from(p, 10) == targets(10, {9, 11})


def test_side_to_move_without_legal_move_loses():
    # White to move: k 1, its squares 2 (Black T 4) and 3 (Black G 7) are
    # attacked, it is not in check and has nothing else: it has no legal move
    # and loses ("A side to move with no legal move loses").
    p = pos({1: "k", 4: "T", 7: "G", 25: "K"}, side="w")
    assert not p.is_check()
    assert p.legal_moves() == []
    assert p.is_stalemate()
    assert not p.is_checkmate()
    assert p.outcome().winner == BLACK  # Black wins


# Stalemate: White k 1 alone, Black G 7 covers 3, Black T 6 (attacks 4 and 7),
# Black K 25.  White now escapes via 2.  T 6 -> 4 (its only move: -1 = 7 is the
# own G) covers 2 with its +2 leap without attacking 1: White, not in check,
# would have no king-safe move.
STALE = {1: "k", 6: "T", 7: "G", 25: "K"}


def test_stalemating_move_is_illegal():
    p = pos(STALE)
    assert moves_from(p, 6) == set()
    with pytest.raises(IllegalMoveError):
        p.parse_move("6-4")


def test_stalemating_move_is_legal_with_switch_and_stalemated_side_loses():
    p = pos(STALE, variant="ito:stalemate=loss")
    assert moves_from(p, 6) == {"6-4"}
    p.push_str("6-4")
    assert not p.is_check()
    assert p.legal_moves() == []
    assert p.is_stalemate()
    assert p.outcome().winner == BLACK  # Black, who stalemated White, wins


def test_no_stalemate_when_opponent_can_drop():
    # The same move with a pawn in White's hand: White can still drop.
    p = pos(STALE, hands="p")
    assert moves_from(p, 6) == {"6-4"}


def test_stalemating_drop_is_illegal():
    # White k 1, Black G 7 (covers 3), Black K 25, Black holds a T.  A T on s
    # attacks s-2 and s+1.  T*4 covers 2 without check -> stalemate -> illegal.
    # T*3 attacks 1 (check, k escapes to 2) -> legal.  T*2: k takes it safely.
    p = pos({1: "k", 7: "G", 25: "K"}, hands="T")
    expected = {f"T*{s}" for s in range(2, 32) if s not in (4, 7, 25)}
    assert drops(p) == expected
    q = pos({1: "k", 7: "G", 25: "K"}, hands="T", variant="ito:stalemate=loss")
    assert drops(q) == expected | {"T*4"}


def test_king_in_check_escapes():
    # Black K 31 in check from White t 29 (+2 leap for White from 29 is 31).
    # K moves: 30 (t 29 attacks 31 and 28 -> safe), leap 29 takes the t.  Not mate.
    p = pos({29: "t", 31: "K", 3: "k"})
    assert p.is_check()
    assert not p.is_checkmate()
    assert moves(p) == {"31-30", "31-29"}  # 29 capture: nothing else attacks 29


# --- 8. repetition -----------------------------------------------------------------


def test_third_occurrence_is_illegal():
    p = Position()
    shuffle = ["31-30", "1-2", "30-31", "2-1", "31-30", "1-2", "30-31"]
    for s in shuffle:
        p.push_str(s)
    # 2-1 would make the start position appear for the third time.
    assert p.repetitions() == 2  # the position before 2-1 was seen twice
    assert "2-1" not in moves(p)
    assert "2-1" in moves(p, repetition=False)
    assert {"2-3", "2-4"} <= moves(p)  # the other king moves stay
    with pytest.raises(IllegalMoveError):
        p.parse_move("2-1")
    m = [x for x in p.legal_moves(repetition=False) if str(x) == "2-1"][0]
    p.push(m)
    assert p.repetitions() == 3


def test_second_occurrence_is_fine():
    p = Position()
    for s in ["31-30", "1-2", "30-31"]:
        p.push_str(s)
    assert "2-1" in moves(p)
