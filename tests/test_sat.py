"""The SAT engine: its oracle, its symbolic encoding, its queries and the CLI."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from tsume.cli import main
from tsume.search import Options
from tsume.generate import random_tsume
from tsume.position import Position
from tsume.problem import Problem
from tsume.reference import reference_solve
from tsume.sat import SatEngine, SatError, sat_solve
from tsume.sat.engine import cpos_of, engine_move
from tsume.sat.oracle import Oracle
from tsume.sat.rules import rules_for
from tsume.solve import solve

RAW = Options(useless_interpositions=False)


def lengths(pos: Position, eng: SatEngine, bound: int) -> dict[str, int | None]:
    return {str(engine_move(pos, m)): v for m, v in eng.first_move_lengths(bound).items()}


def reference_lengths(pos: Position, bound: int) -> dict[str, int | None]:
    _line, firsts = reference_solve(pos, bound, useless_interpositions=False)
    return {str(m): v for m, v in firsts.items()}


@pytest.mark.parametrize("variant", ["ito", "rutherford", "ito:drop_mate=no"])
def test_direct_oracle_equals_the_folded_circuits(variant):
    """The fast move lists are the encoding's own circuits evaluated on constants."""
    rng = random.Random(5)
    for _ in range(10):
        pos = Problem(random_tsume(rng, variant), variant=variant).position()
        rules = rules_for(pos.variant, pos.n)
        direct, folded = Oracle(rules), Oracle(rules, fold=True)
        here = cpos_of(pos)
        assert sorted(direct.basic(here)) == sorted(folded.basic(here))
        assert sorted(direct.checks(here)) == sorted(folded.checks(here))
        for _m, after in direct.checks(here):
            # the witness is any basic move: compare the replies themselves
            assert sorted(m for m, _a, _w in direct.replies(after)) == sorted(m for m, _a, _w in folded.replies(after))


@pytest.mark.parametrize("variant,bound,seeds", [
    ("ito", 3, range(0, 25)),
    ("rutherford", 3, range(0, 25)),
    ("rutherford", 5, (10_000, 10_007, 10_008, 10_012)),  # mates in 5 among them, quick to encode
    ("ito:drop_mate=no", 3, range(100, 108)),
])
def test_symbolic_attacker_nodes_agree_with_the_reference(variant, bound, seeds):
    """With concrete expansion off, every attacker node below the root is the full
    symbolic encoding (candidates, ray chains, check, king safety, witnesses)."""
    for seed in seeds:
        pos = Problem(random_tsume(random.Random(seed), variant), variant=variant, defender="none" if seed % 4 == 0 else None).position()
        eng = SatEngine(pos, expand_concrete=False)
        try:
            assert lengths(pos, eng, bound) == reference_lengths(pos, bound), (variant, seed, pos.fen())
        finally:
            eng.close()


def test_queries_on_a_known_problem():
    pos = Problem("3T2k1CG21 b C 1", variant="ito").position()
    eng = SatEngine(pos)
    assert not eng.mate_within(1)
    assert eng.mate_within(3)
    assert eng.shortest(7) == 3
    firsts = lengths(pos, eng, 3)
    assert {m for m, v in firsts.items() if v == 3} == {"C*3"}
    assert not eng.has_two_winning_moves(3)
    assert [str(engine_move(pos, m)) for m in eng.main_line(3)][0] == "C*3"
    eng.close()


def test_two_winning_moves_uses_the_cardinality_constraint():
    # Find seeded positions with exactly one and with several mating first moves within 3.
    seen = {1: False, 2: False}
    for seed in range(0, 200):
        pos = Problem(random_tsume(random.Random(seed), "rutherford"), variant="rutherford").position()
        ref = reference_lengths(pos, 3)
        winners = sum(1 for v in ref.values() if v is not None)
        if not winners:
            continue
        eng = SatEngine(pos)
        assert eng.has_two_winning_moves(3) == (winners >= 2), (seed, pos.fen(), ref)
        eng.close()
        seen[min(winners, 2)] = True
        if all(seen.values()):
            break
    assert all(seen.values())


def test_repetition_fails_for_the_attacker():
    # Black's rook-like piece can only shuttle; the defender's king shuttles back:
    # whatever the engines say, they must say the same (repetition inside 7 plies).
    for seed in range(300, 340):
        pos = Problem(random_tsume(random.Random(seed), "rutherford", attacker_hand=(0, 0)), variant="rutherford", defender="none").position()
        eng = SatEngine(pos)
        assert lengths(pos, eng, 5) == reference_lengths(pos, 5), (seed, pos.fen())
        eng.close()


def test_mutated_rules_are_caught():
    """The cross-check can fail: a SAT engine reading the Tile General's forward leap
    as 3 instead of 2 disagrees with the reference on some seeded position."""
    import dataclasses

    from tsume.variant import ITO, Face, PieceKind

    kinds = tuple(
        dataclasses.replace(k, unpromoted=Face("Tile General", leaps=(3, -1))) if k.letter == "T" else k
        for k in ITO.kinds
    )
    broken = dataclasses.replace(ITO, kinds=kinds)
    assert all(isinstance(k, PieceKind) for k in kinds)
    for seed in range(0, 200):
        pos = Problem(random_tsume(random.Random(seed), "ito"), variant="ito").position()
        mutant = Position(pos.fen(), broken, validate=False)
        eng = SatEngine(mutant)
        try:
            if lengths(pos, eng, 3) != reference_lengths(pos, 3):
                return
        finally:
            eng.close()
    pytest.fail("no seeded position told the mutated Tile General apart")


def test_sat_solve_result_fields():
    problem = Problem("3T2k1CG21 b C 1", variant="ito")
    r = sat_solve(problem, max_length=3, all_first_moves=True)
    d = r.to_dict()
    assert d["status"] == "mate" and d["length"] == 3
    assert d["mainline"][0] == "C*3" and len(d["mainline"]) == 3
    assert {fm["move"] for fm in d["first_moves"] if fm["status"] == "mate"} == {"C*3"}
    df = solve(problem, max_length=3, options=RAW)
    assert (df.length, df.mainline, df.leftover) == (r.length, r.mainline, r.leftover)
    with pytest.raises(SatError):
        sat_solve(problem, max_length=None)


def test_cli_engine_sat():
    runner = CliRunner()
    res = runner.invoke(main, ["solve", "--engine", "sat", "--max-length", "3", "--json", "--all-first-moves",
                               "3T2k1CG21 b C 1"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["status"] == "mate" and data["length"] == 3 and data["mainline"][0] == "C*3"
    assert all({"move", "status", "length"} <= set(fm) for fm in data["first_moves"])
    res = runner.invoke(main, ["solve", "--engine", "sat", "--max-length", "1", "3T2k1CG21 b C 1"])
    assert res.exit_code == 1 and "No mate within 1 ply." in res.output
    res = runner.invoke(main, ["solve", "--engine", "sat", "--max-length", "3", "-q", "3T2k1CG21 b C 1"])
    assert res.exit_code == 0 and "Mate in 3 plies." in res.output and "Engine: SAT" in res.output


@pytest.mark.parametrize("args,needle", [
    (["solve", "--engine", "sat", "3T2k1CG21 b C 1"], "--engine sat needs --max-length"),
    (["solve", "--engine", "sat", "--max-length", "3", "--nodes", "5", "3T2k1CG21 b C 1"], "--nodes is a df-pn limit"),
    (["solve", "--engine", "sat", "--max-length", "3", "3T2k1CG21 b"], "position"),
    (["solve", "--engine", "fast", "--max-length", "3", "3T2k1CG21 b C 1"], "engine"),
])
def test_cli_engine_sat_bad_input(args, needle):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "tsume", *args], capture_output=True, text=True)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error:") and needle in lines[0], out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("text,variant,counted,raw", [
    ("14T1k2t1G9 b CH2pchg2f 1", "ito", 1, 3),        # C*14; drops on 16 are useless interpositions
    ("+n1k1+P2+S7 b SB 1", "rutherford", 3, None),   # raw: no mate within 3
])
def test_counted_and_raw_lengths_differ_where_interpositions_are_useless(text, variant, counted, raw):
    """The SAT engine computes the raw length; the default solver counts under the
    useless-interposition rule (docs/sat.md: 1-2% of random positions differ)."""
    assert solve(Problem(text, variant=variant), max_length=3).length == counted
    assert solve(Problem(text, variant=variant), max_length=3, options=RAW).length == raw
    pos = Problem(text, variant=variant).position()
    eng = SatEngine(pos)
    assert eng.shortest(3) == raw
    eng.close()
