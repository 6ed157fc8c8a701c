"""The composer (tsume.compose): candidates, material, sources, filters, the
sharded run, the CLI.  Every problem a test composes is verified again."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tsume.collection import load
from tsume.compose import Candidate, canonical_key, parse_material
from tsume.compose.filters import Criteria, consider, economise, repair, sound
from tsume.compose.idea import Ideas, idea_keys, line_key
from tsume.compose.run import Generations, Settings, compose, merge_pool, run_shard, settings_from, spread_target
from tsume.compose.state import load as load_state
from tsume.compose.state import state_path
from tsume.compose.sources import mutate, random_candidates, two_plies_back
from tsume.problem import Problem
from tsume.errors import ArgumentError
from tsume.verify import verify

#: Cheap material: mates of 1-3 plies are common, each candidate costs little.
EASY = "attacker=1-2, hand=1-2, defender=0-1, spread=3, king=no"


def cand(fen: str, defender: str | None = None, variant: str = "ito") -> Candidate:
    return Candidate.from_position(Problem(fen, variant=variant, defender=defender).position(), defender)


def assert_sound(path: Path) -> list:
    problems = load(path)
    for p in problems:
        r = verify(p.problem())
        assert r.verdict == "sound", (p.id, r.findings)
        assert r.length == p.length and r.mainline == p.solution
    return problems


# --- candidates and material -------------------------------------------------------------


def test_candidate_round_trip_and_pool():
    c = cand("2T1k5+P20 b C2G2H 1")
    assert c.fen() == "2T1k5+P20 b C2G2H 1"
    assert c.king("defender") == 5 and c.squares("attacker") == [3, 11]
    assert sorted(c.pool()) == ["C", "F", "F", "P", "T"]  # the defender's "rest"


def test_canonical_key_ignores_how_the_problem_is_written():
    a = Problem("2T1k5+P20 b C2G2H 1", variant="ito").position()
    b = Problem("2T1k5+P20 b C2H2Gptc2f 7", variant="ito").position()
    c = Problem("2T1k5+P20 b C2G2H 1", variant="ito", defender="none").position()
    assert canonical_key(a) == canonical_key(b) != canonical_key(c)


def test_material_draws_what_it_names():
    m = parse_material("attacker=G+T, hand=2P, defender=1-2, spread=5, king=no", "ito")
    rng = random.Random(3)
    for _ in range(20):
        c = m.draw(rng, "ito")
        men = sorted(c.pos.piece_at(s).symbol() for s in c.squares("attacker"))
        assert men == ["+T", "G"] and c.hand == {"P": 2} and not c.king("attacker")
        k = c.king("defender")
        assert 1 <= len(c.squares("defender")) <= 2
        assert all(abs(s - k) <= 5 for s in c.squares("attacker") + c.squares("defender"))
        assert c.position() is not None


def test_material_board_length_for_rutherford():
    m = parse_material("attacker=2, hand=1, length=15-18", "rutherford")
    rng = random.Random(5)
    assert all(15 <= m.draw(rng, "rutherford").n <= 18 for _ in range(10))


@pytest.mark.parametrize("spec, words", [
    ("attacker=Q", "not a piece letter"),
    ("hand=+P", "never promoted"),
    ("spread=0", "1 <= N <= M"),
    ("colour=red", "unknown key"),
    ("attacker", "expected key=value"),
    ("king=2", "probability"),
    ("length=20", "always played on 31"),
    ("attacker=3-1", "N <= M"),
    ("hand=2P, hand=G", "given twice"),
])
def test_material_errors_are_one_line(spec, words):
    with pytest.raises(ArgumentError, match=words) as info:
        parse_material(spec, "ito")
    assert "\n" not in str(info.value)


def test_impossible_material_is_refused():
    with pytest.raises(ArgumentError, match="no valid position"):
        parse_material("attacker=9G", "ito").draw(random.Random(1), "ito")


# --- sources -----------------------------------------------------------------------------


def test_sources_repeat_with_their_seed():
    a = [c.fen() for c, _ in zip(random_candidates(random.Random(9), "ito"), range(8))]
    b = [c.fen() for c, _ in zip(random_candidates(random.Random(9), "ito"), range(8))]
    assert a == b and len(set(a)) > 1
    parent = cand("k1P2H25 b G")
    kids = [mutate(parent, random.Random(i)).fen() for i in range(30)]
    assert kids == [mutate(parent, random.Random(i)).fen() for i in range(30)]
    assert len(set(kids)) > 5


@pytest.mark.parametrize("fen, variant", [("k1P2H25 b G", "ito"), ("2k2F1+f1+pg1h18 b GHT 1", "ito"),
                                          ("+N4k5bn44 b - 1", "rutherford")])
def test_two_plies_back_leads_to_the_position(fen, variant):
    c = cand(fen, variant=variant)
    target = c.position()
    backs = two_plies_back(c, random.Random(1), 8)
    assert backs
    for b in backs:
        pos = b.position()
        assert pos is not None
        ok = False
        for m in pos.checks():
            pos.push(m)
            for d in pos.evasions():
                pos.push(d)
                ok |= pos.key()[:3] == target.key()[:3] or pos.fen(move_number=False) == target.fen(move_number=False)
                pos.pop()
            pos.pop()
        assert ok, b.fen()


# --- filters -----------------------------------------------------------------------------


def test_a_redundant_piece_is_removed():
    o = consider(cand("k1P2H20T4 b G"), Criteria())
    assert o.stage == "accepted" and o.removed == ["T27"]
    assert o.candidate.fen() == "k1P2H25 b G 1"


def test_economise_keeps_a_needed_piece():
    c = cand("k1P2H25 b G")
    rep, _ = sound(c, Criteria())
    assert rep is not None
    kept, _, removed, _ = economise(c, rep, Criteria())
    assert removed == [] and kept.fen() == c.fen()


def test_te_amari_is_repaired():
    c = cand("f4kt2+HK20 b PT 1")
    o = consider(c, Criteria(repair_rounds=0))
    assert o.stage == "te-amari"
    o = consider(c, Criteria())
    assert o.stage == "accepted" and sum(o.candidate.hand.values()) < 2
    assert repair(c, "P").hand == {"T": 1} and repair(c, "2P") is None


def test_yozume_is_refused():
    assert consider(cand("2k2F1+f1+pg1h18 b GHT 1", "none"), Criteria()).stage == "unsound"


def test_length_window():
    assert consider(cand("k1P2H25 b G"), Criteria(min_length=3)).stage in ("length", "no-mate")


def test_limits_grow_with_the_parents_effort():
    base = Criteria()
    assert base.for_parent(None) == base.for_parent(1_000) == base
    grown = base.for_parent(10_000)
    assert grown.mate_nodes == 80_000 and grown.verify_nodes == 800_000
    assert base.for_parent(10**9).mate_nodes == 16 * base.mate_nodes


def test_lengths_the_run_has_enough_of_are_not_verified():
    c = cand("k1P2H25 b G")
    whole = consider(c, Criteria())
    assert whole.stage == "accepted" and whole.report is not None
    skipped = consider(c, Criteria(), skip={whole.report.length})
    assert skipped.stage == "length" and skipped.report is None and skipped.nodes < whole.nodes


# --- the run -------------------------------------------------------------------------------


def easy(**kw) -> Settings:
    base = dict(methods="random", material=EASY, length="1-5", shard_size=4)
    base.update(kw)
    s = settings_from("ito", **base)
    # A smaller verify budget than the default 200,000 nodes: a candidate that
    # exhausts it is rejected either way, and most of these tests' time went
    # on such candidates.
    return replace(s, limits=replace(s.limits, verify_nodes=40_000))


def test_a_shard_depends_only_on_its_settings_and_index():
    s = easy(seed=4)
    a, b = run_shard(s, 2), run_shard(s, 2)
    assert a.accepted == b.accepted and a.candidates == 4
    assert run_shard(s, 3).accepted != a.accepted or not a.accepted


def test_same_seed_same_file_on_one_and_two_workers(tmp_path):
    s = easy(seed=11)
    one, two = tmp_path / "one.tsume", tmp_path / "two.tsume"
    compose(s, one, count=2, workers=1)
    compose(s, two, count=2, workers=2)
    assert one.read_text() == two.read_text()
    problems = assert_sound(one)
    assert len(problems) == 2
    keys = {canonical_key(Problem(p.position, variant=p.variant, defender=p.defender).position()) for p in problems}
    assert len(keys) == 2
    for p in problems:
        prov, rating = p.fields("provenance"), p.fields("rating")
        assert prov["method"] == "random" and prov["seed"] == "11" and prov["tool"].startswith("tsume ")
        assert float(rating["score"]) >= 0 and rating["length"] == str(p.length)


def test_resume_goes_on_without_duplicates_and_as_one_run(tmp_path):
    s = easy(seed=12)
    whole, parts = tmp_path / "whole.tsume", tmp_path / "parts.tsume"
    compose(s, whole, count=3, workers=1)
    compose(s, parts, count=1, workers=1)
    with pytest.raises(ArgumentError, match="exists"):
        compose(s, parts, count=3, workers=1)
    with pytest.raises(ArgumentError, match=r"other options: --seed 12 \(stored\), not 13"):
        compose(easy(seed=13), parts, count=3, workers=1, resume=True)
    compose(s, parts, count=3, workers=1, resume=True)
    assert parts.read_text() == whole.read_text()
    state = load_state(parts).state
    assert state is not None and state["settings"]["seed"] == 12


def test_generations_share_a_pool_and_stay_deterministic(tmp_path):
    # One shard per generation: from the third shard on, each starts from
    # the pool of the shards two generations back.
    s = replace(easy(seed=5, methods="random,mutate"), generation=1, shard_size=3)
    one, two, parts = tmp_path / "one.tsume", tmp_path / "two.tsume", tmp_path / "parts.tsume"
    compose(s, one, count=4, workers=1)
    compose(s, two, count=4, workers=2)
    compose(s, parts, count=2, workers=2)
    compose(s, parts, count=4, workers=1, resume=True)
    assert one.read_text() == two.read_text() == parts.read_text()
    state = load_state(one).state
    assert state is not None and state["running"], "the pool stayed empty"
    assert max(int(g) for g in state["pools"]) == state["next_shard"] + 1
    # The pool is what a later shard starts from: a mutate shard given it
    # tries mutations of its parents, not random placements.
    pool = [tuple(x) for x in state["running"]]
    assert run_shard(s, 3, pool).accepted != run_shard(s, 3, ()).accepted or not pool
    assert_sound(one)


def test_per_length_spreads_the_collection(tmp_path):
    out = tmp_path / "spread.tsume"
    summary = compose(easy(seed=11, per_length=1), out, count=2, workers=2)
    problems = assert_sound(out)
    assert len({p.length for p in problems}) == len(problems) == 2
    assert summary.over_quota > 0  # short problems come first and fill their length at once
    with pytest.raises(ArgumentError, match="per-length"):
        easy(per_length=0)


def test_resume_refuses_a_state_it_cannot_go_on_from(tmp_path):
    s = easy(seed=12)
    out = tmp_path / "old.tsume"
    compose(s, out, count=1, workers=1)
    side = json.loads(state_path(out).read_text())
    side["current"]["state"]["running"] = [[3, 3, "k1P2H25 b G 1", None]]  # a pool entry of an earlier format
    side["previous"] = None
    state_path(out).write_text(json.dumps(side))
    with pytest.raises(ArgumentError, match="new file"):
        compose(s, out, count=3, workers=1, resume=True)


def test_a_generations_shards_start_from_the_pool_two_generations_back():
    s = Settings(variant="ito", generation=2, pool_size=8).check()
    g = Generations(s)
    # Shards 0-3 (generations 0 and 1) start from the empty pool; shard 4 waits.
    assert [g.pool(i) for i in range(4)] == [[], [], [], []] and g.pool(4) is None
    found = [[(10 + i, 9, f"k{i}P2H25 b G 1", None, i)] for i in range(6)]
    assert [g.merge(0, found[0]), g.merge(1, found[1])] == [False, True]
    # Generation 0 merged: generation 2 starts from it, not from generation 1's shards.
    assert g.pool(4) == g.pool(5) == [found[1][0], found[0][0]]
    assert g.pool(0) is None and g.pool(6) is None
    g.merge(2, found[2])
    assert g.pool(6) is None and len(g.running) == 3
    g.merge(3, found[3])
    assert g.pool(6) == [found[3][0], found[2][0], found[1][0], found[0][0]]
    # What a state file holds gives the same schedule back.
    again = Generations.from_state(s, json.loads(json.dumps(g.state())))
    assert again.pools == g.pools and again.running == g.running


def test_the_pool_keeps_the_heaviest_once_each():
    a, b, c = (3, 3, "k1P2H25 b G 1", None, 10), (9, 9, "x", None, 90), (1, 2, "k1P2H25 b G 1", None, 20)
    assert merge_pool([a], [b, c], 5) == [b, a]
    assert merge_pool([a], [b, c], 1) == [b]


def test_time_limit_stops_the_run(tmp_path):
    t = time.monotonic()
    summary = compose(easy(seed=3, shard_size=50), tmp_path / "t.tsume", time_limit=2, workers=1)
    assert summary.stopped == "time" and time.monotonic() - t < 10


def test_bad_arguments(tmp_path):
    with pytest.raises(ArgumentError, match="methods"):
        settings_from("ito", methods="magic")
    with pytest.raises(ArgumentError, match="--length"):
        settings_from("ito", length="3..5")
    with pytest.raises(ArgumentError, match="count, a time limit"):
        compose(easy(), tmp_path / "x.tsume")
    with pytest.raises(ArgumentError, match="count"):
        compose(easy(), tmp_path / "x.tsume", count=0)


def test_any_executor_will_do(tmp_path):
    with cf.ThreadPoolExecutor(2) as ex:
        compose(easy(seed=11), tmp_path / "threads.tsume", count=2, executor=ex)
    compose(easy(seed=11), tmp_path / "procs.tsume", count=2, workers=2)
    assert (tmp_path / "threads.tsume").read_text() == (tmp_path / "procs.tsume").read_text()


def test_reverse_and_mutate_compose_sound_problems(tmp_path):
    for method in ("reverse", "mutate"):
        out = tmp_path / f"{method}.tsume"
        compose(easy(seed=21, methods=method, shard_size=6), out, count=1, workers=2)
        problems = assert_sound(out)
        assert {p.fields("provenance")["method"] for p in problems} == {method}


def test_rutherford(tmp_path):
    s = settings_from("rutherford", methods="random", material="attacker=1-2, hand=1-2, defender=0, spread=3, length=12-16",
                      length="1-5", shard_size=4, seed=2)
    out = tmp_path / "r.tsume"
    compose(s, out, count=2, workers=2)
    assert all(p.variant == "rutherford" for p in assert_sound(out))


# --- the command line ----------------------------------------------------------------------


def tsume(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tsume", *args], capture_output=True, text=True, timeout=300, **kw)


def test_cli_compose_json_and_resume(tmp_path):
    out = tmp_path / "c.tsume"
    common = ["compose", "--out", str(out), "--method", "random", "--material", EASY, "--length", "1-5",
              "--seed", "5", "--workers", "2", "--json", "-q"]
    r = tsume(*common, "--count", "1")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["id"] for x in lines] == [p.id for p in load(out)]
    assert set(lines[0]) >= {"id", "variant", "position", "length", "solution", "score", "features"}
    r = tsume(*common, "--count", "2")
    assert r.returncode == 2 and "exists" in r.stderr and len(r.stderr.splitlines()) == 1
    r = tsume(*common, "--count", "2", "--resume")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 1
    assert len(assert_sound(out)) == 2


@pytest.mark.parametrize("args, words", [
    (["--material", "attacker=Q"], "not a piece letter"),
    (["--method", "magic"], "methods"),
    (["--length", "x"], "--length"),
    (["--variant", "chess"], "variant"),
])
def test_cli_bad_input(tmp_path, args, words):
    r = tsume("compose", "--out", str(tmp_path / "x.tsume"), *args)
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.splitlines()) == 1
    assert "Traceback" not in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGKILL, -9)])
def test_cli_interrupted_leaves_a_valid_file_that_resumes(tmp_path, sig, status):
    out = tmp_path / "i.tsume"
    args = ["compose", "--out", str(out), "--method", "random", "--material", EASY, "--length", "1-5",
            "--seed", "8", "--workers", "2", "--count", "500", "-q"]
    # The child gets the default SIGINT even when the suite runs as a background job.
    p = subprocess.Popen([sys.executable, "-c",
                          "import signal,sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                          "sys.argv=['tsume']+sys.argv[1:]; from tsume.cli import run; run()", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out.exists() and "[ito-c0001]" in out.read_text()):
        time.sleep(0.2)
    assert out.exists(), "nothing accepted in 120 s"
    os.killpg(p.pid, sig) if sig == signal.SIGKILL else p.send_signal(sig)
    t = time.monotonic()
    p.communicate(timeout=30)  # reads and closes its pipes
    assert p.returncode == status
    if sig == signal.SIGINT:
        assert time.monotonic() - t < 5
    before = load(out)
    r = tsume(*args[:-3], "--count", str(len(before) + 1), "--resume", "-q")
    assert r.returncode == 0, r.stderr
    after = assert_sound(out)
    assert [p.position for p in after[:len(before)]] == [p.position for p in before]
    assert len({p.position for p in after}) == len(after) == len(before) + 1
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_a_dask_local_cluster_composes_the_same_file(tmp_path):
    distributed = pytest.importorskip(
        "distributed", reason="Dask is not installed: pip install -e '.[cluster]' to test the cluster path")
    s = easy(seed=11)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            compose(s, tmp_path / "dask.tsume", count=2, executor=client.get_executor())
    compose(s, tmp_path / "local.tsume", count=2, workers=2)
    assert (tmp_path / "dask.tsume").read_text() == (tmp_path / "local.tsume").read_text()
    assert_sound(tmp_path / "dask.tsume")


def test_cli_scheduler_that_is_not_there(tmp_path):
    pytest.importorskip("distributed", reason="Dask is not installed: pip install -e '.[cluster]'")
    r = tsume("compose", "--out", str(tmp_path / "x.tsume"), "--scheduler", "tcp://127.0.0.1:9", "--count", "1")
    assert r.returncode == 2 and "cannot connect" in r.stderr and "Traceback" not in r.stderr


# --- the same idea, once ------------------------------------------------------------------


def test_a_defender_variant_is_the_same_idea():
    a = idea_keys("ito", "G2ck2t1H21 b T 1", None, ["1-3", "5-6", "T*5"])
    b = idea_keys("ito", "G2ck2t1H21 b T 1", "none", ["1-3", "5-6", "T*5"])
    c = idea_keys("ito", "G2ck2t1H21 b T2pchg2f 9", None)  # "the rest" written out, no solution stated
    ideas = Ideas()
    ideas.add(a, "first")
    assert ideas.match(b) == ("board", "first") and ideas.match(c) == ("board", "first")


def test_a_line_shifted_along_the_board_is_the_same_idea():
    # One Rutherford idea on boards of 21 and 25 squares, and two squares along.
    line = ["+N*12", "9-11", "12-9", "11-13", "9-11"]
    ideas = Ideas()
    ideas.add(idea_keys("rutherford", "8k+b4l6 b N 1", "none", line), "first")
    assert ideas.match(idea_keys("rutherford", "8k+b4l10 b N 1", "none", line)) == ("line", "first")
    shifted = ["+N*10", "7-9", "10-7", "9-11", "7-9"]
    assert ideas.match(idea_keys("rutherford", "6k+b4l10 b N 1", "none", shifted)) == ("line", "first")
    assert line_key(line) == line_key(shifted) == "+N*3 0-2 3-0 2-4 0-2"
    # Another move, or the same moves in another order, is another line.
    assert line_key(["+N*12", "9-11", "12-9", "11-13", "9-10"]) != line_key(line)
    assert line_key(["+N*12", "12-9", "9-11", "11-13", "9-11"]) != line_key(line)


def test_the_same_shape_is_the_same_idea():
    ideas = Ideas()
    ideas.add(idea_keys("ito", "k1P2H25 b G", None, ["G*2"], "abc"), "first")
    assert ideas.match(idea_keys("ito", "3k1P2H22 b G", None, ["6-5"], "abc")) == ("shape", "first")
    assert ideas.match(idea_keys("ito", "3k1P2H22 b G", None, ["6-5"], "abd")) is None


def _shifted(a: list[str], b: list[str]) -> bool:
    """Whether line b is line a moved by some number of squares (another way than line_key's)."""
    import re

    return len(a) == len(b) and any(
        [re.sub(r"[0-9]+", lambda m: str(int(m.group()) + d), x) for x in a] == b for d in range(-40, 41))


def assert_no_repeated_idea(problems) -> None:
    """No two problems the same idea, judged afresh: boards, lines, and the
    shape of a verification done here."""
    from tsume.compose.rating import shape_hash

    shapes = []
    for p in problems:
        r = verify(p.problem())
        assert r.verdict == "sound", (p.id, r.findings)
        shapes.append(shape_hash(r))
    for i, a in enumerate(problems):
        for j, b in enumerate(problems[:i]):
            board_a, board_b = (cand(x.position, x.defender, x.variant).fen() for x in (a, b))
            assert board_a != board_b, f"{a.id} is {b.id} with another defender's hand"
            assert not _shifted(b.solution, a.solution), f"{a.id} plays {b.id}'s line elsewhere"
            assert shapes[i] != shapes[j], f"{a.id} has {b.id}'s shape"


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_a_seeded_run_repeats_no_idea_and_spreads_its_lengths(tmp_path, variant):
    """tsume compose --variant V --count 5 --length 3-9 --seed 1, as a user types it."""
    out = tmp_path / f"{variant}.tsume"
    r = tsume("compose", "--variant", variant, "--count", "5", "--length", "3-9", "--seed", "1",
              "--out", str(out), "-q")
    assert r.returncode == 0, r.stderr
    problems = load(out)
    assert len(problems) == 5
    assert_no_repeated_idea(problems)
    by_length = {n: sum(p.length == n for p in problems) for n in {p.length for p in problems}}
    # Five problems over the four lengths 3, 5, 7, 9: at most two of each, three lengths at least.
    assert len(by_length) >= 3 and max(by_length.values()) <= 2, by_length


def test_a_problem_of_the_parents_is_not_composed_again(tmp_path):
    first = tmp_path / "first.tsume"
    compose(easy(seed=11), first, count=2, workers=1)
    parents = load(first)
    again = tmp_path / "again.tsume"
    summary = compose(easy(seed=11, parents=parents), again, count=2, workers=1)
    assert summary.duplicates >= 1  # the same shards find the parents' problems again
    assert_no_repeated_idea(parents + load(again))


def test_the_spread_target_shares_the_count_over_the_lengths():
    assert spread_target(settings_from("ito", length="3-9"), 5) == 2  # 3, 5, 7, 9
    assert spread_target(settings_from("ito", length="4-9"), 7) == 3  # 5, 7, 9
    assert spread_target(settings_from("ito", length="7"), 5) == 1  # 7 to 99: 47 lengths
    assert spread_target(settings_from("ito", length="3-9"), None) is None


# --- the state beside the collection ------------------------------------------------------------

#: The longest line a collection may have (tsume.collection.WIDTH: longer
#: values go on continuation lines); a dump of state does not fit.
MAX_LINE = MAX_COMMENT = 100


def assert_for_people(path: Path) -> None:
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        assert len(line) <= MAX_LINE, f"{path.name}:{n}: {len(line)} characters"
        if line.startswith("#"):
            assert len(line) <= MAX_COMMENT and "compose-state" not in line, f"{path.name}:{n}: {line[:80]}"


def test_bundled_collections_have_no_line_longer_than_a_person_reads():
    folder = Path(__file__).resolve().parent.parent / "problems"
    names = sorted(folder.glob("*.tsume"))
    assert len(names) >= 8
    for path in names:
        assert_for_people(path)
    assert not list(folder.glob("*.state.json"))


def test_the_state_is_kept_beside_the_collection(tmp_path):
    out = tmp_path / "mine.tsume"
    compose(easy(seed=12), out, count=2, workers=1)
    assert_for_people(out)
    side = json.loads(state_path(out).read_text())
    assert side["current"]["problems"] == 2 and side["current"]["state"]["settings"]["seed"] == 12
    assert state_path(out).name == "mine.tsume.state.json"


def test_resume_without_its_state_file_is_one_line_and_loses_nothing(tmp_path):
    out = tmp_path / "mine.tsume"
    compose(easy(seed=12), out, count=1, workers=1)
    state_path(out).unlink()
    before = out.read_text()
    with pytest.raises(ArgumentError, match="no state file mine.tsume.state.json") as info:
        compose(easy(seed=12), out, count=3, workers=1, resume=True)
    assert "\n" not in str(info.value) and out.read_text() == before


def test_resume_of_a_collection_edited_since_is_refused(tmp_path):
    out = tmp_path / "mine.tsume"
    compose(easy(seed=12), out, count=2, workers=1)
    problems = load(out)
    # Titles, notes and comments may be edited ...
    problems[0].title = "A first one"
    out.write_text("# my comment\n\n" + "\n\n".join(p.to_text() for p in problems) + "\n")
    compose(easy(seed=12), out, count=3, workers=1, resume=True)
    text = out.read_text()
    assert text.startswith("# my comment\n") and "title: A first one" in text and len(load(out)) == 3
    # ... but a problem taken out would make the next id clash, or the state skip its shard.
    problems = load(out)
    out.write_text("\n\n".join(p.to_text() for p in problems[1:]) + "\n")
    before = out.read_text()
    with pytest.raises(ArgumentError, match=r"\(2 problems\) is not the collection its state file") as info:
        compose(easy(seed=12), out, count=4, workers=1, resume=True)
    assert "\n" not in str(info.value) and out.read_text() == before


def test_a_stop_between_the_two_writes_resumes_as_one_run(tmp_path, monkeypatch):
    """The state file is written first: a run stopped before the collection
    followed goes on from the state before."""
    import tsume.compose.state as state_module

    whole, parts = tmp_path / "whole.tsume", tmp_path / "parts.tsume"
    compose(easy(seed=12), whole, count=3, workers=1)
    compose(easy(seed=12), parts, count=1, workers=1)
    real = state_module.write_atomic

    def stop_before_the_collection(path, text):
        real(path, text)
        if str(path).endswith(".state.json"):
            raise KeyboardInterrupt

    monkeypatch.setattr(state_module, "write_atomic", stop_before_the_collection)
    with pytest.raises(KeyboardInterrupt):
        compose(easy(seed=12), parts, count=3, workers=1, resume=True)
    monkeypatch.setattr(state_module, "write_atomic", real)
    assert len(load(parts)) == 1
    compose(easy(seed=12), parts, count=3, workers=1, resume=True)
    assert parts.read_text() == whole.read_text()


def test_a_collection_with_its_state_inside_resumes_and_moves_it_out(tmp_path):
    """Collections of an earlier tsume carry the state on a comment line."""
    old = tmp_path / "old.tsume"
    compose(easy(seed=12), old, count=1, workers=1)
    state = json.loads(state_path(old).read_text())["current"]["state"]
    del state["settings"]["parent_ideas"], state["target"], state["generation_accepted"]
    state_path(old).unlink()
    body = old.read_text().split("\n", 1)[1]
    old.write_text("# Composed by tsume compose (docs/compose.md); the next line lets --resume go on.\n"
                   f"# compose-state: {json.dumps(state, sort_keys=True)}\n{body}")
    first = load(old)
    compose(easy(seed=12), old, count=3, workers=1, resume=True)
    after = load(old)
    assert len(after) == 3 and after[0].to_text() == first[0].to_text()
    assert_no_repeated_idea(after)
    assert state_path(old).exists()
    assert_for_people(old)


def test_cli_resume_with_other_options_says_which(tmp_path):
    out = tmp_path / "c.tsume"
    common = ["compose", "--out", str(out), "--method", "random", "--material", EASY, "--workers", "1", "-q"]
    assert tsume(*common, "--length", "1-5", "--seed", "5", "--count", "1").returncode == 0
    r = tsume(*common, "--length", "1-7", "--seed", "6", "--count", "2", "--resume")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "--length 1-5 (stored), not 1-7" in r.stderr and "--seed 5 (stored), not 6" in r.stderr
    assert "{" not in r.stderr  # no JSON


# --- progress ------------------------------------------------------------------------------------


def test_progress_moves_before_the_first_shard_is_done(tmp_path):
    seen: list[tuple[int, int, int, int]] = []

    def progress(s) -> None:
        seen.append((s.shards, s.tried, s.mating, s.longest_seen))

    compose(easy(seed=3, shard_size=1000), tmp_path / "p.tsume", count=1, workers=1, progress=progress)
    early = [x for x in seen if x[0] == 0]
    assert early and max(t for _, t, _, _ in early) > 0, seen[:5]
    assert max(m for _, _, m, _ in seen) > 0 and max(n for _, _, _, n in seen) >= 1
