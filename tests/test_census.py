"""The census's families and its retrograde analysis, against independent counts and df-pn."""

from __future__ import annotations

import threading
import time
from itertools import permutations

import pytest

from tests.rule_helpers import board
from tsume.census.family import parse_family
from tsume._engine import SearchLimit, census_analyse, census_cancel
from tsume.census.retro import CensusLimit, analyse, solve_shard
from tsume.errors import ArgumentError, PositionError, TsumeError
from tsume.position import Position
from tsume.problem import DefenderHand, Problem
from tsume.solve import solve


def _independent(variant: str, length: int, attacker: list[str], defender: list[str], hand: str) -> set[str]:
    """Every legal position by a plain loop: every ordered choice of squares for
    every man, the king included; duplicates fall together in the set."""
    men = ["k"] + [t.lower() for t in defender] + attacker
    out = set()
    for squares in permutations(range(1, length + 1), len(men)):
        try:
            pos = Position(f"{board(dict(zip(squares, men)), length)} b {hand or '-'} 1", variant)
        except PositionError:
            continue
        out.add(pos.fen(False).split(" ")[0])
    return out


@pytest.mark.parametrize("variant, spec, length, attacker, defender, hand", [
    ("rutherford", "attacker=S, hand=N, length=9, defender-hand=none", 9, ["S"], [], "N"),
    ("rutherford", "attacker=SN, defender=P, length=9, defender-hand=none", 9, ["S", "N"], ["P"], ""),
    ("rutherford", "attacker=2S, length=10, defender-hand=none", 10, ["S", "S"], [], ""),
    ("ito", "attacker=G, hand=G, defender-hand=none", 31, ["G"], [], "G"),
])
def test_enumeration_matches_an_independent_count(variant, spec, length, attacker, defender, hand):
    family = parse_family(spec, variant)
    listed = [p.fen(False).split(" ")[0] for s in family.shards() for p in family.positions(s)]
    assert len(listed) == len(set(listed)), "a position enumerated twice"
    assert set(listed) == _independent(variant, length, attacker, defender, hand)
    assert family.count() == len(listed)


def test_promoted_yes_adds_the_other_faces():
    plain = parse_family("attacker=S, length=9, defender-hand=none", "rutherford")
    both = parse_family("attacker=S, length=9, defender-hand=none, promoted=yes", "rutherford")
    only = parse_family("attacker=+S, length=9, defender-hand=none", "rutherford")
    assert both.count() == plain.count() + only.count()


def test_the_spec_reads_back_as_the_same_family():
    family = parse_family("hand=SN, attacker=L, length=11", "rutherford")
    assert parse_family(family.spec().split(": ", 1)[1], "rutherford") == family


@pytest.mark.parametrize("spec", ["attacker=3G", "hand=2", "spread=3", "length=12", "attacker=Q"])
def test_bad_families_are_one_line_errors(spec):
    with pytest.raises(TsumeError) as err:
        parse_family(spec, "ito")
    assert "\n" not in str(err.value)


def _dfpn(pos: Position, plies: int):
    r = solve(Problem(pos, defender=DefenderHand.held(pos)), max_length=plies, all_first_moves=True,
              variations=False)
    if r.status != "mate":
        return ("nomate", None, [])
    return ("mate", r.length, sorted(fm["move"] for fm in r.first_moves if fm["status"] == "mate"
                                     and fm["length"] == r.length))


@pytest.mark.slow
@pytest.mark.parametrize("variant, spec, plies", [
    ("rutherford", "attacker=SN, hand=P, length=9, defender-hand=none", 15),
    ("rutherford", "attacker=L, defender=P, hand=S, length=9, defender-hand=none", 15),  # marked positions
    ("rutherford", "attacker=B, hand=S, length=9", 15),
    ("ito", "attacker=C, hand=G, defender-hand=none", 11),
    ("ito", "attacker=G, hand=T, defender-hand=none", 11),
])
def test_retrograde_and_dfpn_agree_on_every_position(variant, spec, plies):
    family = parse_family(spec, variant)
    positions = [p for s in family.shards() for p in family.positions(s)]
    solved, stats = analyse(positions, plies)
    assert stats["positions"] == len(positions)
    for pos, r in zip(positions, solved):
        assert r.position == pos.fen()
        assert (r.status, r.length, r.first_moves) == _dfpn(pos, plies), (pos.fen(), r.method)
    if "defender=P" in spec:
        assert stats["dfpn"] > 0  # the marked ones went to df-pn


def test_solve_shard_covers_one_king_square():
    family = parse_family("attacker=S, hand=N, length=9, defender-hand=none", "rutherford")
    solved, stats = solve_shard(family, 1, 9)
    assert stats["positions"] == len(list(family.positions(1))) == len(solved)
    assert all(Position(r.position, "rutherford").king_square(1) == 1 for r in solved)


def test_the_engine_call_holds_its_limits_and_arguments():
    family = parse_family("attacker=S, hand=N, length=9, defender-hand=none", "rutherford")
    positions = list(family.positions(1))
    with pytest.raises(SearchLimit, match="more than 100 nodes"):
        census_analyse(positions, 15, 100)
    with pytest.raises(CensusLimit, match="more than 100 nodes"):
        analyse(positions, 15, node_limit=100)
    for plies in (-1, True, 1.5):
        with pytest.raises(ArgumentError, match="max_plies"):
            census_analyse(positions, plies)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="Positions"):
        census_analyse(["k8 b S 1"], 15)  # type: ignore[list-item]
    ito = Position("26G2k1 b G 1", "ito")
    with pytest.raises(ArgumentError, match="one variant"):
        census_analyse([positions[0], ito], 15)
    assert census_analyse([], 15)[0] == []


def test_census_cancel_stops_a_call_on_another_thread():
    """A census on a worker thread (tsume census --threads) cannot see Ctrl-C:
    census_cancel() stops it.  One position of Ito attacker=C, hand=G under the
    rest rule builds millions of nodes (the defender's drops between)."""
    pos = next(iter(parse_family("attacker=C, hand=G", "ito").positions(16)))
    caught: list[BaseException] = []

    def work() -> None:
        try:
            census_analyse([pos], 21)
        except BaseException as exc:  # noqa: BLE001 -- handed to the test thread
            caught.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()
    started = time.perf_counter()
    census_cancel()
    worker.join(5)
    assert not worker.is_alive() and time.perf_counter() - started < 0.5
    assert len(caught) == 1 and isinstance(caught[0], TsumeError) and "interrupted" in str(caught[0])
    # A call made afterwards is not stopped.
    assert census_analyse([Position("26G2k1 b G 1", "ito")], 3)[0][0][1] == 3
