"""The bundled collections: the seed problems and the examples are sound, and each
deliberately flawed problem shows exactly the finding kind its ``expect-<kind>``
tag names.

problems/flawed.tsume holds every finding kind at least twice; its problems
were chosen so that each shows that one kind and no other, so these tests are
the "exactly that flaw and no other" tests of every kind.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tsume.collection import load
from tsume.verify import verify

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
FLAWED = load(PROBLEMS / "flawed.tsume")
SEEDS = {v: load(PROBLEMS / f"seed-{v}.tsume") for v in ("ito", "rutherford")}
EXAMPLES = load(PROBLEMS / "examples.tsume")
# Verdict each kind leads to when it is the only finding (default switches).
VERDICT = {
    "no-mate": "unsound",
    "yozume": "unsound",
    "te-amari": "unsound",
    "longer-variation": "unsound",
    "stated-length-mismatch": "unsound",
    "solution-mismatch": "unsound",
    "final-move-alternative": "flawed",
    "detour": "flawed",
    "same-length-variation": "flawed",
    "unused-material": "sound",
}
# The test run verifies the seed problems up to this length; the longer ones
# are verified by `tsume verify problems/seed-*.tsume` (docs/performance.md).
SEED_MAX_LENGTH = 7


def expected_kinds(problem) -> set[str]:
    return {t[len("expect-"):] for t in problem.tags if t.startswith("expect-")}


def test_the_flawed_collection_covers_every_kind_twice():
    count = Counter(k for p in FLAWED for k in expected_kinds(p))
    assert set(count) == set(VERDICT)
    assert min(count.values()) >= 2, count
    assert all(len(expected_kinds(p)) == 1 for p in FLAWED)


@pytest.mark.parametrize("problem", FLAWED, ids=lambda p: p.id)
def test_a_flawed_problem_shows_exactly_its_flaw(problem):
    r = verify(problem.problem())
    (kind,) = expected_kinds(problem)
    assert r.kinds == {kind}, [f.message for f in r.findings]
    assert r.verdict == VERDICT[kind]


def test_the_seed_collections_are_composed_big_enough_and_span_lengths():
    for variant, problems in SEEDS.items():
        assert len(problems) >= 150, variant
        assert all(p.variant.startswith(variant) and p.length and p.solution for p in problems)
        assert {1, 3, 5, 7, 9, 11, 13, 15} <= {p.length for p in problems}, variant
        for p in problems:  # the composer's output, with its provenance and rating
            assert p.fields("provenance")["method"] in ("random", "mutate", "reverse"), p.id
            assert float(p.fields("rating")["score"]) > 0 and p.fields("rating")["length"] == str(p.length), p.id
    assert max(p.length for p in SEEDS["rutherford"]) >= 60


@pytest.mark.parametrize(
    "problem",
    [p for ps in SEEDS.values() for p in ps if (p.length or 99) <= SEED_MAX_LENGTH],
    ids=lambda p: p.id,
)
def test_a_seed_problem_is_sound(problem):
    r = verify(problem.problem())
    assert r.verdict == "sound", [f.message for f in r.findings]
    assert r.length == problem.length and r.mainline == problem.solution


def test_the_examples_show_both_games_drops_and_a_long_mate():
    assert {p.variant for p in EXAMPLES} == {"ito", "rutherford"}
    assert any(any("*" in m for m in p.solution) for p in EXAMPLES)
    assert max(p.length for p in EXAMPLES) >= 9 and len({p.length for p in EXAMPLES}) >= 3


@pytest.mark.parametrize("problem", EXAMPLES, ids=lambda p: p.id)
def test_an_example_verifies_as_its_tags_say(problem):
    # The README's showcase: sound, with the stated length and solution, unless
    # tagged expect-<kind> as an example of that flaw (as in flawed.tsume).
    r = verify(problem.problem())
    kinds = expected_kinds(problem)
    if kinds:
        (kind,) = kinds
        assert r.kinds == {kind}, [f.message for f in r.findings]
        assert r.verdict == VERDICT[kind]
        assert kind in (problem.notes or ""), "a flawed example says so in its notes"
    else:
        assert r.verdict == "sound", [f.message for f in r.findings]
        assert r.length == problem.length and r.mainline == problem.solution
