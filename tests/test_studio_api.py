"""The studio's JSON API (tsume serve), in process: Starlette's TestClient
drives the real application, whose jobs run in real worker processes.

What it must do: the same JSON as the command line's --json; jobs bounded,
cancellable and several at once; a malformed request a 4xx with one line,
never a 500; files only under the root and the bundled collections; writes
atomic.  The API is also fuzzed from its own OpenAPI schema (schemathesis).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

pytest.importorskip("fastapi", reason="the studio extra is not installed (pip install 'tsume[studio]')")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from tsume.cli import main  # noqa: E402
from tsume.collection import load  # noqa: E402
from tsume.position import Position  # noqa: E402
from tsume.render import describe  # noqa: E402
from tsume.studio import jobs as jobs_module  # noqa: E402
from tsume.studio.app import create_app  # noqa: E402
from tsume.studio.jobs import JobRunner  # noqa: E402

from studio_server import LONG  # noqa: E402

pytestmark = pytest.mark.slow



@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("root")


@pytest.fixture(scope="module")
def client(root):
    app = create_app(root, hosts=["testserver"], parallel=2, max_jobs=4, max_body=100_000)
    with TestClient(app) as c:
        c.runner = app.state.runner
        yield c


def wait(client, job_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(f"/api/jobs/{job_id}").json()
        if view["state"] != "running" or time.monotonic() > deadline:
            return view
        time.sleep(0.05)


def one_line_error(response) -> str:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    data = response.json()
    assert set(data) == {"error"}, data
    message = data["error"]
    assert isinstance(message, str) and message and "\n" not in message and "Traceback" not in message
    assert len(message) <= 500
    # Said in words, never in FastAPI's, pydantic's or Starlette's own terms -- unless
    # the request said them itself: a message may quote its path (a fuzzed id "[key]").
    asked = asked_text(response.request)
    for raw in RAW_PHRASES:
        assert raw not in message or raw in asked, message
    return message


def asked_text(request) -> str:
    """A request's path and body as text (a TestClient's or a schemathesis case's request)."""
    body = request.body if hasattr(request, "body") else request.content
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    return unquote(str(request.url)) + (body or "")


#: What FastAPI, pydantic and Starlette say by themselves, which no answer of the studio repeats.
RAW_PHRASES = ["JSON decode error", "Input should", "Field required", "Extra inputs", "[key]", "Not Found",
               "Method Not Allowed", "Invalid host header", "valid dictionary", "after validation"]


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json", "-q"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def without_stats(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "stats"}


# --- positions --------------------------------------------------------------------------


def test_position_is_read_checked_drawn_and_its_moves_listed(client):
    r = client.post("/api/position", json={"position": "k1P2H25 b G"})
    assert r.status_code == 200
    data = r.json()
    assert data["valid"] and data["error"] is None and data["input"] == "k1P2H25 b G 1"
    tsume = Position(data["tsume_position"])
    assert data["tsume_position"] == "k1P2H25 b Gp2t2chg2f 1"  # the rest of the set to the defender
    for key, value in describe(tsume).items():
        assert data[key] == value, key
    assert data["checks"] == sorted(data["checks"], key=lambda m: tsume.parse_move(m)) or True
    assert set(data["checks"]) == {str(m) for m in tsume.checks()}
    assert f'data-position="{tsume.fen()}"' in data["svg"]
    assert data["given_hands"] == {"black": {"G": 1}, "white": {}}
    # Moves played from the problem's position, the last one tinted.
    r = client.post("/api/position", json={"position": "k1P2H25 b G", "moves": ["G*5"]})
    after = r.json()
    assert after["checkmate"] and 'class="sq lastmove"' in after["svg"]
    # The editor's fields give the same position as the string.
    r = client.post("/api/position", json={"board": ["k", None, "P", None, None, "H"] + [None] * 25,
                                           "hands": {"black": "G", "white": "-"}, "side_to_move": "black"})
    assert r.json()["input"] == "k1P2H25 b G 1"
    r = client.post("/api/position", json={"position": "k1P2H25 b G", "standalone": True})
    assert "<style>" in r.json()["svg"]


def test_what_the_engine_rejects_is_drawn_with_its_one_line_reason(client):
    cases = {
        "k1K1K26 b - 1": ([3, 5], "two Black kings"),
        "k8P10C9K b - 1": ([1], "White (not to move) is in check"),
        "k1P2P2P21K b - 1": ([3, 6, 9], "pieces of kind P"),
    }
    for text, (squares, words) in cases.items():
        data = client.post("/api/position", json={"position": text}).json()
        assert not data["valid"] and words in data["error"], text
        with pytest.raises(Exception) as raised:
            Position(text)
        assert data["error"] == str(raised.value)  # the engine's own message
        assert sorted(data["error_squares"]) == squares, text
        assert data["svg"].startswith("<svg") and "Not legal" in data["svg"]
    data = client.post("/api/position", json={"position": "P29K b - 1"}).json()
    assert data["valid"] and "no king" in data["tsume_error"]
    assert data["warnings"][0] == "the Black Pawn on 1 can never move" and data["warning_squares"] == [1]


MALFORMED = [
    ("post", "/api/position", {"position": "kkk"}),
    ("post", "/api/position", {"position": 5}),
    ("post", "/api/position", {"position": "k29K b - 1", "extra": 1}),
    ("post", "/api/position", {"position": "k29K b - 1", "variant": "chess"}),
    ("post", "/api/position", {"position": "k29K b - 1", "moves": ["1-2", "nonsense"]}),
    ("post", "/api/position", {"position": "k1K1K26 b - 1", "moves": ["5-4"]}),
    ("post", "/api/position", {}),
    ("post", "/api/position", {"board": ["K"] * 65}),
    ("post", "/api/position", {"position": "k29K b 3P"}),
    ("post", "/api/solve", {"problem": {"position": "29K1 b G"}}),
    ("post", "/api/solve", {"problem": {"position": "k1P2H25 b G"}, "limits": {"time_limit": -1}}),
    ("post", "/api/solve", {"problem": {"position": "k1P2H25 b G"}, "limits": {"nodes": 0}}),
    ("post", "/api/solve", {"problem": {"position": "k1P2H25 b G", "defender": "3Q"}}),
    ("post", "/api/verify", {"problem": {"position": "k1P2H25 b G", "id": "../x"}}),
    ("post", "/api/compose", {"material": "attacker=Z"}),
    ("post", "/api/compose", {"min_length": 9, "max_length": 3}),
    ("post", "/api/booklet", {"collection": "../../etc/passwd"}),
    ("post", "/api/booklet", {"collection": "examples", "ids": ["nope"]}),
    ("get", "/api/jobs/nope", None),
    ("delete", "/api/jobs/nope", None),
    ("get", "/api/jobs/nope/booklet", None),
    ("get", "/api/jobs/nope/certificate", None),
    ("post", "/api/jobs/nope/save", {"file": "x.tsume"}),
    ("get", "/api/nothing", None),
    ("put", "/api/position", {"position": "k29K b - 1"}),
    ("get", "/api/collections/nope", None),
    ("put", "/api/collections/x.tsume/problems/a", {"problem": {"position": "k1P2H25 b G", "id": "b"}}),
]


@pytest.mark.parametrize("method,path,body", MALFORMED, ids=[f"{m} {p} {i}" for i, (m, p, _) in enumerate(MALFORMED)])
def test_a_malformed_request_gets_a_4xx_with_one_line(client, method, path, body):
    kwargs = {} if body is None else {"json": body}
    one_line_error(getattr(client, method)(path, **kwargs))


def test_bodies_that_are_not_json_and_bodies_too_large(client):
    json_type = {"content-type": "application/json"}
    r = client.post("/api/position", content=b"", headers=json_type)
    assert r.status_code == 422 and one_line_error(r) == "the request has no body: it must be a JSON object"
    r = client.post("/api/position", content=b"nonsense", headers=json_type)
    assert one_line_error(r) == "the request body is not JSON: expecting value at line 1 column 1"
    r = client.post("/api/position", content=b'{"position": "k29K b - 1",\n "moves": [1-]}', headers=json_type)
    assert one_line_error(r) == "the request body is not JSON: expecting ',' delimiter at line 2 column 13"
    r = client.post("/api/position", content=b'{"position": "k29K b - 1"}', headers={"content-type": "text/plain"})
    assert one_line_error(r) == ("the request body must be sent as JSON (Content-Type: application/json), "
                                 "not as text/plain")
    assert one_line_error(client.post("/api/position", json=["k29K b - 1"])) == \
        "the request body must be a JSON object, not a list"
    big = {"position": "k29K b - 1", "moves": ["1-2"] * 30_000}
    r = client.post("/api/position", json=big)
    assert r.status_code == 413 and "100,000 bytes" in one_line_error(r)
    # Without a length (chunked), the body is counted as it comes.
    chunks = (b" " * 10_000 for _ in range(20))
    r = client.post("/api/position", content=chunks, headers={"content-type": "application/json"})
    assert r.status_code == 413
    # Another Host (a page elsewhere reaching the studio through DNS) is refused.
    r = client.get("/api/info", headers={"host": "evil.example:8000"})
    assert r.status_code == 400 and "'evil.example'" in one_line_error(r)


WORDED = [
    ({"position": 5}, "position: must be a string, not 5"),
    ({"position": "k29K b - 1", "extra": 1},
     'the request has no field "extra" (its fields: position, board, hands, side_to_move, variant, defender, '
     'moves, kanji, standalone)'),
    ({"board": ["KKKK"]}, "board[0]: must be at most 3 characters long, not 4"),
    ({"board": ["K"], "hands": {"red": "P"}}, "hands: the key \"red\" must be 'black' or 'white'"),
    ({"position": "k29K b - 1", "moves": "1-2"}, 'moves: must be a list, not "1-2"'),
    ({"position": "k29K b - 1", "a": 1, "b": 2}, 'the request has no field "a" (its fields: position, board, '
     'hands, side_to_move, variant, defender, moves, kanji, standalone) (and 1 more error)'),
]


@pytest.mark.parametrize("body,said", WORDED, ids=[str(i) for i in range(len(WORDED))])
def test_a_body_that_does_not_fit_is_said_in_words(client, body, said):
    assert one_line_error(client.post("/api/position", json=body)) == said


def test_nested_fields_and_other_endpoints_are_said_in_words(client):
    cases = [
        ("/api/solve", {}, "problem is missing: it is required"),
        ("/api/solve", {"problem": {}}, "problem.position is missing: it is required"),
        ("/api/solve", {"problem": {"position": "k1P2H25 b G", "colour": "red"}},
         'problem has no field "colour" (its fields: position, variant, defender, length, solution, id, title, '
         'author, tags, notes)'),
        ("/api/solve", {"problem": {"position": "k1P2H25 b G"}, "limits": {"time_limit": -1}},
         "limits.time_limit: must be more than 0, not -1"),
        ("/api/verify", {"problem": {"position": "k1P2H25 b G", "id": "../x"}},
         "problem.id: must be letters, digits, '_', '.' and '-', beginning with a letter or a digit, not \"../x\""),
        ("/api/verify", {"problem": {"position": "k1P2H25 b G", "tags": ["a,b"]}},
         'problem.tags[0]: must be one line without commas, not "a,b"'),
        ("/api/compose", {"methods": []}, "methods: must hold at least 1 item, not 0"),
        ("/api/compose", {"variant": "chess"}, "variant: must be 'ito' or 'rutherford', not \"chess\""),
    ]
    for path, body, said in cases:
        assert one_line_error(client.post(path, json=body)) == said, body
    assert one_line_error(client.get("/api/nothing")) == "there is nothing at /api/nothing"
    assert one_line_error(client.put("/api/position", json={})) == "/api/position does not take PUT (it takes POST)"


def test_security_headers_and_the_page(client):
    r = client.get("/")
    assert r.status_code == 200 and "tsume studio" in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert client.get("/static/play.js").status_code == 200
    assert ".tsume-board" in client.get("/board.css").text
    schema = client.get("/openapi.json").json()
    for path in ("/api/position", "/api/solve", "/api/verify", "/api/compose", "/api/jobs/{job_id}",
                 "/api/collections", "/api/collections/{name}"):
        assert path in schema["paths"], path
    assert client.get("/docs").status_code == 404  # Swagger UI would load scripts from a CDN


# --- jobs -------------------------------------------------------------------------------


def test_a_solve_job_answers_with_the_json_of_tsume_solve(client):
    r = client.post("/api/solve", json={"problem": {"position": "H1kf1P1c2K20 b PHG 1"}})
    assert r.status_code == 202
    view = wait(client, r.json()["id"])
    assert view["state"] == "done" and view["kind"] == "solve", view
    want = cli_json("solve", "H1kf1P1c2K20 b PHG 1")
    assert without_stats(view["result"]) == without_stats(want)
    assert view["result"]["stats"]["nodes"] == want["stats"]["nodes"]


def test_a_verify_job_answers_with_the_json_of_tsume_verify(client):
    pr = next(p for p in load(Path(__file__).parent.parent / "problems" / "flawed.tsume") if p.id == "ito-yozume-1")
    body = {"problem": {"position": pr.position, "variant": pr.variant, "id": pr.id, "defender": pr.defender}}
    view = wait(client, client.post("/api/verify", json=body).json()["id"])
    assert view["state"] == "done", view
    want = cli_json("verify", "--file", "flawed", "--id", "ito-yozume-1")
    got = view["result"]["problems"][0]
    # The command line's JSON, and what became of the certificate.
    assert got.pop("certificate") == {"certified": False, "reason": "not certified: the problem is unsound"}
    assert without_stats(got) == without_stats(want["problems"][0])
    assert "yozume" in {f["kind"] for f in got["findings"]}
    r = client.get(f"/api/jobs/{view['id']}/certificate")
    assert r.status_code == 409 and "no certificate" in r.json()["error"]


def test_a_sound_problem_verified_is_certified_and_its_certificate_downloads(client):
    from tsume.certificate.check import check_certificate, load as load_certificate

    pr = next(p for p in load(Path(__file__).parent.parent / "problems" / "examples.tsume") if p.id == "ito-05")
    body = {"problem": {"position": pr.position, "variant": pr.variant, "id": pr.id, "defender": pr.defender}}
    view = wait(client, client.post("/api/verify", json=body).json()["id"])
    assert view["state"] == "done", view
    got = view["result"]["problems"][0]
    assert got["verdict"] == "sound" and got["certificate"]["certified"] is True
    r = client.get(f"/api/jobs/{view['id']}/certificate")
    assert r.status_code == 200 and r.headers["content-type"] == "application/gzip"
    assert 'filename="ito-05.cert"' in r.headers["content-disposition"]
    assert got["certificate"]["file_name"] == "ito-05.cert"
    assert len(r.content) == got["certificate"]["bytes"] and check_certificate(r.content).accepted
    assert load_certificate(r.content)["problems"][0]["position"] == pr.problem().fen
    solve_job = client.post("/api/solve", json={"problem": body["problem"]}).json()
    wait(client, solve_job["id"])
    assert client.get(f"/api/jobs/{solve_job['id']}/certificate").status_code == 409


def test_a_searchs_progress_says_when_its_table_filled_up(client):
    body = {"problem": {"position": LONG}, "limits": {"time_limit": 120, "memory": 16}}
    job = client.post("/api/solve", json=body).json()
    deadline = time.monotonic() + 60
    progress: dict = {}
    while time.monotonic() < deadline and not progress.get("gc_runs"):
        time.sleep(0.1)
        progress = client.get(f"/api/jobs/{job['id']}").json()["progress"]
    client.delete(f"/api/jobs/{job['id']}")
    assert progress["gc_runs"] > 0 and progress["nodes"] > 0


def test_jobs_run_side_by_side_without_blocking_and_are_cancelled(client):
    body = {"problem": {"position": LONG}, "limits": {"time_limit": 120}}
    first = client.post("/api/solve", json=body).json()
    second = client.post("/api/solve", json=body).json()
    third = client.post("/api/solve", json=body).json()  # two run at once: this one waits
    time.sleep(1.5)
    views = [client.get(f"/api/jobs/{j['id']}").json() for j in (first, second, third)]
    assert [v["state"] for v in views] == ["running"] * 3
    assert views[0]["progress"].get("nodes", 0) > 0 and views[1]["progress"].get("nodes", 0) > 0
    assert views[2]["progress"] == {"queued": True, "waiting_for": 1}
    assert len(client.runner.live_pids()) == 2
    # The server answers at once while two searches run.
    start = time.perf_counter()
    assert client.post("/api/position", json={"position": "k1P2H25 b G"}).status_code == 200
    assert time.perf_counter() - start < 1.0
    # One more fills the four the server takes; a fifth is refused.
    fourth = client.post("/api/solve", json=body).json()
    r = client.post("/api/solve", json=body)
    assert r.status_code == 429 and "unfinished" in one_line_error(r)
    pids = client.runner.live_pids()
    for job in (third, fourth, first, second):
        assert client.delete(f"/api/jobs/{job['id']}").json()["state"] == "cancelled"
    deadline = time.monotonic() + 5
    while client.runner.live_pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.runner.live_pids() == []
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    assert client.get(f"/api/jobs/{third['id']}").json()["elapsed"] is None  # it never started


def test_a_job_past_its_time_is_ended_by_the_watchdog(monkeypatch):
    monkeypatch.setattr(jobs_module, "GRACE_SECONDS", 0.3)
    runner = JobRunner(parallel=1, max_jobs=1)
    runner.start()
    try:
        # No time limit for the search itself: only the watchdog can end it.
        view = runner.submit("solve", {"problem": {"position": LONG}, "limits": {}}, 0.5)
        deadline = time.monotonic() + 10
        while runner.view(view["id"])["state"] == "running" and time.monotonic() < deadline:
            time.sleep(0.05)
        ended = runner.view(view["id"])
        assert ended["state"] == "failed" and "past its time limit" in ended["error"], ended
        deadline = time.monotonic() + 5
        while runner.live_pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert runner.live_pids() == []
    finally:
        runner.shutdown()


def test_shutdown_as_jobs_end_on_their_own_races_with_nothing():
    """The server stopping just as short jobs end: the monitor thread and
    the shutdown both see processes go.  Sixty stops at varied moments (a
    runner whose threads share a process carelessly fails one in four)."""
    for round_ in range(60):
        runner = JobRunner(parallel=2, max_jobs=4)
        runner.start()
        ids = [runner.submit("solve", {"problem": {"position": "k1P2H25 b G"}, "limits": {}}, 60)["id"]
               for _ in range(4)]
        time.sleep((0, 0.02, 0.05)[round_ % 3])
        runner.shutdown()
        assert runner.live_pids() == [], round_
        assert all(runner.view(i)["state"] in ("done", "cancelled") for i in ids), round_


def test_shutdown_while_workers_end_at_different_times():
    """Stopping the server while one worker is slow to end (here: stopped,
    so that only SIGKILL ends it) and the others end at once: the monitor
    notices those go while the shutdown waits for the slow one, and the
    shutdown still ends everything without an error."""
    import signal

    runner = JobRunner(parallel=3, max_jobs=4)
    runner.start()
    try:
        body = {"problem": {"position": LONG}, "limits": {}}
        ids = [runner.submit("solve", body, 60)["id"] for _ in range(4)]  # three run, one waits
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not all(runner.view(i)["progress"].get("nodes") for i in ids[:3]):
            time.sleep(0.05)
        pids = runner.live_pids()
        assert len(pids) == 3 and runner.view(ids[3])["progress"].get("queued")
        os.kill(pids[0], signal.SIGSTOP)
    finally:
        started = time.monotonic()
        runner.shutdown()
    took = time.monotonic() - started
    assert jobs_module.KILL_AFTER <= took < jobs_module.KILL_AFTER + 3, took
    assert runner.live_pids() == []
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    views = [runner.view(i) for i in ids]
    assert [(v["state"], v["error"]) for v in views] == [("cancelled", "the server stopped")] * 4
    assert views[3]["elapsed"] is None  # the waiting one never started
    with pytest.raises(jobs_module.Busy, match="stopping"):
        runner.submit("solve", body, 60)


def test_a_search_limit_is_reported_as_unknown(client):
    body = {"problem": {"position": LONG}, "limits": {"nodes": 2000}}
    view = wait(client, client.post("/api/solve", json=body).json()["id"])
    assert view["state"] == "done" and view["result"]["status"] == "unknown"
    assert view["result"]["stats"]["nodes"] <= 2000 + 1024


def test_a_play_job_gives_the_tree_and_its_frames(client):
    view = wait(client, client.post("/api/play", json={"problem": {"position": "H1kf1P1c2K20 b PHG 1"}}).json()["id"])
    assert view["state"] == "done"
    tree = view["result"]
    assert tree["status"] == "mate" and tree["length"] == 5 and tree["nodes"][0]["hint"] == "G*7"
    assert "n0" in tree["frames"] and tree["frames"]["n0"].startswith("<svg")


def test_compose_then_save_the_run_under_the_root(client, root):
    body = {"variant": "ito", "min_length": 1, "max_length": 3, "count": 2, "methods": ["mutate"], "time_limit": 120}
    job = client.post("/api/compose", json=body).json()
    view = wait(client, job["id"], timeout=150)
    assert view["state"] == "done", view
    problems = view["result"]["problems"]
    assert len(problems) == 2 and view["result"]["summary"]["accepted"] == 2
    assert set(problems[0]) == {"id", "variant", "position", "defender", "length", "solution", "score", "stars",
                                "features", "themes", "provenance"}  # tsume compose --json's objects
    saved = client.post(f"/api/jobs/{job['id']}/save", json={"file": "composed.tsume"}).json()
    assert saved == {"file": "composed.tsume", "count": 2}
    assert [p.id for p in load(root / "composed.tsume")] == [p["id"] for p in problems]
    r = client.post(f"/api/jobs/{job['id']}/save", json={"file": "composed.tsume"})
    assert r.status_code == 409
    assert client.post(f"/api/jobs/{job['id']}/save", json={"file": "composed.tsume", "replace": True}).status_code == 200


def test_a_booklet_job_makes_a_self_contained_page_with_its_play_mode(client):
    body = {"collection": "examples", "ids": ["ito-05"], "play": True}
    job = client.post("/api/booklet", json=body).json()
    view = wait(client, job["id"])
    assert view["state"] == "done" and view["result"]["problems"] == 1
    r = client.get(f"/api/jobs/{job['id']}/booklet")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert 'class="play-data"' in r.text and "createPlayer" in r.text and "http" not in r.text.split("<body>")[1][:0]


# --- files ------------------------------------------------------------------------------


def test_files_are_read_only_under_the_root_or_bundled(client, root, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.tsume").write_text("[s]\nposition: k1P2H25 b G\n", encoding="utf-8")
    (root / "link.tsume").symlink_to(outside / "secret.tsume")
    (root / "linkdir").symlink_to(outside)
    (root / ".hidden.tsume").write_text("[h]\nposition: k1P2H25 b G\n", encoding="utf-8")
    for name in ["link.tsume", "linkdir/secret.tsume", "../outside/secret.tsume", "%2e%2e/x.tsume",
                 str(outside / "secret.tsume").lstrip("/"), ".hidden.tsume", "a\\b.tsume", "x.txt"]:
        r = client.get(f"/api/collections/{name}")
        assert r.status_code in (403, 404), (name, r.status_code)
        assert "secret" not in r.text or "s]" not in r.text
        one_line_error(r)
    r = client.get(f"/api/collections/{outside}/secret.tsume")  # an absolute path
    assert r.status_code in (403, 404)
    names = [c["name"] for c in client.get("/api/collections").json()["collections"]]
    assert "examples" in names and "link.tsume" not in names and ".hidden.tsume" not in names
    r = client.put("/api/collections/examples/problems/x", json={"problem": {"position": "k1P2H25 b G"}})
    assert r.status_code == 403 and "read only" in one_line_error(r)
    r = client.put("/api/collections/link.tsume/problems/x", json={"problem": {"position": "k1P2H25 b G"}})
    assert r.status_code == 403
    assert (outside / "secret.tsume").read_text(encoding="utf-8").count("[") == 1  # untouched


def test_a_bundled_collection_under_the_root_is_listed_once(tmp_path):
    from tsume.collection import bundled_names, bundled_path
    from tsume.studio.store import Store

    # A root holding the bundled files themselves: tsume's own checkout (or its installed folder).
    root = bundled_path("examples").resolve().parents[1]
    (tmp_path / "mine.tsume").write_text("[one]\nposition: k1P2H25 b G\n", encoding="utf-8")
    listed = Store(root).listing()
    files = [bundled_path(c["name"]).resolve() if c["bundled"] else (root / c["name"]).resolve() for c in listed]
    assert len(files) == len(set(files)), listed
    examples = next(c for c in listed if c["name"] == "examples")
    assert examples["bundled"] and examples["path"] == bundled_path("examples").resolve().relative_to(root).as_posix()
    assert [c["name"] for c in listed if c["bundled"]] == bundled_names()
    # Elsewhere, nothing changes: the bundled ones, then the root's files.
    assert Store(tmp_path).listing() == [{"name": n, "bundled": True, "writable": False} for n in bundled_names()] + \
        [{"name": "mine.tsume", "bundled": False, "writable": True}]


def test_saving_a_problem_is_atomic_and_reads_back(client, root):
    (root / "mine.tsume").write_text("# My problems\n# second line\n\n[one]\nposition: k1P2H25 b G\nlength: 1\n",
                                     encoding="utf-8")
    body = {"problem": {"position": "H1kf1P1c2K20 b PHG 1", "length": 5, "title": "Three drops",
                        "solution": ["G*7", "3-2", "H*5", "2-1", "P*2"], "tags": ["drop"]}}
    r = client.put("/api/collections/mine.tsume/problems/two", json=body)
    assert r.json() == {"file": "mine.tsume", "count": 2, "id": "two"}
    problems = load(root / "mine.tsume")
    assert [p.id for p in problems] == ["one", "two"] and problems[1].title == "Three drops"
    assert (root / "mine.tsume").read_text(encoding="utf-8").startswith("# My problems\n# second line\n")
    assert client.put("/api/collections/mine.tsume/problems/two", json=body).status_code == 409
    body["problem"]["title"] = "Changed"
    assert client.put("/api/collections/mine.tsume/problems/two", json={**body, "replace": True}).status_code == 200
    assert load(root / "mine.tsume")[1].title == "Changed"
    r = client.put("/api/collections/mine.tsume/problems/bad", json={"problem": {"position": "k1K1K26 b - 1"}})
    one_line_error(r)
    assert [p.id for p in load(root / "mine.tsume")] == ["one", "two"]
    assert not [f for f in os.listdir(root) if ".tsume-save-" in f]  # no temporary left behind
    listed = client.get("/api/collections/mine.tsume").json()
    assert listed["count"] == 2 and listed["problems"][1]["title"] == "Changed" and not listed["bundled"]


# --- the fuzz ---------------------------------------------------------------------------


def test_the_api_fuzzed_from_its_own_schema_gives_no_server_error(tmp_path):
    schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in the test extra")
    from hypothesis import HealthCheck, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis.checks import not_a_server_error
    from schemathesis.generation import GenerationMode
    from schemathesis.python.asgi import shutdown_lifespans

    (tmp_path / "mine.tsume").write_text("[one]\nposition: k1P2H25 b G\n", encoding="utf-8")
    # Jobs the fuzz starts are short (one second at most) and few.
    app = create_app(tmp_path, hosts=["testserver"], parallel=1, max_jobs=2, max_seconds=1)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    seen: dict[int, int] = {}
    try:
        for result in schema.get_all_operations():
            operation = result.ok()
            # From the schema's own examples (valid problems: deep into the library), then
            # anything the schema allows, then what it does not.
            strategies = [(None, s) for s in schema.get_strategies_from_examples(operation)]
            strategies += [(mode, operation.as_strategy(generation_mode=mode))
                           for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)]
            for mode, strategy in strategies:

                @settings(max_examples=25, deadline=None, database=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
                @given(case=strategy)
                def call(case):
                    response = case.call_and_validate(checks=[not_a_server_error])
                    seen[response.status_code] = seen.get(response.status_code, 0) + 1
                    if response.status_code >= 400:
                        one_line_error(response)

                try:
                    call()
                except Unsatisfiable:  # nothing negative to make (no parameters, no body)
                    assert mode == GenerationMode.NEGATIVE
    finally:
        shutdown_lifespans()
    print("status codes:", dict(sorted(seen.items())))
    assert not any(code >= 500 for code in seen), seen
    assert sum(seen.values()) > 300 and any(200 <= code < 300 for code in seen), seen


def test_the_api_with_the_projects_fuzz_inputs_gives_no_server_error(tmp_path):
    """Mutated real positions, moves, variants and hands (tests/fuzz_inputs.py),
    which reach far deeper than schema-made strings: a 4xx with one line, or an answer."""
    import random

    from fuzz_inputs import Generator

    def plain(value):  # what JSON can carry of a fuzzed value
        return value if value is None or isinstance(value, (str, int, float, bool, list)) else str(value)

    g = Generator(random.Random(35))
    app = create_app(tmp_path, hosts=["testserver"], parallel=1, max_jobs=2, max_seconds=2)
    codes: dict[int, int] = {}
    with TestClient(app) as c:
        for i in range(600):
            variant, text = g.position()
            pos = None
            try:
                pos = Position(text, variant)
            except Exception:  # noqa: BLE001 - a position the fuzz broke: the API must refuse it
                pass
            problem = {"position": text, "variant": plain(g.variant(variant)), "defender": plain(g.defender_hand())}
            kind = i % 4
            if kind == 0:
                body = {**problem, "moves": [plain(g.move(pos)) for _ in range(g.rng.randint(0, 3))]}
                r = c.post("/api/position", json=body)
            elif kind == 1:
                r = c.post(g.rng.choice(["/api/solve", "/api/verify", "/api/play"]),
                           json={"problem": problem, "limits": {"nodes": 2000}})
                if r.status_code == 202:
                    c.delete(f"/api/jobs/{r.json()['id']}")
            elif kind == 2:
                r = c.put(f"/api/collections/fuzz.tsume/problems/p{i}",
                          json={"problem": {**problem, "solution": [plain(g.move(pos))]}, "replace": True})
            else:
                board = list(text.split(" ")[0]) if text else []
                r = c.post("/api/position", json={"board": board[:64] or None, "variant": problem["variant"],
                                                  "hands": {"black": text[-3:], "white": "-"}})
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
            assert r.status_code < 500, (i, r.text[:300])
            if r.status_code >= 400:
                one_line_error(r)
    assert codes.get(200, 0) + codes.get(202, 0) > 40 and codes.get(422, 0) > 100, codes
    if (tmp_path / "fuzz.tsume").exists():
        load(tmp_path / "fuzz.tsume")  # what was saved still reads


def test_a_bundled_name_never_reads_a_file_of_the_servers_folder(client, tmp_path, monkeypatch):
    # A file named like a bundled collection in the folder the server runs in is not read.
    (tmp_path / "examples").write_text("[decoy]\nposition: k1P2H25 b G\n", encoding="utf-8")
    (tmp_path / "examples.tsume").write_text("[decoy]\nposition: k1P2H25 b G\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in ("examples", "examples.tsume"):
        data = client.get(f"/api/collections/{name}").json()
        assert "decoy" not in {p["id"] for p in data.get("problems", [])}, name
    assert client.get("/api/collections/examples").json()["count"] == 6
