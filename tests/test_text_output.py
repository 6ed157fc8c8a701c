"""The human text of ``tsume solve`` and ``tsume verify``: the main line numbered,
wrapped and in the readable notation with ``#`` on the mate, variations the same
way, ``1 ply`` for a count of one, and the defender's hand as the solver reads it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from tsume.cli import main
from tsume.collection import find, load, locate
from tsume.problem import Problem
from tsume.position import Position
from tsume.render import LINE_WIDTH, counted, mated, numbered, plies, wrap_words

ROOT = Path(__file__).resolve().parent.parent
# The Ito set without the kings, as docs/rules.md lists it: what White holds in
# "k30 b G" once Black's Goose and the board's king are taken out.
K30_REST = "2p2t2c2hg2f   (2 Pawn, 2 Tile General, 2 Silver Cannon, 2 Heavenly Horse, Goose, 2 Flying Swallow)"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def solve_text(*args: str) -> str:
    result = run("solve", "-q", *args)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return result.stdout


def solve_json(*args: str) -> dict:
    result = run("solve", "-q", "--json", *args)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return json.loads(result.stdout)


def readable(position: str, moves: list[str]) -> list[str]:
    """The readable form of ``moves`` from ``position``, each read where it is played."""
    pos = Position(position)
    out = []
    for text in moves:
        m = pos.parse_move(text)
        out.append(pos.move_readable(m))
        pos.push(m)
    return out


def block(text: str, head: str, indent: str) -> list[str]:
    """The line of ``text`` starting with ``head`` and the lines after it that start with ``indent``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    stop = start + 1
    while stop < len(lines) and lines[stop].startswith(indent):
        stop += 1
    return lines[start:stop]


def words_of(lines: list[str], head: str) -> list[str]:
    """The numbered moves of a wrapped block: its lines joined, ``head`` dropped,
    split where two spaces part them."""
    return re.split(r"\s{2,}", "  ".join(line.strip() for line in lines).removeprefix(head.strip()).strip())


# --- the helpers -------------------------------------------------------------------------------


def test_counts_agree_with_their_noun():
    assert [plies(n) for n in (0, 1, 2, 9)] == ["0 plies", "1 ply", "2 plies", "9 plies"]
    assert counted(1, "problem", "problems") == "1 problem" and counted(6, "problem", "problems") == "6 problems"


def test_mated_marks_the_last_move_only():
    assert mated(["T6-4", "k2-3", "C4-6"]) == ["T6-4", "k2-3", "C4-6#"]
    assert mated(["P*2"]) == ["P*2#"] and mated([]) == []


def test_wrap_words_never_splits_a_move():
    words = numbered([f"T{i}-{i + 1}" for i in range(1, 30)])
    lines = wrap_words("Main line: ", words, " " * 11)
    assert len(lines) > 1 and all(len(line) <= LINE_WIDTH for line in lines)
    assert lines[0].startswith("Main line: 1. T1-2") and all(line.startswith(" " * 11) for line in lines[1:])
    # Read back: the same numbered moves, in order, none broken at its space or hyphen.
    assert words_of(lines, "Main line: ") == words
    # A word wider than a line gets a line of its own rather than being cut.
    assert wrap_words("x: ", ["a" * 100, "b"], "  ") == ["x: " + "a" * 100, "  b"]


# --- solve: the main line ------------------------------------------------------------------------


def test_main_line_is_numbered_readable_and_ends_with_the_mate_mark():
    text = solve_text("--file", "examples", "--id", "ito-09")
    data = solve_json("--file", "examples", "--id", "ito-09")
    expected = readable(data["position"], data["mainline"])
    assert expected == data["readable"]
    lines = block(text, "Main line:", " " * len("Main line: "))
    words = words_of(lines, "Main line: ")
    assert words == [f"{i}. {m}" for i, m in enumerate(expected, 1)][:-1] + [f"9. {expected[-1]}#"]
    assert words[-1] == "9. C4-6#"
    # The plain line stays as it was, unmarked: it is pasted into --solution.
    assert "Move strings: 6-4 2-3 4-2 3-2 P*3 2-1 C*4 1-3 4-6\n" in text


def test_a_long_main_line_wraps_at_the_line_width_under_its_first_move():
    text = solve_text("--file", "examples", "--id", "rutherford-15")
    lines = block(text, "Main line:", " " * len("Main line: "))
    after = text.splitlines()[text.splitlines().index(lines[-1]) + 1]
    assert after.startswith("Move strings:"), after  # the block is the whole main line
    assert len(lines) >= 2, lines
    assert all(len(line) <= LINE_WIDTH for line in lines), lines
    assert all(line.startswith(" " * len("Main line: ")) and not line[len("Main line: ")].isspace() for line in lines[1:])
    assert lines[-1].endswith("15. " + solve_json("--file", "examples", "--id", "rutherford-15")["readable"][-1] + "#")


def test_a_mate_in_one():
    text = solve_text("--file", "examples", "--id", "ito-01")
    assert "Mate in 1 ply.\n" in text and "Main line: 1. G*5#\n" in text


# --- solve: the variations ------------------------------------------------------------------------


def test_variations_are_readable_numbered_and_mated():
    data = solve_json("--file", "examples", "--id", "ito-09")
    text = solve_text("--file", "examples", "--id", "ito-09")
    counted_ones = [v for v in data["variations"] if not v["useless"]]
    assert counted_ones
    for v in counted_ones:
        # The existing fields are kept; readable_line is the same line read from its positions.
        before = Position(data["position"])
        for m in data["mainline"][: v["ply"] - 1]:
            before.push_str(m)
        assert v["line"][0] == v["move"]
        assert v["readable_line"] == readable(before.fen(), v["line"])
        assert v["readable_line"][0] == v["readable"]
        moves = numbered(mated(v["readable_line"])[1:], v["ply"] + 1)
        head = f"  at ply {v['ply']}: {v['readable']}  -> {v['length']} plies, leftover {v['leftover']}: "
        assert head + "  ".join(moves) in text.splitlines()
    assert "  at ply 2: k2-1  -> 5 plies, leftover -: 3. P*2  4. k1-3  5. C*1#" in text.splitlines()
    assert "1-3 C*1" not in text  # the plain move strings of the variation are gone from the text


def test_long_variations_wrap():
    pr = find(load(locate("seed-rutherford")), "ruth-c0023")
    text = solve_text("--file", "seed-rutherford", "--id", pr.id)
    lines = block(text, "  at ply 2: k4-6", "      ")
    assert len(lines) > 1 and all(len(line) <= LINE_WIDTH for line in lines), lines
    v = next(v for v in solve_json("--file", "seed-rutherford", "--id", pr.id)["variations"] if v["ply"] == 2)
    head = f"  at ply 2: {v['readable']}  -> {v['length']} plies, leftover {v['leftover']}: "
    assert words_of(lines, head) == numbered(mated(v["readable_line"])[1:], 3)


# --- 1 ply, not 1 plies --------------------------------------------------------------------------


def test_no_mate_within_one_ply():
    assert "No mate within 1 ply.\n" in solve_text("k30 b G", "--max-length", "1")
    assert "No mate within 3 plies.\n" in solve_text("k30 b G", "--max-length", "3")


def test_first_moves_read_as_the_main_line():
    text = solve_text("--file", "examples", "--id", "ito-01", "--all-first-moves")
    assert "First moves:\n" in text and "  G*5: mate in 1 ply\n" in text
    assert "  G*5: no mate\n" in solve_text("k30 b G", "--all-first-moves")


def test_verify_says_one_ply():
    result = run("verify", "-q", "--file", "examples", "--id", "ito-01")
    assert result.exit_code == 0, result.output
    assert "Solution, 1 ply (left in hand at the end: -):" in result.stdout
    assert "    1. G*5#" in result.stdout


def test_no_source_writes_a_count_before_plies():
    # One helper (tsume.render.plies) writes every count of plies; an f-string
    # "{n} plies" would say "1 plies".
    hits = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "tsume").rglob("*.py"))
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"\{[^{}]*\} plies", line)]
    assert not hits, hits


# --- the defender's hand, as the solver reads it --------------------------------------------------


def test_solve_lists_the_rest_in_whites_hand():
    text = solve_text("k30 b G")
    assert f"White hand (the rest): {K30_REST}\n" in text
    assert "Black hand: G   (Goose)\n" in text


def test_the_rest_of_a_collection_problem_with_no_white_hand():
    pr = find(load(locate("examples")), "ito-09")
    assert " b CP " in pr.position  # the string itself names no White piece in hand
    line = "White hand (the rest): tch2g   (Tile General, Silver Cannon, Heavenly Horse, 2 Goose)"
    assert line in solve_text("--file", "examples", "--id", "ito-09").splitlines()
    verified = run("verify", "-q", "--file", "examples", "--id", "ito-09")
    assert line in verified.stdout.splitlines()


def test_a_stated_hand_is_not_called_the_rest():
    text = solve_text("k30 b G", "--defender-hand", "2P")
    assert "White hand: 2p   (2 Pawn)\n" in text and "(the rest)" not in text
    assert "White hand: -   (-)\n" in solve_text("k30 b G", "--defender-hand", "none")


def test_white_attacking_black_holds_the_rest():
    text = solve_text("K30 w g 1")
    rest = Problem("K30 w g 1").position().hand_string(0)
    assert f"Black hand (the rest): {rest}   (" in text and "White hand: g   (Goose)\n" in text


# --- useless interpositions under the check they answer ----------------------------------------


def test_useless_interpositions_stand_after_the_check_they_answer():
    data = solve_json("--file", "examples", "--id", "ito-09")
    text = solve_text("--file", "examples", "--id", "ito-09")
    lines = text.splitlines()
    assert "at ply 10" not in text and "ply 8: T*2" not in text
    head = lines.index("Useless interpositions (refuted, not counted):")
    assert lines[head + 1:head + 3] == ["  after 7. C*4: T*2  C*2  H*2  G*2",
                                        "  after 9. C4-6#: P*4  T*4  C*4  H*4  G*4"]
    # The JSON keeps each as a variation at the ply it would have had.
    useless = [(v["ply"], v["readable"]) for v in data["variations"] if v["useless"]]
    assert (10, "P*4") in useless and (8, "T*2") in useless


def test_verify_lists_useless_interpositions_under_the_check_they_answer():
    result = run("verify", "-q", "--full", "--file", "examples", "--id", "ito-09")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    mate = lines.index("    9. C4-6#")
    assert lines[mate + 1].split() == ["useless", "interpositions", "(refuted,", "not", "counted):",
                                       "P*4", "T*4", "C*4", "H*4", "G*4"]
    assert not any(line.strip().startswith("10.") for line in lines)


# --- a limit after a mate was found: say what is known -------------------------------------------

LONG = "15k15 b TCHG"  # a mate in at most 47 plies is found in under 200,000 nodes; the shortest takes far more


def test_a_limit_after_a_mate_shows_the_mating_line_and_its_bound():
    result = run("solve", "-q", "--nodes", "200000", LONG)
    assert result.exit_code == 3, result.output
    text = result.stdout
    assert "Unknown: stopped by the node limit." in text
    bound = int(re.search(r"A mate in at most (\d+) plies was found; the shortest is not proven\.", text).group(1))
    data = json.loads(run("solve", "-q", "--json", "--nodes", "200000", LONG).stdout)
    assert data["status"] == "unknown" and data["upper_bound"] == bound
    line = data["line"]
    assert 0 < len(line) <= bound and len(line) % 2 == 1
    assert data["readable_line"] == readable(data["position"], line)
    shown = block(text, "A mating line", "      ")
    assert words_of(shown, f"A mating line ({plies(len(line))}): ") == numbered(mated(data["readable_line"]))
    # The line is a mate: every attacker move checks, and the last leaves no legal move.
    pos = Position(data["position"])
    for i, move in enumerate(line):
        pos.push_str(move)
        if i % 2 == 0:
            assert pos.is_check(), (i, move)
    assert pos.is_check() and not pos.legal_moves()
