"""Proofs and the current line (graph-history interaction).

A repetition of a position on the current line fails for the attacker, so a
mate proven while some position was off the line can be wrong where it is on
it.  These positions (random Ito mates with a Heavenly Horse or Cavalryman,
found by fuzzing) once made ``verify()`` raise "internal error: a counted
defence escapes the proven bound" or "no mating move at the proven length",
or report a yozume that the defender escapes by repeating a position: the
search table reused a proof found off the line.  For each, every attacker
alternative that ``verify()`` values on the main line (with the earlier
positions of the line on the repetition path) must agree with the exhaustive
reference solver, and ``solve()``'s answer must equal the reference's.
"""

from __future__ import annotations

import pytest

from tsume.problem import Problem
from tsume.reference import reference_solve
from tsume.solve import solve
from tsume.verify import verify

from budgeted_reference import BudgetedReferenceSolver

# (position, defender hand) -- all Ito.
REPRODUCERS = [
    ("1hk+H3tg22 b G", "none"),
    ("1k4+HtG22 b PG", "none"),
    ("kg4p2HH20 b TG", "none"),
    ("2t1kH4+T20 b P", "none"),
    ("2k3+H2T21 b PG", "none"),
    ("t3k4+H1T19 b PH", "none"),
    ("3tk2G1+H1+T19 b H", "none"),
    ("1k2h2H3+T19 b P", "none"),
    ("1k2h2H3+T19 b Ppt2g", None),
    ("2+t1kH3ph20 b Tp2g", None),
    ("2k+H5T2P18 b HGptg", None),
    ("k4+Hp1T1P20 b HGtg", None),
    ("2k4+H+P3T18 b THp2g", None),
]

# Alternatives are compared up to this many plies: beyond it the reference
# must find no mate where verify() found a longer one or none.
CAP = 17


def _reference_alternative(pos, prefix: list[int], move: int) -> int | None:
    """The reference's shortest mate after the main line's ``prefix`` and ``move``,
    every earlier position of the line on its repetition path."""
    solver = BudgetedReferenceSolver(pos)
    solver.budget = 3_000_000
    p = solver.pos
    for m in prefix + [move]:
        solver.path.add(p.key())
        p.push(m)
    return next((1 + v for v in range(0, CAP, 2) if solver.defended(v)[0]), None)


@pytest.mark.parametrize("text,defender", REPRODUCERS, ids=[t for t, _ in REPRODUCERS])
def test_verify_values_every_alternative_on_the_line_as_the_reference_does(text, defender):
    problem = Problem(text, variant="ito", defender=defender)
    report = verify(problem)
    assert report.verdict != "unknown"
    pos = problem.position()
    line = []
    q = pos.copy()
    for move in report.mainline:
        line.append(q.parse_move(move))
        q.push(line[-1])
    assert report.alternatives, "every reproducer has attacker alternatives"
    for alt in report.alternatives:
        q = pos.copy()
        for m in line[: alt.ply - 1]:
            q.push(m)
        ref = _reference_alternative(pos, line[: alt.ply - 1], q.parse_move(alt.move))
        mine = alt.length if alt.status == "mate" and alt.length <= CAP else None
        assert alt.status in ("mate", "nomate")
        assert mine == ref, (alt.ply, alt.move, alt.status, alt.length, ref)


@pytest.mark.parametrize("text,defender", REPRODUCERS, ids=[t for t, _ in REPRODUCERS])
def test_solve_gives_the_reference_main_line(text, defender):
    problem = Problem(text, variant="ito", defender=defender)
    result = solve(problem, all_first_moves=True)
    pos = problem.position()
    line, firsts = reference_solve(pos, result.length)
    assert line is not None and line.length == result.length
    q = pos.copy()
    moves = []
    for m in line.moves:
        moves.append(str(m))
        q.push(m)
    assert result.mainline == moves
    # Every first move mating within the problem's length, with its length.
    mine = {f["move"]: f["length"] for f in result.first_moves if f["status"] == "mate" and f["length"] <= result.length}
    assert mine == {str(m): n for m, n in firsts.items() if n is not None}


def test_the_defender_returns_to_the_line_and_the_alternative_fails():
    """``1hk+H3tg22 b G``: after ``+H4-1 k3-5`` the Cavalryman's ``1-3`` mates in
    7 only if the defender may not go back to a position already on the line;
    under the repetition rule it mates within no bound up to 11."""
    report = verify(Problem("1hk+H3tg22 b G", variant="ito", defender="none"))
    assert report.mainline[:2] == ["4-1", "3-5"]
    alt = next(a for a in report.alternatives if a.ply == 3 and a.move == "1-3")
    assert alt.status == "nomate"


def test_no_yozume_that_a_repetition_refutes():
    """``2k4+H+P3T18 b THp2g``: ``+H2-4`` at the 7th ply once showed as yozume
    in 13 plies, but after ``2-4 6-5 4-2`` the defender's ``5-6`` repeats a
    position of the line."""
    report = verify(Problem("2k4+H+P3T18 b THp2g", variant="ito"))
    assert not [f for f in report.findings if f.kind == "yozume" and f.move == "2-4" and f.ply == 7]
