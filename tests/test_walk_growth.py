"""benchmarks/walk_growth.py: how many plies a square of board adds to the
mates of a small Rutherford family (docs/performance.md, "The stretch")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "walk_growth.py"


def _script() -> ModuleType:
    """The script as a module, for its functions."""
    spec = importlib.util.spec_from_file_location("walk_growth", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    walk_growth = _script()
    # The Phoenix's walk: the king driven two squares a turn to the far end.
    pawn = (0, 1, 0, 0, 0, 0)  # a Pawn in hand (kind letters K P S N B L)
    lengths = walk_growth.grow(({7: "+N"}, pawn, 16, (24, 32), "none"))
    assert lengths is not None and [b - a for a, b in zip(lengths, lengths[1:])] == [8, 8]
    assert walk_growth.position({7: "+N"}, pawn, 12).fen() == "k5+N5 b P 1"


def test_white_men_stand_on_every_choice_of_squares():
    walk_growth = _script()
    family = walk_growth.positions((1, 1), (0, 0), (1, 1))
    # Two of squares 2 to 8, ten kinds on each, either of the two White's.
    assert len(family) == 21 * 10 * 10 * 2
    empty = (0,) * 6
    assert ({2: "p", 3: "P"}, empty) in family and ({2: "P", 3: "+p"}, empty) in family
    assert all(sum(m.islower() for m in men.values()) == 1 for men, _ in family)
