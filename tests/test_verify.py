"""The verifier: findings, verdicts, completeness under limits, and cross-checks
against solve() and the reference solver on seeded random positions."""

from __future__ import annotations

import json
import random

import pytest

from tsume import Limits, Problem
from tsume.collection import Record
from tsume.generate import random_tsume
from tsume.reference import ReferenceSolver
from tsume.solve import solve
from tsume.verify import FINDING_KINDS, sound_report, verify

# ito-05 of problems/examples.tsume: mate in 5, unique, nothing left; the Pawn
# on 6 never moves.
ITO05 = "H1kf1P1c2K20 b PHG 1"
ITO05_LINE = ["G*7", "3-2", "H*5", "2-1", "P*2"]
ITO05_PROBLEM = Problem(ITO05)


def kinds(report) -> set[str]:
    return report.kinds - {"unused-material"}


def test_a_sound_problem_is_sound_and_its_report_is_complete():
    r = verify(Problem(ITO05, length=5, solution=ITO05_LINE))
    assert r.verdict == "sound"
    assert r.length == 5 and r.mainline == ITO05_LINE and r.leftover == "-"
    assert [f.kind for f in r.findings] == ["unused-material"]
    assert r.findings[0].pieces == "P6" and r.findings[0].severity == "info"
    # Every checking alternative at every attacker turn was decided.
    assert r.alternatives and all(a.status == "nomate" for a in r.alternatives)
    pos = Problem(ITO05, variant="ito").position()
    q = pos.copy()
    expected = 0
    for i, m in enumerate(r.mainline):
        mv = q.parse_move(m)
        if i % 2 == 0:
            expected += len(q.checks()) - 1
        q.push(mv)
    assert len(r.alternatives) == expected


def test_stated_length_mismatch():
    r = verify(Problem(ITO05, length=7))
    assert kinds(r) == {"stated-length-mismatch"} and r.verdict == "unsound"
    assert r.findings[0].length == 5


@pytest.mark.parametrize(
    "solution, says",
    [
        (["G*7", "3-2", "H*5", "2x1", "P*2"], "ply 4"),           # malformed
        (["G*7", "3-2", "H*4", "2-1", "P*2"], "occupied"),        # illegal
        (["G*7", "3-2", "H*5"], "does not end in mate"),          # stops early
        (["G*7", "3-2", "H*5", "2-1", "P*2", "1-2"], "ply 6"),    # goes on after the mate
    ],
)
def test_solution_mismatch(solution, says):
    r = verify(Problem(ITO05, solution=solution))
    assert kinds(r) == {"solution-mismatch"}, r.findings
    assert says in next(f.message for f in r.findings if f.kind == "solution-mismatch")
    assert r.verdict == "unsound"
    # The report still shows the proven main line.
    assert r.mainline == ITO05_LINE


def test_a_records_fields_are_its_problems():
    record = Record(id="x", position=ITO05, variant="ito", length=7, solution=ITO05_LINE)
    r = verify(record.problem(), id=record.id)
    assert r.id == "x" and kinds(r) == {"stated-length-mismatch"}
    assert verify(record.problem()).id is None  # the label is the caller's
    record.length = 5
    assert kinds(verify(record.problem())) == set()
    # The stated solution is compared as the record states it.
    record.solution = ITO05_LINE[:3]
    assert kinds(verify(record.problem())) == {"solution-mismatch"}


def test_no_mate():
    # A lone Pawn cannot mate a free king.
    r = verify(Problem("k1P28 b - 1", defender="none"))
    assert [f.kind for f in r.findings] == ["no-mate"] and r.verdict == "unsound"
    assert r.length is None and r.mainline == []


def test_a_limit_makes_every_open_question_unknown_never_sound():
    r = verify(ITO05_PROBLEM, limits=Limits(nodes=30))
    assert r.verdict == "unknown"
    assert [f.kind for f in r.findings] == ["unknown"]
    # A limit during the walk: the alternatives it stops are listed as unknown.
    full = verify(ITO05_PROBLEM)
    seen = set()
    for limit in range(full.stats["nodes"] // 4, full.stats["nodes"], max(1, full.stats["nodes"] // 12)):
        part = verify(ITO05_PROBLEM, limits=Limits(nodes=limit))
        assert part.verdict in ("unknown", "sound")
        # The limit holds for the whole verify, however many questions follow
        # the first stop (1,000 nodes asked once ran 44,032, then 1,050).
        assert part.stats["nodes"] <= limit
        if part.verdict == "unknown" and part.length is not None:
            open_alts = [a for a in part.alternatives if a.status == "unknown"]
            assert len([f for f in part.findings if f.kind == "unknown"]) == len(open_alts) + len(
                [v for v in part.variations if v.status == "unknown"]
            )
            seen.add("walk")
    assert "walk" in seen


def test_fail_fast_stops_at_the_first_defect():
    pos = "l3k1n+P1S15 b PL 1"  # a 13-ply Rutherford mate with yozume at ply 1
    r = verify(Problem(pos, variant="rutherford"), fail_fast=True)
    assert r.verdict == "unsound"
    defects = [f for f in r.findings if f.severity == "defect"]
    assert len(defects) == 1 and defects[0].kind == "yozume" and defects[0].ply == 1


def test_fail_fast_does_not_read_the_length_of_a_last_turn_yozume():
    # Mate in 1 (C*2); T5x6=+T also mates, in 27 plies, and finding that out
    # takes some 1.5 million nodes (its exact length needs a disproof within
    # 25).  At the last turn any mate but one at once is yozume: a fail-fast
    # run only asks whether it mates.
    r = verify(Problem("2+FkTg25 b C 1", variant="ito"), fail_fast=True, limits=Limits(nodes=50_000))
    assert r.verdict == "unsound" and r.stats["nodes"] < 10_000
    (yozume,) = [f for f in r.findings if f.severity == "defect"]
    assert (yozume.kind, yozume.ply, yozume.move, yozume.length) == ("yozume", 1, "5-6", None)


def _random_verified_mates(variant: str):
    """(position, full report) of seeded random mates that verify() settles within 20,000 nodes."""
    rng = random.Random(515)
    for _ in range(100):
        pos = random_tsume(rng, variant, attacker_men=(1, 3), defender_men=(0, 2), attacker_hand=(1, 2), spread=4)
        if solve(Problem(pos), limits=Limits(nodes=2_000), variations=False).status != "mate":
            continue
        full = verify(Problem(pos), limits=Limits(nodes=20_000))
        if full.verdict != "unknown":
            yield pos, full


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_fail_fast_says_unsound_exactly_when_the_full_report_does(variant):
    verdicts: dict[str, int] = {}
    for pos, full in _random_verified_mates(variant):
        fast = verify(Problem(pos), limits=Limits(nodes=20_000), fail_fast=True)
        assert (fast.verdict == "unsound") == (full.verdict == "unsound"), pos.fen()
        if full.verdict != "unsound":  # nothing stopped it: the same report
            assert fast.to_dict() == full.to_dict() | {"stats": fast.to_dict()["stats"]}, pos.fen()
        verdicts[full.verdict] = verdicts.get(full.verdict, 0) + 1
    assert verdicts.get("unsound", 0) >= 10 and len(verdicts) >= 2, verdicts


# Random mates whose first defect is a last-turn yozume, with its length in the full report.
@pytest.mark.parametrize("variant,text,length", [
    ("ito", "Hk1P27 b C 1", 5), ("ito", "GC1k17K9 b T 1", 11),
    ("rutherford", "2k+B1L10 b N 1", 13), ("rutherford", "6l1k2+S11K1 b B 1", 5),
])
def test_a_fail_fast_last_turn_yozume_is_one_of_the_full_report(variant, text, length):
    fast = verify(Problem(text, variant=variant), fail_fast=True)
    (found,) = [f for f in fast.findings if f.severity == "defect"]
    assert found.kind == "yozume" and found.length is None and "length not read" in found.message
    full = verify(Problem(text, variant=variant))
    same = [f for f in full.findings if (f.ply, f.move) == (found.ply, found.move)]
    assert [(f.kind, f.length) for f in same] == [("yozume", length)]


def test_sound_report_stops_at_an_alternative_that_mates_at_all():
    # 3 plies; at ply 1 the alternative F5-6 mates (sound_report() knows it
    # after 71,248 nodes in all), and its length takes more: verify() with
    # 100,000 nodes ends "unknown"; sound_report() only needs to know it mates,
    # so it stops before the limit (a run the limit stops counts 100,000).
    problem, limits = Problem("1kG1F26 b CF 1", variant="ito"), Limits(nodes=100_000)
    report, nodes = sound_report(problem, limits=limits)
    assert report is None and nodes < 90_000
    assert verify(problem, limits=limits).verdict == "unknown"


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_sound_report_is_the_report_of_exactly_the_sound_problems(variant):
    verdicts: dict[str, int] = {}
    for pos, full in _random_verified_mates(variant):
        report, nodes = sound_report(Problem(pos), limits=Limits(nodes=20_000))
        if full.verdict == "sound":
            same = report is not None and report.to_dict() | {"stats": None} == full.to_dict() | {"stats": None}
            assert same, pos.fen()
        else:
            assert report is None, pos.fen()
        verdicts[full.verdict] = verdicts.get(full.verdict, 0) + 1
    assert verdicts.get("sound", 0) >= 3 and verdicts.get("unsound", 0) >= 10, verdicts


@pytest.mark.parametrize("collection", ["seed-ito", "seed-rutherford"])
def test_a_stated_length_too_short_stops_a_fail_fast_report_early(collection):
    """With a stated length, sound_report() and verify(fail_fast=True) first
    ask for a mate within it: none means unsound (no mate, or a longer
    one), said without the costly unbounded search.  The stated length
    itself gives the full report."""
    from tsume.collection import load, locate

    records = [r for r in load(locate(collection)) if (r.length or 0) >= 5][::9][:8]
    for record in records:
        problem = record.problem().replace(solution=None)  # the composer's candidates state none
        full = verify(problem)
        assert full.verdict == "sound" and full.length == record.length
        short = problem.replace(length=record.length - 2)
        report, nodes = sound_report(short)
        assert report is None
        # The bounded search alone, against the main line's unbounded one and its reading.
        assert nodes < full.stats["nodes_by_question"]["main line"]
        fast = verify(short, fail_fast=True)
        assert fast.verdict == "unsound" and [f.kind for f in fast.findings] == ["stated-length-mismatch"]
        assert verify(short).verdict == "unsound"
        stated, _ = sound_report(problem.replace(length=record.length))
        assert stated is not None and stated.to_dict() | {"stats": None} == full.to_dict() | {"stats": None}
    assert len(records) == 8


def test_every_finding_kind_is_declared():
    assert set(FINDING_KINDS) >= {
        "no-mate", "yozume", "final-move-alternative", "detour", "te-amari", "same-length-variation",
        "longer-variation", "unused-material", "stated-length-mismatch", "solution-mismatch",
    }


# --- cross-checks on seeded random positions ----------------------------------------------------


def _reference_first_length(pos, move: int, bound: int) -> int | None:
    solver = ReferenceSolver(pos)
    p = solver.pos
    root = p.key()
    p.push(move)
    solver.path.add(root)
    try:
        return next((1 + v for v in range(0, bound, 2) if solver.defended(v)[0]), None)
    finally:
        solver.path.discard(root)
        p.pop()


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_verify_agrees_with_solve_and_the_reference(variant):
    """On random short mates: the main line and variations equal solve()'s, and
    every root alternative's mate length equals the reference solver's (within
    its bound; beyond it the reference must find none)."""
    bound = 5
    compared = 0
    for seed in range(300, 380):
        raw = random_tsume(random.Random(seed), variant, attacker_hand=(0, 2))
        dh = "none" if seed % 2 == 0 else None
        problem = Problem(raw, defender=dh)
        s = solve(problem, max_length=5, limits=Limits(nodes=20_000))
        if s.status != "mate":
            continue
        # Some random positions take minutes to verify (many long alternative
        # mates); a node limit keeps the file fast, and "unknown" is skipped.
        r = verify(problem, limits=Limits(nodes=15_000))
        if r.verdict == "unknown":
            continue
        compared += 1
        assert (r.length, r.mainline, r.leftover) == (s.length, s.mainline, s.leftover), raw
        # A variation the node limit stopped has no value to compare.
        stopped = {(v.ply, v.move) for v in r.variations if v.status == "unknown"}
        mine = {(v.ply, v.move): (v.useless, v.length, v.leftover, v.line) for v in r.variations}
        theirs = {(v.ply, v.move): (v.useless, v.length, v.leftover, v.line) for v in s.variations}
        assert {k: x for k, x in mine.items() if k not in stopped} == {
            k: x for k, x in theirs.items() if k not in stopped}, raw
        assert mine.keys() == theirs.keys(), raw
        pos = problem.position()
        for a in r.alternatives:
            if a.ply != 1 or a.status == "unknown":  # the node limit stopped it
                continue
            ref = _reference_first_length(pos, pos.parse_move(a.move), bound)
            if a.status == "mate" and a.length <= bound:
                assert ref == a.length, (raw, a)
            else:
                assert ref is None, (raw, a)
    assert compared >= 15, compared


# --- the command line --------------------------------------------------------------------------

def _cli(*args: str):
    from click.testing import CliRunner

    from tsume.cli import main

    return CliRunner().invoke(main, ["verify", "-q", *args])


def test_cli_json_and_exit_status(tmp_path):
    import json

    ok = _cli(ITO05, "--length", "5", "--solution", " ".join(ITO05_LINE), "--json")
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.stdout)
    (p,) = data["problems"]
    assert {"id", "verdict", "length", "mainline", "findings"} <= p.keys()
    assert p["verdict"] == "sound" and p["length"] == 5 and p["mainline"] == ITO05_LINE
    assert [f["kind"] for f in p["findings"]] == ["unused-material"]

    bad = _cli(ITO05, "--length", "7")
    assert bad.exit_code == 1 and "stated-length-mismatch" in bad.stdout and "Verdict: unsound" in bad.stdout

    limited = _cli(ITO05, "--nodes", "30")
    assert limited.exit_code == 3 and "Verdict: unknown" in limited.stdout

    f = tmp_path / "two.tsume"
    f.write_text(f"[a]\nposition: {ITO05}\nlength: 5\n\n[b]\nposition: {ITO05}\nlength: 7\n")
    both = _cli(str(f), "--json")
    assert both.exit_code == 1
    assert [p["verdict"] for p in json.loads(both.stdout)["problems"]] == ["sound", "unsound"]
    one = _cli(str(f), "--id", "a")
    assert one.exit_code == 0 and "[a]" in one.stdout and "Verdict: sound" in one.stdout


@pytest.mark.parametrize(
    "args, says",
    [
        (("nosuchfile",), "no file named"),
        (("k1P28 b - 1", "--id", "x"), "--id needs a collection FILE"),
        (("k1P2 b - 1",), "board"),
        ((ITO05, "--solution", "G*7 3-2", "--variant", "chess"), "variant"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(args, says):
    r = _cli(*args)
    assert r.exit_code == 2
    assert r.stdout == "" and says in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_lines_meeting_only_at_the_mate_are_yozume_not_a_detour():
    # +N*6 3-5 6-3 ends in the main line's final position, and only there.
    r = verify(Problem("2k3s2K2 b N 1", variant="rutherford"))
    assert r.mainline == ["+N*1", "3-5", "1-3"]
    assert r.kinds == {"yozume"} and r.verdict == "unsound"
    (f,) = r.findings
    assert f.move == "+N*6" and f.length == 3 and f.line == ["+N*6", "3-5", "6-3"]


def test_strict_makes_tolerated_alternatives_defects():
    # ito-detour-1 of problems/flawed.tsume: H7-4 rejoins the main line before the mate.
    pos = Problem("k4FHf+p1g1h18 b G2T 1")
    normal = verify(pos)
    assert normal.kinds == {"detour"} and normal.verdict == "flawed"
    strict = verify(pos, strict=True)
    assert "detour" in strict.kinds and strict.verdict == "unsound"


def test_the_longer_with_pieces_left_switch():
    # With the defender holding nothing, k17-18 lasts 5 plies but leaves the
    # captured Goose in hand; k17-19 lasts 3 and leaves nothing.
    pos = Problem("12HP2kG13 b CF 1", defender="none")
    plain = verify(pos)
    assert plain.length == 5 and plain.leftover == "G"
    assert "te-amari" in plain.kinds and "longer-variation" not in plain.kinds
    excused = verify(pos, longer_with_leftover_ok=True)
    assert excused.length == 3 and excused.mainline == ["C*23", "17-19", "F*20"] and excused.leftover == "-"
    assert "te-amari" not in excused.kinds
    (lv,) = [f for f in excused.findings if f.kind == "longer-variation"]
    assert lv.severity == "info" and lv.length == 5 and lv.pieces == "G" and lv.ply == 2
    # The same line stated as the intended solution: a defect without the switch.
    stated = verify(pos.replace(solution=["C*23", "17-19", "F*20"]))
    (lv,) = [f for f in stated.findings if f.kind == "longer-variation"]
    assert lv.severity == "defect" and stated.verdict == "unsound"
    assert verify(pos.replace(solution=["C*23", "17-19", "F*20"]),
                  longer_with_leftover_ok=True).mainline == ["C*23", "17-19", "F*20"]


def test_the_package_exports_solve_and_verify_as_functions():
    import importlib
    import types

    import tsume
    from tsume.solve import Result
    from tsume.verify import Report

    assert isinstance(tsume.solve, types.FunctionType) and isinstance(tsume.verify, types.FunctionType)
    assert tsume.solve is solve and tsume.verify is verify
    assert isinstance(tsume.verify(ITO05_PROBLEM), Report) and tsume.verify(ITO05_PROBLEM).verdict == "sound"
    assert isinstance(tsume.solve(ITO05_PROBLEM), Result) and tsume.solve(ITO05_PROBLEM).mainline == ITO05_LINE
    # The modules are still there by their names.
    assert importlib.import_module("tsume.verify").FINDING_KINDS == FINDING_KINDS
    assert type(importlib.import_module("tsume.solve")) is types.ModuleType


def test_strict_checks_the_attacker_moves_of_variations():
    # A sound 5-ply problem (found by the seed search that came before tsume
    # compose); in its variation k2-3
    # the mate T*2 also works beside the one played, which only strict minds.
    pos = Problem("1k2PT1h2+G6+h13 b T 1")
    assert verify(pos).verdict == "sound"
    strict = verify(pos, strict=True)
    assert strict.verdict == "unsound"
    assert strict.kinds - {"unused-material"} == {"variation-alternative"}
    (f,) = [f for f in strict.findings if f.kind == "variation-alternative"]
    assert f.ply == 2 and f.move == "2-3" and "T*2" in f.message and f.length == 1


def test_ply_is_counted_the_same_way_in_the_text_and_the_json():
    """Every finding's ``ply`` (JSON) is the ply its message names, counted from 1."""
    import re

    r = _cli("--file", "flawed", "--json")
    assert r.exit_code == 1
    plies = 0
    for problem in json.loads(r.stdout)["problems"]:
        for f in problem["findings"]:
            named = re.match(r"(?:intended solution, )?ply (\d+)", f["message"])
            if named:
                assert int(named.group(1)) == f["ply"], f
                plies += 1
        for a in problem["alternatives"]:
            assert 1 <= a["ply"] <= problem["length"] and a["ply"] % 2 == 1  # attacker turns
        for v in problem["variations"]:
            assert 2 <= v["ply"] <= problem["length"] + 1 and v["ply"] % 2 == 0  # defender turns
    assert plies >= 10


# --- where the nodes go ---------------------------------------------------------------------------


def _flawed(pid: str) -> Problem:
    from tsume.collection import load, locate

    return next(p for p in load(locate("flawed")) if p.id == pid).problem()


def test_nodes_by_question_add_up_and_name_each_kind_of_work():
    from tsume.verify import QUESTIONS

    # ito-detour-1: its alternatives include mating ones whose exact length
    # takes a climb past the first proof, and whose lines are read.
    r = verify(_flawed("ito-detour-1"))
    parts = r.stats["nodes_by_question"]
    assert tuple(parts) == QUESTIONS
    assert sum(parts.values()) == r.stats["nodes"]
    assert all(parts[q] > 0 for q in ("main line", "alternatives", "alternative lengths", "alternative lines"))
    # No alternative mates: nothing is climbed or read; a defender
    # alternative that lasts as long is valued under "defences".
    sound = verify(_flawed("ito-unused-material-1")).stats["nodes_by_question"]
    assert sound["alternatives"] > 0 and sound["alternative lengths"] == sound["alternative lines"] == 0
    same = verify(_flawed("ruth-same-length-variation-1")).stats["nodes_by_question"]
    assert same["defences"] > 0


def test_nodes_by_question_count_a_search_stopped_by_a_limit():
    r = verify(_flawed("ito-detour-1"), limits=Limits(nodes=3000))
    assert r.verdict == "unknown"
    assert sum(r.stats["nodes_by_question"].values()) == r.stats["nodes"]
