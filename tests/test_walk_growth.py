"""benchmarks/walk_growth.py: how many plies a square of board adds to the
mates of a small Rutherford family (docs/performance.md, "The stretch")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "walk_growth.py"


def test_one_man_walks_add_one_ply_a_square():
    r = subprocess.run([sys.executable, str(SCRIPT), "--men", "1-1", "--hand", "0-1", "--boards", "24,32",
                        "--workers", "1"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # 7 squares x 10 kinds x 6 hands; a lone man and one piece in hand.
    assert lines[0].startswith("420 positions, 35 mating in 9 plies or more on 16 squares")
    # A walk two squares a turn adds one ply a square; the others do not grow.
    assert lines[1] == "16 -> 24 squares, plies a square: 0.00: 3, 1.00: 32"
    assert lines[2] == "24 -> 32 squares, plies a square: 0.00: 3, 1.00: 32"
    # k6+N8 b P on 32 squares: 16 squares more than 16, 16 plies more.
    assert "k6+N8 b P (on 16 squares): 33 plies" in lines[3]


def test_a_walk_is_solved_on_every_board():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import walk_growth
    finally:
        sys.path.remove(str(SCRIPT.parent))
    # The Phoenix's walk: the king driven two squares a turn to the far end.
    lengths = walk_growth.grow(({7: "+N"}, "P", 16, (24, 32), "none"))
    assert lengths is not None and [b - a for a, b in zip(lengths, lengths[1:])] == [8, 8]
    assert walk_growth.board(12, {7: "+N"}) == "k5+N5"
