"""Bad input: the specific exception, with a one-line message naming what and where."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tsume import (
    IllegalMoveError,
    MoveError,
    Position,
    PositionError,
    TsumeError,
    VariantError,
    get_variant,
)
from tsume.cli import main

ITO_START = "k3fg1hc2tp5PT2CH1GF3K b - 1"


def one_line(exc: BaseException) -> str:
    msg = str(exc)
    assert msg and "\n" not in msg, msg
    return msg


def test_hierarchy():
    for cls in (PositionError, MoveError, IllegalMoveError, VariantError):
        assert issubclass(cls, TsumeError)
    assert issubclass(TsumeError, ValueError)
    assert issubclass(IllegalMoveError, MoveError)


# (variant, position, substrings the message must contain)
BAD_POSITIONS = [
    # wrong board length: Ito 30 squares
    ("ito", "k3fg1hc2tp5PT2CH1GF2K b - 1", ["30", "31"]),
    # Rutherford 8 and 65 squares (allowed 9..64)
    ("rutherford", "k6K b - 1", ["8"]),
    ("rutherford", "k63K b - 1", ["65"]),
    # unknown letter X on square 27
    ("ito", "k3fg1hc2tp5PT2CH1GX3K b - 1", ["X", "27"]),
    # a Rutherford letter in Ito (S) and an Ito letter in Rutherford (G)
    ("ito", "k3fg1hc2tp5PT2CH1GS3K b - 1", ["S", "27"]),
    ("rutherford", "klsnbp9PBNGLK b - 1", ["G", "19"]),
    # '+' on a king (square 31 / square 1)
    ("ito", "k3fg1hc2tp5PT2CH1GF3+K b - 1", ["K", "31"]),
    ("ito", "+k3fg1hc2tp5PT2CH1GF3K b - 1", ["k", "1"]),
    # '+' not followed by a letter
    ("ito", "k3fg1hc2tp5PT2CH1GF3K+ b - 1", ["+"]),
    # more pieces than the set: 3 pawns on the board, 3 with one in hand
    ("ito", "k3fg1hc2tp4PPT2CH1GF3K b - 1", ["P", "3", "2"]),
    ("ito", "k3fg1hc2tp5PT2CH1GF3K b P 1", ["P", "3", "2"]),
    ("rutherford", "klsnbp9PBNSLK b 2s 1", ["S", "4", "2"]),
    # two kings of one side
    ("ito", "k3fg1hc2tp5PT2CH1GFK2K b - 1", ["king", "31"]),
    ("ito", "k3fg1hc2tp5PT2CH1GF2kK b - 1", ["king", "30"]),
    # the side not to move is in check: Black P 2 attacks White k 1, Black to move
    ("ito", "kP28K b - 1", ["check", "1"]),
    # malformed hands
    ("ito", "k29K b 2 1", ["hand"]),
    ("ito", "k29K b P2 1", ["hand"]),
    ("ito", "k29K b +P 1", ["hand", "+"]),
    ("ito", "k29K b K 1", ["hand", "king"]),
    ("ito", "k29K b x 1", ["hand", "x"]),
    # bad side field
    ("ito", "k29K x - 1", ["side", "x"]),
    ("ito", "k29K B - 1", ["side", "B"]),
    # bad move number
    ("ito", "k29K b - 0", ["move number", "0"]),
    ("ito", "k29K b - abc", ["move number", "abc"]),
    ("ito", "k29K b - -1", ["move number", "-1"]),
    # wrong number of fields, stray characters
    ("ito", "k29K b", ["field"]),
    ("ito", "k29K b - 1 extra", ["field"]),
    ("ito", "k2:26K b - 1", [":", "3"]),
]


@pytest.mark.parametrize("variant, text, needles", BAD_POSITIONS)
def test_bad_positions(variant, text, needles):
    with pytest.raises(PositionError) as info:
        Position(text, variant)
    msg = one_line(info.value)
    for needle in needles:
        assert needle.lower() in msg.lower(), (needle, msg)


def test_position_not_a_string():
    with pytest.raises(PositionError):
        Position(42)  # type: ignore[arg-type]


def test_validate_is_a_flag():
    # compiled code raised TypeError for a str here
    with pytest.raises(TsumeError):
        Position("k29K b - 1", validate="no")  # type: ignore[arg-type]
    assert Position("k29K b - 1", validate=False).fen() == "k29K b - 1"


# malformed move strings: MoveError but not IllegalMoveError
MALFORMED_MOVES = [
    ("19_18", "19_18"),
    ("99-1", "99"),
    ("19-99", "99"),
    ("Z*3", "Z"),
    ("K*3", "K"),
    ("+P*3", "+P*3"),  # Ito never drops promoted
    ("P*0", "0"),
    ("", "move"),
    ("19-18-17", "19-18-17"),
    ("19-19", "19"),
]


@pytest.mark.parametrize("text, needle", MALFORMED_MOVES)
def test_malformed_moves(text, needle):
    p = Position()
    with pytest.raises(MoveError) as info:
        p.parse_move(text)
    assert not isinstance(info.value, IllegalMoveError)
    msg = one_line(info.value)
    assert needle in msg
    assert p.fen() == ITO_START


# well-formed but illegal (Ito start)
ILLEGAL_MOVES = [
    ("18-17", "18"),  # empty square
    ("1-2", "1"),  # White's king, Black to move
    ("20-19", "20"),  # Tile General cannot step forward
    ("27-21", "27"),  # Flying Swallow blocked by its own Cannon on 23
    ("23-21", "23"),  # Silver Cannon with no screen before 21
    ("P*18", "P"),  # nothing in hand
]


@pytest.mark.parametrize("text, needle", ILLEGAL_MOVES)
def test_illegal_moves(text, needle):
    p = Position()
    with pytest.raises(IllegalMoveError) as info:
        p.push_str(text)
    msg = one_line(info.value)
    assert text in msg and needle in msg
    assert p.fen() == ITO_START  # nothing was made


def test_illegal_rutherford_drops():
    # Black K 12: a drop on 11 (distance 1) or 14 (behind) is illegal; S not in hand.
    p = Position("2k8K8 b P 1", "rutherford")
    for text in ("P*11", "+P*14", "S*5"):
        with pytest.raises(IllegalMoveError) as info:
            p.parse_move(text)
        one_line(info.value)


def test_move_into_check_is_illegal():
    # Black K 20 and White t 16 (attacks 18): 20-18 is illegal.
    p = Position("1k13t3K11 b - 1")
    with pytest.raises(IllegalMoveError) as info:
        p.push_str("20-18")
    assert "20-18" in one_line(info.value)


BAD_VARIANTS = [
    ("chess", "chess"),
    ("ito:foo=yes", "foo"),
    ("ito:drop_mate=maybe", "maybe"),
    ("ito:stalemate=draw", "draw"),
    ("ito:drop_mate", "drop_mate"),
    ("rutherford:drop_mate=no", "drop_mate"),
]


@pytest.mark.parametrize("spec, needle", BAD_VARIANTS)
def test_bad_variants(spec, needle):
    with pytest.raises(VariantError) as info:
        get_variant(spec)
    assert needle in one_line(info.value)
    with pytest.raises(VariantError):
        Position(None, spec)


# --- the CLI turns each of these into one stderr line and status 2 ---------------------


CLI_BAD = [
    ["show", "k3fg1hc2tp5PT2CH1GF2K b - 1"],
    ["show", "--variant", "rutherford", "k6K b - 1"],
    ["show", "k3fg1hc2tp5PT2CH1GX3K b - 1"],
    ["show", "k3fg1hc2tp5PT2CH1GF3+K b - 1"],
    ["show", "k3fg1hc2tp5PT2CH1GF3K b P 1"],
    ["show", "kP28K b - 1"],
    ["show", "k29K b P2 1"],
    ["show", "k29K x - 1"],
    ["show", "k29K b - 0"],
    ["show", "--variant", "chess"],
    ["show", "--variant", "ito:foo=yes"],
    ["perft", "--variant", "rutherford:drop_mate=no", "--depth", "1"],
    ["perft", "--position", "k3fg1hc2tp5PT2CH1GFK2K b - 1", "--depth", "1"],
    ["perft", "--position", "k29K b +P 1", "--depth", "1", "--json"],
    ["show", "--variant", "rutherford"],  # fine: provisional start (control case below)
]


@pytest.mark.parametrize("args", CLI_BAD[:-1])
def test_cli_bad_input_one_line_exit_2(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tsume: error:")
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""


def test_cli_control_case_is_fine():
    result = CliRunner().invoke(main, CLI_BAD[-1])
    assert result.exit_code == 0
    assert result.stderr == ""


# --- numbers: ASCII digits only, bounded length, counts within the set ----------------------

BIG = "9" * 4301  # one digit over Python's int/str conversion limit

# (variant, position, substrings the message must contain)
BAD_NUMBERS = [
    # a hand count above the set's count of the kind indexed the hash tables out of range
    ("ito", "k29K b 99P 1", ["hands", "99", "P", "2"]),
    ("ito", "k29K b 3g 1", ["hands", "3", "g", "2"]),
    ("rutherford", "k19K b 5P 1", ["hands", "5", "P"]),
    ("ito", "k29K b 9223372036854775808P 1", ["hands", "19 digits"]),
    # non-ASCII digits pass str.isdigit() but not int()
    ("ito", "k29K b ²P 1", ["hands", "²"]),
    ("ito", "k29K b P ²", ["move number", "²"]),
    ("ito", "k29K b - ٣", ["move number"]),
    ("ito", "k2٣K b - 1", ["board", "column 3"]),
    # Python's 4,300-digit limit, and messages that would print the whole number
    ("ito", "k" + BIG + "K b - 1", ["board", "4,301 digits"]),
    ("ito", "k" + "9" * 4300 + "K b - 1", ["board", "4,300 digits"]),
    ("ito", "k29K b " + BIG + "P 1", ["hands", "4,301 digits"]),
    ("ito", "k29K b - " + BIG, ["move number", "4,301 digits"]),
    # a run over the board by a sane number of digits still says how many squares
    ("ito", "k99999K b - 1", ["100001 squares"]),
    # non-ASCII letters that upper() maps onto a piece letter ('ſ' -> 'S')
    ("rutherford", "k19K b ſ 1", ["hands", "ſ"]),
]


@pytest.mark.parametrize("variant, text, needles", BAD_NUMBERS, ids=range(len(BAD_NUMBERS)))
def test_bad_numbers(variant, text, needles):
    with pytest.raises(PositionError) as info:
        Position(text, variant)
    msg = one_line(info.value)
    assert len(msg) < 250, msg  # never the whole input
    for needle in needles:
        assert needle in msg, (needle, msg)


def test_hand_count_at_the_set_size_is_fine():
    assert Position("k29K b 2P2g 1").fen() == "k29K b 2P2g 1"


BAD_MOVE_NUMBERS = [
    (BIG + "-1", "4,301 digits"),
    ("1-" + BIG, "4,301 digits"),
    ("P*" + BIG, "4,301 digits"),
    ("١٩-١٨", "expected"),  # Arabic-Indic digits: int() would read them
    ("19-1O", "letter O"),
    ("O*5", "'O'"),
    (" 31-30\n", None),  # surrounding whitespace is fine
]


@pytest.mark.parametrize("text, needle", BAD_MOVE_NUMBERS)
def test_move_numbers(text, needle):
    p = Position("k29K b P 1")
    if needle is None:
        assert str(p.parse_move(text)) == "31-30"
        return
    with pytest.raises(MoveError) as info:
        p.parse_move(text)
    msg = one_line(info.value)
    assert needle in msg and len(msg) < 250, msg


def test_move_not_a_string():
    with pytest.raises(MoveError):
        Position().parse_move(1823)  # type: ignore[arg-type]
    with pytest.raises(MoveError):
        Position().push_str(None)  # type: ignore[arg-type]


# --- the letter O typed for a zero --------------------------------------------------------


@pytest.mark.parametrize("text", ["k2O27K b - 1", "k29K b O 1", "k29K b - O", "k1O19K b - 1"])
def test_letter_o(text):
    with pytest.raises(PositionError) as info:
        Position(text)
    msg = one_line(info.value)
    assert "letter O is not the digit 0" in msg, msg
    if "b - O" not in text:
        assert "unknown piece letter 'O'" in msg, msg


# --- a board length that fits another variant ----------------------------------------------


def test_rutherford_length_hint():
    with pytest.raises(PositionError) as info:
        Position("k18K b - 1")  # 20 squares: Rutherford's, not Ito's
    assert "use --variant rutherford" in one_line(info.value)
    # Rutherford letters on a Rutherford length: the hint rather than "unknown letter 's'"
    with pytest.raises(PositionError) as info:
        Position("klsnbp9PBNSLK b - 1")
    assert "use --variant rutherford" in one_line(info.value)
    # Ito letters on 31 squares in Rutherford: unknown letter, and the hint back to Ito
    with pytest.raises(PositionError) as info:
        Position("k3fg1hc2tp5PT2CH1GF3K b - 1", "rutherford")
    msg = one_line(info.value)
    assert "unknown piece letter 'f'" in msg and "--variant ito" in msg
    # no variant takes 70 squares: no hint
    with pytest.raises(PositionError) as info:
        Position("k68K b - 1")
    assert "--variant" not in one_line(info.value)


def test_long_input_is_quoted_short():
    with pytest.raises(PositionError) as info:
        Position("k29K " + "x" * 100_000 + " - 1")
    assert len(one_line(info.value)) < 200
    with pytest.raises(VariantError) as info:
        get_variant("q" * 100_000)
    assert len(one_line(info.value)) < 200


@pytest.mark.parametrize("spec", [None, 5, ["ito"]])
def test_variant_of_the_wrong_type(spec):
    with pytest.raises(VariantError) as info:
        get_variant(spec)
    assert "variant must be" in one_line(info.value)
    if spec is None:  # Position's default: Ito
        assert Position("k29K b - 1", spec).variant.name == "ito"
        return
    with pytest.raises(VariantError):
        Position("k29K b - 1", spec)


def test_switch_values_are_bools():
    from tsume import ITO

    with pytest.raises(VariantError):
        ITO.with_options(drop_mate="no")  # a non-empty string would read as True
    assert ITO.with_options(drop_mate=False).drop_mate is False
