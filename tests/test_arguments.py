"""Every public entry point checks its arguments: a TsumeError with one line, never
another exception, never a bad value silently taken for something else."""

from __future__ import annotations

import math

import pytest

from tsume import ArgumentError, Position, PositionError, TsumeError, VariantError
from tsume.arguments import check_memory_mb, check_node_limit, check_time_limit
from tsume.conventions import tsume_position
from tsume.perft import divide, perft
from tsume.sat import sat_solve
from tsume.solve import solve
from tsume.verify import verify

MATE_1 = "k1P2H25 b G"  # G*5 mates (docs/problems.md's first example)


def one_line(exc: BaseException) -> str:
    msg = str(exc)
    assert msg and "\n" not in msg and len(msg) < 250, msg
    return msg


# (keyword, value, substring of the message): each was accepted or crashed before
BAD_LIMITS = [
    ("memory_limit_mb", math.nan, "memory_limit_mb"),  # ValueError inside DfPn
    ("memory_limit_mb", math.inf, "memory_limit_mb"),  # OverflowError inside DfPn
    ("memory_limit_mb", 0, "memory_limit_mb"),
    ("memory_limit_mb", 1e308, "at most"),  # finite, but infinite once turned into table entries
    ("time_limit", math.nan, "time_limit"),  # read as "no limit"
    ("time_limit", math.inf, "time_limit"),
    ("time_limit", -1, "time_limit"),  # stopped at once and said "no mate"
    ("time_limit", 0, "time_limit"),
    ("time_limit", "5", "time_limit"),
    ("time_limit", True, "time_limit"),
    ("time_limit", 10**400, "too large"),  # beyond any float
    ("node_limit", 0, "node_limit"),  # said "no mate" at once
    ("node_limit", -1, "node_limit"),
    ("node_limit", 1.5, "node_limit"),
    ("node_limit", math.nan, "node_limit"),
    ("max_length", 0, "max_length"),  # said "no mate"
    ("max_length", -3, "max_length"),
    ("max_length", "9", "max_length"),
    ("max_length", 2**63, "at most"),  # df-pn ran for ever
]


@pytest.mark.parametrize("key, value, needle", BAD_LIMITS)
def test_solve_limits(key, value, needle):
    with pytest.raises(ArgumentError) as info:
        solve(MATE_1, **{key: value})
    assert needle in one_line(info.value)


@pytest.mark.parametrize("key, value, needle", [b for b in BAD_LIMITS if b[0] != "max_length"])
def test_verify_limits(key, value, needle):
    with pytest.raises(ArgumentError) as info:
        verify(MATE_1, **{key: value})
    assert needle in one_line(info.value)


@pytest.mark.parametrize("key, value", [("time_limit", math.nan), ("time_limit", -1), ("max_length", 0),
                                        ("max_length", "3"), ("all_first_moves", "yes")])
def test_sat_arguments(key, value):
    args = {"max_length": 3, key: value}
    with pytest.raises(TsumeError) as info:
        sat_solve(MATE_1, **args)
    one_line(info.value)


@pytest.mark.parametrize("call", [solve, verify])
@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"variant": 3}, VariantError),  # AttributeError before (None: the default variant)
        ({"defender_hand": "99g"}, PositionError),  # IndexError before
        ({"defender_hand": "9223372036854775808g"}, PositionError),  # OverflowError before
        ({"defender_hand": "²g"}, PositionError),
        ({"defender_hand": 5}, ArgumentError),  # TypeError before (compiled)
        ({"progress": 5}, ArgumentError),
        ({"options": "fast"}, ArgumentError),
    ],
)
def test_solve_and_verify_arguments(call, kwargs, error):
    with pytest.raises(error) as info:
        call(MATE_1, **kwargs)
    one_line(info.value)


def test_sat_defender_hand():
    with pytest.raises(PositionError):
        sat_solve(MATE_1, max_length=3, defender_hand="99g")


@pytest.mark.parametrize("kwargs", [{"solution": "G*5"}, {"solution": [5]}, {"length": 0}, {"length": "1"},
                                    {"strict": "no"}, {"fail_fast": 1}, {"longer_with_leftover_ok": None}])
def test_verify_arguments(kwargs):
    with pytest.raises(ArgumentError) as info:
        verify(MATE_1, **kwargs)
    one_line(info.value)


@pytest.mark.parametrize("kwargs", [{"all_first_moves": "no"}, {"variations": 0}, {"progress_interval": -1},
                                    {"progress_interval": math.nan}, {"progress_interval": None}])
def test_solve_flags(kwargs):
    with pytest.raises(ArgumentError) as info:
        solve(MATE_1, **kwargs)
    one_line(info.value)


def test_good_arguments_still_work():
    r = solve(MATE_1, time_limit=30, node_limit=10**6, memory_limit_mb=64.5, max_length=3)
    assert r.status == "mate" and r.length == 1
    rep = verify(MATE_1, time_limit=30.0, node_limit=10**6, memory_limit_mb=64, solution=("G*5",))
    assert rep.verdict != "unknown"
    assert sat_solve(MATE_1, max_length=1, time_limit=30).length == 1


def test_verify_memory_limit_reaches_the_search():
    # A bound this small holds only a few table entries: the search must still finish exactly.
    small = verify(MATE_1, memory_limit_mb=0.01)
    free = verify(MATE_1)
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
    ((MATE_1, None), {}, VariantError),
    ((MATE_1,), {"defender_hand": 5}, ArgumentError),
    ((MATE_1,), {"defender_hand": "99g"}, PositionError),
    ((MATE_1,), {"defender_hand": "3g"}, PositionError),
])
def test_tsume_position(args, kwargs, error):
    with pytest.raises(error) as info:
        tsume_position(*args, **kwargs)
    one_line(info.value)


def test_defender_hand_words_ignore_case():
    assert tsume_position(MATE_1, defender_hand="NONE").fen() == tsume_position(MATE_1, defender_hand="none").fen()


def test_checks_return_the_value():
    assert check_time_limit(2) == 2.0 and check_time_limit(None) is None
    assert check_node_limit(5) == 5
    assert check_memory_mb(0.5) == 0.5
