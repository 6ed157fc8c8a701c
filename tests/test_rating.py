"""The composer's rating stage (tsume/compose/rating.py).

Every expected value below is derived by hand from the problem and its proven
main line (the comments say how), never read back from the code under test.
The problems are small (each verifies in a few hundredths of a second); they
come from problems/examples.tsume and problems/seed-*.tsume, or are built here
(the Rutherford silver problem on three board lengths).
"""

from __future__ import annotations

import dataclasses
import math
import re
from functools import cache

import networkx as nx
import pytest

from tsume.compose.rating import WEIGHTS, Rating, rate, shape_hash, solution_tree, stars_for
from tsume.errors import ArgumentError
from tsume.problem import Problem
from tsume.verify import Report, verify

# name: (position, variant, defender hand)
PROBLEMS = {
    # examples.tsume [ito-01]: G*5 mates at once.
    "ito-01": ("k1P2H25 b G 1", "ito", None),
    # examples.tsume [ito-09]: a quiet key, two king sacrifices, useless interpositions.
    "ito-09": ("1k2PT+Fh5+f17 b CP 1", "ito", None),
    # examples.tsume [rutherford-05] (= the earlier seed collection's ruth-s05-001), and the same problem
    # on a board 8 squares shorter and one 7 squares longer.
    "ruth-05": ("18k2S b P 1", "rutherford", None),
    "ruth-05-left": ("10k2S b P 1", "rutherford", None),
    "ruth-05-right": ("25k2S b P 1", "rutherford", None),
    # the earlier seed collection's ruth-s03-001: +N*1 3-5 1-3.
    "ruth-s03": ("2kl2s5 b N 1", "rutherford", None),
    # the earlier seed collection's ruth-s09-001: a knight drives the king from 5 to 13.
    "ruth-s09": ("+N3k9b38 b - 1", "rutherford", None),
    # the earlier seed collection's ito-s03-008: F4-5 P*3 H*4, with four effective interpositions.
    "ito-s03-008": ("kg1F2P1fc21 b H 1", "ito", None),
    # the earlier seed collection's ito-s07-001 and -002: the same solution, the h taken from 23 or from 21.
    "ito-s07-001": ("22h4T1k1 b F 1", "ito", "none"),
    "ito-s07-002": ("20h6T1k1 b F 1", "ito", "none"),
    # the earlier seed collection's ito-s09-001: a defender capture that flips.
    "ito-s09-001": ("kf4+H9K14 b PTG 1", "ito", None),
}


@cache
def report(name: str) -> Report:
    position, variant, defender = PROBLEMS[name]
    r = verify(Problem(position, variant=variant, defender=defender))
    assert r.verdict == "sound", (name, [f.message for f in r.findings])
    return r


@cache
def rating(name: str) -> Rating:
    return rate(report(name))


def check(name: str, **expected: int) -> None:
    got = {k: rating(name).features[k] for k in expected}
    assert got == expected, name


def expected_score(f: dict) -> float:
    """The module docstring's formula, written out again."""
    return round(
        4.0 * math.log2(1 + f["length"]) + 1.5 * math.log2(f["checks"]) + 3.0 * f["quiet_key"]
        + 3.0 * f["sacrifices"] + 1.0 * f["flips"] + 0.5 * f["drops"] + 1.0 * math.log2(1 + f["king_span"])
        + 1.0 * f["variations"] + 2.0 * f["interpositions"] + 1.0 * f["variety"],
        3,
    )


# --- features on known problems ------------------------------------------------------


def test_rutherford_silver_sacrifice_promoted_drop_quiet_key_and_king_walk():
    # 18k2S b P: S22-21 k19x21 +P*20 k21-22 +P20-21.
    assert report("ruth-05").readable == ["S22-21", "k19x21", "+P*20", "k21-22", "+P20-21"]
    check(
        "ruth-05",
        length=5,
        checks=2,          # S22-21 and S22-20; P*20, +P*20, +P*18 would mate: a drop may not
        sacrifices=1,      # k19x21 takes the silver
        drops=1,           # +P*20
        flips=0,           # the only capture is the king's, and a king never turns over
        quiet_key=1,       # S22-21 lands on an empty square
        king_span=3,       # 19 -> 21 -> 22
        variations=0,
        interpositions=0,
        variety=3,         # move S, drop +P, move +P
        breadth=1,
        forced=5,          # a single line: every ply is forced
    )
    # 4 log2 6 + 1.5 log2 2 + 3 (quiet) + 3 (sacrifice) + 0.5 (drop) + log2 4 + 3 (variety)
    assert rating("ruth-05").score == round(4 * math.log2(6) + 1.5 + 3 + 3 + 0.5 + 2 + 3, 3) == 23.34


def test_effective_interpositions_are_counted():
    # kg1F2P1fc21 b H, defender holds the rest (p2tchg).  F4-5 is the only
    # check: the swallow, stepped back to 5, rides 3 and 1.  Every defence is a
    # drop on 3, between the swallow and the king; H*4 then mates (the piece on
    # 3 may not take on 4 without exposing the king to the swallow again).
    # P*3 is the main line's; T*3, C*3, H*3 and G*3 last as long and count.
    r = report("ito-s03-008")
    assert r.mainline == ["4-5", "P*3", "H*4"]
    assert sorted(v.move for v in r.variations if not v.useless) == ["C*3", "G*3", "H*3", "T*3"]
    check(
        "ito-s03-008",
        length=3, checks=1, quiet_key=1, sacrifices=0, drops=1, flips=0,
        king_span=0,        # the king never moves
        variations=4, interpositions=4,
        variety=2,          # move F, drop H
        breadth=5,          # after ply 2: P*3 and the four other drops
        forced=1,           # only F4-5 is on every mating line
    )
    assert rating("ito-s03-008").score == expected_score(rating("ito-s03-008").features) == 25.5


def test_attacker_flip_and_a_defender_without_hand():
    # 22h4T1k1 b F, the defender holds nothing: F*29 k30-31 F29x23=+F
    # k31-30 T28-29 k30-31 H*28.  The swallow takes the horse and turns into a
    # bishop; the horse comes back as a drop.
    r = report("ito-s07-001")
    assert r.readable[2] == "F29x23=+F"
    check(
        "ito-s07-001",
        length=7, checks=2,  # T28-29 and F*29
        sacrifices=0, drops=2, flips=1, quiet_key=0,
        king_span=1,         # 30 <-> 31
        variations=0, interpositions=0,
        variety=4,           # drop F, flip F, move T, drop H
        breadth=1, forced=7,
    )
    # The tree is built on the report's position as it stands (its defender
    # hand is empty), not on "the rest of the set".
    tree = solution_tree(r)
    assert tree.nodes[0]["position"] == r.position == "22h4T1k1 b F 1"
    assert tree.edges[2, 3]["kind"] == "flip" and tree.edges[2, 3]["side"] == "attacker"


def test_a_defender_flip_and_two_sacrifices():
    # kf4+H9K14 b PTG: G*5 k1-3 P*4 f2x4=+f G5-1 k3-2 +H7-5 k2x1 T*3.
    check(
        "ito-s09-001",
        length=9,
        checks=3,        # +H7-4, T*3, G*5
        sacrifices=2,    # f2x4 takes the pawn, k2x1 the goose
        drops=3,         # G*5, P*4, T*3
        flips=1,         # f2x4=+f (the king's capture flips nothing)
        quiet_key=0,
        king_span=2,     # 1 -> 3 -> 2 -> 1
        variety=5,       # drop G, drop P, move G, move +H, drop T
        variations=0, interpositions=0, breadth=1, forced=9,
    )


def test_quiet_key_sacrifices_and_useless_interpositions_in_the_tree():
    # 1k2PT+Fh5+f17 b CP: T6-4 k2-3 T4-2 k3x2 P*3 k2-1 C*4 k1x3 C4-6.
    r = report("ito-09")
    check(
        "ito-09",
        length=9,
        checks=2,        # T6-4 and P*3
        quiet_key=1,     # T6-4: a leap to an empty square
        sacrifices=2,    # k3x2 (the tile general), k1x3 (the pawn)
        drops=2, flips=0,
        king_span=2,     # 2 3 2 1 3
        variety=4,       # move T (twice), drop P, drop C, move C
        variations=2,    # 2-1 at ply 2 and 2-3 at ply 6: king moves, no interpositions
        interpositions=0,
        breadth=2,
        forced=1,        # the variation 2-1 leaves after the first ply
    )
    tree = solution_tree(r)
    useless = [v for v in r.variations if v.useless]
    counted = [v for v in r.variations if not v.useless]
    assert len(useless) == 9 and len(counted) == 2
    # 10 main-line positions, one per move of each counted line, one leaf per useless one.
    assert tree.number_of_nodes() == 10 + sum(len(v.line) for v in counted) + 9
    assert nx.is_arborescence(tree)
    leaves = [n for n in tree if tree.nodes[n]["useless"]]
    assert len(leaves) == 9 and all(tree.out_degree(n) == 0 for n in leaves)
    assert all(tree.edges[next(iter(tree.predecessors(n))), n]["useless"] for n in leaves)
    # The five interpositions at the mate hang from the final position.
    final = tree.graph["mainline"][-1]
    assert sorted(tree.edges[final, n]["move"] for n in tree.successors(final)) == ["C*4", "G*4", "H*4", "P*4", "T*4"]
    assert [n for n in tree if tree.nodes[n]["mate"]] == [9, 13, 15]
    # The main line is marked, and its moves are the report's.
    main = tree.graph["mainline"]
    assert main == list(range(10)) and all(tree.nodes[n]["mainline"] for n in main)
    assert [tree.edges[u, v]["move"] for u, v in zip(main, main[1:])] == r.mainline
    assert [tree.edges[u, v]["side"] for u, v in zip(main, main[1:])] == ["attacker", "defender"] * 4 + ["attacker"]
    assert sum(1 for *_, m in tree.edges(data="mainline") if m) == 9


def test_a_king_walk():
    # +N3k9b38 b: the knight drives the king 5-7-9-11-13.
    check("ruth-s09", length=9, checks=1, quiet_key=1, king_span=8, drops=0, sacrifices=0,
          flips=0, variety=1, forced=9, breadth=1)


def test_forced_is_the_depth_of_the_common_stem_of_the_mating_lines():
    for name in ("ito-09", "ito-s03-008", "ruth-05", "ito-01"):
        tree = solution_tree(report(name))
        paths = [nx.shortest_path(tree, 0, n) for n in tree if tree.nodes[n]["mate"]]
        stem = 0
        while all(len(p) > stem + 1 and p[stem + 1] == paths[0][stem + 1] for p in paths):
            stem += 1
        assert rating(name).features["forced"] == stem, name


def test_the_tree_of_a_one_ply_mate_has_one_edge():
    r = report("ito-01")
    tree = solution_tree(r)
    assert tree.number_of_edges() == 1 and tree.number_of_nodes() == 2
    (edge,) = tree.edges(data=True)
    assert edge[:2] == (0, 1)
    assert edge[2]["move"] == "G*5" and edge[2]["kind"] == "drop" and edge[2]["side"] == "attacker"
    assert tree.nodes[1]["mate"] and tree.nodes[1]["mainline"]
    check("ito-01", length=1, checks=2, drops=1, quiet_key=0, breadth=1, forced=1, variations=0)


# --- the shape hash --------------------------------------------------------------------


def test_the_same_shape_on_other_squares_hashes_alike():
    a, b, c = (shape_hash(report(n)) for n in ("ruth-05", "ruth-05-left", "ruth-05-right"))
    assert a == b == c
    assert re.fullmatch(r"[0-9a-f]{32}", a)
    assert report("ruth-05").mainline != report("ruth-05-left").mainline  # other squares indeed
    assert shape_hash(report("ito-s07-001")) == shape_hash(report("ito-s07-002"))
    assert rating("ruth-05").features["shape"] == a


def test_a_different_problem_hashes_differently():
    hashes = {n: shape_hash(report(n)) for n in ("ruth-05", "ruth-s03", "ruth-s09", "ito-01", "ito-09",
                                                 "ito-s03-008", "ito-s07-001", "ito-s09-001")}
    assert len(set(hashes.values())) == len(hashes), hashes


def test_the_shape_is_networkx_weisfeiler_lehman_hash():
    """shape_hash computes networkx's undirected WL hash itself: the same
    digest on every problem here, and on the long bundled problems (deep
    trees, many iterations), as the docstring promises."""
    from tsume.collection import load, locate

    reports = [report(n) for n in PROBLEMS]
    reports += [verify(p.problem()) for name in ("long-ito", "long-rutherford") for p in list(load(locate(name)))[::25]]
    for r in reports:
        tree = solution_tree(r)
        core = tree.subgraph(n for n, useless in tree.nodes(data="useless") if not useless)
        height = max(d for _, d in core.nodes(data="depth"))
        want = nx.weisfeiler_lehman_graph_hash(core.to_undirected(as_view=True), edge_attr="label",
                                               node_attr="label", iterations=max(1, height))
        assert shape_hash(r) == want


def test_shape_labels_name_no_square():
    for name in PROBLEMS:
        tree = solution_tree(report(name))
        for *_, label in tree.edges(data="label"):
            assert re.fullmatch(r"[AD] (drop|move|capture|flip) \+?[A-Z]", label), label
        for _, label in tree.nodes(data="label"):
            assert re.fullmatch(r"\d+ [MV]#?", label), label


def test_useless_interpositions_do_not_change_the_shape():
    r = report("ito-09")
    bare = dataclasses.replace(r, variations=[v for v in r.variations if not v.useless])
    assert shape_hash(bare) == shape_hash(r)
    assert rate(bare).features == rate(r).features


# --- stars and score -------------------------------------------------------------------


@pytest.mark.parametrize("nodes, stars", [(0, 1), (1, 1), (99, 1), (100, 2), (999, 2), (1000, 3), (9999, 3),
                                          (10_000, 4), (99_999, 4), (100_000, 5), (10**12, 5)])
def test_stars_on_a_log_scale(nodes, stars):
    assert stars_for(nodes) == stars


def test_nodes_come_from_the_report_or_the_caller():
    r = report("ruth-05")
    assert rating("ruth-05").features["nodes"] == r.stats["nodes"]
    assert rating("ruth-05").stars == stars_for(r.stats["nodes"])
    given = rate(r, solve_nodes=12_345)
    assert given.features["nodes"] == 12_345 and given.stars == 4
    assert given.score == rating("ruth-05").score  # the effort is not scored


def test_the_score_follows_the_documented_formula_and_is_deterministic():
    assert set(WEIGHTS) == {"length", "checks", "quiet_key", "sacrifices", "flips", "drops", "king_span",
                            "variations", "interpositions", "variety"}
    for name in PROBLEMS:
        got = rating(name)
        assert got.score == expected_score(got.features), name
        again = rate(report(name))
        assert again == got
    # Richer problems rank higher than a plain drop mate.
    assert rating("ito-01").score < rating("ruth-05").score < rating("ito-09").score


# --- bad input -------------------------------------------------------------------------


def one_line_argument_error(call) -> str:
    with pytest.raises(ArgumentError) as info:
        call()
    message = str(info.value)
    assert message and "\n" not in message
    return message


@pytest.mark.parametrize("function", [rate, solution_tree, shape_hash])
def test_not_a_report(function):
    for bad in (None, "k1P2H25 b G 1", {"mainline": ["G*5"]}, report("ito-01").to_dict()):
        assert "Report" in one_line_argument_error(lambda: function(bad))


@pytest.mark.parametrize("function", [rate, solution_tree, shape_hash])
def test_a_report_without_a_main_line(function):
    no_mate = verify(Problem("k29K b - 1"))  # the attacker has no check at all
    assert no_mate.verdict == "unsound" and not no_mate.mainline
    assert "main line" in one_line_argument_error(lambda: function(no_mate))
    empty = Report(id=None, variant="ito", position="k1P2H25 b Gp2t2chg2f 1", verdict="sound")
    assert "main line" in one_line_argument_error(lambda: function(empty))


def test_a_main_line_that_does_not_replay():
    r = report("ito-01")
    assert "ply 1" in one_line_argument_error(lambda: rate(dataclasses.replace(r, mainline=["G*6"], length=1)))
    one_line_argument_error(lambda: rate(dataclasses.replace(r, mainline=["G*5", "1-2"], length=1)))
    one_line_argument_error(lambda: rate(dataclasses.replace(r, position="not a position")))


@pytest.mark.parametrize("nodes", [-1, True, 1.5, "100"])
def test_bad_solve_nodes(nodes):
    assert "solve_nodes" in one_line_argument_error(lambda: rate(report("ito-01"), solve_nodes=nodes))


def test_a_report_without_a_node_count_needs_solve_nodes():
    r = dataclasses.replace(report("ito-01"), stats={})
    one_line_argument_error(lambda: rate(r))
    assert rate(r, solve_nodes=5).stars == 1
