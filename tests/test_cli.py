"""The ``tsume`` command line: show and perft, JSON output, bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tsume import Position
from tsume.cli import main
from tsume.problem import Problem
from tsume.perft import perft

ITO_START = "k3fg1hc2tp5PT2CH1GF3K b - 1"
# Hand-derived in tests/test_rules_ito.py::test_start_position_moves_by_hand
ITO_START_MOVES = {
    "19-18", "20-18", "20-21", "23-25", "24-21", "26-22", "26-28",
    "27-25", "27-28", "31-30", "31-29",
}
# Hand-derived in tests/test_rules_rutherford.py::test_provisional_start_moves_by_hand
RUTHERFORD_START_MOVES = {"16-15", "17-15", "17-13", "17-11", "17-9", "18-15"}

VENV_TSUME = Path(sys.executable).parent / "tsume"


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    return result


def perft_json(*args: str) -> dict:
    result = run("perft", "--json", *args)
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


# --- show ------------------------------------------------------------------------------


def test_show_start():
    result = run("show")
    assert result.exit_code == 0
    assert ITO_START in result.stdout
    for m in ITO_START_MOVES:
        assert m in result.stdout


def test_show_position_and_compact():
    result = run("show", "--compact", "--variant", "rutherford", "klsnbp9PBNSLK b - 1")
    assert result.exit_code == 0
    assert "klsnbp9PBNSLK b - 1" in result.stdout
    for m in RUTHERFORD_START_MOVES:
        assert m in result.stdout


def test_show_with_switch_variant():
    # The drop-mate position of test_rules_ito: P*2 mates.  Hidden with drop_mate=no.
    text = "k2T2G17K6 b P 1"
    plain = run("show", text)
    assert plain.exit_code == 0 and "P*2" in plain.stdout
    no_dm = run("show", "--variant", "ito:drop_mate=no", text)
    assert no_dm.exit_code == 0 and "P*2" not in no_dm.stdout


# --- perft --------------------------------------------------------------------------------


@pytest.mark.parametrize("depth, nodes", [(0, 1), (1, 11), (2, 121), (3, 1276)])
def test_perft_json_ito_start(depth, nodes):
    assert perft_json("--depth", str(depth)) == {"depth": depth, "nodes": nodes}


def test_perft_divide_json():
    out = perft_json("--depth", "2", "--divide")
    assert out["depth"] == 2
    assert out["nodes"] == 121
    assert set(out["divide"]) == ITO_START_MOVES
    assert sum(out["divide"].values()) == 121
    # the start position is colour-symmetric: each Black move leaves White its 11 moves
    assert all(v == 11 for v in out["divide"].values())


def test_perft_divide_depth_one():
    out = perft_json("--depth", "1", "--divide")
    assert out["nodes"] == 11
    assert out["divide"] == {m: 1 for m in ITO_START_MOVES}


def test_perft_rutherford_start():
    # 6 moves; 33 at depth 2 (hand count in test_rules_rutherford).
    assert perft_json("--variant", "rutherford", "--depth", "1")["nodes"] == 6
    out = perft_json("--variant", "rutherford", "--depth", "2", "--divide")
    assert out["nodes"] == 33
    assert out["divide"] == {"16-15": 6, "17-15": 6, "17-13": 6, "17-11": 5, "17-9": 4, "18-15": 6}


def test_perft_position_option():
    # Ito: White k 1, Black T 6, G 7, K 25 (the stalemate position of
    # test_rules_ito).  Black: T6 has no legal move (6-4 stalemates); G7: +4 = 3,
    # -2 = 9; K25: 24, 23, 26.  = 5 moves.
    out = perft_json("--position", "k4TG17K6 b - 1", "--depth", "1", "--divide")
    assert set(out["divide"]) == {"7-3", "7-9", "25-24", "25-23", "25-26"}
    out = perft_json("--variant", "ito:stalemate=loss", "--position", "k4TG17K6 b - 1", "--depth", "1")
    assert out["nodes"] == 6


def test_perft_text_output():
    result = run("perft", "--depth", "2")
    assert result.exit_code == 0
    assert "121" in result.stdout


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["show", "k3fg1hc2tp5PT2CH1GF2K b - 1"],
        ["perft", "--position", "k29K b 2 1", "--depth", "1"],
        ["perft", "--variant", "shogi", "--depth", "1"],
        ["perft", "--variant", "ito:stalemate=draw", "--depth", "1", "--json"],
    ],
)
def test_bad_input(args):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error:"), result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("args", [["perft", "--depth", "x"], ["perft"], ["show", "--nope"]])
def test_bad_option_values_one_line(args, capsys):
    # Through the console entry point, which turns click's usage errors into one line.
    from tsume.cli import run as entry

    with pytest.raises(SystemExit) as exc:
        entry(list(args))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error:"), err


def test_show_rutherford_white_king_on_last_square():
    # Black K 1, White k 20, White to move: a legal position (White is simply
    # stalemated, docs/rules.md: a win for Black).  Must not crash.
    result = run("show", "--variant", "rutherford", "K18k w - 1")
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 0


# --- the installed script, as a real process ------------------------------------------------


def _command() -> list[str]:
    if VENV_TSUME.exists():
        return [str(VENV_TSUME)]
    return [sys.executable, "-m", "tsume.cli"]


def test_subprocess_perft_json():
    proc = subprocess.run(
        _command() + ["perft", "--depth", "2", "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"depth": 2, "nodes": 121}


def test_subprocess_module_bad_position():
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "tsume.cli", "show", "k3fg1hc2tp5PT2CH1GX3K b - 1"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error:")
    assert "Traceback" not in proc.stderr
    assert "27" in lines[0]  # names the square


@pytest.mark.parametrize("module", ["tsume.cli", "tsume"])
def test_python_dash_m_registers_every_command(module):
    proc = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    listed = proc.stdout.split("Commands:", 1)[1].split()
    missing = [name for name in main.commands if name not in listed]
    assert not missing and len(main.commands) >= 9, (missing, proc.stdout)


# --- one way to give the input: POSITION, or --file FILE --id ID, on every command ------------------

from tsume.collection import load as load_collection, locate  # noqa: E402

MATE_1 = "k1P2H25 b G"  # G*5 mates


def bundled_example():
    """The first problem of the bundled examples (whatever it is today)."""
    return load_collection(locate("examples"))[0]


def entry(capsys, *args: str) -> tuple[int, str, str]:
    """Run through the console entry point (click's usage errors become one line there)."""
    from tsume.cli import run as entry_point

    with pytest.raises(SystemExit) as exc:
        entry_point(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_every_command_takes_file_and_id_of_a_bundled_collection(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the bundled collections are found from any folder
    pr = bundled_example()
    common = ["--file", "examples", "--id", pr.id]
    show_ = run("show", "--json", *common)
    assert show_.exit_code == 0, show_.output
    # A collection problem is shown and counted as it is solved: the defender's hand filled in.
    as_solved = Problem(pr.position, variant=pr.variant, defender=pr.defender).position()
    assert json.loads(show_.stdout)["position"] == as_solved.fen()
    perft_ = run("perft", "--depth", "2", "--json", *common)
    assert perft_.exit_code == 0 and json.loads(perft_.stdout)["nodes"] == perft(as_solved, 2)
    solve_ = run("solve", "-q", "--json", *common)
    assert solve_.exit_code == 0 and json.loads(solve_.stdout)["status"] == "mate"
    verify_ = run("verify", "-q", "--json", *common)
    assert verify_.exit_code in (0, 1, 3) and [p["id"] for p in json.loads(verify_.stdout)["problems"]] == [pr.id]


def test_every_command_takes_a_position_argument():
    assert json.loads(run("show", "--json", MATE_1 + " 1").stdout)["position"] == MATE_1 + " 1"
    assert json.loads(run("perft", "--depth", "1", "--json", MATE_1).stdout)["nodes"] > 0
    assert json.loads(run("solve", "-q", "--json", MATE_1).stdout)["length"] == 1
    assert json.loads(run("verify", "-q", "--json", MATE_1).stdout)["problems"][0]["length"] == 1


def test_old_spellings_still_work(tmp_path):
    # perft --position / -p, and verify FILE (the file in place of POSITION)
    assert perft_json("-p", MATE_1, "--depth", "1") == perft_json(MATE_1, "--depth", "1")
    assert perft_json("--position", MATE_1, "--depth", "1")["nodes"] > 0
    f = tmp_path / "one.tsume"
    f.write_text(f"[only]\nposition: {MATE_1}\nlength: 1\n")
    as_arg = run("verify", "-q", "--json", str(f))
    as_opt = run("verify", "-q", "--json", "--file", str(f))
    assert as_arg.exit_code == as_opt.exit_code == 0
    assert [p["id"] for p in json.loads(as_arg.stdout)["problems"]] == ["only"]
    # a one-problem file needs no --id, for solve and show too
    assert run("solve", "-q", "--file", str(f)).exit_code == 0
    assert run("show", str(f)).exit_code == 0


@pytest.mark.parametrize(
    "args, says",
    [
        (["show", MATE_1, "--file", "examples"], "not both"),
        (["perft", "-p", MATE_1, MATE_1, "--depth", "1"], "once"),
        (["solve", "--id", "x", MATE_1], "--id needs"),
        (["solve", "--file", "examples"], "choose one with --id"),
        (["show", "--file", "examples", "--id", "no-such-id"], "no-such-id"),
        (["solve", "nosuchfile"], "no file named"),
        (["solve", "nosuchfile.tsume"], "no such file"),
        (["solve"], "give a POSITION"),
        (["verify"], "give a POSITION"),
        (["show", "--file", "no/such/file.tsume"], "no such file"),
    ],
)
def test_input_errors(args, says):
    r = run(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r.stderr


# --- every error reads "tsume: error: <message>", the program named once ------------------------


NO_KING = "K30 b G 1"  # the defender (White) has no king


@pytest.mark.parametrize(
    "args, says",
    [
        (["solve", NO_KING], "the defender (White) has no king on the board"),
        (["verify", NO_KING], "the defender (White) has no king on the board"),
        (["show", "--file", "{no_king}"], "[a] position: the defender (White) has no king"),
        (["verify", "{bad_key}"], "unknown key 'lenght'"),
        (["list", "{bad_key}"], "unknown key 'lenght'"),
        (["verify", "nosuch.tsume"], "no such file"),
        (["solve", "--engine", "sat", MATE_1], "--engine sat needs --max-length"),
        (["solve", "--nope", MATE_1], "solve: No such option '--nope'"),
        (["perft", "--depth", "x"], "perft: Invalid value for '--depth'"),
        (["frob"], "No such command 'frob'"),
        (["booklet", "examples", "-o", "{out}", "--solutions", "x"], "booklet: Invalid value for '--solutions'"),
        (["show", "--variant", "chess"], "unknown variant 'chess'"),
    ],
)
def test_every_error_names_the_program_once(capsys, tmp_path, args, says):
    no_king, bad_key = tmp_path / "no-king.tsume", tmp_path / "bad-key.tsume"
    no_king.write_text("[a]\nposition: K1p2h25 b G\n")
    bad_key.write_text(f"[a]\nposition: {MATE_1}\nlenght: 1\n")
    args = [a.format(no_king=no_king, bad_key=bad_key, out=tmp_path / "b.html") for a in args]
    code, out, err = entry(capsys, *args)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error: "), err
    assert says in lines[0], err
    assert lines[0].count("tsume") == 1 + lines[0].count(".tsume"), err  # the program's name, once


def _messages_of_raises(tree):
    """The text every ``raise X("...")`` of a module starts its message with."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            first = node.exc.args[0]
            if isinstance(first, ast.JoinedStr) and first.values:
                first = first.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield node.lineno, first.value


def test_no_message_carries_the_programs_prefix():
    # The command line adds "tsume: error: "; a message that starts with
    # "tsume:" itself would print it twice.
    import ast

    import tsume

    package = Path(tsume.__file__).resolve().parent
    found = []
    for source in sorted(package.rglob("*.py")):
        for line, text in _messages_of_raises(ast.parse(source.read_text(encoding="utf-8"))):
            if text.lstrip().lower().startswith("tsume"):
                found.append(f"{source.relative_to(package)}:{line}: {text!r}")
    assert found == []


# --- a missing file is "no such file", whatever else the argument could be -----------------------


@pytest.mark.parametrize("name", ["nosuch.tsume", "dir/nosuch", "./nosuch", "my problems.tsume", "nosuch.txt",
                                  "~/nosuch.tsume", "NOSUCH.TSUME"])
@pytest.mark.parametrize("command", [["solve"], ["verify"], ["show"], ["perft", "--depth", "1"], ["list"],
                                     ["booklet", "-o", "{out}"]])
def test_a_missing_path_is_no_such_file(capsys, tmp_path, monkeypatch, command, name):
    monkeypatch.chdir(tmp_path)
    args = [a.format(out=tmp_path / "b.html") for a in command]
    code, out, err = entry(capsys, args[0], name, *args[1:])
    assert code == 2 and out == "", err
    lines = err.splitlines()
    assert len(lines) == 1 and f"tsume: error: {name!r}: no such file" in lines[0], err
    assert "position" not in lines[0] and "field" not in lines[0], err
    assert not (tmp_path / "b.html").exists()


def test_a_word_that_is_neither_position_nor_file_says_both():
    r = run("solve", "nosuch")
    assert r.exit_code == 2 and "got 1 field; and no file named 'nosuch'" in r.stderr


def test_variant_overrides_the_collection(tmp_path):
    f = tmp_path / "r.tsume"
    f.write_text("[r]\nvariant: rutherford\nposition: k19K b - 1\n")
    assert "Rutherford" in run("show", "--file", str(f)).stdout
    bad = run("show", "--file", str(f), "--variant", "ito")
    assert bad.exit_code == 2 and "21 squares" in bad.stderr


# --- show --json -------------------------------------------------------------------------------


def test_show_json():
    out = json.loads(run("show", "--json").stdout)
    assert out["position"] == ITO_START and out["variant"] == "ito" and out["squares"] == 31
    assert out["side_to_move"] == "black" and out["move_number"] == 1
    assert out["hands"] == {"black": "-", "white": "-"}
    assert len(out["board"]) == 31 and out["board"][0] == "k" and out["board"][30] == "K" and out["board"][1] is None
    assert set(out["legal_moves"]) == ITO_START_MOVES
    assert out["in_check"] is False and out["checkmate"] is False and out["stalemate"] is False
    # White in check from the Bishop on 21 (docs/notation.md); hands per colour
    chk = json.loads(run("show", "--json", "k19+Fp1h1P4K w Tg 1").stdout)
    assert chk["in_check"] is True and chk["side_to_move"] == "white"
    assert chk["hands"] == {"black": "T", "white": "g"} and chk["board"][20] == "+F"
    ruth = json.loads(run("show", "--json", "--variant", "rutherford:repetition=off", "k19K b - 1").stdout)
    assert ruth["variant"] == "rutherford:repetition=no" and ruth["squares"] == 21


def test_show_json_checkmate():
    # after G*5 in the mate in 1: White to move, checkmated
    out = json.loads(run("show", "--json", "k1P1GH25 w - 1").stdout)
    assert out["checkmate"] is True and out["legal_moves"] == [] and out["stalemate"] is False


# --- the limit options: the same on solve and verify, finite and positive ----------------------------


@pytest.mark.parametrize("command", ["solve", "verify"])
@pytest.mark.parametrize(
    "option, value",
    [
        ("--time-limit", "nan"),  # was accepted as "no limit"
        ("--time-limit", "inf"),
        ("--time-limit", "-1"),
        ("--time-limit", "0"),
        ("--time-limit", "1e999"),
        ("--time-limit", "x" * 10_000),
        ("--nodes", "0"),
        ("--nodes", "-5"),
        ("--nodes", "٣"),  # int() reads Arabic-Indic digits; the notation does not
        ("--nodes", "9" * 5000),  # over Python's int/str limit, and quoted whole by click before
        ("--nodes", "1.5"),
        ("--memory", "nan"),
        ("--memory", "inf"),
        ("--memory", "0"),
    ],
)
def test_limit_options(capsys, command, option, value):
    code, out, err = entry(capsys, command, "-q", option, value, MATE_1)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and len(lines[0]) < 400, err


def test_limit_options_work_on_both():
    for command in ("solve", "verify"):
        r = run(command, "-q", "--time-limit", "60", "--nodes", "100000", "--memory", "50", MATE_1)
        assert r.exit_code == 0, (command, r.output)
    stopped = run("verify", "-q", "--nodes", "1", "H1kf1P1c2K20 b PHG 1")
    assert stopped.exit_code == 3


@pytest.mark.parametrize("args", [["perft", "--depth", "31"], ["perft", "--depth", "-1"], ["perft", "--depth", "²"],
                                  ["solve", "--max-length", "0", MATE_1], ["verify", "--length", "0", MATE_1]])
def test_counts_out_of_range(capsys, args):
    code, out, err = entry(capsys, *args)
    assert code == 2 and len(err.strip().splitlines()) == 1, err


# --- -v is --verbose, never --variant -------------------------------------------------------------


def test_v_is_verbose():
    plain = run("solve", "-q", MATE_1)
    verbose = run("solve", "-q", "-v", MATE_1)
    assert plain.exit_code == verbose.exit_code == 0
    assert "  variant: ito" not in plain.stdout and "  variant: ito" in verbose.stdout
    v_verify = run("verify", "-q", "-v", MATE_1)
    assert v_verify.exit_code == 0 and "Statistics:" in v_verify.stdout
    assert "Nodes by question: main line " in v_verify.stdout
    assert "Statistics:" not in run("verify", "-q", MATE_1).stdout


def test_statistics_say_when_the_table_filled_up():
    # A table of the fewest entries fills up and drops entries again and
    # again: the statistics say so, and what to do about it.
    args = ["5k3+g3+F+P1+h2PFC1H2T+C+tG1 b - 1", "--nodes", "100000"]  # an Ito mate in 45
    small = run("solve", "--memory", "1", *args)
    assert "the table filled up" in small.stdout and "a larger --memory may be faster" in small.stdout
    assert "the table filled up" not in run("solve", *args).stdout
    verified = run("verify", "-v", "-f", "bench-ito", "--id", "ito-L01-0001", "--memory", "1", "--nodes", "200000")
    assert "the table filled up" in verified.stdout
    assert "the table filled up" not in run("verify", "-v", "-q", MATE_1).stdout


@pytest.mark.parametrize("args", [["show", "-v", "rutherford"], ["perft", "-v", "rutherford", "--depth", "1"],
                                  ["solve", "-v", "rutherford", "k19K b G"]])
def test_v_does_not_mean_variant(capsys, args):
    code, out, err = entry(capsys, *args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    if args[0] != "solve":  # "No such option '-v'", with the way to say the variant
        assert "--variant" in err, err


def test_rutherford_hint_on_the_command_line():
    r = run("show", "k18K b - 1")
    assert r.exit_code == 2 and "use --variant rutherford" in r.stderr


def test_defender_hand_beyond_the_set():
    for command in ("solve", "verify"):
        r = run(command, "-q", "--defender-hand", "99g", MATE_1)
        assert r.exit_code == 2 and "99" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_sat_defender_hand_beyond_the_set():
    r = run("solve", "--engine", "sat", "--max-length", "1", "--defender-hand", "99g", MATE_1)
    assert r.exit_code == 2 and "99" in r.stderr


def test_click_errors_are_cut_short(capsys):
    code, out, err = entry(capsys, "solve", "--engine", "z" * 100_000, MATE_1)
    assert code == 2 and len(err) < 500
    code, out, err = entry(capsys, "show", "--" + "y" * 100_000)
    assert code == 2 and len(err) < 500


# --- an internal error is not "no mate" ------------------------------------------------------------


def test_internal_error_has_its_own_status(monkeypatch):
    import tsume.cli

    def broken(*args, **kwargs):
        raise RuntimeError("something broke\nover two lines")

    monkeypatch.setattr(tsume.cli, "diagram", broken)
    r = run("show", MATE_1)
    assert r.exit_code == 70, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: internal error:"), r.stderr
    assert "RuntimeError" in lines[0] and MATE_1 in lines[0] and "tsume show" in lines[0]
    assert "Traceback" not in r.output


def test_a_panic_in_the_engine_is_an_internal_error(monkeypatch):
    """A Rust panic reaches Python as PanicException, a BaseException: still one line and 70."""
    import tsume.cli
    from tsume._engine import PanicException

    assert not issubclass(PanicException, Exception)

    def broken(*args, **kwargs):
        raise PanicException("index out of bounds: the len is 32 but the index is 40")

    monkeypatch.setattr(tsume.cli, "diagram", broken)
    r = run("show", MATE_1)
    assert r.exit_code == 70, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: internal error:"), r.stderr
    assert "PanicException" in lines[0] and "Traceback" not in r.output


def test_internal_error_names_the_problem(monkeypatch):
    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    # The module: the package's ``tsume.solve`` is the function.
    monkeypatch.setattr(sys.modules["tsume.solve"], "solve", broken)
    pr = bundled_example()
    r = run("solve", "-q", "--file", "examples", "--id", pr.id)
    assert r.exit_code == 70
    assert "--file 'examples'" in r.stderr and f"--id '{pr.id}'" in r.stderr


# --- output that cannot be written ----------------------------------------------------------------


def test_closed_pipe_is_silent():
    proc = subprocess.Popen(_command() + ["perft", "--depth", "3", "--divide"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # before the program writes: its first write finds no reader
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert err == ""


def test_closed_pipe_after_the_first_line():
    # `tsume perft --depth 5 --divide | head -1`
    proc = subprocess.run(
        ["sh", "-c", " ".join(_command()) + " perft --depth 5 --divide | head -1"],
        capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in proc.stderr and proc.stderr == "", proc.stderr
    assert proc.stdout.splitlines()[0].endswith(tuple("0123456789"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(_command() + ["show"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 74
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write" in lines[0], proc.stderr


def test_file_names_the_system_refuses_are_bad_input(tmp_path):
    for args in (["show", "x" * 5000], ["show", "--file", "x" * 5000], ["verify", "--file", "x" * 5000]):
        r = run(*args)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, (args[:2], r.stderr[:300])
        assert len(r.stderr) < 400


def test_a_file_name_with_spaces_is_a_file(tmp_path):
    f = tmp_path / "my problems.tsume"
    f.write_text(f"[only]\nposition: {MATE_1}\nlength: 1\n")
    r = run("solve", "-q", "--json", str(f))
    assert r.exit_code == 0 and json.loads(r.stdout)["length"] == 1


def test_ctrl_c_is_130(monkeypatch):
    import tsume.cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tsume.cli, "diagram", interrupted)
    r = run("show")
    assert r.exit_code == 130 and r.stderr == "tsume: interrupted\n"


# --- verify on a collection: a line per problem and a summary ---------------------------------------

SUMMARY = re.compile(r"^(\d+) problems?: (\d+) sound, (\d+) flawed, (\d+) unsound, (\d+) unknown; [\d.]+ s")


def _verified_as_json(*args: str) -> list[dict]:
    r = run("verify", "-q", "--json", *args)
    assert r.exit_code in (0, 1, 3), r.output
    return json.loads(r.stdout)["problems"]  # one JSON document: nothing else on stdout


@pytest.mark.parametrize("name, status", [("examples", 0), ("flawed", 1)])
def test_a_collection_is_a_line_per_problem_and_a_summary(name, status):
    expected = _verified_as_json("--file", name)
    r = run("verify", "--file", name)
    assert r.exit_code == status and r.stderr == ""  # no progress noise off a terminal
    header, *rows, summary = r.stdout.splitlines()
    assert header.split() == ["ID", "VERDICT", "PROVEN", "FINDINGS"]
    assert len(rows) == len(expected)
    for row, p in zip(rows, expected):
        pid, verdict, length, kinds = row.split(maxsplit=3)
        assert (pid, verdict) == (p["id"], p["verdict"])
        assert length == ("-" if p["length"] is None else str(p["length"]))
        assert kinds == (", ".join(dict.fromkeys(f["kind"] for f in p["findings"])) or "-")
    counts = SUMMARY.match(summary)
    assert counts, summary
    verdicts = [p["verdict"] for p in expected]
    assert [int(c) for c in counts.groups()] == [len(expected)] + [verdicts.count(v) for v in
                                                                   ("sound", "flawed", "unsound", "unknown")]
    assert "Verdict:" not in r.stdout and "Position:" not in r.stdout


def test_the_summary_names_the_problems_that_need_a_look():
    unsound = [p["id"] for p in _verified_as_json("--file", "flawed") if p["verdict"] == "unsound"]
    assert len(unsound) > 5
    summary = run("verify", "-q", "--file", "flawed").stdout
    assert summary.rstrip().endswith(f"; unsound: {', '.join(unsound[:5])} and {len(unsound) - 5} more"), summary
    stopped = run("verify", "-q", "--nodes", "1", "--file", "examples")
    assert stopped.exit_code == 3
    assert "; unknown: ito-01, ito-05" in stopped.stdout and SUMMARY.match(stopped.stdout)


def test_quiet_leaves_only_the_summary():
    r = run("verify", "-q", "--file", "flawed")
    assert r.exit_code == 1 and r.stderr == ""
    (line,) = r.stdout.splitlines()
    assert SUMMARY.match(line) and line.startswith("20 problems: "), line


def test_verbose_adds_nodes_and_seconds_to_each_line():
    r = run("verify", "-v", "--file", "examples")
    header, *rows, summary = r.stdout.splitlines()
    assert header.split() == ["ID", "VERDICT", "PROVEN", "NODES", "SECONDS", "FINDINGS"]
    assert len(rows) == 6 and all(re.fullmatch(r"\S+ +\w+ +\d+ +[\d,]+ +\d+\.\d\d +\S.*", row) for row in rows), rows


def test_full_prints_every_report_as_for_one_problem():
    expected = _verified_as_json("--file", "examples")
    full = run("verify", "--full", "--file", "examples")
    assert full.exit_code == 0 and full.stdout.count("\nVerdict: ") == len(expected)
    assert SUMMARY.match(full.stdout.splitlines()[-1])
    # Each report is the very one a single problem gets.
    for p in expected:
        one = run("verify", "--file", "examples", "--id", p["id"])
        assert one.exit_code == 0 and not SUMMARY.match(one.stdout.splitlines()[-1] or "-")
        assert _timeless(one.stdout) in _timeless(full.stdout)
    assert run("verify", "-q", "--full", "--file", "examples").stdout.count("\nVerdict: ") == len(expected)


def _timeless(text: str) -> str:
    return re.sub(r"\(\d+\.\d+ s, [\d,]+ nodes\)", "(time)", text)


def test_one_problem_keeps_its_full_report():
    r = run("verify", "--file", "examples", "--id", "ito-09")
    lines = r.stdout.splitlines()
    assert lines[0].startswith("[ito-09] ") and "Solution, 9 plies" in r.stdout
    assert lines[-2].startswith("Verdict: sound") and lines[-1] == ""
    assert not any(SUMMARY.match(line) for line in lines)


def _screen(data: str) -> list[str]:
    """What a terminal shows after ``data``: ``\\r`` returns to the line's start,
    ``ESC[K`` erases to its end, a character overwrites what is under it."""
    lines, col = [[]], 0
    for part in re.split(r"(\r\n|\n|\r|\x1b\[K)", data):
        line = lines[-1]
        if part in ("\n", "\r\n"):
            lines.append([])
            col = 0
        elif part == "\r":
            col = 0
        elif part == "\x1b[K":
            del line[col:]
        else:
            for ch in part:
                if col < len(line):
                    line[col] = ch
                else:
                    line.append(ch)
                col += 1
    return ["".join(line) for line in lines]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_on_a_terminal_never_mixes_with_the_lines():
    master, slave = os.openpty()
    proc = subprocess.Popen(_command() + ["verify", "--file", "flawed"], stdout=slave, stderr=slave,
                            close_fds=True)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    assert proc.wait(timeout=120) == 1
    text = data.decode()
    assert "tsume: verifying 1/20 ito-no-mate-1" in text  # the progress was drawn
    plain = run("verify", "--file", "flawed").stdout.splitlines()
    shown = [line for line in _screen(text) if line]
    assert shown[:-1] == plain[:-1] and SUMMARY.match(shown[-1]), shown


def test_the_progress_line_is_erased_before_each_line_of_output(monkeypatch):
    import io

    from tsume.cli import _ProgressLine

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    line = _ProgressLine(True, "verifying", 2)
    line.start(1, "a")
    line.searching({"nodes": 1234, "seconds": 1.0})
    assert _screen(term.getvalue()) == ["tsume: verifying 1/2 a: 1,234 nodes, 1.0 s"]
    line.clear()
    assert _screen(term.getvalue()) == [""]
    # Off a terminal: nothing for a search that took less than 10 s.
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    line = _ProgressLine(True, "verifying", 2)
    line.start(1, "a")
    line.searching({"nodes": 1234, "seconds": 1.0})
    line.clear()
    assert log.getvalue() == ""


# --- what a mistyped input is told ------------------------------------------------------------------


def test_a_folder_given_as_a_collection_names_the_collections_in_it(tmp_path):
    (tmp_path / "mine.tsume").write_text("[a]\nposition: k1P2H25 b G\n")
    for args in (("solve", str(tmp_path)), ("solve", "--file", str(tmp_path), "--id", "a"), ("list", str(tmp_path))):
        r = run(*args)
        assert r.exit_code == 2, r.output
        assert "is a folder, not a collection file; it holds mine.tsume" in r.stderr, r.stderr
        assert "no such file" not in r.stderr


def test_an_unknown_id_lists_the_ids_or_the_closest():
    r = run("solve", "--file", "examples", "--id", "ito-99")
    assert r.exit_code == 2
    assert "no problem [ito-99] (its problems: ito-01, ito-05, ito-09, rutherford-05" in r.stderr
    r = run("verify", "--file", "seed-rutherford", "--id", "ruth-c23")
    assert r.exit_code == 2 and "204 problems; the closest ids: ruth-c0023, " in r.stderr, r.stderr


@pytest.mark.parametrize("option, value, says", [
    ("--max-length", "-3", "must be at least 1, not -3"),
    ("--max-length", "0", "must be at least 1, not 0"),
    ("--nodes", "-3", "must be at least 1, not -3"),
    ("--nodes", "2.5", "expected a whole number, got '2.5'"),
    ("--nodes", "1e6", "expected a whole number, got '1e6'"),
])
def test_a_negative_or_decimal_count_is_told_what_range_it_needs(option, value, says):
    r = run("solve", "k30 b G", option, value)
    assert r.exit_code == 2 and says in r.stderr, r.stderr


def test_show_says_which_hand_the_defender_is_solved_with():
    data = json.loads(run("show", "--json", "k1P2H25 b G").stdout)
    assert data["hands"]["white"] == "-"  # as written
    assert data["tsume"] == {"position": "k1P2H25 b Gp2t2chg2f 1", "defender": "rest",
                             "defender_hand": "p2t2chg2f"}
    text = run("show", "k1P2H25 b G").stdout
    assert "As a tsume (solve, verify), White holds the rest of the set: p2t2chg2f" in text
    # --defender-hand draws the position as it would be solved, as a collection problem is
    data = json.loads(run("show", "--json", "--defender-hand", "2T", "k1P2H25 b G").stdout)
    assert data["hands"]["white"] == "2t" and data["tsume"]["defender"] == "given"
    assert "As a tsume" not in run("show", "--defender-hand", "none", "k1P2H25 b G").stdout
    assert json.loads(run("show", "--json", "K30 b -").stdout)["tsume"] is None  # no defending king
    assert json.loads(run("show", "--json").stdout)["tsume"] is None  # the start position is no problem
