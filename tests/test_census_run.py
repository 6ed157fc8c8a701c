"""The census run (tsume.census.run, tsume.census.classify, `tsume census`):
shard files, the table, the collection of sound problems, resume, the Dask
path, the memory bound and the CLI.  Tiny families only: the file runs in
seconds."""

from __future__ import annotations

import concurrent.futures as cf
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tsume.census.classify import ALTERNATIVE_FIRST_MOVE, attacker_pieces, classify, remove_piece
from tsume.census.family import parse_family
from tsume.census.retro import Solved, shard_part, solve_shard
from tsume.census.run import BASE_MB, BYTES_PER_NODE, MANIFEST, census, estimate_mb, probe_factor, run_shard, table
from tsume.collection import load
from tsume.errors import ArgumentError
from tsume.problem import Problem
from tsume.verify import verify

#: 50 positions on 9 shards: mates of 1-7 plies, sound ones, redundant pieces.
RUTH = ("attacker=S, hand=S, length=9", "rutherford")
#: 874 positions on 31 shards: two sound problems.
ITO = ("attacker=G, hand=G, defender-hand=none", "ito")


def fam(spec: tuple[str, str] = RUTH):
    return parse_family(*spec)


class InProcess(cf.Executor):
    """Runs each shard at once in this process; with ``fail_at``, the shard
    submitted in that place fails (an interrupted census)."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.fail_at = fail_at
        self.submitted: list[int] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        fut: cf.Future = cf.Future()
        self.submitted.append(args[2])
        if self.fail_at is not None and len(self.submitted) == self.fail_at:
            fut.set_exception(RuntimeError("the worker died"))
        else:
            try:
                fut.set_result(fn(*args, **kwargs))
            except Exception as exc:  # as a pool does: the error comes with the result
                fut.set_exception(exc)
        return fut


def stable(t: dict) -> dict:
    """The table without its rates (the only part that depends on the machine)."""
    return {k: v for k, v in t.items() if k != "rates"}


def shard_files(d: Path) -> list[str]:
    return sorted(p.name for p in d.glob("shard-*.json"))


@pytest.fixture(scope="module")
def ruth_run(tmp_path_factory):
    """One census of RUTH on a process pool of two workers."""
    out = tmp_path_factory.mktemp("census") / "ruth"
    summary = census(fam(), out, max_plies=15, workers=2)
    return out, summary


# --- a run ----------------------------------------------------------------------------------------


def test_a_run_writes_the_shards_the_table_and_the_sound_problems(ruth_run):
    out, s = ruth_run
    f = fam()
    assert shard_files(out) == [f"shard-{k:02d}.json" for k in f.shards()]
    assert {"census.json", "table.json", "table.md", "sound.tsume"} <= {p.name for p in out.iterdir()}
    assert not list(out.glob(".*tmp"))
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["family"] == f.spec() and manifest["max_plies"] == 15
    shard = json.loads((out / "shard-05.json").read_text())
    assert shard["family"] == f.spec() and shard["shard"] == 5 and shard["max_plies"] == 15
    assert {"position", "status", "length", "first_moves", "method", "verdict", "findings", "redundant"} \
        <= set(shard["records"][0])
    t = json.loads((out / "table.json").read_text())
    assert t == s.table
    assert t["positions"] == f.count() == s.positions_total == s.positions_done == 50
    assert (t["mates"], t["sound"], t["economical"]) == (18, 11, 7)
    assert t["mates_by_length"] == {"1": 2, "3": 10, "5": 4, "7": 2}
    assert t["sound_by_length"] == {"3": 8, "5": 2, "7": 1}
    assert sum(t["mates_by_length"].values()) == t["mates"] == sum(t["verdicts"].values())
    assert t["longest_sound"]["length"] == 7 and t["longest_mate"]["length"] == 7
    assert t["rates"]["retro_positions"] + t["rates"]["dfpn_positions"] == 50
    md = (out / "table.md").read_text()
    assert "| 7 | 2 | 1 | 1 |" in md and t["longest_sound"]["position"] in md and "Rutherford" in md
    assert s.shards_done == s.shards_total == 9 and s.shards_skipped == 0 and s.estimate_mb > 0


def test_the_sound_problems_load_and_verify_sound(ruth_run):
    out, s = ruth_run
    problems = load(out / "sound.tsume")
    assert len(problems) == s.table["sound"]
    assert [p.id for p in problems] == [f"census-rutherford-{n:04d}" for n in range(1, len(problems) + 1)]
    assert [p.length for p in problems] == sorted((p.length for p in problems), reverse=True)
    for p in problems:
        r = verify(p.problem())
        assert r.verdict == "sound", (p.id, r.findings)
        assert r.length == p.length and r.mainline == p.solution
        assert p.fields("provenance")["family"] == s.family and p.defender == "rest"


def test_every_redundant_piece_is_redundant_and_no_other(ruth_run):
    out, _ = ruth_run
    f = fam()
    records = [r for p in sorted(out.glob("shard-*.json")) for r in json.loads(p.read_text())["records"]]
    sound = [r for r in records if r["verdict"] == "sound"]
    assert any(r["redundant"] for r in sound) and any(not r["redundant"] for r in sound)
    for r in sound:
        pos = Problem(r["position"], variant=f.variant, defender=f.defender_hand).position()
        for label, where in attacker_pieces(pos):
            try:
                rep = verify(Problem(remove_piece(pos, where), variant=f.variant, defender=f.defender_hand))
                still = rep.verdict == "sound" and rep.length == r["length"]
            except Exception:
                still = False
            assert still == (label in r["redundant"]), (r["position"], label)


def test_ito_tiny_family_in_process(tmp_path):
    f = fam(ITO)
    s = census(f, tmp_path / "ito", max_plies=15, executor=InProcess())
    assert s.table["positions"] == f.count() == 874
    assert s.table["sound"] == 2 and s.table["longest_sound"]["length"] == 3
    for p in load(tmp_path / "ito" / "sound.tsume"):
        assert p.defender == "none" and p.id.startswith("census-ito-")
        assert verify(p.problem()).verdict == "sound"


def test_table_of_records_alone():
    recs = [
        {"position": "a", "status": "mate", "length": 3, "first_moves": ["x"], "method": "retro",
         "verdict": "sound", "findings": [], "redundant": [], "solution": ["x", "y", "z"]},
        {"position": "b", "status": "mate", "length": 3, "first_moves": ["x", "y"], "method": "dfpn",
         "verdict": "unsound", "findings": [ALTERNATIVE_FIRST_MOVE], "redundant": []},
        {"position": "c", "status": "mate", "length": 1, "first_moves": ["x"], "method": "retro",
         "verdict": "sound", "findings": [], "redundant": ["G3"], "solution": ["x"]},
        {"position": "d", "status": "nomate", "length": None, "first_moves": [], "method": "retro",
         "verdict": None, "findings": [], "redundant": []},
    ]
    t = table(recs)
    assert (t["positions"], t["mates"], t["nomates"], t["sound"], t["economical"]) == (4, 3, 1, 2, 1)
    assert t["mates_by_length"] == {"1": 1, "3": 2} and t["economical_by_length"] == {"3": 1}
    assert t["methods"] == {"dfpn": 1, "retro": 3} and "rates" not in t
    assert t["longest_sound"]["position"] == "a" and t["longest_mate"]["position"] == "a"


def test_classify_alternative_first_moves_without_search():
    f = fam()
    s = Solved("1S3k3 b S2p2n2b2l 1", "mate", 7, ["2-4", "2-3"])
    assert classify(s, f) == {"verdict": "unsound", "findings": [ALTERNATIVE_FIRST_MOVE], "redundant": [], "nodes": 0}


def test_remove_piece_gives_a_hand_piece_to_the_defender_under_rest():
    f = fam()
    pos = Problem("1S3k3 b S 1", variant=f.variant, defender="rest").position()
    assert [label for label, _ in attacker_pieces(pos)] == ["S2", "hand S"]
    rest = Problem(remove_piece(pos, "S"), variant=f.variant, defender="rest").position()
    assert rest.fen() == "1S3k3 b 2ps2n2b2l 1"  # the set has two: one on the board, one to the defender
    none = Problem(remove_piece(pos, 2), variant=f.variant, defender="none").position()
    assert none.fen() == "5k3 b S 1"


def test_run_shard_is_plain_data():
    r = run_shard("attacker=S, hand=S, length=9", "rutherford", 5, 15)
    assert json.loads(json.dumps(r)) == r and r["shard"] == 5 and r["stats"]["positions"] == len(r["records"])


# --- resume ---------------------------------------------------------------------------------------


def test_an_interrupted_census_resumes_to_the_same_table(tmp_path, ruth_run):
    f = fam()
    out = tmp_path / "c"
    with pytest.raises(RuntimeError, match="the worker died"):
        census(f, out, max_plies=15, executor=InProcess(fail_at=4))
    kept = shard_files(out)
    # The shards that finished beside the failed one are kept; the failed one is not there.
    assert 0 < len(kept) < 9 and "shard-04.json" not in kept and not (out / "table.json").exists()
    again = InProcess()
    s = census(f, out, max_plies=15, executor=again, resume=True)
    assert 4 in again.submitted and len(again.submitted) == 9 - len(kept)  # the finished shards are not run again
    assert s.shards_skipped == len(kept)
    assert stable(s.table) == stable(ruth_run[1].table)
    assert (out / "sound.tsume").read_text() == (ruth_run[0] / "sound.tsume").read_text()


def test_resume_runs_the_shards_whose_files_are_missing(tmp_path, ruth_run):
    out = tmp_path / "c"
    census(fam(), out, max_plies=15, executor=InProcess())
    for name in ("shard-02.json", "shard-07.json", "table.json"):
        (out / name).unlink()
    again = InProcess()
    s = census(fam(), out, max_plies=15, executor=again, resume=True)
    assert sorted(again.submitted) == [2, 7]
    assert stable(s.table) == stable(ruth_run[1].table) == stable(json.loads((out / "table.json").read_text()))


def test_resume_refuses_another_family_or_length_and_a_busy_directory(tmp_path):
    out = tmp_path / "c"
    census(fam(), out, max_plies=15, executor=InProcess())
    other = parse_family("attacker=S, hand=N, length=9", "rutherford")
    for kwargs, words in ((dict(family=other, max_plies=15, resume=True), "another family"),
                          (dict(family=fam(), max_plies=9, resume=True), "15 plies, not 9"),
                          (dict(family=fam(), max_plies=15), "not empty")):
        with pytest.raises(ArgumentError, match=words) as e:
            census(out_dir=out, executor=InProcess(), **kwargs)
        assert "\n" not in str(e.value)
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x").write_text("x")
    with pytest.raises(ArgumentError, match="not a census directory"):
        census(fam(), tmp_path / "junk", max_plies=15, executor=InProcess(), resume=True)


# --- shards cut into parts -------------------------------------------------------------------------


def test_the_parts_of_a_shard_are_its_positions_once_in_order():
    f = fam(("attacker=GT, hand=G, defender-hand=none", "ito"))
    whole = [p.fen() for p in f.positions(16)]
    for parts in (1, 2, 7, len(whole) + 3):
        cut = [[p.fen() for p in shard_part(f, 16, k, parts)] for k in range(parts)]
        assert [x for c in cut for x in c] == whole
        assert max(map(len, cut)) - min(map(len, cut)) <= 1
    for bad in ((3, 3), (-1, 2), (0, 0), (True, 2)):
        with pytest.raises(ArgumentError):
            shard_part(f, 16, *bad)


def test_a_part_keeps_only_its_own_positions(monkeypatch):
    from tsume.census import retro
    from tsume.census.family import Family

    f = fam(("attacker=GT, hand=G, defender-hand=none", "ito"))
    whole = [p.fen() for p in f.positions(16)]
    built: list[str] = []
    real = Family.positions

    def counted(self, shard):
        for p in real(self, shard):
            built.append(p.fen())
            yield p

    monkeypatch.setattr(Family, "positions", counted)
    retro._shard_size.cache_clear()
    first = [p.fen() for p in shard_part(f, 16, 0, 4)]
    assert first == whole[:len(whole) // 4]
    # One count of the shard, then only as far as the part's end: a part's
    # task never holds its whole shard.
    assert len(built) == len(whole) + len(first)
    built.clear()
    assert [p.fen() for p in shard_part(f, 16, 1, 4)] == whole[len(whole) // 4:len(whole) // 2]
    assert len(built) == len(whole) // 2  # the count is remembered


def test_parts_give_the_same_census_in_smaller_graphs(tmp_path, ruth_run):
    out = tmp_path / "parts"
    s = census(fam(), out, max_plies=15, executor=InProcess(), parts=3)
    assert shard_files(out) == [f"shard-{k:02d}-{p:02d}.json" for k in fam().shards() for p in range(3)]
    assert json.loads((out / MANIFEST).read_text())["parts"] == 3
    assert stable(s.table) == stable(ruth_run[1].table)
    assert (out / "sound.tsume").read_text() == (ruth_run[0] / "sound.tsume").read_text()
    # Each part builds its own, smaller graph: the largest task shrinks.
    def largest(d: Path) -> int:
        return max(json.loads(p.read_text())["stats"]["graph_nodes"] for p in d.glob("shard-*.json"))
    assert largest(out) < largest(ruth_run[0])
    assert s.shards_total == 27 and estimate_mb(fam(), 15, parts=3) < estimate_mb(fam(), 15)


def test_a_census_in_parts_resumes_and_refuses_other_parts(tmp_path, ruth_run):
    out = tmp_path / "parts"
    census(fam(), out, max_plies=15, executor=InProcess(), parts=2)
    (out / "shard-05-01.json").unlink()
    again = InProcess()
    s = census(fam(), out, max_plies=15, executor=again, parts=2, resume=True)
    assert again.submitted == [5] and stable(s.table) == stable(ruth_run[1].table)
    for parts in (1, 3):
        with pytest.raises(ArgumentError, match="--parts") as e:
            census(fam(), out, max_plies=15, executor=InProcess(), parts=parts, resume=True)
        assert "\n" not in str(e.value)


def test_the_estimate_of_a_part_covers_its_largest_graph():
    """The memory model holds for parts too: no part's graph outgrows the
    estimate one part is given (Ito attacker=GT, hand=G: 31 shards)."""
    f = parse_family("attacker=GT, hand=G, defender-hand=none", "ito")
    for parts in (1, 4):
        largest = max(solve_shard(f, k, 15, None, p, parts)[1]["graph_nodes"]
                      for k in f.shards() for p in range(parts))
        assert BASE_MB + largest * BYTES_PER_NODE / 1e6 <= estimate_mb(f, 15, parts=parts)


def test_more_parts_let_a_census_fit_its_budget(tmp_path):
    f = fam()
    budget = 2 * estimate_mb(f, 15, parts=3)  # two parts at once fit; two whole shards do not
    with pytest.raises(ArgumentError, match="more parts"):
        census(f, tmp_path / "a", max_plies=15, workers=2, executor=InProcess(), memory_mb=budget)
    s = census(f, tmp_path / "b", max_plies=15, workers=2, executor=InProcess(), memory_mb=budget, parts=3)
    assert s.table["positions"] == 50


# --- Dask, memory -----------------------------------------------------------------------------------


def test_a_dask_local_cluster_gives_the_same_census(tmp_path, ruth_run):
    distributed = pytest.importorskip(
        "distributed", reason="Dask is not installed: pip install -e '.[cluster]' to test the cluster path")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            s = census(fam(), tmp_path / "dask", max_plies=15, executor=client.get_executor())
    assert stable(s.table) == stable(ruth_run[1].table)
    assert (tmp_path / "dask" / "sound.tsume").read_text() == (ruth_run[0] / "sound.tsume").read_text()


def test_a_census_that_would_not_fit_is_refused_up_front(tmp_path):
    with pytest.raises(ArgumentError, match="MB budget") as e:
        census(fam(ITO), tmp_path / "c", max_plies=15, workers=2, memory_mb=1)
    assert "\n" not in str(e.value) and not (tmp_path / "c").exists()


def test_the_estimate_grows_with_the_family_and_the_hand():
    small, big = fam(), parse_family("attacker=SN, hand=S, length=11", "rutherford")
    assert estimate_mb(big, 15) > estimate_mb(small, 15) > 0
    factor, exact = probe_factor(parse_family("hand=2S, length=9, defender-hand=none", "rutherford"), 15)
    assert exact and factor > probe_factor(parse_family("attacker=2S, length=9, defender-hand=none",
                                                        "rutherford"), 15)[0]


# --- the CLI ----------------------------------------------------------------------------------------


def tsume(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tsume", *args], capture_output=True, text=True, timeout=120)


def test_cli_census_prints_the_table_and_resumes(tmp_path, ruth_run):
    out = str(tmp_path / "c")
    args = ("census", "--variant", "rutherford", "--material", RUTH[0], "-o", out, "--workers", "2")
    r = tsume(*args)
    assert r.returncode == 0, r.stderr
    assert "11 sound (7 economical)" in r.stdout and "longest sound problem: 7 plies" in r.stdout
    assert "9/9 shards" in r.stderr and "MB per shard" in r.stderr
    # One rate, one name: positions per second of elapsed time, in the progress
    # and the summary; the table gives each method's worker time, not a rate.
    rates = re.findall(r"([\d,.]+) positions/s", r.stderr)
    assert len(rates) >= 2, r.stderr
    assert "positions per second" not in r.stdout and "/s" not in r.stdout
    assert "worker time by method: retrograde" in r.stdout
    r = tsume(*args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--resume" in r.stderr
    Path(out, "shard-03.json").unlink()
    r = tsume(*args, "--resume", "--json", "-q")
    assert r.returncode == 0 and r.stderr == ""
    assert stable(json.loads(r.stdout)) == stable(ruth_run[1].table)


def test_cli_census_in_parts(tmp_path, ruth_run):
    out = tmp_path / "c"
    args = ("census", "--variant", "rutherford", "--material", RUTH[0], "-o", str(out), "--workers", "1")
    r = tsume(*args, "--parts", "2", "--json")
    assert r.returncode == 0, r.stderr
    assert "in 18 parts (9 shards x 2)" in r.stderr
    assert stable(json.loads(r.stdout)) == stable(ruth_run[1].table)
    assert len(shard_files(out)) == 18 and "shard-09-01.json" in shard_files(out)
    r = tsume(*args, "--parts", "3", "--resume", "-q")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--parts" in r.stderr


@pytest.mark.parametrize("extra, status, words", [
    (("--material", "attacker=Q"), 2, "not a piece letter"),
    (("--material", "attacker=G, hand=G", "--memory", "1"), 2, "MB budget"),
    (("--material", "attacker=G", "--max-length", "0"), 2, "--max-length"),
    (("--material", "attacker=G", "--parts", "0"), 2, "--parts"),
])
def test_cli_bad_input_is_one_line(tmp_path, extra, status, words):
    r = tsume("census", "-o", str(tmp_path / "c"), *extra)
    assert r.returncode == status and words in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_cli_unwritable_output_is_exit_74(tmp_path):
    (tmp_path / "file").write_text("")
    r = tsume("census", "--variant", "rutherford", "--material", RUTH[0], "-o", str(tmp_path / "file" / "c"), "-q")
    assert r.returncode == 74 and "cannot write" in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_a_shard_over_its_node_budget_stops_the_census_and_keeps_the_rest(tmp_path, ruth_run):
    from tsume.census.retro import CensusLimit

    out = tmp_path / "c"
    with pytest.raises(CensusLimit, match=r"shard \d+: the census graph needs more than 300 nodes.*--resume") as e:
        census(fam(), out, max_plies=15, executor=InProcess(), node_limit=300)
    assert "\n" not in str(e.value)
    kept = shard_files(out)
    assert 0 < len(kept) < 9
    s = census(fam(), out, max_plies=15, executor=InProcess(), resume=True)
    assert s.shards_skipped == len(kept) and stable(s.table) == stable(ruth_run[1].table)
