"""A plain (non-editable) install carries the bundled collections.

Builds an sdist from a copy of the source tree with maturin, a wheel from
that sdist (as ``python -m build`` does), installs the wheel into a fresh
folder with pip, and runs tsume from elsewhere: the collections must come
from the installed package, not from the checkout; the wheel carries the
Rust engine.  The build shares the checkout's cargo target folder
(``engine/target``), which keeps it to about a minute; marked ``slow`` so
that ``pytest -m "not slow"`` can skip it, but the normal run includes it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tsume.collection import bundled_names

ROOT = Path(__file__).resolve().parent.parent
IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.so", "target",
                                ".pytest_cache", ".hypothesis")


def _run(args, cwd, env, timeout=600):
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])
    return r


@pytest.mark.slow
def test_a_wheel_install_ships_the_bundled_collections(tmp_path):
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "CARGO_TARGET_DIR": str(ROOT / "engine" / "target")}
    env.pop("PYTHONPATH", None)
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=IGNORE, symlinks=True)
    dist = tmp_path / "dist"
    # The sdist must carry the collections ([tool.maturin] include) for a wheel built from it to.
    _run([sys.executable, "-m", "maturin", "sdist", "--out", str(dist)], src, env)
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
          "-w", str(dist), "."], unpacked, env)
    (wheel,) = dist.glob("*.whl")
    target = tmp_path / "site"
    _run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
         tmp_path, env)
    assert not (target / "problems").exists()  # inside the package only

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env["PYTHONPATH"] = str(target)
    r = _run([sys.executable, "-c", "import json, tsume, tsume.collection as c; "
              "print(json.dumps([tsume.__file__, c.bundled_names(), str(c.locate('examples'))]))"], elsewhere, env)
    where, names, examples = json.loads(r.stdout)
    assert Path(where).is_relative_to(target), where  # the installed copy, not the checkout
    assert names == bundled_names() and "examples" in names and "seed-ito" in names
    assert Path(examples) == target / "tsume" / "problems" / "examples.tsume"
    # The console script pip wrote, and the bundled name instead of a path.
    r = _run([str(target / "bin" / "tsume"), "solve", "--file", "examples", "--id", "ito-05", "--json", "-q"],
             elsewhere, env)
    assert json.loads(r.stdout)["length"] == 5
    r = _run([sys.executable, "-m", "tsume", "solve", "--file", "seed-rutherford.tsume", "--id", "ruth-c0001",
              "--json", "-q"], elsewhere, env)
    assert json.loads(r.stdout)["status"] == "mate"
    # The studio's page (and the booklet's play mode, which inlines its script) travel with the package.
    static = target / "tsume" / "studio" / "static"
    assert {"index.html", "main.js", "play.js", "play.css", "moves.css", "studio.css"} <= {p.name for p in static.iterdir()}
    # And the booklet's own style sheet and scripts: the page draws its diagrams with board.js.
    assert {"board.js", "booklet.js", "booklet.css"} <= {p.name for p in (target / "tsume" / "booklet_static").iterdir()}
    r = _run([sys.executable, "-m", "tsume", "booklet", "examples", "--id", "ito-01", "--play", "-o",
              str(tmp_path / "b.html"), "-q"], elsewhere, env)
    html = (tmp_path / "b.html").read_text(encoding="utf-8")
    assert "createPlayer" in html and "TsumeBoard" in html
