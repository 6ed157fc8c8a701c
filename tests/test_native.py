"""The compiled (mypyc) and pure-Python engines: the same results, and the choice between them."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tsume
from tsume import Position, _native
from tsume.perft import perft

# Positions with every rule in play: Ito's stalemate rule without hands, cannons
# and stride-2 riders with full hands; Rutherford's drop limits and drop-mate
# ban, on the longest board too.
CASES = [
    ("ito", None, 4),
    ("ito", "2k1p2+f3h4c2G5PT2K1 b TCHfg 1", 2),
    ("ito", "1t1k17C1G5K1 b 2PTH2F 1", 3),
    ("rutherford", None, 4),
    ("rutherford", "2k3b1n4P2L3+S2K1 b BNLsp 1", 2),
    # 64 squares: masks and hashes past 63 bits (boxed ints in compiled code)
    ("rutherford", "k1p28P1B29K b Ss 1", 2),
    ("rutherford", "1k2s25L30K1 w BN 1", 2),
]

_ROOT = Path(__file__).resolve().parent.parent

# Run the same code in this process and, with TSUME_PURE_PYTHON=1, in a child.
_SCRIPT = """
import json, sys
import tsume
from tsume import Position
from tsume.collection import load
from tsume.perft import divide
from tsume.solve import solve
from tsume.verify import verify

def timeless(d):
    stats = d.pop("stats")
    d["nodes"] = stats["nodes"]
    return d

def results(cases, root):
    out = {"divide": [divide(Position(fen, v), d) for v, fen, d in cases]}
    out["solve"] = [timeless(solve(p.position, variant=p.variant, all_first_moves=True).to_dict())
                    for p in load(root + "/problems/examples.tsume")]
    out["verify"] = [timeless(verify(p).to_dict()) for p in load(root + "/problems/flawed.tsume")[:8]]
    return out

if __name__ == "__main__":
    out = results(json.loads(sys.argv[1]), sys.argv[2])
    out.update(compiled=tsume.COMPILED, file=tsume.position.__file__)
    print(json.dumps(out))
"""


def _run(env_extra: dict[str, str]) -> dict:
    env = {**os.environ, **env_extra}
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, json.dumps(CASES), str(_ROOT)],
        capture_output=True, text=True, env=env, check=True, timeout=600,
    )
    return json.loads(out.stdout)


def test_pure_python_switch_and_same_results():
    """TSUME_PURE_PYTHON=1 runs the .py sources, and they give exactly what this
    process gives: perft divides, solutions with every variation and first move,
    verify reports, node counts included."""
    pure = _run({"TSUME_PURE_PYTHON": "1"})
    assert pure["compiled"] is False
    assert pure["file"].endswith(".py")
    namespace: dict = {}
    exec(compile(_SCRIPT, "<native script>", "exec"), namespace)
    here = json.loads(json.dumps(namespace["results"](CASES, str(_ROOT))))
    assert len(here["solve"]) >= 5 and len(here["verify"]) == 8
    for key in ("divide", "solve", "verify"):
        assert pure[key] == here[key], key


def test_fresh_install_runs_what_was_built():
    """An install is never left half-compiled or stale: either nothing was
    compiled, or the compiled engine is the one running."""
    reason = _native.stale_reason()
    if _native.pure_python_requested():
        assert tsume.COMPILED is False
    elif reason == "not compiled":
        assert tsume.COMPILED is False
    else:
        assert reason is None, reason
        assert tsume.COMPILED is True
        assert not tsume.position.__file__.endswith(".py")


def test_perft_start_counts_either_engine():
    assert [perft(Position.start(), d) for d in (1, 2, 3)] == [11, 121, 1276]


def _fake_build(where: Path, names: tuple[str, ...], compiled: tuple[str, ...]) -> None:
    """Sources, their recorded digests, and (empty) extensions for ``compiled``."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in names:
        (where / f"{name}.py").write_text(f"X = {name!r}\n")
        if name in compiled:
            (where / f"{name}{suffix}").write_text("")
    _native.record_sources(where, names)


@pytest.mark.parametrize(
    "compiled, edit, expected",
    [
        ((), None, "not compiled"),
        (("a", "b"), None, None),
        (("a",), None, "b was not compiled"),
        (("a", "b"), "b", "b.py changed after it was compiled"),
        (("a", "b"), "record", "_compiled_sources.json is missing or unreadable"),
    ],
)
def test_stale_reason(tmp_path, compiled, edit, expected):
    _fake_build(tmp_path, ("a", "b"), compiled)
    if edit == "record":
        (tmp_path / _native.DIGESTS).unlink()
    elif edit:
        (tmp_path / f"{edit}.py").write_text("X = 'edited'\n")
    assert _native.stale_reason(tmp_path, ("a", "b")) == expected


def test_timestamps_do_not_matter(tmp_path):
    """A wheel install may write a source after its extension: unchanged
    content is not stale."""
    _fake_build(tmp_path, ("a",), ("a",))
    os.utime(tmp_path / "a.py", (4_000_000_000, 4_000_000_000))
    assert _native.stale_reason(tmp_path, ("a",)) is None
