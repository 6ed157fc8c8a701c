"""The long collections (problems/long-ito.tsume, problems/long-rutherford.tsume):
composed by the climb and the stretch, long, one idea each, and sound."""

from __future__ import annotations

from pathlib import Path

import pytest

from tsume.collection import load
from tsume.compose.idea import Ideas, problem_keys
from tsume.compose.themes import THEMES
from tsume.compose.variety import label_counts
from tsume.verify import verify

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
LONG = {v: load(PROBLEMS / f"long-{v}.tsume") for v in ("ito", "rutherford")}


@pytest.mark.parametrize("variant", sorted(LONG))
def test_a_long_collection_is_long_and_repeats_no_idea(variant):
    problems = LONG[variant]
    assert len(problems) >= 40
    assert all(p.variant == variant and (p.length or 0) >= 21 and p.solution for p in problems)
    assert all(p.fields("provenance")["method"] in ("climb", "stretch") for p in problems)
    ideas = Ideas()
    for p in problems:
        keys = problem_keys(p)
        assert ideas.match(keys) is None, p.id
        ideas.add(keys, p.id)


#: The labels on more than half of a long collection: on nearly every long
#: problem the climb makes of the game (docs/performance.md, "The climb").
CROWDED = {"ito": {"sacrifice", "re-drop", "king-walk", "king-walk-back"}, "rutherford": {"sacrifice", "king-walk"}}


@pytest.mark.parametrize("variant", sorted(LONG))
def test_a_long_collection_is_varied(variant):
    problems = LONG[variant]
    counts = label_counts(problems)
    assert {t for t, n in counts.items() if 2 * n > len(problems)} <= CROWDED[variant], counts
    # Lengths spread up to the longest, and many label sets.
    lengths = sorted({p.length or 0 for p in problems})
    assert len(lengths) >= 8 and lengths[0] == 21
    assert len({frozenset(t for t in p.tags if t in THEMES) for p in problems}) >= 10


@pytest.mark.parametrize("problem", [p for ps in LONG.values() for p in ps], ids=lambda p: p.id)
def test_a_long_problem_is_sound(problem):
    # Each verifies in at most 0.16 CPU s (docs/performance.md, "Composer").
    r = verify(problem.problem())
    assert r.verdict == "sound", [f.message for f in r.findings]
    assert r.length == problem.length and r.mainline == problem.solution


@pytest.mark.parametrize("variant", sorted(LONG))
def test_the_records_hold_the_longest_composed_problem_of_each_game_and_theme(variant):
    records = [r for r in load(PROBLEMS / "records.tsume") if r.id.startswith("composed-") and r.variant == variant]
    problems = LONG[variant]
    assert max(r.length or 0 for r in records) == max(p.length or 0 for p in problems)
    for label in {t for p in problems for t in p.tags} & set(THEMES):
        best = max(p.length or 0 for p in problems if label in p.tags)
        assert any(label in r.tags and r.length == best for r in records), label
