"""Position basics: strings, make/unmake, hashing, colour-mirror symmetry, perft."""

from __future__ import annotations

import random
import re

import pytest

from tsume import Position, PositionError
from tsume.perft import divide, perft

ITO_START = "k3fg1hc2tp5PT2CH1GF3K b - 1"


# --- an independent colour mirror of a position string ---------------------------------


def mirror_text(text: str) -> str:
    """Reverse the board, swap colours (letter case), hands and side to move."""
    board_f, side, hands, *rest = text.split()
    tokens = re.findall(r"\d+|\+?[A-Za-z]", board_f)
    board_m = "".join(t if t.isdigit() else t.swapcase() for t in reversed(tokens))
    if hands == "-":
        hands_m = "-"
    else:
        hands_m = "".join(n + l.swapcase() for n, l in re.findall(r"(\d*)([A-Za-z])", hands))
    return " ".join([board_m, "w" if side == "b" else "b", hands_m, *rest])


def mirror_move(s: str, n: int) -> str:
    if "-" in s:
        a, b = s.split("-")
        return f"{n + 1 - int(a)}-{n + 1 - int(b)}"
    letter, to = s.split("*")
    return f"{letter}*{n + 1 - int(to)}"


def test_mirror_text_helper_by_hand():
    assert mirror_text("k3fg1hc2tp5PT2CH1GF3K b - 1") == "k3fg1hc2tp5PT2CH1GF3K w - 1"
    assert mirror_text("k2+P26K w Pt 7") == "k26+p2K b pT 7"


# --- perft -------------------------------------------------------------------------


def test_ito_start_perft():
    p = Position()
    assert [perft(p, d) for d in (1, 2, 3)] == [11, 121, 1276]
    assert p.fen() == ITO_START  # perft makes and unmakes every move


def test_perft_depth_zero_is_one():
    assert perft(Position(), 0) == 1


MIRROR_CASES = [
    ("ito", ITO_START),
    # Ito start with a captured pawn and tile general in hand on each side.
    ("ito", "k3fg1hc2t6P3CH1GF3K b Pt 1"),
    # Promoted pieces, White to move, a goose in Black's hand.
    ("ito", "k3+f2h1c3+t1p2P2T2C+H1F2K w G 1"),
    ("rutherford", "klsnbp9PBNSLK b - 1"),
    # Silvers swapped into the hands: promoted-side-up drops and drop limits.
    ("rutherford", "kl1nbp9PBN1LK b Ss 1"),
    # A longer board with promoted pieces and both hands.
    ("rutherford", "k2+s3b5p8P2+B1N3K w Ln 1"),
]


@pytest.mark.parametrize("variant, text", MIRROR_CASES)
def test_colour_mirror_perft_symmetry(variant, text):
    p = Position(text, variant)
    q = Position(mirror_text(text), variant)
    # the engine's own mirror agrees with the independent one
    assert p.mirror().key() == q.key()
    assert perft(p, 3) == perft(q, 3)
    n = p.n
    d1 = divide(p, 2)
    d2 = divide(q, 2)
    assert {mirror_move(m, n).upper(): c for m, c in d1.items()} == {m.upper(): c for m, c in d2.items()}


def test_mirror_of_start_is_start_with_white_to_move():
    assert Position().mirror().fen(move_number=False) == "k3fg1hc2tp5PT2CH1GF3K w -"


# --- make / unmake and hashing ------------------------------------------------------------


@pytest.mark.parametrize("variant, start", [("ito", None), ("rutherford", None), ("rutherford", "kl1nbp9PBN1LK b Ss 1")])
@pytest.mark.parametrize("seed", range(6))
def test_push_pop_restores_fen_and_hash(variant, start, seed):
    rng = random.Random(seed)
    p = Position(start, variant)
    history = []
    for _ in range(60):
        ms = p.legal_moves()
        if not ms:
            break
        history.append((p.fen(), p.hash, p.hand_hash, p.key()))
        p.push(rng.choice(ms))
        # incremental hashes == hashes of the same position read from scratch
        fresh = Position(p.fen(), variant)
        assert fresh.hash == p.hash
        assert fresh.hand_hash == p.hand_hash
        assert fresh.key() == p.key()
        assert fresh.fen() == p.fen()
    while history:
        fen, h, hz, key = history.pop()
        p.pop()
        assert p.fen() == fen
        assert p.hash == h
        assert p.hand_hash == hz
        assert p.key() == key


def test_random_walks_cover_drops_and_captures():
    # The walks above are only worth something if they make captures (flips,
    # hands) and drops; check that the same seeds do.
    drops = captures = 0
    for variant, start in [("ito", None), ("rutherford", None), ("rutherford", "kl1nbp9PBN1LK b Ss 1")]:
        for seed in range(6):
            rng = random.Random(seed)
            p = Position(start, variant)
            for _ in range(60):
                ms = p.legal_moves()
                if not ms:
                    break
                m = rng.choice(ms)
                s = str(m)
                if "*" in s:
                    drops += 1
                elif p.piece_at(int(s.split("-")[1])) is not None:
                    captures += 1
                p.push(m)
    assert drops >= 10 and captures >= 10, (drops, captures)


def test_hash_depends_on_side_and_hands():
    a = Position("k3fg1hc2t6P3CH1GF3K b Pt 1")
    b = Position("k3fg1hc2t6P3CH1GF3K w Pt 1")
    c = Position("k3fg1hc2t6P3CH1GF3K b pT 1")
    d = Position("k3fg1hc2t6P3CH1GF3K b Pt 9")
    assert len({a.hash, b.hash, c.hash}) == 3
    assert a.hash == d.hash  # the move number is not part of the position
    assert a.key() == d.key()


def test_fen_round_trip():
    # How the move number counts is our decision (docs/rules.md, decision 8), not a
    # rule of the games, so it is left out here.
    p = Position()
    assert p.fen() == ITO_START
    p.push_str("19-18")
    assert p.fen(move_number=False) == "k3fg1hc2tp4P1T2CH1GF3K w -"
    p.push_str("13-14")
    assert p.fen(move_number=False) == "k3fg1hc2t1p3P1T2CH1GF3K b -"
    p.pop()
    p.pop()
    assert p.fen() == ITO_START


def test_piece_at_and_counts():
    p = Position("k2+P26K w Pt 7")
    assert str(p.piece_at(1)) == "k"
    assert str(p.piece_at(4)) == "+P"
    assert p.piece_at(5) is None
    assert str(p.piece_at(31)) == "K"
    assert p.fen() == "k2+P26K w Pt 7"


def test_copy_is_independent():
    p = Position()
    q = p.copy()
    q.push_str("19-18")
    assert p.fen() == ITO_START
    assert q.fen() != ITO_START
    assert q.key() != p.key()


def test_rutherford_board_length_from_string():
    assert Position("k7K b - 1", "rutherford").n == 9
    assert Position("k62K b - 1", "rutherford").n == 64
    p = Position.start("rutherford")
    assert p.fen() == "klsnbp9PBNSLK b - 1"
    assert p.variant.start_is_provisional


def test_variant_spec_strings():
    assert Position(None, "ito:drop_mate=no").variant.drop_mate is False
    assert Position(None, "ito:stalemate=loss").variant.stalemate == "loss"
    assert Position(None, "rutherford:repetition=off").variant.repetition is False
    assert Position(None, "ito").variant.spec == "ito"


def test_key_bytes_is_the_exact_key_in_bytes():
    p = Position("2k1p2+f3h4c2G5PT2K1 b TCHfg 1", "ito")
    expected = bytes(p.key()[0]) + bytes(p.hand_counts(0)) + bytes(p.hand_counts(1)) + bytes((p.turn,))
    assert p.key_bytes() == expected
    keys = {p.key_bytes()}
    for m in p.legal_moves():
        p.push(m)
        keys.add(p.key_bytes())
        p.pop()
    assert len(keys) == 1 + len(p.legal_moves())  # every child differs from the rest
    assert p.mirror().key_bytes() != p.key_bytes()


def test_copies_with_changes_equal_the_positions_read_from_their_strings():
    p = Position("k3fg1hc2tp5PT2CH1GF3K b - 7", "ito")
    p.push(p.legal_moves()[0])
    board = p.board()
    # Swap the kings' squares and give each side a pawn; White to move.
    q = p.with_changes([(1, board[30]), (31, board[0])], [[0, 1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0]], 1)
    assert q.ply == 0 and q.move_number == p.move_number
    again = Position(q.fen(), "ito", validate=False)
    assert (again.key(), again.hash, again.hand_hash) == (q.key(), q.hash, q.hand_hash)
    assert (q.king_square(0), q.king_square(1)) == (1, 31)
    h = p.with_hands([[0, 0, 1, 0, 0, 0, 0], [0] * 7])
    assert h.hand_counts(0) == [0, 0, 1, 0, 0, 0, 0] and h.board() == board
    assert Position(h.fen(), "ito", validate=False).hash == h.hash
    with pytest.raises(PositionError):
        p.with_changes([(40, p.t.piece("K"))], [[0] * 7, [0] * 7], 0)
    with pytest.raises(PositionError):
        p.with_hands([[0] * 6, [0] * 7])
    for count in (-1, 300):
        with pytest.raises(PositionError):
            p.with_hands([[count] + [0] * 6, [0] * 7])


def test_moves_of_another_board_are_refused_not_crashed_on():
    from tsume import ArgumentError, IllegalMoveError, Move

    p = Position.start()
    for bad in (Move(40, 5), Move(5, 60), Move(None, 5, drop="Z"), Move(None, 64, drop="P")):
        for call in (p.push, p.child_hash, p.move_readable, p.gives_check):
            with pytest.raises(IllegalMoveError):
                call(bad)
        assert p.is_legal(bad) is False
    for not_a_move in (0, 40 << 7 | 5, "19-18", None):
        for call in (p.push, p.child_hash, p.move_readable, p.gives_check, p.is_legal):
            with pytest.raises(ArgumentError):
                call(not_a_move)
    assert p.fen() == Position.start().fen()
