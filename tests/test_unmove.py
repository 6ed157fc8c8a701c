"""The un-move generator (Position.unmoves): hand-built cases and random cross-checks.

The random tests check both directions on seeded positions of both games:

* completeness -- for a legal move ``m`` from ``P`` to ``Q``, ``(P, m)`` is
  among ``Q.unmoves()`` (same position string, hands and move number included);
* soundness -- every ``(P', m')`` of ``Q.unmoves()`` is a valid position
  (its string reads back, with the engine's validation, as the same position),
  ``m'`` is legal in it, and ``P'.push(m')`` gives ``Q``.

The hand-built expectations were worked out from docs/rules.md, not printed
by the code under test.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tsume import Move, Position
from tsume.generate import random_tsume

try:
    from tests.random_positions import random_positions
except ImportError:  # pragma: no cover - when tests/ itself is on sys.path
    from random_positions import random_positions


def listing(text: str, variant: str = "ito") -> list[tuple[str, str]]:
    """``unmoves`` of a position string as sorted (previous position, move string) pairs."""
    return sorted((p.fen(), str(m)) for p, m in Position(text, variant).unmoves())


# --- hand-built cases --------------------------------------------------------------


def test_uncapture_unflips_a_capturer_that_promoted():
    # Black's Bishop (+F) on 21 checks White's king on 1 along 19, 17 ... 3, so
    # with Black to move before, it cannot have stood there already: White
    # would have been in check with Black to move.  Every piece of Black's that
    # stood still keeps that check, so the Bishop has just arrived, and a
    # Bishop only arrives by a capture: a plain move would also have checked
    # from where it came.  It was then a Flying Swallow (capture flips it) that
    # took a tile general (the T in Black's hand), shown either side up: from
    # 23, 25, 27, 29 (stride-2 forward; 22, 24, 26, 28 are passed over) or by
    # its step back from 20.
    got = listing("k19+Fp1h1P4K w T 1")
    expected = sorted(
        [(f"k18F{t}p1h1P4K b - 1", "20-21") for t in ("t", "+t")]
        + [(f"k19{t}pFh1P4K b - 1", "23-21") for t in ("t", "+t")]
        + [(f"k19{t}p1hFP4K b - 1", "25-21") for t in ("t", "+t")]
        + [(f"k19{t}p1h1PF3K b - 1", "27-21") for t in ("t", "+t")]
        + [(f"k19{t}p1h1P2F1K b - 1", "29-21") for t in ("t", "+t")]
    )
    assert got == expected


def test_uncapture_unflips_a_promoted_capturer_back_to_promoted():
    # A Tile General on 21, a goose in Black's hand, no Black king.  A plain
    # move kept the face: T came by its forward leap 2 (from 23) or its step
    # back (from 20), and the goose was already in hand.  A capture flipped it:
    # it was a Silver General (+T: step forward, leap 2 forward or back), from
    # 22, 23 or 19, and took a goose shown either side up.
    # Or it was dropped (the tile general then in hand too).
    got = listing("k19T10 w G 1")
    expected = sorted(
        [("k21T8 b G 1", "23-21"), ("k18T11 b G 1", "20-21"), ("k30 b TG 1", "T*21")]
        + [(f"k19{g}+T9 b - 1", "22-21") for g in ("g", "+g")]
        + [(f"k19{g}1+T8 b - 1", "23-21") for g in ("g", "+g")]
        + [(f"k17+T1{g}10 b - 1", "19-21") for g in ("g", "+g")]
    )
    assert got == expected


def test_king_uncapture():
    # Black's king on 30 with a pawn in hand.  A king steps or leaps 2 forward
    # (toward 1) and steps back, and never flips: it came from 31 (forward) or
    # 29 (back), either plainly or taking a White pawn, either side up.  In the
    # capture cases Black was in check before (a pawn on 30 attacks 31, a
    # Go-Between attacks 29 and 31): the capture is its way out.
    got = listing("k28K1 w P 1")
    expected = sorted(
        [("k29K b P 1", "31-30"), ("k27K2 b P 1", "29-30")]
        + [(f"k28{p}K b - 1", "31-30") for p in ("p", "+p")]
        + [(f"k27K{p}1 b - 1", "29-30") for p in ("p", "+p")]
    )
    assert got == expected


def test_ito_undrop_only_unpromoted():
    # A pawn on 31 cannot have moved there (it would come from 32), so it was
    # dropped: Ito drops go on any empty square, even where the piece can never
    # move again.
    assert listing("k29P w - 1") == [("k30 b P 1", "P*31")]
    # A Go-Between was never dropped (Ito drops are unpromoted): it stepped
    # back from 30.
    assert listing("k29+P w - 1") == [("k28+P1 b - 1", "30-31")]


def test_rutherford_undrop_either_side_up():
    # 12 squares, no Black king.  An unpromoted knight on 12 cannot have moved
    # there (it moves only forward, toward 1), so it was dropped; a Phoenix
    # (+N: leap 2 or 3 either way) may have leapt back from 10 or 9, or been
    # dropped promoted side up.  Both drops come from the same position.
    assert listing("k10N w - 1", "rutherford") == [("k11 b N 1", "N*12")]
    assert listing("k10+N w - 1", "rutherford") == sorted(
        [("k11 b N 1", "+N*12"), ("k8+N2 b - 1", "10-12"), ("k7+N3 b - 1", "9-12")]
    )


def test_rutherford_drop_limits_rule_out_an_undrop():
    # The knight on 10 stands next to its own king on 11: no drop there while
    # the king is on the board.  It cannot have moved there either (from 11,
    # the king's square, or 13, off the board), and the king moves only forward.
    assert listing("k8NK w - 1", "rutherford") == []
    # Without the king (and 11 empty) the same knight was dropped, or stepped
    # forward from 11.
    assert listing("k8N1 w - 1", "rutherford") == [("k10 b N 1", "N*10"), ("k9N b - 1", "11-10")]


def test_move_numbers():
    # The move number goes up after each White move (rules decision 8).
    assert {p.move_number for p, _ in Position("k29K w - 5").unmoves()} == {5}  # Black moved
    assert {p.move_number for p, _ in Position("k29K b - 5").unmoves()} == {4}  # White moved
    # There is no move 0: the previous position of move 1 keeps the number 1.
    before = Position("k29K b - 1").unmoves()
    assert before and {p.move_number for p, _ in before} == {1}


def test_history_is_ignored_and_pos_is_not_changed():
    q = Position("k28K1 w P 1")
    q.push_str("1-2")
    q.push_str("30-29")
    text, key = q.fen(), q.key()
    with_history = [(p.fen(), m) for p, m in q.unmoves()]
    assert (q.fen(), q.key(), q.ply) == (text, key, 2)
    assert with_history == [(p.fen(), m) for p, m in q.copy().unmoves()]
    assert all(p.ply == 0 for p, _ in q.unmoves())


# --- random cross-checks -----------------------------------------------------------

#: Positions per source and game; each gets up to MOVES_PER_POSITION moves checked.
COUNT = 500
MOVES_PER_POSITION = 3
SPECS = ("ito", "rutherford")


def _playout(rng: random.Random, pos: Position, plies: int) -> Position:
    """``pos`` after up to ``plies`` random legal moves of both sides (history kept).

    It stops before a position with no legal move (a mate, often, in these
    tsume-like positions), so that the result has moves to check.
    """
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
        if not pos.legal_moves():
            pos.pop()
            break
    return pos


def _sample(spec: str, seed: int) -> list[Position]:
    """Positions with promoted pieces, both hands, checks and kingless sides."""
    rng = random.Random(f"unmove:{seed}:{spec}")
    out = []
    variants = [spec] if spec == "rutherford" else ["ito", "ito", "ito:drop_mate=no", "ito:stalemate=loss"]
    for _ in range(COUNT):
        variant = rng.choice(variants)
        start = random_tsume(rng, variant, attacker=rng.choice([0, 1]), attacker_hand=(0, 4))
        out.append(_playout(rng, start, rng.randint(0, 16)))
    for text in random_positions(seed, spec, COUNT):
        out.append(_playout(rng, Position(text, spec), rng.choice([0, 0, 1, 3, 8])))
    return out


def _kind(p: Position, m: Move) -> str:
    if m.drop is not None:
        return "promoted drop" if m.drop.startswith("+") else "drop"
    mover = p.piece_at(m.from_square)
    king = "king " if mover is not None and mover.royal else ""
    if p.piece_at(m.to_square) is not None:
        return king + "capture"
    return king + "move"


def _check_sound(q: Position, found: list[tuple[Position, int]], reread: bool) -> None:
    """Soundness of ``q.unmoves()``; with ``reread``, each P is also read back from its string."""
    # The move number P must have (rules decision 8), never below 1.
    number = max(1, q.move_number - 1) if q.turn == 0 else q.move_number
    target = q.key()
    for p, m in found:
        assert p.turn != q.turn and p.ply == 0 and p.move_number == number
        if reread:  # the engine's validation and derived state, from the string
            again = Position(p.fen(), p.variant)
            assert (again.key(), again.hash, again.hand_hash, [again.king_square(c) for c in (0, 1)],
                    [again.occupancy(c) for c in (0, 1)]) == (p.key(), p.hash, p.hand_hash,
                    [p.king_square(c) for c in (0, 1)], [p.occupancy(c) for c in (0, 1)])
        assert m in p.legal_moves(), (q.fen(), p.fen(), str(m))
        p.push(m)
        after = p.key()
        p.pop()
        assert after == target, (q.fen(), p.fen(), str(m))
    keys = [(p.key(), m) for p, m in found]
    assert len(set(keys)) == len(keys), "an un-move listed twice"
    assert keys == sorted(keys)


@pytest.mark.parametrize("spec", SPECS)
def test_random_completeness_and_soundness(spec):
    rng = random.Random(f"unmove-moves:{spec}")
    kinds: Counter[str] = Counter()
    positions = 0
    for pos in _sample(spec, 11):
        moves = pos.legal_moves()
        if not moves:
            continue
        positions += 1
        # A few random moves, plus one of each rarer kind (captures, drops,
        # king captures) when there is one, so that every kind gets checked.
        chosen = set(rng.sample(moves, min(MOVES_PER_POSITION, len(moves))))
        by_kind: dict[str, list[int]] = {}
        for m in moves:
            by_kind.setdefault(_kind(pos, m), []).append(m)
        for kind in ("capture", "king capture", "promoted drop"):
            if kind in by_kind:
                chosen.add(rng.choice(by_kind[kind]))
        before = pos.copy()  # no history: what unmoves returns
        for m in sorted(chosen):
            kinds[_kind(pos, m)] += 1
            q = pos.copy()
            q.push(m)
            found = q.unmoves()
            # Board, hands, side to move and move number: the whole position string.
            assert (before.key(), before.move_number, m) in {(p.key(), p.move_number, mm) for p, mm in found}, (
                before.fen(),
                str(m),
            )
            _check_sound(q, found, reread=positions % 8 == 0)
    assert positions >= 900
    assert sum(kinds.values()) >= 3000
    # Every kind of un-move was exercised (the counts are those of the fixed seeds).
    assert kinds["capture"] >= 300 and kinds["drop"] >= 300 and kinds["move"] >= 1000
    assert kinds["king capture"] >= 20 and kinds["king move"] >= 100
    if spec == "rutherford":
        assert kinds["promoted drop"] >= 100


def test_random_unmoves_of_mates_and_checks():
    """Soundness on positions the reverse method starts from: the side to move in check."""
    seen = 0
    for spec in SPECS:
        for text in random_positions(5, spec, 150, in_check=True):
            q = Position(text, spec)
            found = q.unmoves()
            _check_sound(q, found, reread=True)
            seen += len(found)
    assert seen >= 1000
