"""tsume.census.check: a finished census checked against df-pn on a sample,
and the check itself caught when a census answer is wrong."""

from __future__ import annotations

import concurrent.futures as cf
import json
import shutil
from pathlib import Path

import pytest

from tsume.census.check import check, draw_sample
from tsume.census.family import parse_family
from tsume.census.run import census
from tsume.errors import ArgumentError

#: 50 positions, 18 mates of 1-7 plies.
SPEC = ("attacker=S, hand=S, length=9", "rutherford")


@pytest.fixture(scope="module")
def done(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("census") / "c"
    census(parse_family(*SPEC), out, max_plies=15, executor=cf.ThreadPoolExecutor(1), memory_mb=2000)
    return out


def records(out: Path) -> list[dict]:
    return [r for p in sorted(out.glob("shard-*.json")) for r in json.loads(p.read_text())["records"]]


def test_a_true_census_agrees_everywhere(done):
    r = check(done, sample=1000, mates=1000, executor=cf.ThreadPoolExecutor(2))
    everything = records(done)
    assert r.checked == len(everything) == 50
    assert r.mates == sum(x["status"] == "mate" for x in everything) > 10
    assert r.agreed == 50 and not r.disagreements and not r.unsettled


@pytest.mark.parametrize("change", ["length", "first_moves", "status"])
def test_a_wrong_answer_is_caught(done, tmp_path, change):
    bad = tmp_path / "bad"
    shutil.copytree(done, bad)
    for path in sorted(bad.glob("shard-*.json")):
        data = json.loads(path.read_text())
        hit = next((rec for rec in data["records"] if rec["status"] == "mate" and rec["length"] > 1), None)
        if hit is None:
            continue
        if change == "length":
            hit["length"] += 2
        elif change == "first_moves":
            hit["first_moves"] = hit["first_moves"][:-1] or ["1-2"]
        else:
            hit.update(status="nomate", length=None, first_moves=[])
        path.write_text(json.dumps(data))
        break
    r = check(bad, sample=1000, mates=1000)
    assert [d["position"] for d in r.disagreements] == [hit["position"]]
    assert r.agreed == 49
    assert r.disagreements[0]["census"]["status"] == hit["status"]
    assert r.disagreements[0]["dfpn"]["status"] == "mate"


def test_the_sample_is_seeded_and_split_between_mates_and_the_rest(done):
    everything = records(done)
    a = draw_sample(everything, sample=5, mates=3, seed=7)
    assert a == draw_sample(everything, sample=5, mates=3, seed=7)
    assert sum(x["status"] == "mate" for x in a) == 3 and len(a) == 8
    assert a != draw_sample(everything, sample=5, mates=3, seed=8)
    # Positions the census settled with df-pn are not compared with df-pn.
    marked = [dict(x, method="dfpn") for x in everything]
    assert draw_sample(marked, sample=5, mates=3, seed=7) == []


def test_a_partial_census_checks_the_shards_it_has(done, tmp_path):
    part = tmp_path / "part"
    shutil.copytree(done, part)
    kept = sorted(part.glob("shard-*.json"))[0]
    for p in part.glob("shard-*.json"):
        if p != kept:
            p.unlink()
    r = check(part, sample=100, mates=100)
    assert r.checked == len(json.loads(kept.read_text())["records"])


def test_bad_directories_are_one_line_errors(done, tmp_path):
    with pytest.raises(ArgumentError, match="not a census directory"):
        check(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    shutil.copy(done / "census.json", empty / "census.json")
    with pytest.raises(ArgumentError, match="no finished shard"):
        check(empty)
    (empty / "shard-01.json").write_text("{not json")
    with pytest.raises(ArgumentError, match="not a shard file"):
        check(empty)
    with pytest.raises(ArgumentError, match="sample"):
        check(done, sample=-1)


def test_a_census_in_parts_is_checked_whole(done, tmp_path):
    out = tmp_path / "parts"
    census(parse_family(*SPEC), out, max_plies=15, executor=cf.ThreadPoolExecutor(1), memory_mb=2000, parts=2)
    r = check(out, sample=1000, mates=1000, executor=cf.ThreadPoolExecutor(1))
    assert r.checked == 50 and r.agreed == 50
