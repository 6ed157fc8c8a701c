"""Disproofs reused for other hands when the attacker has a king.

Ito's stalemate rule (and a drop-mate ban) can make a defence illegal when
the attacker holds fewer pieces: it might then have no king-safe answer.  A
defender node's disproof is still reused for other hands when the defence
that refutes it is legal whatever the hands hold: it checks (and is no
banned drop mate), or the attacker keeps a king-safe move of a piece on the
board.  The search's side of it is tested in the engine's unit tests
(``engine/src/search/node.rs``); here, the position's test it rests on, and
the answers with and without reuse for other hands."""

from __future__ import annotations

import pytest

from tsume.position import Position


def _after(fen: str, *moves: str) -> Position:
    p = Position(fen)
    for m in moves:
        p.push_str(m)
    return p


def test_a_safe_board_move_is_one_of_a_piece_on_the_board():
    # White's k on 1 is boxed in by Black's T on 4 and G on 7; its pawn on 31
    # cannot move; only its pawn in hand can: a drop, no board move.
    boxed = _after("k4TG17K6 w 2p 1", "p*31", "6-4")
    assert not boxed.is_check()
    assert boxed.has_safe_move()
    assert not boxed.has_safe_board_move()
    # With its pawn on 20 instead, the pawn can step.
    free = _after("k4TG17K6 w 2p 1", "p*20", "6-4")
    assert free.has_safe_board_move()
    # A side without a king: every piece move is safe, and drops do not count.
    assert Position("k30 b P 1").has_safe_move()
    assert not Position("k30 b P 1").has_safe_board_move()
    assert Position("k29P b P 1").has_safe_board_move()


def test_reuse_for_other_hands_changes_no_answer_under_the_stalemate_rule():
    # Ito's stalemate rule with attacker kings: every first move valued with
    # and without reuse for other hands.
    from tsume import Problem
    from tsume.search import Options
    from tsume.solve import solve

    for text in ("k4TG17K6 w 2p 1", "9k20K b 2P 1", "k2T2G17K6 w phP 1"):
        on = solve(Problem(text), all_first_moves=True, variations=False)
        off = solve(Problem(text), all_first_moves=True, variations=False, options=Options(hand_dominance=False))
        assert (on.status, on.length, on.first_moves) == (off.status, off.length, off.first_moves), text
