"""The engine gives the answers recorded in tests/golden/ (tests/golden/README.md).

Every recorded perft position is counted again (to the depths that fit in
PERFT_TEST_LEAVES leaves), every problem of ``examples`` and ``flawed`` is
solved and verified again, and a fixed sample of the other collections:
every SAMPLE_EVERY-th problem (in id order) and, for solve, each whose
recorded solve took under FAST_SOLVE_SECONDS.  ``benchmarks/golden_check.py``
checks everything, at every recorded depth.
"""

from __future__ import annotations

import pytest

try:
    from tests import golden_answers as ga
except ImportError:  # pragma: no cover - when tests/ itself is on sys.path
    import golden_answers as ga

#: The one knob of the sample: every SAMPLE_EVERY-th problem of the larger
#: collections is solved and verified (1: every problem, as golden_check.py does).
SAMPLE_EVERY = 7
#: A sampled verification whose recorded time was over this many CPU seconds
#: is left to golden_check.py (a few take 10-20 s).
VERIFY_SECONDS = 1.0
#: Problems whose recorded solve took under this many CPU seconds are all solved.
FAST_SOLVE_SECONDS = 0.05
#: Collections compared whole, solve and verify.
WHOLE = ("examples", "flawed")
#: Every perft position is counted to the greatest recorded depth within this many leaves.
PERFT_TEST_LEAVES = 4_000
MAX_SHOWN = 20


def _assert_same(part: str, checked: dict[str, list]) -> None:
    lines = [f"{key} {line}" for key, diffs in checked.items() for line in ga.describe(diffs, limit=200)]
    assert not lines, (f"{part}: {sum(bool(d) for d in checked.values())} of {len(checked)} entries differ "
                       f"from tests/golden/:\n" + "\n".join(lines[:MAX_SHOWN]))


def _problems(part: str) -> dict[str, dict]:
    return ga.read(part)["problems"]


def _chosen(part: str, collection: str, entries: dict[str, dict]) -> list[str]:
    keys = [k for k, e in entries.items() if e["collection"] == collection]
    if collection in WHOLE:
        return keys
    chosen = set(ga.sample(keys, SAMPLE_EVERY))
    if part == "solve":
        chosen |= {k for k in keys if entries[k]["info"]["cpu_seconds"] < FAST_SOLVE_SECONDS}
    else:
        chosen = {k for k in chosen if entries[k]["info"]["cpu_seconds"] <= VERIFY_SECONDS}
    return sorted(chosen)


@pytest.mark.parametrize("part", ["solve", "verify"])
def test_every_bundled_problem_has_a_golden_answer(part):
    entries = _problems(part)
    for collection in ga.COLLECTIONS:
        ids = [p.id for p in ga.collection_problems(collection)]
        missing = [i for i in ids if f"{collection}/{i}" not in entries]
        assert not missing, f"{part}: no golden answer for {collection} {missing[:5]} (benchmarks/make_golden.py)"
    assert all(e["node_limit"] is None for e in entries.values()), "a capped entry: say so in tests/golden/README.md"


def test_the_perft_files_hold_the_positions():
    assert ga.perft_files() == ["perft-cross", "perft-random", "perft-rules"]
    rules = ga.read("perft-rules")["positions"]
    sources = {s for e in rules for s in e["sources"]}
    assert {"start position", *ga.RULES_TESTS} - {"test_cross_movegen.py"} <= sources
    assert any(e["variant"].startswith("mini") for e in rules)
    assert all(e["totals"][-1] <= ga.PERFT_LEAVES for e in rules)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["perft-rules", "perft-cross", "perft-random"])
def test_perft_divides_are_unchanged(name):
    entries = ga.read(name)["positions"]
    checked = {f"{e['variant']} {e['position']}": ga.check_perft(e, ga.cheap_depth(e, PERFT_TEST_LEAVES))
               for e in entries}
    _assert_same(name, checked)


@pytest.mark.slow
@pytest.mark.parametrize("collection", ga.COLLECTIONS)
def test_solve_answers_are_unchanged(collection):
    entries = _problems("solve")
    keys = _chosen("solve", collection, entries)
    assert keys
    _assert_same("solve", {k: ga.check_answer("solve", entries[k]) for k in keys})


@pytest.mark.slow
@pytest.mark.parametrize("collection", ga.COLLECTIONS)
def test_verify_reports_are_unchanged(collection):
    entries = _problems("verify")
    keys = _chosen("verify", collection, entries)
    assert keys
    _assert_same("verify", {k: ga.check_answer("verify", entries[k]) for k in keys})


def test_a_changed_answer_is_reported():
    """The comparison sees a change anywhere in an answer (here: a main line
    one move short, a flipped verdict, a count one off)."""
    solve_entries = _problems("solve")
    entry = dict(solve_entries["examples/ito-05"])
    entry["answer"] = {**entry["answer"], "mainline": entry["answer"]["mainline"][:-1]}
    assert [d[0] for d in ga.check_answer("solve", entry)] == ["answer.mainline"]
    verify_entry = dict(_problems("verify")["flawed/ito-yozume-1"])
    verify_entry["answer"] = {**verify_entry["answer"], "verdict": "sound"}
    assert [d[0] for d in ga.check_answer("verify", verify_entry)] == ["answer.verdict"]
    perft_entry = dict(ga.read("perft-rules")["positions"][0])
    move = sorted(perft_entry["divide"])[0]
    perft_entry["divide"] = {**perft_entry["divide"], move: [*perft_entry["divide"][move][:-1],
                                                             perft_entry["divide"][move][-1] + 1]}
    assert ga.check_perft(perft_entry) == [(f"divide.{move}[{perft_entry['depth'] - 1}]",
                                            perft_entry["divide"][move][-1], perft_entry["divide"][move][-1] - 1)]
