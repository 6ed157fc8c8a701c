"""Limits and Options are the engine's own values: one definition each,
immutable, comparable, picklable, and handed to the search as they are."""

import pickle

import pytest

import tsume
from tsume import ArgumentError, Limits, Problem, _engine
from tsume.search import Options
from tsume.solve import Status


def test_one_definition_each():
    assert Limits is _engine.Limits
    assert Options is _engine.Options
    assert tsume.limits.NO_LIMITS == Limits()


@pytest.mark.parametrize("value", [Limits(time=2, nodes=10), Limits(memory=64.5), Limits(),
                                   Options(one_ply_mate=False, max_depth=40), Options()])
def test_values_compare_hash_and_pickle(value):
    again = pickle.loads(pickle.dumps(value))
    assert again == value and hash(again) == hash(value)
    assert eval(repr(value), {"Limits": Limits, "Options": Options}) == value


def test_values_are_frozen():
    with pytest.raises(AttributeError):
        Limits(time=1).time = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Options().max_depth = 3  # type: ignore[misc]


def test_equal_by_value_not_by_spelling():
    assert Limits(time=2) == Limits(time=2.0)
    assert Limits(time=2) != Limits(time=3)
    assert Options() == Options(one_ply_mate=False)  # the default, spelt out
    assert Options() != Options(one_ply_mate=True)
    assert Options(max_depth=40).as_dict()["max_depth"] == 40


@pytest.mark.parametrize("kwargs, message", [
    ({"max_depth": 0}, "Options.max_depth must be at least 1, not 0"),
    ({"one_plus_epsilon": 1.5}, "Options.one_plus_epsilon must be a whole number"),
    ({"one_ply_mate": 1}, "Options.one_ply_mate must be"),
])
def test_bad_options_say_which(kwargs, message):
    with pytest.raises(ArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Options(**kwargs)


def test_the_search_obeys_the_values_it_is_given():
    problem = Problem("k1P2H25 b G")
    # A node limit of one stops the search before it can prove the mate.
    stopped = tsume.solve(problem, limits=Limits(nodes=1))
    assert stopped.status is Status.UNKNOWN and stopped.reason == "node limit"
    assert tsume.solve(problem).status is Status.MATE
    # The search path holds the root and the mating move: a cap of one ply stops it.
    capped = tsume.solve(problem, options=Options(max_depth=1))
    assert capped.status is Status.UNKNOWN and capped.reason.startswith("depth limit")
