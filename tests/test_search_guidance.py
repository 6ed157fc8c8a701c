"""What steers df-pn without changing what it proves: an attacker node's
disproof number counting the drops of one piece on one side of the king once
(``Options.drop_groups``, docs/solver.md "Other enhancements")."""

from __future__ import annotations

from tsume.collection import load, locate
from tsume.problem import Problem
from tsume.limits import Limits
from tsume.search import Options, Search
from tsume.solve import solve


def _no_mate_after(options: Options) -> tuple[bool, int]:
    # From ito-L09-0012 with one Pawn fewer in the attacker's hand: after G*6
    # the defender escapes at every length.  Summed, the disproof numbers of
    # the attacker's many Cannon drops made the king's escapes look hard to
    # refute, and the search wandered into the other defences.
    pos = Problem("1kTfc1G4T1F5K11 b PCHG 2", variant="ito", defender="none").position()
    search = Search(pos, options=options, limits=Limits(nodes=400_000))
    search.walk(pos.parse_move("G*6"))
    answer = True
    for b in (1, 3, 5, 7, 9, None):
        answer = search.mate(b)
    return answer, search.nodes


def test_drop_groups_keep_the_answer_in_fewer_nodes():
    assert Options().drop_groups
    summed, summed_nodes = _no_mate_after(Options(drop_groups=False))
    grouped, grouped_nodes = _no_mate_after(Options())
    assert summed is grouped is False
    # 112,668 nodes summed, 68,798 grouped when this test was written.
    assert grouped_nodes < 0.8 * summed_nodes


def test_drop_groups_change_no_solution():
    problems = [p for p in load(locate("bench-ito")) if p.length is not None and 7 <= p.length <= 13][::4]
    assert len(problems) >= 10
    for p in problems:
        on = solve(p.problem())
        off = solve(p.problem(), options=Options(drop_groups=False))
        assert (on.status, on.length, on.mainline) == (off.status, off.length, off.mainline), p.id
        assert on.length == p.length, p.id
