"""``tsume serve`` as a user runs it: it binds 127.0.0.1 and prints where,
refuses a bad root or a port in use in one line, warns when opened to the
network, and on Ctrl-C ends every job and exits with 130, leaving no
process and no half-written file behind."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.request
import webbrowser
from pathlib import Path

import pytest

from studio_server import LONG, Studio, as_from_a_terminal, descendants

pytest.importorskip("fastapi", reason="the studio extra is not installed (pip install 'tsume[studio]')")
pytest.importorskip("uvicorn", reason="the studio extra is not installed (pip install 'tsume[studio]')")

pytestmark = pytest.mark.slow


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.loads(r.read())


def test_ctrl_c_ends_the_jobs_and_leaves_nothing_behind(tmp_path):
    (tmp_path / "mine.tsume").write_text("[one]\nposition: k1P2H25 b G\n", encoding="utf-8")
    before = set(p.name for p in tmp_path.iterdir())
    studio = Studio(tmp_path)
    try:
        assert studio.url.startswith("http://127.0.0.1:")
        post(studio.url + "api/solve", {"problem": {"position": LONG}})
        post(studio.url + "api/compose", {"count": 50, "min_length": 5, "max_length": 15, "time_limit": 300})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            jobs = studio.api("/api/jobs")["jobs"]
            if all(j["progress"] and not j["progress"].get("queued") for j in jobs):
                break
            time.sleep(0.1)
        below = descendants(studio.process.pid)
        assert len(below) >= 3  # the fork server and the two jobs' processes
    finally:
        started = time.monotonic()
        code, err = studio.stop()
    assert code == 130 and time.monotonic() - started < 10
    assert err.strip() == "tsume: interrupted", err
    deadline = time.monotonic() + 5
    while any(Path(f"/proc/{pid}").exists() for pid in below) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in below if Path(f"/proc/{pid}").exists()] == []
    # The root holds what it held: no temporary, no half-written file.
    assert set(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "mine.tsume").read_text(encoding="utf-8") == "[one]\nposition: k1P2H25 b G\n"


def test_bad_root_port_in_use_and_the_network_warning(tmp_path):
    def serve(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tsume", "serve", *args], capture_output=True, text=True,
                              timeout=timeout)

    done = serve("--root", str(tmp_path / "missing"))
    assert done.returncode == 2 and done.stderr.startswith("tsume: error: --root") and "Traceback" not in done.stderr
    done = serve("--port", "70000")
    assert done.returncode == 2 and "--port" in done.stderr
    studio = Studio(tmp_path)
    try:
        done = serve("--port", str(studio.port), "--root", str(tmp_path))
        assert done.returncode == 2 and "cannot listen" in done.stderr and "Traceback" not in done.stderr
    finally:
        studio.stop()
    # Any other address: a warning that there is no authentication.
    other = subprocess.Popen([sys.executable, "-m", "tsume", "serve", "--host", "0.0.0.0", "--port", "0",
                              "--root", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=as_from_a_terminal)
    try:
        assert "http://0.0.0.0:" in other.stdout.readline()
    finally:
        other.send_signal(2)
        _, err = other.communicate(timeout=20)
    assert "no authentication" in err and other.returncode == 130


def test_open_with_no_browser_says_so(tmp_path):
    # No display and no terminal: Python's webbrowser knows no browser to start.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "TERM", "BROWSER")}
    studio = subprocess.Popen([sys.executable, "-m", "tsume", "serve", "--open", "--port", "0", "--root", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              preexec_fn=as_from_a_terminal)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", studio.stdout.readline()).group(0)
        ready, _, _ = select.select([studio.stderr], [], [], 20)
        said = studio.stderr.readline() if ready else ""
    finally:
        studio.send_signal(signal.SIGINT)
        studio.communicate(timeout=20)
    assert said == f"tsume: warning: no web browser could be opened (--open): open {url} in one yourself\n"
    assert studio.returncode == 130


def test_a_browser_that_fails_to_start_is_said_too(monkeypatch):
    from tsume.studio import server

    def broken(url: str) -> bool:
        raise webbrowser.Error("could not locate runnable browser")

    said: list[str] = []
    monkeypatch.setattr(server.webbrowser, "open", broken)
    assert server.open_browser_at("http://127.0.0.1:8000/", said.append) is False
    assert said == ["tsume: warning: no web browser could be opened (--open): open http://127.0.0.1:8000/ in one yourself"]
    said.clear()
    monkeypatch.setattr(server.webbrowser, "open", lambda url: True)
    assert server.open_browser_at("http://127.0.0.1:8000/", said.append) is True and said == []
