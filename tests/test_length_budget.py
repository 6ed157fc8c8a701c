"""The length budget: a mating alternative's exact length and best line cost
at most so many nodes beyond its first proof; past them verify reports the
proven bounds and a mating line (docs/verify.md, "Length budget")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tsume.cli import main
from tsume.collection import load, locate
from tsume.conventions import interposition_square, ranged_checkers
from tsume.errors import TsumeError
from tsume.limits import Limits
from tsume.position import Position
from tsume.problem import Problem
from tsume.search import OverBudget, Search, SearchLimit
from tsume.variant import get_variant
from tsume.verify import LENGTH_BUDGET, verify

# ito-L11-0003: mate in 11, but the first proof found is one of 15 plies.
ROOT = "g+Tkt1F+hHC2K19 b G2P 1"


def _search(limits: Limits | None = None) -> Search:
    return Search(Problem(ROOT, variant="ito").position(), limits=limits)


def test_a_budget_large_enough_gives_the_exact_length():
    assert _search().first_proof() == 15
    assert _search().value() == 11
    assert _search().value_within(None, 10**9) == (11, 11)


def test_a_spent_budget_leaves_proven_bounds_around_the_length():
    first = _search()
    first.first_proof()
    search = _search()
    assert search.value_within(None, 20) == (15, 11)  # 11 is the first bound not disproved
    assert first.nodes < search.nodes <= first.nodes + 20  # the same first proof, then the budget
    # The search goes on: a later question is not stopped by the spent budget.
    assert search.value() == 11


def test_the_limits_still_stop_a_budgeted_question():
    first = _search()
    first.first_proof()
    search = _search(Limits(nodes=first.nodes + 30))
    with pytest.raises(SearchLimit) as err:
        search.value_within(None, 10**6)
    assert not isinstance(err.value, OverBudget)
    assert str(err.value) == "node limit"
    with pytest.raises(SearchLimit):  # and every later question that searches
        search.value()


def test_an_enclosing_budget_is_not_taken_for_an_inner_answer():
    # A search inside a budgeted question that climbs bounds of its own (the
    # useless-interposition test does) must pass the budget's end up, not
    # read it as "not mated within these bounds".
    search = _search()
    search.set_budget(100)
    with pytest.raises(OverBudget):
        search.value()
    search.set_budget(None)
    assert search.value() == 11


def _replays_to_mate(report, alt) -> None:
    """The alternative's line is legal from its turn of the main line and
    ends in a mate (any defence left an interposition)."""
    pos = Position(report.position, get_variant(report.variant))
    attacker = pos.turn
    for m in report.mainline[:alt.ply - 1]:
        pos.push(pos.parse_move(m))
    for m in alt.line:
        move = pos.parse_move(m)
        assert pos.is_legal(move), (alt.move, m)
        pos.push(move)
    assert pos.turn != attacker and pos.is_check()
    ranged = ranged_checkers(pos)
    assert all(interposition_square(pos, d, ranged) for d in pos.evasions())


def test_verify_reports_bounds_and_a_mating_line_past_the_budget():
    text = "2+FkTg25 b C 1"  # T5x6=+T mates in 27 plies at the last turn
    report = verify(Problem(text), length_budget=20_000)
    alt = next(a for a in report.alternatives if a.readable == "T5x6=+T")
    assert (alt.status, alt.kind, alt.exact) == ("mate", "yozume", False)
    assert alt.length_min is not None and alt.length_min < 27 < alt.length
    assert len(alt.line) <= alt.length and alt.line[0] == alt.move
    _replays_to_mate(report, alt)
    finding = next(f for f in report.findings if f.move == alt.move)
    assert f"in {alt.length_min} to {alt.length} plies" in finding.message
    assert report.verdict == "unsound"
    d = report.to_dict()["alternatives"]
    assert {"exact": False, "length_min": alt.length_min}.items() <= next(x for x in d if x["move"] == alt.move).items()


def test_a_detour_is_still_read_exactly_under_any_budget():
    # ito-L35-0002 has two detours and a yozume; with a budget of one node
    # the detours' proof lines come back into the main line, so their best
    # lines are read whatever they cost, and nothing is classified otherwise.
    problem = next(p for p in load(locate("bench-ito")) if p.id == "ito-L35-0002").problem()
    full, tight = verify(problem, length_budget=None), verify(problem, length_budget=1)
    assert full.verdict == tight.verdict
    kinds = lambda r: [(a.ply, a.move, a.status, a.kind) for a in r.alternatives]  # noqa: E731
    assert kinds(full) == kinds(tight)
    for a, b in zip(full.alternatives, tight.alternatives):
        if b.kind == "detour":
            assert b.exact and (b.length, b.line) == (a.length, a.line)
        elif b.status == "mate" and not b.exact:
            assert b.length_min <= a.length <= b.length
            _replays_to_mate(tight, b)
    assert any(not b.exact for b in tight.alternatives)
    assert all(a.exact for a in full.alternatives)


@pytest.mark.parametrize("bad", [0, -5, 1.5, "many", True])
def test_a_bad_budget_is_refused(bad):
    with pytest.raises(TsumeError, match="length_budget"):
        verify(Problem("2+FkTg25 b C 1"), length_budget=bad)


def test_the_cli_options():
    runner = CliRunner()
    res = runner.invoke(main, ["verify", "-q", "--json", "--length-budget", "20000", "2+FkTg25 b C 1"])
    assert res.exit_code == 1, res.output
    alts = json.loads(res.output)["problems"][0]["alternatives"]
    assert any(a["exact"] is False for a in alts)
    res = runner.invoke(main, ["verify", "--exact-lengths", "--length-budget", "5", "2+FkTg25 b C 1"])
    assert res.exit_code == 2 and "exclude each other" in res.output
    res = runner.invoke(main, ["verify", "--length-budget", "0", "2+FkTg25 b C 1"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    res = runner.invoke(main, ["verify", "--help"], terminal_width=200)
    assert f"(default {LENGTH_BUDGET:,})" in " ".join(res.output.split())
