"""The composer's variety: `tsume compose --avoid-theme T` refuses problems
labelled T and climbs away from them, `--novelty` makes the climb's beam
prefer children whose labels are rare among those taken, and the labels
that last when a problem is lengthened at the front."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from tsume.cli import main
from tsume.collection import Record, load
from tsume.compose import Candidate
from tsume.compose import climb as climb_module
from tsume.compose.climb import Rung, mates_by_drop, next_beam, rarity
from tsume.compose.run import AVOIDED, Settings, compose, run_shard, settings_from
from tsume.compose.themes import LASTING, THEMES, themes
from tsume.compose.variety import balanced, distinct, label_counts
from tsume.errors import ArgumentError
from tsume.problem import Problem
from tsume.verify import verify

#: Ito, 5 plies, ending in a drop: 10-8 5-4 9-7 4-3 T*5.
SEED = Record(id="seed", position="1f1+Fk1t1+H+H21 b - 1", variant="ito", length=5,
              solution="10-8 5-4 9-7 4-3 T*5".split())


def cand(fen: str) -> Candidate:
    return Candidate.from_position(Problem(fen, variant="ito").position(), None)


def test_an_avoided_theme_is_checked_in_one_line():
    with pytest.raises(ArgumentError, match="avoided themes must be some of sacrifice"):
        Settings(avoid=("brilliancy",)).check()
    with pytest.raises(ArgumentError, match="a tuple of labels"):
        Settings(avoid="sacrifice").check()  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="both wanted and avoided"):
        Settings(theme="sacrifice", avoid=("sacrifice",)).check()
    result = CliRunner().invoke(main, ["compose", "-o", "x.tsume", "--avoid-theme", "brilliancy"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert settings_from("ito", avoid="sacrifice, drop-mate").avoid == ("sacrifice", "drop-mate")


def test_a_climb_refuses_and_leaves_a_lasting_label_it_avoids():
    plain = settings_from("ito", methods="climb", seed=3, length="7-99", parents=[SEED], shard_size=6)
    found = run_shard(plain, 0)
    assert found.accepted and all("drop-mate" in a["themes"] for a in found.accepted)
    avoiding = settings_from("ito", methods="climb", seed=3, length="7-99", parents=[SEED], shard_size=6,
                             avoid="drop-mate")
    r = run_shard(avoiding, 0)
    assert r.stages[AVOIDED] > 0
    assert all("drop-mate" not in a["themes"] for a in r.accepted)
    # The seed's line is a dead end: nothing of it joins the pool.
    lines = {a["position"] for a in found.accepted}
    assert not lines & {p[2] for p in r.parents}


def test_compose_avoids_the_theme_and_a_resume_names_the_option(tmp_path):
    out = tmp_path / "t.tsume"
    result = CliRunner().invoke(main, ["compose", "-o", str(out), "--count", "3", "--time-limit", "120",
                                       "--avoid-theme", "drop-mate", "--avoid-theme", "sacrifice",
                                       "--workers", "1", "--seed", "3", "--method", "random", "--json", "-q"])
    assert result.exit_code == 0, result.output
    printed = [json.loads(line) for line in result.output.splitlines()]
    assert len(printed) == 3
    for problem, record in zip(printed, load(out)):
        assert not {"drop-mate", "sacrifice"} & set(problem["themes"])
        assert themes(verify(record.problem())) == problem["themes"]
    again = CliRunner().invoke(main, ["compose", "-o", str(out), "--count", "4", "--resume",
                                      "--avoid-theme", "drop-mate", "--workers", "1", "--seed", "3",
                                      "--method", "random", "-q"])
    assert again.exit_code == 2 and "--avoid-theme" in again.output


def test_a_climb_avoiding_drop_mates_starts_from_no_drop_mate():
    assert mates_by_drop(cand("k1P2H25 b G"))  # G*5 mates
    assert not mates_by_drop(cand("3tk1t2+H21 b - 1"))  # 10-8 mates, no drop does
    s = Settings(variant="ito", methods=("climb",), seed=5, shard_size=4, avoid=("drop-mate",),
                 limits=settings_from("ito", length="3-99").limits).check()
    r = run_shard(s, 0)
    assert r.stages[AVOIDED] > 0 and r.candidates >= 40


def _rung(fen: str, nodes: int, labels: tuple[str, ...]) -> Rung:
    return Rung(9, cand(fen), nodes, True, (fen,), labels)


def test_the_novel_beam_takes_rare_labels_first():
    common = _rung("1kt2h2G22 b GT 1", 10, ("sacrifice", "drop-mate"))
    rare = _rung("1kt3G24 b GT 1", 90, ("quiet-key",))
    bare = _rung("1kt3G24 b G 1", 80, ())
    counts = {"sacrifice": 5, "drop-mate": 5, "quiet-key": 1}
    assert rarity(common.labels, counts) == 10 and rarity(bare.labels, counts) == 0
    assert next_beam([common, rare, bare], 3, random.Random(1), counts=counts) == [bare, rare, common]
    # Without the counts the cheapest comes first, as ever.
    assert next_beam([common, rare, bare], 3, random.Random(1))[0] == common


def test_novelty_reaches_the_beam_and_repeats_with_its_seed(monkeypatch, tmp_path):
    given: list = []
    real = climb_module.next_beam

    def spy(*args, **kwargs):
        given.append(args[4] if len(args) > 4 else kwargs.get("counts"))
        return real(*args, **kwargs)

    monkeypatch.setattr("tsume.compose.run.next_beam", spy)
    s = settings_from("ito", methods="climb", seed=3, length="7-99", parents=[SEED], shard_size=6, novelty=True)
    first = run_shard(s, 0)
    assert given and all(isinstance(c, dict) for c in given)
    assert any(c for c in given)  # the labels of what the shard took
    assert run_shard(s, 0).accepted == first.accepted
    given.clear()
    run_shard(settings_from("ito", methods="climb", seed=3, length="7-99", parents=[SEED], shard_size=6), 0)
    assert given and all(c is None for c in given)
    a, b = tmp_path / "a.tsume", tmp_path / "b.tsume"
    s = Settings(variant="ito", methods=("climb",), seed=2, shard_size=3, generation=2, novelty=True).check()
    compose(s, a, count=4, workers=1)
    compose(s, b, count=2, workers=1)
    compose(s, b, count=4, workers=1, resume=True)
    assert a.read_text() == b.read_text()
    assert s.state()["novelty"] is True


@pytest.mark.parametrize("shorter, longer", [
    # Two problems of one line, the longer made by un-moving two plies at
    # the front (they end in the same 19 plies).
    ("14k1+hG1PFC1H2T+C+tG1 b - 1", "13+P1k+hG1PFC1H2T+C+tG1 b - 1"),
])
def test_the_lasting_labels_last_when_a_problem_is_lengthened(shorter, longer):
    short, long_ = (verify(Problem(p, variant="ito")) for p in (shorter, longer))
    assert long_.length == short.length + 2 and long_.mainline[2:] == short.mainline
    kept = set(themes(short)) & LASTING
    assert kept and kept <= set(themes(long_))
    assert LASTING < set(THEMES) and {"quiet-key", "re-drop"}.isdisjoint(LASTING)


def _labelled(i: int, length: int, *labels: str) -> Record:
    return Record(id=f"p{i}", position="k1P2H25 b G", length=length, tags=["composed", *labels])


def test_a_balanced_choice_keeps_no_label_on_more_than_half():
    # Ten of one family (sacrifice, drop-mate), four without either.
    family = [_labelled(i, 21 + 2 * (i % 3), "sacrifice", "drop-mate", "king-walk") for i in range(10)]
    others = [_labelled(10, 21, "quiet-key", "king-walk"), _labelled(11, 23, "king-walk"),
              _labelled(12, 25, "interposition", "king-walk"), _labelled(13, 21, "re-drop", "king-walk")]
    problems = family + others
    assert label_counts(problems) == {"sacrifice": 10, "king-walk": 14, "re-drop": 1, "quiet-key": 1,
                                      "drop-mate": 10, "interposition": 1}
    kept = balanced(problems, exempt=["king-walk"])
    counts = label_counts(kept)
    assert len(kept) == 8 and all(others[i] in kept for i in range(4))
    assert all(n <= len(kept) // 2 for t, n in counts.items() if t != "king-walk")
    assert counts["king-walk"] == 8  # exempt
    assert [p.id for p in kept] == sorted((p.id for p in kept), key=lambda s: int(s[1:]))  # their order
    # Without the exemption king-walk, on every one, leaves nothing.
    assert balanced(problems) == []
    with pytest.raises(ArgumentError, match="share"):
        balanced(problems, share=0)
    with pytest.raises(ArgumentError, match="exempt labels"):
        balanced(problems, exempt=["brilliancy"])


def test_distinct_drops_a_repeated_idea():
    a = Record(id="a", position="k1P2H25 b G", length=1, solution=["G*5"])
    b = Record(id="b", position="k1P2H25 b G", length=1, solution=["G*5"])
    c = Record(id="c", position="3tk1t2+H21 b - 1", length=1, solution=["10-8"])
    assert [p.id for p in distinct([a, b, c])] == ["a", "c"]
