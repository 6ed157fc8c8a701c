"""Theme labels: each documented example carries its label, the labels are
exact on known problems, and `tsume compose --theme` keeps only problems
that carry the theme."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tsume.cli import main
from tsume.collection import load
from tsume.compose.run import Settings, settings_from
from tsume.compose.themes import THEMES, themes
from tsume.errors import ArgumentError
from tsume.problem import Problem
from tsume.variant import get_variant
from tsume.verify import verify

DOCS = Path(__file__).resolve().parent.parent / "docs" / "compose.md"
ROW = re.compile(r"^\| `([a-z-]+)` \| .* \| (ito|rutherford), `([^`]+)`(?: \(defender: (\w+)\))?, ([^|]+) \|$")


def documented() -> list[tuple[str, str, str, str | None, list[str]]]:
    rows = [m.groups() for m in map(ROW.match, DOCS.read_text().splitlines()) if m]
    return [(label, variant, pos, defender, line.split()) for label, variant, pos, defender, line in rows]


def labels(variant: str, position: str, defender: str | None = None) -> tuple[list[str], list[str]]:
    report = verify(Problem(position, variant=get_variant(variant), defender=defender))
    assert report.verdict == "sound", report.findings
    return themes(report), report.mainline


def test_every_label_is_documented_with_an_example():
    assert sorted(label for label, *_ in documented()) == sorted(THEMES)


@pytest.mark.parametrize("label, variant, position, defender, line", documented())
def test_each_documented_example_carries_its_label(label, variant, position, defender, line):
    found, mainline = labels(variant, position, defender)
    assert mainline == line
    assert label in found


@pytest.mark.parametrize("variant, position, defender, expected", [
    ("ito", "k1P2H25 b G", None, ["long-range-drop", "drop-mate"]),
    ("ito", "3tk1t2+H21 b - 1", "none", ["quiet-key"]),
    ("ito", "f2k2t+H2K20 b 2GT 1", None, ["sacrifice", "king-walk", "king-walk-back", "long-range-drop"]),
    ("ito", "8kT4+h11+C4 b - 1", None,
     ["sacrifice", "interposition", "unpromotion", "re-drop", "long-range-drop", "drop-mate"]),
    ("rutherford", "k11+b18p5 b N 1", None, ["king-walk", "long-range-drop"]),
    ("rutherford", "1k+n1+l+Ns5 b B 1", None, ["sacrifice", "promotion-declined", "unpromotion", "re-drop"]),
])
def test_labels_are_exact(variant, position, defender, expected):
    assert labels(variant, position, defender)[0] == expected


def test_a_long_ito_king_walk_needs_no_sacrifice():
    """A Phoenix drives the king from square 27 to square 1, guarded from
    afar by a cannon hopping the defender's own cannon: 53 plies, and the
    defender never captures."""
    found, line = labels("ito", "26k1+GcC b - 1")
    assert len(line) == 53 and line[0] == "29-28" and line[-1] == "3-2"
    assert found == ["king-walk", "quiet-key"]


def test_an_unknown_theme_is_refused_in_one_line():
    with pytest.raises(ArgumentError, match="theme must be one of sacrifice, interposition"):
        Settings(theme="brilliancy").check()
    result = CliRunner().invoke(main, ["compose", "-o", "x.tsume", "--theme", "brilliancy"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_compose_keeps_only_problems_with_the_theme(tmp_path):
    out = tmp_path / "t.tsume"
    result = CliRunner().invoke(main, ["compose", "-o", str(out), "--count", "2", "--time-limit", "120",
                                       "--theme", "interposition", "--workers", "1", "--seed", "3",
                                       "--method", "random", "--json", "-q"])
    assert result.exit_code == 0, result.output
    printed = [json.loads(line) for line in result.output.splitlines()]
    assert len(printed) == 2
    for problem, record in zip(printed, load(out)):
        assert "interposition" in problem["themes"]
        assert "interposition" in record.tags
        # The label is the problem's own, not copied from the option.
        assert themes(verify(record.problem())) == problem["themes"]


def test_settings_carry_the_theme_into_the_state():
    s = settings_from("ito", theme="sacrifice")
    assert s.state()["theme"] == "sacrifice"
