"""The play tree (tsume.play): every verdict checked against the exhaustive
reference solver, which shares no search code with it."""

from __future__ import annotations

import re

import pytest

from tsume.collection import find, load, locate
from tsume.errors import TsumeError
from tsume.limits import Limits
from tsume.play import ESCAPES, FINAL_MATE, RIGHT, frame_keys, frames, play_tree
from tsume.position import Position
from tsume.problem import DefenderHand, Problem
from tsume.reference import reference_solve
from tsume.solve import solve


def _problem(collection: str, pid: str) -> Problem:
    return find(load(locate(collection)), pid).problem()


def _reference_checks(pos: Position, value: int) -> dict[str, int | None]:
    """Every check's shortest mate within ``value`` by the reference solver (None: none)."""
    _line, firsts = reference_solve(pos, value)
    return {str(m): v for m, v in firsts.items()}


# Small enough for the reference solver at every node.
SMALL = [("examples", "ito-01"), ("examples", "ito-05"), ("examples", "ito-09"), ("examples", "rutherford-05"),
         ("flawed", "ruth-detour-1"), ("flawed", "ito-te-amari-1")]


@pytest.mark.parametrize("collection,pid", SMALL)
def test_every_verdict_agrees_with_the_reference_solver(collection, pid):
    pr = _problem(collection, pid)
    tree = play_tree(pr)
    assert tree["status"] == "mate" and tree["complete"]
    variant = tree["variant"]
    for i, node in enumerate(tree["nodes"]):
        pos = Position(node["position"], variant)
        value = node["remaining"]
        ref = _reference_checks(pos, value)
        assert {c["move"] for c in node["checks"]} == set(ref), f"{pid} node {i}: every legal check is judged"
        assert min(v for v in ref.values() if v is not None) == value, f"{pid} node {i}: its value"
        assert set(node["legal"]) == {str(m) for m in pos.legal_moves()}
        for check in node["checks"]:
            where = f"{pid} node {i} {check['move']}"
            if check["verdict"] in (RIGHT, FINAL_MATE):
                assert ref[check["move"]] == value, where
                assert (check["verdict"] == FINAL_MATE) == (value == 1), where
            else:
                assert check["verdict"] == ESCAPES, where
                assert ref[check["move"]] is None, where
                # The defence shown escapes: no mate within the plies left after it.
                after = pos.copy()
                after.push_str(check["move"])
                after.push_str(check["reply"])
                if value > 1:
                    line, _ = reference_solve(after, value - 2)
                    assert line is None, where
            if check["verdict"] == RIGHT:
                nxt = tree["nodes"][check["next"]]
                after = pos.copy()
                after.push_str(check["move"])
                after.push_str(check["reply"])
                assert nxt["position"] == after.fen() and nxt["last"] == check["reply"], where
                # The answer is a longest defence: the mate after it takes all the plies left.
                line, _ = reference_solve(after, value - 2)
                assert line is not None and line.length == value - 2, where


@pytest.mark.parametrize("collection,pid", SMALL + [("examples", "rutherford-15")])
def test_following_the_hints_plays_the_solvers_main_line_to_mate(collection, pid):
    pr = _problem(collection, pid)
    pos = pr.position()
    main = solve(pr).mainline
    tree = play_tree(pr)
    node, played = tree["nodes"][0], []
    while True:
        check = next(c for c in node["checks"] if c["move"] == node["hint"])
        played.append(check["move"])
        if check["verdict"] == FINAL_MATE:
            break
        played.append(check["reply"])
        node = tree["nodes"][check["next"]]
    assert played == main
    for move in played:
        pos.push_str(move)
    assert pos.is_check()


def test_a_second_solution_is_answered_from_the_tree():
    # ruth-detour-1: two first moves mate as fast; each is answered, each leads on to mate.
    tree = play_tree(_problem("flawed", "ruth-detour-1"))
    right = [c for c in tree["nodes"][0]["checks"] if c["verdict"] == RIGHT]
    assert len(right) == 2
    assert all(isinstance(c["next"], int) and c["reply"] for c in right)
    assert right[0]["next"] != right[1]["next"]


def test_an_escape_says_whether_any_mate_follows():
    tree = play_tree(_problem("examples", "ito-05"))
    escapes = [c for n in tree["nodes"] for c in n["checks"] if c["verdict"] == ESCAPES]
    assert escapes and all("mate_after" in c and "within" in c for c in escapes)
    for c in escapes:
        node = next(n for n in tree["nodes"] if c in n["checks"])
        after = Position(node["position"], tree["variant"])
        after.push_str(c["move"])
        after.push_str(c["reply"])
        got = solve(Problem(after, defender=DefenderHand.held(after)))
        assert c["mate_after"] == (got.length if got.status == "mate" else False)


def test_no_mate_and_limits():
    assert play_tree(_problem("flawed", "ito-no-mate-1"))["status"] == "nomate"
    tree = play_tree(_problem("examples", "rutherford-15"), limits=Limits(nodes=50))
    assert not tree["complete"]
    with pytest.raises(TsumeError):
        play_tree(42)
    with pytest.raises(TsumeError):
        play_tree(Problem("k1P2H25 b G"), max_nodes=0)


def test_frames_draw_every_position_of_the_tree():
    tree = play_tree(_problem("examples", "ito-05"))
    drawn = frames(tree)
    keys = frame_keys(tree)
    assert set(drawn) == {k for k, _, _ in keys}
    for key, start, moves in keys:
        pos = Position(start, tree["variant"])
        for m in moves:
            pos.push_str(m)
        assert re.search(r'data-position="([^"]+)"', drawn[key]).group(1) == pos.fen(), key
        # The last move is tinted: the check, the escape, or the defence that led to the node.
        assert ("lastmove" in drawn[key]) == (key != "n0"), key
