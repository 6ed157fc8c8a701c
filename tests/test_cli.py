"""The ``tsume`` command line: show and perft, JSON output, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tsume.cli import main

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
