"""The studio's web application: the JSON API under ``/api/`` and the page.

An ASGI application made with FastAPI (docs/studio.md says why): request
bodies are pydantic models (:mod:`tsume.studio.models`), so a malformed
request is refused with a 422 and an OpenAPI schema comes for free
(``/openapi.json``).  Every answer is JSON; every error is ``{"error": "one
line"}`` with a 4xx status -- never a traceback.  Long work runs as jobs
(:mod:`tsume.studio.jobs`); their results are the JSON the command line
prints with ``--json`` (:mod:`tsume.studio.calls`).

What the server refuses: a request body over ``max_body`` bytes (413), more
unfinished jobs than ``max_jobs`` (429), a file outside the root or the
bundled collections (403, :mod:`tsume.studio.store`), and any ``Host``
header but its own (400; a web page elsewhere cannot reach it through DNS
tricks).  The page may fetch only from this server (Content-Security-Policy).
"""

from __future__ import annotations

import http
import inspect
import logging
import shutil
import tempfile
import typing
import uuid
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..certificate import file_name
from ..collection import Record
from ..errors import TsumeError
from ..svg import STYLE
from ..variant import VARIANTS
from . import calls
from .jobs import DONE, Busy, JobRunner
from .models import (MEMORY_LIMITS, TIME_LIMITS, BookletIn, ComposeIn, LimitsIn, PlayIn, PositionIn, SaveProblemIn,
                     SaveRunIn, SolveIn, VerifyIn, explain)
from .positions import examine, position_text
from .store import Store, StoreError

__all__ = ["create_app", "MAX_BODY", "STATIC"]

#: The largest request body taken, in bytes (a collection of a few thousand problems).
MAX_BODY = 1_000_000
#: The page's files: HTML, style sheets and plain JavaScript modules, no build step.
STATIC = Path(__file__).resolve().parent / "static"

log = logging.getLogger("tsume.studio")

_SECURITY_HEADERS = [
    (b"content-security-policy",
     # (Inline styles: the diagrams size hand pieces with a style attribute.)
     b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


class _Guard:
    """ASGI middleware, outermost: refuse a ``Host`` not in ``hosts`` (400;
    ``"*"`` takes any), a body over ``limit`` bytes (413, also when it comes
    in chunks without a length: the body is read here first, and handed on
    whole), and add the security headers."""

    def __init__(self, app: Any, limit: int, hosts: list[str]) -> None:
        self.app = app
        self.limit = limit
        self.hosts = {h.lower() for h in hosts}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + _SECURITY_HEADERS}
            await send(message)

        host = _host(scope)
        if "*" not in self.hosts and host not in self.hosts:
            names = " or ".join(sorted(h for h in self.hosts if not h.startswith("[")))
            refused = _json(400, f"the Host header names {host!r}, not this studio ({names}): refused")
            await refused(scope, receive, guarded_send)
            return
        too_big = _json(413, f"the request body is over {self.limit:,} bytes, the most the studio takes")
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await too_big(scope, receive, guarded_send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await too_big(scope, receive, guarded_send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        handed = False

        async def replay() -> dict:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, guarded_send)


def _host(scope: Any) -> str:
    """The name a request's Host header gives, without its port ("[::1]" kept whole)."""
    value = next((v for k, v in scope.get("headers", []) if k == b"host"), b"").decode("latin-1").strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.split(":")[0]


def _json(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())[:500]}, status_code=status)


def _validation_message(request: Request, exc: RequestValidationError) -> str:
    """What FastAPI and pydantic found wrong with a request, in one sentence
    (models.explain), with the fields of the endpoint's body to name."""
    model = None
    endpoint = getattr(request.scope.get("route"), "endpoint", None)
    if endpoint is not None:
        try:
            model = typing.get_type_hints(endpoint).get("body")
        except Exception:  # noqa: BLE001 - no names to offer is no reason to fail
            model = None
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        model = None
    return explain(exc.errors(), model, getattr(exc, "body", None), request.headers.get("content-type"))


def _seconds(kind: str, given: float | None, cap: float | None) -> float:
    """A job's time limit: the request's, else the studio's default for its
    kind (models.TIME_LIMITS), never more than the kind's most nor the server's cap."""
    default, most = TIME_LIMITS[kind]
    if cap is not None:
        default, most = min(default, cap), min(most, cap)
    return min(given or default, most)


def _limits(kind: str, given: LimitsIn, cap: float | None) -> dict[str, Any]:
    """A job's limits: the request's, else the studio's defaults."""
    default_memory, most_memory = MEMORY_LIMITS
    return {"time_limit": _seconds(kind, given.time_limit, cap), "nodes": given.nodes,
            "memory": min(given.memory or default_memory, most_memory)}


def _variants() -> list[dict[str, Any]]:
    """What the editor needs to know of each game: its pieces and board lengths."""
    out = []
    for v in VARIANTS.values():
        out.append({
            "name": v.name, "title": v.title, "board_length": v.board_length, "min_length": v.min_length,
            "max_length": v.max_length, "start": v.start, "drop_promoted": v.drop_promoted,
            "pieces": [{"letter": k.letter, "name": k.unpromoted.name, "count": k.count, "royal": k.royal,
                        "promoted": k.promoted.name if k.promoted is not None else None} for k in v.kinds],
        })
    return out


def create_app(root: str | Path, *, parallel: int = 2, max_jobs: int = 8, keep: int = 64, max_body: int = MAX_BODY,
               hosts: list[str] | None = None, max_seconds: float | None = None, on_ready: Any = None) -> FastAPI:
    """The studio's ASGI application serving the files under ``root``.

    ``parallel`` jobs run at once, ``max_jobs`` may be unfinished, ``keep``
    finished ones are remembered; ``hosts`` are the Host names accepted
    (default: the loopback names); ``max_seconds`` caps every job's time
    limit; ``on_ready()`` is called once the job runner is up.
    """
    store = Store(root)
    runner = JobRunner(parallel=parallel, max_jobs=max_jobs, keep=keep)
    work = Path(tempfile.mkdtemp(prefix="tsume-studio-"))

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        runner.start()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            runner.shutdown()
            shutil.rmtree(work, ignore_errors=True)

    options: dict[str, Any] = {}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters:
        # No traces, metrics or logs leave the studio, whatever is installed beside it.
        options["telemetry"] = {"tracing": False, "metrics": False, "logs": False}
    app = FastAPI(title="tsume studio", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="The JSON API of `tsume serve` (docs/studio.md).", **options)
    app.state.runner, app.state.store = runner, store

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _json(422, _validation_message(request, exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        # Starlette's own refusals say only their status's name: say what was asked.
        default = message == http.HTTPStatus(exc.status_code).phrase if 100 <= exc.status_code < 600 else False
        if default and exc.status_code == 404:
            message = f"there is nothing at {request.url.path[:200]}"
        elif default and exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            message = f"{request.url.path[:200]} does not take {request.method}" + (f" (it takes {allowed})" if allowed else "")
        return _json(exc.status_code, message)

    @app.exception_handler(StoreError)
    async def _store(request: Request, exc: StoreError) -> JSONResponse:
        return _json(exc.status, str(exc))

    @app.exception_handler(TsumeError)
    async def _tsume(request: Request, exc: TsumeError) -> JSONResponse:
        return _json(422, str(exc))

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        return _json(429, str(exc))

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error on %s %s: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
        return _json(500, f"internal error: {type(exc).__name__} (please report it)")

    def missing(what: str) -> StarletteHTTPException:
        return StarletteHTTPException(404, what)

    # --- the page ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/board.css", include_in_schema=False)
    def board_css() -> Response:
        # The diagrams' own style sheet (tsume.svg.STYLE), once for the page.
        css = STYLE.removeprefix("<style>").removesuffix("</style>")
        return Response(css, media_type="text/css")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- positions --------------------------------------------------------------------------

    @app.get("/api/info", summary="The server: version, limits, variants")
    def info() -> dict[str, Any]:
        return {"version": __version__, "parallel": parallel, "max_jobs": max_jobs, "max_body": max_body,
                "limits": {"time": {k: {"default": d, "most": m} for k, (d, m) in TIME_LIMITS.items()},
                           "memory": {"default": MEMORY_LIMITS[0], "most": MEMORY_LIMITS[1]}},
                "variants": _variants()}

    @app.post("/api/position", summary="Check and normalise a position; its diagram and legal moves")
    def position(body: PositionIn) -> dict[str, Any]:
        if body.position is not None:
            text = body.position
        elif body.board is not None:
            text = position_text(body.board, body.hands or {}, body.side_to_move)
        else:
            raise TsumeError("give a position string, or the board (and hands, side to move)")
        return examine(text, body.variant, body.defender, list(body.moves), kanji=body.kanji,
                       standalone=body.standalone)

    # --- jobs -------------------------------------------------------------------------------

    def submit(kind: str, payload: dict, seconds: float) -> JSONResponse:
        view = runner.submit(kind, payload, seconds)
        return JSONResponse(view, status_code=202)

    @app.post("/api/solve", status_code=202, summary="Start solving a problem (a job)")
    def solve(body: SolveIn) -> JSONResponse:
        calls.check_problem(body.problem.model_dump())
        limits = _limits("solve", body.limits, max_seconds)
        return submit("solve", {"problem": body.problem.model_dump(), "limits": limits,
                                "max_length": body.max_length}, limits["time_limit"])

    @app.post("/api/verify", status_code=202, summary="Start verifying a problem (a job)")
    def verify(body: VerifyIn) -> JSONResponse:
        calls.check_problem(body.problem.model_dump())
        limits = _limits("verify", body.limits, max_seconds)
        payload = {**body.model_dump(exclude={"limits"}), "limits": limits,
                   "certificate_out": str(work / f"certificate-{uuid.uuid4().hex}.cert")}
        return submit("verify", payload, limits["time_limit"])

    @app.post("/api/play", status_code=202, summary="Start building a problem's play tree (a job)")
    def play(body: PlayIn) -> JSONResponse:
        calls.check_problem(body.problem.model_dump())
        limits = _limits("play", body.limits, max_seconds)
        return submit("play", {"problem": body.problem.model_dump(), "limits": limits, "kanji": body.kanji},
                      limits["time_limit"])

    @app.post("/api/compose", status_code=202, summary="Start composing problems (a job)")
    def compose(body: ComposeIn) -> JSONResponse:
        payload = body.model_dump()
        if payload["min_length"] > payload["max_length"]:
            raise TsumeError("min_length must not exceed max_length")
        payload["time_limit"] = _seconds("compose", payload["time_limit"], max_seconds)
        # The composer bounds each candidate by nodes; the worker's address space is capped too.
        payload["limits"] = {"memory": MEMORY_LIMITS[0]}
        calls.check_compose(payload)
        payload["out"] = str(work / f"compose-{uuid.uuid4().hex}.tsume")
        return submit("compose", payload, payload["time_limit"])

    @app.post("/api/booklet", status_code=202, summary="Start making an HTML booklet of a collection (a job)")
    def booklet(body: BookletIn) -> JSONResponse:
        path, problems = store.read(body.collection)
        if body.ids:
            known = {p.id for p in problems}
            unknown = [i for i in body.ids if i not in known]
            if unknown:
                raise StoreError(f"{body.collection}: no problem [{unknown[0]}]", 404)
        limits = _limits("booklet", body.limits, max_seconds)
        payload = {**body.model_dump(exclude={"limits"}), "limits": limits, "collection_path": str(path),
                   "out": str(work / f"booklet-{uuid.uuid4().hex}.html")}
        return submit("booklet", payload, limits["time_limit"])

    @app.get("/api/jobs", summary="Every job the server remembers (without results)")
    def jobs() -> dict[str, Any]:
        return {"jobs": runner.views()}

    @app.get("/api/jobs/{job_id}", summary="A job: state, progress, result")
    def job(job_id: str) -> dict[str, Any]:
        view = runner.view(job_id)
        if view is None:
            raise missing(f"no job {job_id[:40]!r}")
        return view

    @app.delete("/api/jobs/{job_id}", summary="Cancel a job")
    def cancel(job_id: str) -> dict[str, Any]:
        view = runner.cancel(job_id)
        if view is None:
            raise missing(f"no job {job_id[:40]!r}")
        return view

    def finished_output(job_id: str, kind: str) -> Path:
        view = runner.view(job_id)
        payload = runner.payload(job_id)
        if view is None or payload is None:
            raise missing(f"no job {job_id[:40]!r}")
        if view["kind"] != kind:
            raise StarletteHTTPException(409, f"job {job_id[:40]!r} is a {view['kind']} job, not a {kind} job")
        out = Path(payload["out"])
        if (kind == "booklet" and view["state"] != DONE) or not out.is_file():
            raise StarletteHTTPException(409, f"job {job_id[:40]!r} has no output (it is {view['state']})")
        return out

    @app.get("/api/jobs/{job_id}/booklet", summary="The HTML booklet a booklet job made (a download)")
    def booklet_file(job_id: str) -> FileResponse:
        out = finished_output(job_id, "booklet")
        return FileResponse(out, media_type="text/html", filename="booklet.html")

    @app.get("/api/jobs/{job_id}/certificate", summary="The certificate a verify job wrote (a download)")
    def certificate_file(job_id: str) -> FileResponse:
        view, payload = runner.view(job_id), runner.payload(job_id)
        if view is None or payload is None:
            raise missing(f"no job {job_id[:40]!r}")
        if view["kind"] != "verify":
            raise StarletteHTTPException(409, f"job {job_id[:40]!r} is a {view['kind']} job, not a verify job")
        out = Path(payload["certificate_out"])
        if view["state"] != DONE or not out.is_file():
            raise StarletteHTTPException(409, f"job {job_id[:40]!r} has no certificate (it is {view['state']})")
        return FileResponse(out, media_type="application/gzip", filename=file_name(payload["problem"].get("id")))

    @app.post("/api/jobs/{job_id}/save", summary="Save what a compose job made into a collection under the root")
    def save_run(job_id: str, body: SaveRunIn) -> dict[str, Any]:
        view = runner.view(job_id)
        if view is not None and view["state"] == "running":
            raise StarletteHTTPException(409, "the job is still running: cancel it or wait for it")
        out = finished_output(job_id, "compose")
        return store.save_text(body.file, out.read_text(encoding="utf-8"), replace=body.replace)

    # --- collections ------------------------------------------------------------------------

    @app.get("/api/collections", summary="The bundled collections and the .tsume files under the root")
    def collections() -> dict[str, Any]:
        return {"collections": store.listing()}

    @app.get("/api/collections/{name:path}", summary="A collection's problems, as `tsume list --json`")
    def collection(name: str) -> dict[str, Any]:
        _path, problems = store.read(name)
        return {"file": name, "count": len(problems), "bundled": store.is_bundled(name),
                "problems": [p.to_dict() for p in problems]}

    @app.put("/api/collections/{name:path}/problems/{pid}", summary="Save a problem into a collection under the root")
    def save_problem(name: str, pid: str, body: SaveProblemIn) -> dict[str, Any]:
        fields = body.problem.model_dump()
        if fields.get("id") not in (None, pid):
            raise TsumeError(f"the problem's id {fields['id']!r} is not the {pid[:40]!r} of the path")
        fields["id"] = pid
        calls.check_problem(fields)
        problem: Record = calls.problem(fields)
        return store.save_problem(name, problem, replace=body.replace)

    trusted = hosts if hosts is not None else ["127.0.0.1", "localhost", "[::1]"]
    app.add_middleware(_Guard, limit=max_body, hosts=trusted)  # (added last: the outermost)
    return app
