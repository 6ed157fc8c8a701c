"""Hand-built tsume problems, one or more per solver convention.

Every problem below was worked out by hand from docs/rules.md (section 4) and the
conventions stated in the docstring of :mod:`tsume.reference`; the reasoning is
in the comments.  Each one is solved by BOTH solvers: :func:`check` runs
``reference_solve`` (the plain exhaustive search) and ``solve()`` (df-pn),
asserts that they agree (status, length, main line, leftover, and the set of
first moves that mate within the bound, with their lengths), and the test then
asserts the hand-derived answer.

Reminders used throughout (docs/rules.md):

* squares 1..N, square 1 is White's home end.  Black (uppercase, the attacker in
  every problem here) moves toward square 1, so a Black piece's "forward k" is
  square - k; White (lowercase, the defender) moves toward N, "forward k" is
  square + k;
* every capture flips the capturer (unpromoted <-> promoted); kings never flip;
  a captured piece goes to the captor's hand unpromoted;
* Ito king: +1, leap +2, -1.  Rutherford king: +1, leap +2, never back;
* a leap ignores what stands between, so a leaper's check cannot be interposed;
  a stride-2 rider (Swallow F / Bishop +F in Ito, Bishop B in Rutherford) only
  lands on every second square, so only those landing squares lie "between";
* lengths count plies; the leftover is the attacker's hand at the end ("-" =
  nothing); White's drops are written in capitals (``P*3``) like Black's.
"""

from __future__ import annotations

from tsume import DefenderHand, Position, Problem
from tsume.search import Search
from tsume.reference import ReferenceSolver, reference_solve
from tsume.solve import solve

# --- helpers -------------------------------------------------------------------


def reference(problem: Problem, bound: int):
    """The reference answer: ((length, main line, leftover) or None, {first move: length})."""
    pos = problem.position()
    line, firsts = reference_solve(pos, bound)
    first = {str(m): v for m, v in firsts.items() if v is not None}
    if line is None:
        return None, first
    q = pos.copy()
    moves = []
    for m in line.moves:
        moves.append(str(m))
        q.push(m)
    # the reference's leftover count is the attacker's hand at the end of its line
    assert line.leftover == sum(q.hand_counts(pos.turn))
    return (line.length, moves, q.hand_string(pos.turn)), first


def check(problem, variant: str = "ito", bound: int = 5, defender_hand: str | None = None):
    """Solve ``problem`` (a string or Position) with both solvers, assert that they
    agree, and return the solve() Result."""
    tsume = Problem(problem, variant=variant, defender=defender_hand)
    r = solve(tsume, max_length=bound, all_first_moves=True)
    ref_line, ref_first = reference(tsume, bound)
    if ref_line is None:
        assert r.status == "nomate", (r.status, r.length, r.mainline)
    else:
        assert r.status == "mate", (r.status, ref_line)
        assert (r.length, r.mainline, r.leftover) == ref_line
    assert r.first_moves is not None
    dfpn_first = {d["move"]: d["length"] for d in r.first_moves if d["status"] == "mate"}
    assert dfpn_first == ref_first
    return r


def after(problem: str, variant: str, played: list[str], defender_hand: str | None = None) -> Position:
    """The tsume position after the moves ``played``."""
    pos = Problem(problem, variant=variant, defender=defender_hand).position()
    for s in played:
        pos.push_str(s)
    return pos


def legal(pos: Position) -> list[str]:
    return sorted(str(m) for m in pos.legal_moves())


def mating(r) -> dict[str, int]:
    """The first moves that mate within the bound, with their lengths."""
    return {d["move"]: d["length"] for d in r.first_moves if d["status"] == "mate"}


def variations_at(r, ply: int) -> dict[str, tuple]:
    """The variations replacing the main line's ``ply``-th ply (from 1): {move: (useless, length, leftover)}."""
    return {v.move: (v.useless, v.length, v.leftover) for v in r.variations if v.ply == ply}


# --- a. mates in 1 and a mate in 3 -------------------------------------------------


def test_ito_mate_in_1_by_drop():
    # White: k1, p2, g3; the rest of the set in hand.  Black holds a Horse (leaps 3
    # both ways).  H*4 attacks 1 (4-3) and 7.  The king's squares 2 and 3 hold its
    # own men.  Nothing reaches 4: the pawn on 2 could only step to 3 (its own
    # goose), the goose leaps +4/-2 (7 and 1), the king reaches 2 and 3 only.  A
    # leap cannot be interposed, so H*4 mates (Ito allows drop mate).  It is the
    # only check: only a horse on 4 attacks square 1.
    r = check("kpg28 b H 1", "ito", 3)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["H*4"], "-")
    assert r.first_moves == [{"move": "H*4", "status": "mate", "length": 1}]
    assert r.variations == []


def test_rutherford_mate_in_1_by_board_move():
    # Rutherford, 11 squares.  White: k1, l2, b3.  Black: N7, empty hand.
    # 7-4 (knight leap 3 forward): a knight on 4 attacks 3 (step) and 1 (leap 3).
    # The king (forward only: 2 and 3) is boxed in by its own lance and bishop.
    # Nobody takes on 4: the lance on 2 is blocked by its bishop on 3, the bishop
    # lands on 5, 7, ... and 1 only.  A leap cannot be interposed.  Mate.
    r = check("klb3N4 b - 1", "rutherford", 3)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["7-4"], "-")
    assert [d["move"] for d in r.first_moves] == ["7-4"]


def test_ito_mate_in_3_with_a_unique_line():
    # White: k1, f3 (its Swallow lands on 5, 7, ... and steps back to 2).
    # Black: H7, G8, G10, empty hand.  No check yet: H7 attacks 4 and 10, G8 4 and
    # 10, G10 6 and 12.
    # Ply 0: the only check is 7-4 (a horse on 4 attacks 1).  The geese's moves do
    # not check: G8-4 attacks 0 and 6, G10-6 attacks 2 and 8, G8-10 is blocked and
    # G10-12 attacks 8 and 14.
    # Ply 1: the king cannot reach the horse (only 2 and 3), 3 holds its own
    # swallow, drops do not stop a leap: 1-2 is forced.
    # Ply 2: 10-6 (a goose on 6 attacks 2 = 6-4).  From 2 the king has 1 (the horse
    # on 4 attacks 1), 3 (its own swallow) and 4 (takes the horse, but G8 attacks
    # 4 = 8-4); the swallow cannot take on 6 (it lands on odd squares).  Mate, and
    # the only one: the horse's moves 4-1 and 4-7 do not attack 2.
    r = check("k1f3HG1G21 b - 1", "ito", 5)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 3, ["7-4", "1-2", "10-6"], "-")
    assert r.first_moves == [{"move": "7-4", "status": "mate", "length": 3}]
    assert r.variations == []  # a single defence: no alternative anywhere


# --- b. no mate, and no mate within a bound ------------------------------------------


def test_ito_no_mate_interpositions_refute_every_check():
    # White: k1, p2, the rest of the set in hand.  Black: G7, a Silver Cannon in hand.
    # The only checks are C*3 .. C*6: the cannon hops the white pawn on 2 (its
    # screen) onto the king (from 8 on, G7 would be the screen).  C*3 is simply
    # taken by the pawn (2x3).  Against C*4 .. C*6 the king cannot
    # move (2 is its own pawn, 3 is covered by G7 = 7-4 -- the cannon does not
    # attack 3, the king there would be its first piece, i.e. a screen), but White
    # drops a piece on 3, in front of its pawn: two pieces in a row, the cannon no
    # longer reaches the king, and it cannot take the new piece (the first piece it
    # meets is a screen, not a target).  Black's only check is then cannon x pawn
    # (hopping the piece on 3), which makes a Reverse Chariot on 2, next to the
    # king and unprotected: the king takes it.  Black is left with G7 and the pawn
    # in hand, and no check (a pawn would have to stand on 3; the goose reaches 3
    # and 9 only).
    r = check("kp4G24 b C 1", "ito", 7)
    assert r.status == "nomate" and r.length is None and r.mainline == []
    assert all(d["status"] == "nomate" for d in r.first_moves)
    assert {d["move"] for d in r.first_moves} == {"C*3", "C*4", "C*5", "C*6"}
    # ... and not at any length (the df-pn search is unbounded without max_length)
    assert solve(Problem("kp4G24 b C 1", variant="ito")).status == "nomate"


def test_no_mate_within_the_bound_but_a_mate_with_a_larger_one():
    # The mate in 5 of test_longest_defence_is_the_main_line: within 3 plies there
    # is none (after T*4 2-1 Black needs 3 more plies), within 5 there is.
    r3 = check("1k5G23 b TG 1", "ito", 3)
    assert r3.status == "nomate" and r3.length is None
    assert all(d["status"] == "nomate" for d in r3.first_moves)
    r5 = check("1k5G23 b TG 1", "ito", 5)
    assert (r5.status, r5.length) == ("mate", 5)
    # the same for the mate in 3 of test_ito_mate_in_3_with_a_unique_line
    assert check("k1f3HG1G21 b - 1", "ito", 1).status == "nomate"
    assert check("k1f3HG1G21 b - 1", "ito", 3).length == 3


# --- c. useless and effective interpositions -------------------------------------------

USELESS = "k2F1TGG23 b - 1"


def test_useless_interposition_is_refuted_but_not_counted():
    # White: k1, the rest of the set in hand (2P T 2C 2H F).  Black: F4, T6, G7, G8.
    # F4 lands on 2 and steps back to 5; T6 leaps to 4, steps back to 7; G7 attacks
    # 3 and 9; G8 attacks 4 and 10.  No check yet.
    # Ply 0: 4-5 (the swallow steps BACK) is the only check: from 5 it lands on 3
    # and then on the king.  (F4 cannot reach 3 in one move, F4-2 attacks nothing;
    # T6-4 and G8-4 are blocked by the swallow; G7-3 attacks 5, G7-9 5 and 11,
    # G8-10 6 and 12; T6-7 is blocked.  Black's hand is empty.)
    # Ply 1: 1-3 is covered (swallow, G7); 1-2 is free now that the swallow left 4;
    # or White drops a piece on 3, the only landing square between 5 and 1.
    # Main line: 1-2, then 6-4 (a tile on 4 leaps to 2): 1 is covered by the
    # swallow (5 -> 3 -> 1), 3 by the swallow and G7, 4 itself is protected by G8.
    # Mate in 3.
    # X*3 is USELESS: the checker takes it (5x3), turning into a Bishop that still
    # checks 1 from 3.  With X handed back to White the position is still mated in
    # the same 2 plies (3 is protected by G7, so the king must go to 2, and 6-4 mates
    # again: the bishop on 3 covers 1), and the real position after X*3 is mated in
    # 3 (5x3, 1-2, 6-4).  So the drops are refuted but not counted: mate in 3, not 5.
    r = check(USELESS, "ito", 5)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 3, ["4-5", "1-2", "6-4"], "-")
    var = variations_at(r, 2)
    assert set(var) == {"P*3", "T*3", "C*3", "H*3", "F*3"}
    assert all(useless and length is None for useless, length, _ in var.values())
    # Counted, an interposition would make the problem 5 plies long: after 4-5 P*3
    # Black still needs exactly 3 plies (5x3, 1-2, 6-4), keeping the pawn in hand.
    pos = after(USELESS, "ito", ["4-5", "P*3"])
    r2 = check(pos, "ito", 3, defender_hand=DefenderHand.held(pos))
    assert (r2.length, r2.mainline, r2.leftover) == (3, ["5-3", "1-2", "6-4"], "P")


EFFECTIVE = "k2S8B2 b - 1"


def test_effective_interposition_is_counted():
    # Rutherford, 15 squares.  White: k1 (forward only: 2, 3).  Black: S4, B13
    # (a Bishop lands at most 8 squares away: from 13 it reaches 5, not 3 or 1).
    # S4 covers 3 (step) and 2 (leap 2).
    # 13-5: the bishop checks along 3.  The king has no square (2: S4; 3: S4 and the
    # bishop) and nothing takes the bishop, so White drops on 3 (allowed: 3 is two
    # squares from the king and in front of it; 2 would be next to it).
    # The interposition is EFFECTIVE: the checker's capture 5x3 turns the Bishop into
    # a Cannon, which captures only over a screen; between 3 and 1 there is none, so
    # 5x3 gives no check and is not even a candidate.  The drop therefore counts.
    # Black answers 4x3: the silver takes and becomes a Gold (step, leap 2 forward,
    # step back), attacking 2 and 1; 3 is protected by the bishop on 5.  Mate in 3,
    # the captured piece left in hand.
    r = check(EFFECTIVE, "rutherford", 3, defender_hand="P")
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 3, ["13-5", "P*3", "4-3"], "P")
    assert variations_at(r, 2) == {"+P*3": (False, 3, "P")}  # a promoted-side-up drop, also counted
    # The capture by the checker is legal but not a check:
    pos = after(EFFECTIVE, "rutherford", ["13-5", "P*3"], defender_hand="P")
    assert "5-3" in legal(pos)
    assert "5-3" not in {str(m) for m in pos.checks()}
    # With the whole rest of the set in hand every kind can be dropped on 3, each
    # one counted (3 plies, the piece taken back by the silver).
    r = check(EFFECTIVE, "rutherford", 3)
    assert (r.length, r.mainline, r.leftover) == (3, ["13-5", "P*3", "4-3"], "P")
    var = variations_at(r, 2)
    assert set(var) == {"+P*3", "S*3", "+S*3", "N*3", "+N*3", "B*3", "+B*3", "L*3", "+L*3"}
    assert all(not useless and length == 3 for useless, length, _ in var.values())
    # 13-7 (a check from 6 squares away) mates in 3 as well: a drop on 5 is taken
    # 7x5, the new Cannon checks over S4, and with the piece handed back White's only
    # answer, a drop on 3, is taken again (5x3, a Bishop, protected by S4): mate, so
    # the drop on 5 is useless (value 0 <= R = 0); a drop on 3 is counted (4x3 mates).
    # 13-9 does NOT: after P*7, 9x7 makes a Cannon checking over S4, and White can
    # then drop on 6, which the Cannon cannot take (no screen between 7 and 6).  So
    # P*7 is effective, and after it there is no mate in 1 (S4-3 is taken by the
    # king): 13-9 needs more than 3 plies.
    assert mating(r) == {"13-5": 3, "13-7": 3}


def test_an_interposition_verdict_holds_only_as_far_as_its_bound():
    # Found through verify(), which valued a yozume at 11 plies instead of 9.
    # Searched to 7 at once, a defender node deep in the tree (bound 0, where a
    # king move escapes, so an interposition there was judged "not useless"
    # without testing it) was stored as disproved up to the interposition's
    # own disproven bound, 3 -- where the interposition is useless and the
    # node is mated in 2.  The bounded search then said "no mate within 7",
    # although the unbounded one mates in 7 (the reference agrees: mate
    # within 7, 63 s of exhaustive search, so not run here).
    pos = Position("5k8p1+FC13 b PT2HFtc2g 2", variant="ito")
    assert Search(pos).value() == 7  # bounds 1, 3, 5 and 7 in turn
    assert Search(pos).mate(7)  # bound 7 at once


# --- d. the longest defence ------------------------------------------------------------


def test_longest_defence_is_the_main_line():
    # White: k2 (moves to 3, leaps to 4, steps back to 1).  Black: G8 (attacks 4 and
    # 10), a Tile General and a Goose in hand.
    # T*4: the tile leaps to 2 (check) and steps back to 5; it is protected by G8.
    # The king cannot take it; 1 and 3 are free.  Two defences:
    # * 2-3: then a goose dropped on 1 (its 2-back leap reaches 3) or on 7 (7-4 = 3)
    #   mates at once: 2 and 5 are covered by the tile, 4 is the protected tile.
    #   Total 3 plies, nothing left in hand.
    # * 2-1: there is no mate in 1 (the only check on 1 is G*5 -- the tile's moves
    #   to 2 or 5 do not attack 1 -- and it leaves 3 open); G*5 forces 1-3 (2 is
    #   covered by the tile), and
    #   5-1 (the goose leaps forward to 1 and attacks 3 by its 2-back leap) mates:
    #   2 and 5 are covered by the tile, 4 is the protected tile.  Total 5.
    # The defender picks the longer 2-1: a mate in 5, with 2-3 as a variation of
    # length 3.  (5-7 mates too; the solvers take the first of equal moves.  The
    # other checks, T*1 and G*6, do not mate within 5 plies.)
    r = check("1k5G23 b TG 1", "ito", 5)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 5, ["T*4", "2-1", "G*5", "1-3", "5-1"], "-")
    assert variations_at(r, 2) == {"2-3": (False, 3, "-")}
    assert [v for v in r.variations if v.move == "2-3"][0].line == ["2-3", "G*1"]
    assert variations_at(r, 4) == {}  # 1-3 was forced


# --- e. the leftover tie-breaks ------------------------------------------------------


def test_defender_prefers_the_line_leaving_fewer_pieces():
    # The defender holds nothing (defender_hand="none").  White: k1 and a Phoenix
    # (+g: steps 1 and leaps 4 both ways) on 2.  Black: H5, a Tile and a Cannon in hand.
    # C*4: the cannon hops the phoenix (screen) onto the king.  White's answers:
    # * 1-3 (the king leaps; 3 is not attacked: the cannon's first piece would be the
    #   king itself).  Then 4x2: the cannon hops the king on 3 and takes the phoenix,
    #   becoming a Reverse Chariot on 2 that checks up the line; the king's squares
    #   4 and 5 (the horse) are on that line too, and the chariot on 2 is protected
    #   by H5 (5-3).  Mate; Black keeps the tile and gains a goose: 2 pieces left.
    # * 2-6 (the phoenix leaps away and removes the screen).  Then T*2: the tile is
    #   the new screen; the king cannot take it (H5 protects 2) nor go to 3 (the tile
    #   steps back to 3); the phoenix on 6 could take the tile on 2 but then it is
    #   itself the screen.  Mate with nothing left in hand.
    # Both are 3 plies; the defender chooses the line leaving FEWER pieces (2-6),
    # although 1-3 comes first in move order.  (The other checks, T*3 and C*3, are
    # simply taken.)
    r = check("k+g2H26 b TC 1", "ito", 3, defender_hand="none")
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 3, ["C*4", "2-6", "T*2"], "-")
    assert variations_at(r, 2) == {"1-3": (False, 3, "TG")}
    assert [v for v in r.variations if v.move == "1-3"][0].line == ["1-3", "4-2"]


def test_attacker_prefers_the_line_leaving_more_pieces():
    # White: k1, p2, g3, h5.  Black: H7, G9, empty hand.  Two mates in 1:
    # * 7-4: a horse on 4 attacks 1; the king is boxed in (own men on 2 and 3) and
    #   nothing reaches 4 (p2 is blocked, g3 leaps to 7/1, h5 leaps to 8/2).
    # * 9x5: the goose leaps 4 onto the white horse and becomes a Phoenix, which
    #   attacks 1 (5-4); nothing reaches 5.  Black gains the horse.
    # Same length; the attacker chooses the one leaving MORE in hand (9x5, leftover
    # H), although 7-4 comes first in move order.
    r = check("kpg1h1H1G22 b - 1", "ito", 3)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["9-5"], "H")
    assert mating(r) == {"7-4": 1, "9-5": 1}


# --- f. repetition ---------------------------------------------------------------------

PERPETUAL = "k1ph1+G25 b - 1"


def test_perpetual_check_is_no_mate():
    # White: k1, p3, h4 (the pawn attacks only 4, the horse only 7 and 1).  Black: a
    # Phoenix (+G: steps 1 and leaps 4 both ways) on 6, nothing in hand.
    # The king lives on 1 and 2: 3 and 4 hold its own men.  6-5 checks (5-4 = 1):
    # forced 1-2; 5-6 checks (6-4 = 2): forced 2-1, and the start position is back.
    # Black's only other checks, 6-2 and 5-1, put the phoenix next to the king,
    # unprotected: it is taken and Black has nothing left.  So Black can check
    # forever but never mate; the repeated position is a failure for the attacker,
    # which is what ends the unbounded search.
    pos = Problem(PERPETUAL, variant="ito").position()
    start = pos.key()
    for attacker, defender in (("6-5", "1-2"), ("5-6", "2-1")):
        assert attacker in {str(m) for m in pos.checks()}
        pos.push_str(attacker)
        assert [str(m) for m in pos.evasions()] == [defender]
        pos.push_str(defender)
    assert pos.key() == start
    r = solve(Problem(PERPETUAL, variant="ito"))  # no max_length
    assert r.status == "nomate"
    assert check(PERPETUAL, "ito", 11).status == "nomate"
    # The reference's rule, directly: with the start position already on the line,
    # reaching it again fails for the attacker whatever the remaining length, and
    # the result is marked as depending on the line (so it is not memoised).
    solver = ReferenceSolver(Problem(PERPETUAL, variant="ito").position())
    solver.path.add(start)
    assert solver.mate(99) == (False, True)


# --- g. both kings: counter-check --------------------------------------------------------

COUNTER = "+bk1PK6 b S 1"


def test_counter_check_answered_by_a_checking_escape():
    # Rutherford, 11 squares.  White: a Cannon (+b) on 1 behind its king on 2.
    # Black: P4, K5 (forward only: 4, leap to 3), a Silver in hand.  The cannon's
    # screen is its own king; the first piece beyond is the pawn on 4, so Black's
    # king is not in check.
    # S*3: the silver attacks 2 (step) and 1 (leap 2).  The king cannot take it
    # (3 is protected by P4 and K5) nor leap to 4 (the pawn, protected by K5).
    # White's only answer: the cannon hops its king and takes the silver, becoming a
    # Bishop on 3 -- which lands on 5: a counter-check on Black's king.
    # Black must escape AND check: the king cannot go to 3 (attacked by White's
    # king) and the pawn is in the way of 4; 4x3 takes the bishop, the pawn becomes
    # a Go-Between (steps both ways) attacking 2: check.  The king then has 3
    # (protected by K5) and 4 (K5 and the go-between): mate in 3, the bishop in hand.
    r = check(COUNTER, "rutherford", 5)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 3, ["S*3", "1-3", "4-3"], "B")
    pos = after(COUNTER, "rutherford", ["S*3", "1-3"])
    assert pos.is_check()  # the counter-check
    assert legal(pos) == ["4-3"]
    assert [str(m) for m in pos.checks()] == ["4-3"]
    # a Gold dropped on 3 (+S*3) mates the same way
    assert mating(r) == {"S*3": 3, "+S*3": 3}


# --- h. Rutherford: drop-mate ban and drop limits ---------------------------------------


def test_rutherford_drop_mate_ban_board_move_mate_instead():
    # The position of test_rutherford_mate_in_1_by_board_move with a second knight in
    # hand.  N*4 (and +N*4: a Phoenix on 4 leaps 3 to 1) would mate exactly like 7-4,
    # but a drop may not checkmate: both are illegal.  The solution is the board
    # move 7-4, with the knight left over in hand.
    pos = Problem("klb3N4 b N 1", variant="rutherford").position()
    assert "N*4" not in legal(pos) and "+N*4" not in legal(pos)
    r = check("klb3N4 b N 1", "rutherford", 3)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["7-4"], "N")
    assert [d["move"] for d in r.first_moves if d["status"] == "mate"] == ["7-4"]


DROPMATE = "k2S7 b B 1"


def test_rutherford_drop_mate_ban_longer_mate_and_interposition_drops():
    # Rutherford, 11 squares.  White: k1.  Black: S4 (covers 3 by a step and 2 by a
    # leap), a Bishop in hand.
    # B*3 would mate (2: S4; the bishop on 3 is protected by S4): illegal.
    # B*5 (unpromoted) checks along 3; White can drop on 3, and the checker's capture
    # 5x3 makes a Cannon that gives no check (no screen): effective, so B*5 takes
    # 3 plies (X*3, 4x3 like in test_effective_interposition_is_counted).
    # +B*5 (dropped as a Cannon) checks over the screen S4.  White may still drop on
    # 3 -- so the drop is not a checkmate and is legal -- but this interposition is
    # useless: the cannon takes it (first piece beyond its screen), turns into a
    # Bishop that checks from 3, protected by S4, and that is mate.  So the answer
    # is a mate in 1 by +B*5, the interposition refuted and not counted.
    # (A cannon dropped on 6..9 can also be stopped by a drop between it and the
    # silver, which it cannot take -- the first piece it meets is a screen: 3 plies.)
    pos = Problem(DROPMATE, variant="rutherford").position()
    assert "B*3" not in legal(pos)
    r = check(DROPMATE, "rutherford", 5)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["+B*5"], "-")
    first = mating(r)
    assert first["+B*5"] == 1 and first["B*5"] == 3
    assert "B*3" not in first


DROPLIMIT = "k1N6+BB1 b - 1"


def test_rutherford_drop_limit_forbids_the_interposition():
    # Rutherford, 12 squares.  White: k1, the rest of the set in hand.  Black: N3
    # (attacks 2), a Cannon (+B) on 10 and a Bishop on 11 (it lands on 9, 7, 5 and
    # 3: it protects the knight; 1 is 10 squares away).  The cannon is 9 squares
    # from the king over its screen N3: too far, no check yet.
    # 10-4: the cannon slides to 4 and checks over the screen N3 (3 squares).  The
    # king cannot go to 2 (the knight, and the cannon beyond its screen) nor take
    # the knight (protected by the bishop).  The only way to stop the check would
    # be a drop on 2, adding a second piece between cannon and king -- but 2 is
    # next to White's own king, and Rutherford forbids that drop.  Mate in 1.
    # (Had the drop been allowed, the cannon could not even take it with check: it
    # would become a Bishop on 2, which does not attack 1.)
    pos = after(DROPLIMIT, "rutherford", ["10-4"])
    assert pos.is_check() and sum(pos.hand_counts(pos.turn)) == 7  # White holds 2P 2S N 2L...
    assert legal(pos) == []  # ...and none of them may be dropped on 2
    r = check(DROPLIMIT, "rutherford", 3)
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["10-4"], "-")
    # From 5 the cannon leaves 4 between (two squares from the king: droppable),
    # and the bishop's line to the knight is cut: 10-5 does not mate.
    pos = after(DROPLIMIT, "rutherford", ["10-5"])
    assert "P*4" in legal(pos)
    assert mating(r) == {
        "10-4": 1,
        "10-6": 3,
        "10-8": 3,
    }


# --- i. the defender's hand ----------------------------------------------------------------


def test_defender_hand_none_versus_rest_ito():
    # test_ito_no_mate_interpositions_refute_every_check with a defender who holds
    # nothing: there is no interposition, and each cannon drop C*4, C*5, C*6 mates
    # at once (the king cannot move: its own pawn on 2, G7 covering 3).
    r = check("kp4G24 b C 1", "ito", 3, defender_hand="none")
    assert (r.status, r.length, r.mainline, r.leftover) == ("mate", 1, ["C*4"], "-")
    assert mating(r) == {"C*4": 1, "C*5": 1, "C*6": 1}
    assert check("kp4G24 b C 1", "ito", 3).status == "nomate"  # the rest: no mate


def test_defender_hand_none_versus_rest_rutherford():
    # test_rutherford_drop_mate_ban_longer_mate_and_interposition_drops with a
    # defender who holds nothing: every bishop or cannon drop that checks is now a
    # real checkmate (no interposition), hence illegal, and the silver's own checks
    # (4-3, 4-2) are answered by the king taking it.  Then Black has one bishop: it
    # may check once more, but the king steps forward onto the other colour of
    # squares, which a stride-2 piece never reaches.  No mate at all.
    r = check(DROPMATE, "rutherford", 7, defender_hand="none")
    assert r.status == "nomate"
    pos = Problem(DROPMATE, variant="rutherford", defender="none").position()
    assert sorted(str(m) for m in pos.checks()) == ["4-2", "4-3"]
    assert solve(Problem(DROPMATE, variant="rutherford", defender="none")).status == "nomate"
    # an explicit hand: one pawn is enough to make +B*5 legal (and a mate in 1) again
    r = check(DROPMATE, "rutherford", 5, defender_hand="P")
    assert (r.length, r.mainline) == (1, ["+B*5"])
