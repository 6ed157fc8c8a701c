"""Disproofs reused for other hands when the attacker has a king.

Ito's stalemate rule (and a drop-mate ban) can make a defence illegal when
the attacker holds fewer pieces: it might then have no king-safe answer.  A
defender node's disproof is still reused for other hands when the defence
that refutes it is legal whatever the hands hold: it checks (and is no
banned drop mate), or the attacker keeps a king-safe move of a piece on the
board (``DfPn._legal_for_any_hands``)."""

from __future__ import annotations

import pytest

from tsume.dfpn import DISPROVEN, INF, DfPn
from tsume.hands import Probe
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


@pytest.mark.parametrize("drop, legal", [("p*31", False), ("p*20", True)])
def test_a_defence_is_legal_for_any_hands_only_with_a_board_answer(drop, legal):
    # White attacks here; Black's 6-4 leaves it, not in check, with the pawn
    # in hand and, after p*20 only, a pawn move: with no pawn in hand the
    # first would stalemate White, and 6-4 would be illegal.
    e = DfPn(Position("k4TG17K6 w 2p 1"))
    e.pos.push_str(drop)
    assert e._legal_for_any_hands(e.pos.parse_move("6-4")) is legal


@pytest.mark.parametrize("variant, legal", [("ito", True), ("ito:drop_mate=no", False)])
def test_a_checking_defence_is_legal_for_any_hands_unless_it_is_a_banned_drop_mate(variant, legal):
    # White attacks, its k on 1 boxed in (Black's T on 4 covers 2, the G on
    # 7 covers 3).  Black's P*2 checks it and White has nothing but drops:
    # a drop mate, which only a ban makes illegal.
    e = DfPn(Position("k2T2G17K6 w phP 1", variant))
    e.pos.push_str("p*31")
    # (Read under Ito's own rules: under the ban it is no legal move.)
    m = _after("k2T2G17K6 w phP 1", "p*31").parse_move("P*2")
    assert e.pos.gives_check(m)
    assert e._legal_for_any_hands(m) is legal


def test_a_defender_nodes_disproof_serves_a_smaller_attacker_hand():
    # Two pawns against a lone king do not mate.  The defender node after
    # P*11 is disproved by a defence that leaves Black's king its moves, so
    # the disproof holds with fewer pawns in Black's hand too.
    e = DfPn(Position("9k20K b 2P 1"))
    e.pos.push_str("P*11")
    assert e.search(INF) == DISPROVEN
    h = e.pos.hash
    entry = e.table.get(h)
    assert entry is not None and not entry.d_exact
    out = Probe()
    e.table.lookup_into(out, h ^ 1, h ^ e.pos.hand_hash, 0, 0, INF, {})  # no pawn left
    assert (out.pn, out.dn) == (INF, 0)
