"""The climb (tsume.compose.climb and the ``climb`` method of the run): a
beam of partial problems lengthened two plies at a time."""

from __future__ import annotations

import random

from tsume.collection import Record, load
from tsume.compose import Candidate
from tsume.compose.climb import Rung, fen_material, next_beam
from tsume.compose.run import Settings, compose, run_shard, settings_from
from tsume.problem import Problem
from tsume.verify import verify

#: Ito, 5 plies: 10-8 5-4 9-7 4-3 T*5.
SEED = Record(id="seed", position="1f1+Fk1t1+H+H21 b - 1", variant="ito", length=5,
              solution="10-8 5-4 9-7 4-3 T*5".split())


def cand(fen: str, variant: str = "ito") -> Candidate:
    return Candidate.from_position(Problem(fen, variant=variant).position(), None)


def test_a_seeded_climb_makes_a_longer_sound_problem_of_exact_length():
    assert verify(SEED.problem()).length == 5
    s = settings_from("ito", methods="climb", seed=3, length="9-99", parents=[SEED], shard_size=6)
    r = run_shard(s, 0)
    assert r.method == "climb" and r.accepted
    longest = max(r.accepted, key=lambda a: a["length"])
    assert longest["length"] >= 9  # two rungs above the seed
    for a in r.accepted:
        rep = verify(Problem(a["position"], variant="ito", defender=a["defender"]))
        assert rep.verdict == "sound", a
        assert rep.length == a["length"] and rep.mainline == a["solution"]


def test_the_climb_repeats_with_its_seed_and_resumes(tmp_path):
    s = Settings(variant="ito", methods=("climb",), seed=2, shard_size=3, generation=2).check()
    assert run_shard(s, 1).accepted == run_shard(s, 1).accepted
    a, b = tmp_path / "a.tsume", tmp_path / "b.tsume"
    compose(s, a, count=4, workers=1)
    compose(s, b, count=2, workers=1)
    compose(s, b, count=4, workers=1, resume=True)
    assert a.read_text() == b.read_text()
    assert all("climb" in p.tags for p in load(a))


def _rung(fen: str, nodes: int, sound: bool, ideas: tuple[str, ...] = ()) -> Rung:
    return Rung(5, cand(fen), nodes, sound, ideas)


def test_the_beam_prefers_sound_cheap_new_material_and_new_ideas():
    a = _rung("1kt2h2G22 b GT 1", 50, True, ("x",))
    b = _rung("1kt2h2G22 b GT 1", 10, False)
    c = _rung("1kt2h1G23 b GT 1", 90, True, ("y",))  # the same material as a
    d = _rung("1kt3G24 b GT 1", 80, True, ("z",))
    e = _rung("1kt3G24 b G 1", 70, True, ("x",))  # an idea already taken
    seen: set[str] = set()
    beam = next_beam([b, c, d, e, a], 4, random.Random(1), seen)
    assert beam == [a, d, c, b]
    assert seen == {"x", "y", "z"}
    assert fen_material(a.candidate.fen()) == fen_material(c.candidate.fen()) != fen_material(d.candidate.fen())
    assert next_beam([b, c, d, e, a], 5, random.Random(2))[-1] == e



def test_the_memory_hands_back_the_same_outcome_and_changes_no_result(monkeypatch):
    from tsume.compose import memo
    from tsume.compose.filters import Criteria, consider

    memo.forget()
    c = cand(SEED.position)
    crit = Criteria(min_length=5, max_length=9)
    first = memo.considered(c, crit)
    assert first.stage == consider(c, crit).stage == "accepted"
    assert memo.considered(cand(SEED.position), crit) is first  # the same candidate, made again
    assert memo.remembered()["hits"] == 1
    assert memo.considered(c, crit, {5}).stage == "length"  # other lengths skipped: another key
    assert memo.considered(c, Criteria(min_length=7, max_length=9)).stage == "length"  # other criteria too
    # A shard's result is the same from an empty memory and a warm one.
    s = settings_from("ito", methods="climb", seed=3, length="9-99", parents=[SEED], shard_size=3)
    memo.forget()
    cold = run_shard(s, 0)
    assert memo.remembered()["misses"] > 0
    warm = run_shard(s, 0)
    assert memo.remembered()["hits"] >= warm.candidates
    assert (warm.accepted, warm.stages, warm.nodes, warm.parents) == (cold.accepted, cold.stages, cold.nodes, cold.parents)
    # Bounded: the least recently used go first.
    monkeypatch.setattr(memo, "CAPACITY", 2)
    memo.forget()
    for fen in ("1kt2h2G22 b GT 1", "1kt2h1G23 b GT 1", "1kt3G24 b GT 1"):
        memo.considered(cand(fen), crit)
    assert memo.remembered()["held"] == 2
    memo.forget()


def test_a_climbing_pool_keeps_few_of_one_material():
    from tsume.compose.climb import fen_material
    from tsume.compose.run import merge_pool

    # The same men and hand on other squares: one material; another hand or rule: another.
    assert fen_material("1kt2h2G22 b GT 1", None) == fen_material("1kt2h1G23 b GT 1", None)
    assert fen_material("1kt2h2G22 b GT 1", None) != fen_material("1kt2h2G22 b G 1", None)
    assert fen_material("1kt2h2G22 b GT 1", None) != fen_material("1kt2h2G22 b GT 1", "none")
    assert fen_material("k5+N6 b - 1", None).endswith("/13/None")  # the board's length (Rutherford's varies)
    same = [(20 - i, 20 - i, f"1kt{i}G{27 - i} b GT 1", None, 5) for i in range(1, 6)]
    other = (3, 3, "k1P2H25 b G 1", None, 10)
    assert merge_pool(same, [other], 4) == same[:4]
    assert merge_pool(same, [other], 4, per_material=2) == [same[0], same[1], other]
    # A climbing run's shards hand back a pool capped so.
    s = settings_from("ito", methods="climb", seed=3, length="9-99", parents=[SEED], shard_size=6)
    r = run_shard(s, 0)
    counts: dict[str, int] = {}
    for p in r.parents:
        counts[fen_material(p[2], p[3])] = counts.get(fen_material(p[2], p[3]), 0) + 1
    assert r.parents and max(counts.values()) <= 4


def test_a_parent_of_the_user_is_solved_under_the_widest_limits(monkeypatch):
    import tsume.compose.run as run
    from tsume.compose.filters import MOST, Criteria

    base = Criteria(min_length=9, max_length=99)
    wide = base.widest()
    assert wide == base.for_parent(10**9) and wide.mate_nodes == MOST * base.mate_nodes
    assert wide.verify_nodes > base.verify_nodes
    # A long parent costs more than the base limit to solve (an Ito mate of
    # 21 plies takes some 17,000 nodes, of 43 some 70,000): the climb
    # solves one it was given under the widest limits.
    asked: list[Criteria] = []
    real = run.mated
    monkeypatch.setattr(run, "mated", lambda c, criteria: asked.append(criteria) or real(c, criteria))
    s = settings_from("ito", methods="climb", seed=3, length="9-99", parents=[SEED], shard_size=2)
    run_shard(s, 0)
    assert asked and all(c == s.limits.widest() for c in asked)


def test_a_parents_idea_found_again_weighs_half_in_the_pool():
    from dataclasses import replace

    s = replace(settings_from("ito", methods="climb", seed=3, length="5-99", parents=[SEED], shard_size=3),
                parent_ideas=())
    cold = run_shard(s, 0)
    assert cold.accepted
    weight = {p[2]: p[0] for p in cold.parents}
    assert all(weight[a["position"]] == a["length"] for a in cold.accepted if a["position"] in weight)
    # The same shard, its finds now ideas of the parents: found again, each
    # weighs half.
    known = replace(s, parent_ideas=tuple(k for a in cold.accepted for k in a["ideas"]))
    warm = run_shard(known, 0)
    again = [a for a in warm.accepted if not set(a["ideas"]).isdisjoint(known.parent_ideas)]
    weight = {p[2]: p[0] for p in warm.parents}
    assert again and all(weight[a["position"]] == a["length"] // 2 for a in again if a["position"] in weight)
    assert any(a["position"] in weight for a in again)
