"""benchmarks/alternative_bounds.py: the diagnostic of one alternative's
searches (docs/performance.md) -- its options and its census of the table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "alternative_bounds.py"
# ito-L01-0004's C*1 (docs/performance.md): not mated within 9 plies, in
# about a thousand nodes.
POSITION, MOVE = "2T1k5+P20 b C2G2H 1", "C*1"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), POSITION, MOVE, *args],
                          capture_output=True, text=True, timeout=120)


def rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines()[1:]]


def test_entries_partition_the_table():
    r = run("1,3,5", "--entries")
    assert r.returncode == 0, r.stderr
    table = rows(r.stdout)
    assert [row[:2] for row in table] == [["1", "disproven"], ["3", "disproven"], ["5", "disproven"]]
    for row in table:
        entries, proofs, nomate, bounded, open_ = (int(x.replace(",", "")) for x in row[4:9])
        assert proofs + nomate + bounded + open_ == entries
    # Disproofs within 5 plies are bounded ones: some entry says so.
    assert int(table[-1][7].replace(",", "")) > 0


def test_options_change_the_search():
    plain = rows(run("9").stdout)[0]
    off = rows(run("9", "--option", "one_plus_epsilon=0").stdout)[0]
    assert plain[1] == off[1] == "disproven"
    assert plain[2] != off[2]  # nodes: the switches were applied


def test_bad_options_are_refused_in_one_line():
    for bad in ("nosuch=1", "heuristic_init=maybe", "one_plus_epsilon=x", "short_first"):
        r = run("5", "--option", bad)
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert "--option" in r.stderr.splitlines()[-1]
