"""The stretch (tsume.compose.stretch and the ``stretch`` method of the run):
men slid along the file so that a line plays longer."""

from __future__ import annotations

from tsume.collection import Record
from tsume.compose import Candidate
from tsume.compose.run import run_shard, settings_from
from tsume.compose.stretch import runs, stretches
from tsume.position import BLACK, Position
from tsume.problem import Problem
from tsume.variant import get_variant
from tsume.verify import verify

#: Ito, 13 plies: a Phoenix drives the king to square 1, one square a turn,
#: guarded from afar by a Cannon that hops over the defender's own.
WALK = "6k1+G2cC16FK b - 1"


def cand(fen: str, variant: str = "ito", defender: str | None = None) -> Candidate:
    return Candidate.from_position(Problem(fen, variant=variant, defender=defender).position(), defender)


def _men(c: Candidate) -> list[str]:
    return [p.symbol() for p in c.pos.board() if p is not None]


def test_a_board_is_its_men_and_the_runs_between_them():
    men, gaps = runs(cand(WALK).pos.board())
    assert [m.symbol() for m in men] == ["k", "+G", "c", "C", "F", "K"]
    assert gaps == [6, 1, 2, 0, 16, 0, 0]


def test_a_stretch_slides_men_and_keeps_the_rest():
    c = cand("6k1+G2cC16FK b G 1", defender="none")
    kids = stretches(c)
    fens = [k.fen() for k in kids]
    assert len(fens) == len(set(fens)) and c.fen() not in fens
    # One square out of the first run into the second; the whole first run
    # into the last (every man slides to the board's start).
    assert "5k2+G2cC16FK b G 1" in fens
    assert "k1+G2cC16FK6 b G 1" in fens
    # The group from the king to the cannons, as far as it goes.
    assert "22k1+G2cCFK b G 1" in fens
    for k in kids:
        assert k.n == 31 and _men(k) == _men(c)
        assert k.hand == {"G": 1} and k.defender == "none"


def test_one_stretch_turns_a_13_ply_walk_into_a_45_ply_one():
    assert verify(cand(WALK).problem()).length == 13
    child = next(k for k in stretches(cand(WALK)) if k.fen() == "22k1+G2cCFK b - 1")
    report = verify(child.problem())
    assert report.verdict == "sound" and report.length == 45


def test_on_a_board_of_free_length_a_run_grows_or_shrinks_alone():
    v = get_variant("rutherford")
    c = cand("k1+n3K4 b - 1", variant="rutherford")
    lengths = {k.n for k in stretches(c)}
    assert {c.n - 1, c.n + 1, v.max_length} <= lengths
    assert min(lengths) >= v.min_length and max(lengths) <= v.max_length
    assert all(_men(k) == _men(c) for k in stretches(c))


def test_a_stretch_run_walks_a_parent_uphill():
    seed = Record(id="walk", position=WALK, variant="ito", length=13)
    s = settings_from("ito", methods="stretch", seed=1, length="15-99", parents=[seed], shard_size=4)
    r = run_shard(s, 0)
    assert r.method == "stretch" and r.accepted
    longest = max(r.accepted, key=lambda a: a["length"])
    assert longest["length"] >= 45
    for a in r.accepted:
        rep = verify(Problem(a["position"], variant="ito", defender=a["defender"]))
        assert rep.verdict == "sound" and rep.length == a["length"], a


def test_a_stretch_shard_repeats_with_its_seed():
    seed = Record(id="walk", position=WALK, variant="ito", length=13)
    s = settings_from("ito", methods="stretch", seed=5, length="15-99", parents=[seed], shard_size=2)
    first = run_shard(s, 0)
    assert first.candidates > 0 and first.accepted == run_shard(s, 0).accepted


#: A parent that never mates: no check at all.
DEAD = Record(id="dead", position="k29K b - 1", variant="ito")


def test_a_stretch_shard_ends_when_no_parent_mates():
    s = settings_from("ito", methods="stretch", seed=1, parents=[DEAD], shard_size=2)
    assert run_shard(s, 0).candidates >= 20


def test_a_stretch_shard_starts_afresh_from_few_men():
    # Its only parent never mates, so whatever it finds comes from its fresh
    # starts (one start in four draws one): with no material given, from the
    # sparse profile (one to three of the attacker's men), and a stretch
    # adds no man.
    s = settings_from("ito", methods="stretch", seed=3, parents=[DEAD], shard_size=4)
    r = run_shard(s, 0)
    assert r.parents, "no fresh start mated"
    for _w, _length, fen, _rule, _nodes in r.parents:
        board = Position(fen, "ito").board()
        attackers = [p for p in board if p is not None and p.colour == BLACK and not p.royal]
        assert 1 <= len(attackers) <= 3, fen
