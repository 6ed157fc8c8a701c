"""Every public entry point checks its arguments: a TsumeError with one line, never
another exception, never a bad value silently taken for something else."""

from __future__ import annotations

import math

import pytest

from tsume import ArgumentError, Limits, Position, PositionError, Problem, TsumeError, VariantError
from tsume.arguments import check_memory_mb, check_node_limit, check_time_limit
from tsume.collection import loads
from tsume.perft import divide, perft
from tsume.play import play_tree
from tsume.sat import sat_solve
from tsume.solve import solve
from tsume.verify import sound_report, verify

MATE_1 = "k1P2H25 b G"  # G*5 mates (docs/problems.md's first example)
PROBLEM = Problem(MATE_1)


def one_line(exc: BaseException) -> str:
    msg = str(exc)
    assert msg and "\n" not in msg and len(msg) < 250, msg
    return msg


# (keyword, value, substring of the message): each was accepted or crashed before
BAD_LIMITS = [
    ("memory", math.nan, "Limits.memory"),  # ValueError inside DfPn
    ("memory", math.inf, "Limits.memory"),  # OverflowError inside DfPn
    ("memory", 0, "Limits.memory"),
    ("memory", 1e308, "at most"),  # finite, but infinite once turned into table entries
    ("time", math.nan, "Limits.time"),  # read as "no limit"
    ("time", math.inf, "Limits.time"),
    ("time", -1, "Limits.time"),  # stopped at once and said "no mate"
    ("time", 0, "Limits.time"),
    ("time", "5", "Limits.time"),
    ("time", True, "Limits.time"),
    ("time", 10**400, "too large"),  # beyond any float
    ("nodes", 0, "Limits.nodes"),  # said "no mate" at once
    ("nodes", -1, "Limits.nodes"),
    ("nodes", 1.5, "Limits.nodes"),
    ("nodes", math.nan, "Limits.nodes"),
]


@pytest.mark.parametrize("key, value, needle", BAD_LIMITS)
def test_limits(key, value, needle):
    with pytest.raises(ArgumentError) as info:
        Limits(**{key: value})
    assert needle in one_line(info.value)


@pytest.mark.parametrize("value, needle", [(0, "max_length"), (-3, "max_length"), ("9", "max_length"),
                                           (2**63, "at most")])  # 0: said "no mate"; 2**63: ran for ever
def test_max_length(value, needle):
    for call in (solve, sat_solve):
        with pytest.raises(ArgumentError) as info:
            call(PROBLEM, max_length=value)
        assert needle in one_line(info.value)


ENTRY_POINTS = [solve, verify, lambda p, **kw: sound_report(p, **kw), lambda p, **kw: sat_solve(p, max_length=3, **kw),
                play_tree]


@pytest.mark.parametrize("call", ENTRY_POINTS)
@pytest.mark.parametrize("limits", [{"time": 5}, 5, "5", Limits])
def test_limits_are_one_value(call, limits):
    with pytest.raises(ArgumentError) as info:
        call(PROBLEM, limits=limits)
    assert "limits must be a tsume.Limits" in one_line(info.value)


@pytest.mark.parametrize("name, call", [("solve", solve), ("verify", verify), ("sound_report", sound_report),
                                        ("sat_solve", sat_solve), ("play_tree", play_tree)])
@pytest.mark.parametrize("given, kind, how", [
    (MATE_1, "str", "Problem('k1P2H25 b G', variant='ito')"),
    (Position(MATE_1), "Position", "Problem(position)"),
    (loads(f"[a]\nposition: {MATE_1}\n")[0], "Record", "record.problem()"),
    (None, "NoneType", "Problem('k1P2H25 b G', variant='ito')"),
    ("x" * 10_000, "str", "Problem('" + "x" * 40 + "'... (10,000 characters), variant='ito')"),  # one short line
])
def test_only_a_problem_goes_in(name, call, given, kind, how):
    with pytest.raises(ArgumentError) as info:
        call(given)
    message = one_line(info.value)
    assert message == f"{name} takes a tsume.Problem, not {kind}: {how}"


@pytest.mark.parametrize("call", ENTRY_POINTS)
@pytest.mark.parametrize("shorthand", [{"variant": "ito"}, {"defender_hand": "none"}, {"time_limit": 5},
                                       {"node_limit": 5}, {"memory_limit_mb": 5}])
def test_no_shorthand_keywords(call, shorthand):
    with pytest.raises(TypeError):
        call(PROBLEM, **shorthand)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"variant": 3}, VariantError),  # AttributeError before (None: the default variant)
        ({"defender": "99g"}, PositionError),  # IndexError before
        ({"defender": "9223372036854775808g"}, PositionError),  # OverflowError before
        ({"defender": "²g"}, PositionError),
        ({"defender": 5}, ArgumentError),  # TypeError before (compiled)
        ({"solution": "G*5"}, ArgumentError),  # read character by character before
        ({"solution": [5]}, ArgumentError),
        ({"length": 0}, ArgumentError),
        ({"length": "1"}, ArgumentError),
    ],
)
def test_problem_arguments(kwargs, error):
    with pytest.raises(error) as info:
        Problem(MATE_1, **kwargs)
    one_line(info.value)


@pytest.mark.parametrize("call", [solve, verify])
@pytest.mark.parametrize("kwargs", [{"progress": 5}, {"options": "fast"}])
def test_solve_and_verify_arguments(call, kwargs):
    with pytest.raises(ArgumentError) as info:
        call(PROBLEM, **kwargs)
    one_line(info.value)


@pytest.mark.parametrize("kwargs", [{"strict": "no"}, {"fail_fast": 1}, {"longer_with_leftover_ok": None},
                                    {"id": 5}, {"length_budget": 0}])
def test_verify_arguments(kwargs):
    with pytest.raises(ArgumentError) as info:
        verify(PROBLEM, **kwargs)
    one_line(info.value)


def test_sat_arguments():
    with pytest.raises(TsumeError) as info:
        sat_solve(PROBLEM, max_length=3, all_first_moves="yes")
    one_line(info.value)
    with pytest.raises(TsumeError) as info:
        sat_solve(PROBLEM, max_length=3, limits=Limits(nodes=5))  # a df-pn limit
    assert "no node limit" in one_line(info.value)


@pytest.mark.parametrize("kwargs", [{"all_first_moves": "no"}, {"variations": 0}, {"progress_interval": -1},
                                    {"progress_interval": math.nan}, {"progress_interval": None}])
def test_solve_flags(kwargs):
    with pytest.raises(ArgumentError) as info:
        solve(PROBLEM, **kwargs)
    one_line(info.value)


def test_good_arguments_still_work():
    r = solve(PROBLEM, limits=Limits(time=30, nodes=10**6, memory=64.5), max_length=3)
    assert r.status == "mate" and r.length == 1
    rep = verify(PROBLEM.replace(solution=("G*5",)), limits=Limits(time=30.0, nodes=10**6, memory=64), id="a")
    assert rep.verdict != "unknown" and rep.id == "a"
    assert sat_solve(PROBLEM, max_length=1, limits=Limits(time=30)).length == 1


def test_verify_memory_limit_reaches_the_search():
    # A bound this small holds only a few table entries: the search must still finish exactly.
    small = verify(PROBLEM, limits=Limits(memory=0.01))
    free = verify(PROBLEM)
    assert small.verdict == free.verdict and small.length == free.length


@pytest.mark.parametrize("args", [("k30 b G", 1), (Position(), "2"), (Position(), -1), (Position(), True), (None, 1),
                                  (Position(), 31), (Position(), 10**400)])  # the last ran for ever
def test_perft_and_divide(args):
    for fn in (perft, divide):
        with pytest.raises(ArgumentError) as info:
            fn(*args)
        one_line(info.value)


def test_divide_depth_zero_and_one():
    assert divide(Position(), 0) == {}
    assert sum(divide(Position(), 1).values()) == perft(Position(), 1) == 11


@pytest.mark.parametrize("args, kwargs, error", [
    ((5,), {}, PositionError),
    ((MATE_1,), {"variant": 5}, VariantError),
    ((MATE_1,), {"defender": 5}, ArgumentError),
    ((MATE_1,), {"defender": "99g"}, PositionError),
    ((MATE_1,), {"defender": "3g"}, PositionError),
])
def test_problem_position(args, kwargs, error):
    with pytest.raises(error) as info:
        Problem(*args, **kwargs).position()
    one_line(info.value)


def test_defender_hand_words_ignore_case():
    assert Problem(MATE_1, defender="NONE").position().fen() == Problem(MATE_1, defender="none").position().fen()


def test_checks_return_the_value():
    assert check_time_limit(2) == 2.0 and check_time_limit(None) is None
    assert check_node_limit(5) == 5
    assert check_memory_mb(0.5) == 0.5
