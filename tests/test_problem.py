"""The tsume problem as one value (tsume.Problem), and every entry point taking it.

A position string does not say what the defender holds: an empty defender
hand means "the rest of the set" unless the problem says ``defender: none``.
Each entry point (solve, verify, sat_solve, the booklet, ``tsume show``, the
composer's filters, the census classifier) must solve a ``defender: none``
problem as ``tsume solve --defender-hand none`` does; the problem below has a
mate in 3 with the defender holding nothing, and none with the rest.
"""

from __future__ import annotations

import json
import pickle

import pytest
from click.testing import CliRunner

import tsume
from tsume import ArgumentError, DefenderHand, Limits, PositionError, Problem, Status, Verdict
from tsume import booklet
from tsume.census.classify import classify
from tsume.census.family import parse_family
from tsume.census.retro import solve_dfpn
from tsume.cli import main
from tsume.collection import Record, find, load, loads, locate
from tsume.compose.candidate import Candidate
from tsume.compose.filters import Criteria, consider, mate, sound
from tsume.position import Position
from tsume.problem import NONE, REST
from tsume.sat import sat_solve
from tsume.solve import solve
from tsume.verify import sound_report, verify

# bench-ito's ito-L03-0007: with `defender: none` a mate in 3 (C6-9 +g7x11=g
# G*6); with the rest of the set in the defender's hand, no mate at all.
NONE_ID = "ito-L03-0007"
NONE_TEXT = "1k3C+g3T1+f18 b FGP 1"
RECORD = find(load(locate("bench-ito")), NONE_ID)
# seed-ito's ito-c0029, for the paths that keep only sound problems: with
# `defender: none` a sound mate in 1 (C18-10), with the rest no mate.
SOUND_TEXT = "4k1t3K6C13 b - 1"


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


@pytest.fixture(scope="module")
def reference() -> dict:
    """What `tsume solve --defender-hand none` says of the problem."""
    code, out = cli("solve", NONE_TEXT, "--defender-hand", "none", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["status"], data["length"]) == ("mate", 3)
    return data


def test_the_problem_is_one_with_no_mate_when_the_defender_holds_the_rest():
    code, out = cli("solve", NONE_TEXT, "--json")
    assert code == 1 and json.loads(out)["status"] == "nomate"
    assert RECORD.position == NONE_TEXT and RECORD.defender == "none"


# --- the value -------------------------------------------------------------------------------------


def test_the_defender_rule_is_settled_when_the_problem_is_made():
    assert Problem(NONE_TEXT).defender == REST
    assert Problem(NONE_TEXT).fen == "1k3C+g3T1+f18 b PGFptc2h 1"
    assert Problem(NONE_TEXT, defender="none").defender == NONE
    assert Problem(NONE_TEXT, defender=" NONE ").fen == NONE_TEXT.replace("FGP", "PGF")
    given = Problem(NONE_TEXT, defender="pt")
    assert given.defender.rule == "given" and str(given.defender) == "PT" and given.fen.endswith("b PGFpt 1")
    # Defender pieces named in the position are the defender's hand, as given.
    assert Problem("1k3C+g3T1+f18 b FGPpt 1").defender == given.defender
    assert Problem(NONE_TEXT, defender="").defender == NONE  # no letters: nothing
    assert Problem(NONE_TEXT, defender=NONE) == Problem(NONE_TEXT, defender="none")


def test_a_position_keeps_its_variant_and_its_hand_as_the_defender_rule_says():
    pos = Position(NONE_TEXT)
    assert Problem(pos, defender="none").position() == Problem(NONE_TEXT, defender="none").position()
    assert Problem(pos).defender == REST  # an empty hand in a Position reads as a string's does
    held = Problem(NONE_TEXT, defender="none").position()
    assert Problem(held, defender=DefenderHand.held(held)).defender == NONE
    ruth = Position("k4SL1N b - 1", "rutherford")
    assert Problem(ruth).variant.name == "rutherford"
    with pytest.raises(ArgumentError):
        Problem(ruth, variant="ito")


def test_a_problem_is_immutable_hashable_and_pickles():
    p = Problem(NONE_TEXT, defender="none", length=3)
    with pytest.raises(AttributeError):
        p.length = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        p.defender.rule = "rest"  # type: ignore[misc]
    moved = p.position()
    moved.push(moved.checks()[0])
    assert p.position().fen() == p.fen  # the copy handed out is the caller's
    assert p == Problem(NONE_TEXT, defender="none", length=3) and len({p, Problem(p.fen, defender="none", length=3)}) == 1
    assert p != p.replace(length=None) and p != p.replace(defender="rest")
    assert pickle.loads(pickle.dumps(p)) == p
    assert repr(p) == "Problem('1k3C+g3T1+f18 b PGF 1', variant='ito', defender='none', length=3)"


def test_the_stated_solution_is_part_of_the_problem():
    line = ["C6-9", "+g7x11=g", "G*6"]
    p = Problem(NONE_TEXT, defender="none", length=3, solution=line)
    line.append("6-7")  # the problem keeps a copy, as a tuple
    assert p.solution == ("C6-9", "+g7x11=g", "G*6") and Problem(NONE_TEXT).solution is None
    assert p == Problem(NONE_TEXT, defender="none", length=3, solution=("C6-9", "+g7x11=g", "G*6"))
    assert p != p.replace(solution=None) and hash(p) != hash(p.replace(solution=["G*6"]))
    assert p.replace(solution=None).replace(solution=p.solution) == p
    assert p.replace(length=None).solution == p.solution  # replace() keeps what it is not given
    copy = pickle.loads(pickle.dumps(p))
    assert copy == p and copy.solution == p.solution and copy.length == 3
    assert repr(p).endswith("length=3, solution=('C6-9', '+g7x11=g', 'G*6'))")
    with pytest.raises(ArgumentError):
        Problem(NONE_TEXT, solution="C6-9 +g7x11=g G*6")  # one string, not a sequence of moves
    with pytest.raises(ArgumentError):
        p.replace(solution=[6])


@pytest.mark.parametrize("args, kwargs, error", [
    ((5,), {}, PositionError),
    (("K30 b G",), {}, PositionError),  # no defender king
    ((NONE_TEXT,), {"defender": 5}, ArgumentError),
    ((NONE_TEXT,), {"defender": "3g"}, PositionError),  # more than the set
    ((NONE_TEXT,), {"length": 0}, ArgumentError),
    ((NONE_TEXT,), {"variant": "chess"}, tsume.VariantError),
])
def test_bad_input_is_one_line(args, kwargs, error):
    with pytest.raises(error) as info:
        Problem(*args, **kwargs)
    assert "\n" not in str(info.value) and not str(info.value).startswith("tsume:")


def test_replace_takes_no_ambiguous_none():
    with pytest.raises(ArgumentError):
        Problem(NONE_TEXT).replace(defender=None)


def test_a_record_makes_its_problem_once_and_again_when_it_changes():
    (record,) = loads("[a]\nposition: 1k3C+g3T1+f18 b FGP 1\ndefender: none\nlength: 3\nsolution: C6-9 +g7x11=g G*6\n")
    p = record.problem()
    assert p is record.problem()
    assert p == Problem(NONE_TEXT, defender="none", length=3, solution=["C6-9", "+g7x11=g", "G*6"])
    assert pickle.loads(pickle.dumps(p)) == p
    assert record.problem(defender="rest").defender == REST  # an override, as --defender-hand
    record.defender = None
    assert record.problem().defender == REST
    record.solution = ["C6-9"]
    assert record.problem().solution == ("C6-9",)
    record.solution = None
    assert record.problem().solution is None


# --- the entry points ------------------------------------------------------------------------------


def _same(result, reference: dict) -> None:
    assert result.status == Status.MATE
    assert (result.position, result.length, result.mainline, result.leftover) == (
        reference["position"], reference["length"], reference["mainline"], reference["leftover"])


def test_solve(reference):
    _same(solve(Problem(NONE_TEXT, defender="none")), reference)
    _same(solve(RECORD.problem()), reference)
    with pytest.raises(ArgumentError, match="record.problem()"):
        solve(RECORD)  # a record makes its problem: one way in


def test_verify(reference):
    for given in (RECORD.problem(), Problem(NONE_TEXT, defender="none")):
        report = verify(given)
        assert report.position == reference["position"]
        assert (report.length, report.mainline) == (reference["length"], reference["mainline"])
    code, out = cli("verify", SOUND_TEXT, "--defender-hand", "none", "--json")
    (expected,) = json.loads(out)["problems"]
    assert code == 0 and expected["verdict"] == "sound" and expected["mainline"] == ["18-10"]
    report, _ = sound_report(Problem(SOUND_TEXT, defender="none"))
    assert report is not None and report.verdict == Verdict.SOUND
    assert (report.position, report.mainline) == (expected["position"], expected["mainline"])
    assert verify(Problem(SOUND_TEXT)).verdict == Verdict.UNSOUND  # the rest of the set: no mate


def test_sat_solve(reference):
    r = sat_solve(RECORD.problem(), max_length=5, limits=Limits(time=60))
    _same(r, reference)
    code, out = cli("solve", NONE_TEXT, "--defender-hand", "none", "--engine", "sat", "--max-length", "5", "--json")
    assert code == 0 and json.loads(out)["mainline"] == reference["mainline"]


def test_booklet(reference):
    entry = booklet.prepare(RECORD, 1)
    assert entry.position.fen() == reference["position"]
    assert (entry.status, entry.length, entry.mainline) == (Status.MATE, reference["length"], reference["mainline"])
    html = booklet.render([entry], title="t")
    assert "The solver finds no mate" not in html and "nothing." in html  # the defender holds nothing


def test_show(reference):
    code, out = cli("show", "--file", "bench-ito", "--id", NONE_ID, "--json")
    assert code == 0 and json.loads(out)["position"] == reference["position"]
    code, out = cli("show", "--file", "bench-ito", "--id", NONE_ID)
    assert code == 0 and "White hand: -" in out and "(the rest)" not in out


def test_the_composers_filters(reference):
    c = Candidate.from_position(Position(NONE_TEXT), "none")
    r, _ = mate(c, Criteria())
    assert r is not None
    _same(r, reference)
    assert mate(Candidate.from_position(Position(NONE_TEXT), None), Criteria())[0] is None  # the rest: no mate
    kept = Candidate.from_position(Position(SOUND_TEXT), "none")
    report, _ = sound(kept, Criteria(), length=1)
    assert report is not None and report.mainline == ["18-10"]
    assert consider(kept, Criteria()).stage == "accepted"
    assert sound(Candidate.from_position(Position(SOUND_TEXT), None), Criteria())[0] is None


def test_the_census_classifier():
    # Rutherford, 9 squares, defender-hand=none: S6-8 mates at once by the
    # lance's discovered check, and the knight on 9 is redundant: without it
    # the problem is still a sound mate in 1 (with the rest of the set in the
    # defender's hand it would be no mate, which read it as not redundant).
    family = parse_family("attacker=SNL, length=9, defender-hand=none", "rutherford")
    problem = Problem("k4SL1N b - 1", variant="rutherford", defender="none")
    solved = solve_dfpn(problem.position(), 15)
    out = classify(solved, family)
    code, data = cli("solve", "k4SL1N b - 1", "--variant", "rutherford", "--defender-hand", "none", "--json")
    assert code == 0
    assert out["verdict"] == Verdict.SOUND and out["solution"] == json.loads(data)["mainline"] == ["6-8"]
    code, data = cli("verify", "k4SL2 b - 1", "--variant", "rutherford", "--defender-hand", "none", "--length", "1",
                     "--json")
    assert code == 0 and json.loads(data)["problems"][0]["verdict"] == "sound"
    assert out["redundant"] == ["N9"]


def test_records_are_records():
    assert tsume.collection.Problem is Record  # the record's other name
    assert Problem is not Record
