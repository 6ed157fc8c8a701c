"""Jobs: bounded, cancellable work that runs beside the server, several at once.

Solving, verifying, composing, building a play tree or a booklet can take
seconds to hours, and the search holds Python's GIL while it runs.  So every
job runs in a **process of its own** (:mod:`tsume.studio.worker`), started
from a fork server that has the package already imported (a start costs a
tenth of a second, not an interpreter's start-up), and the server stays free
to answer the page.  A job is:

* **bounded**: the library's own limits (time, nodes, memory) stop its
  searches, and a watchdog here ends any job still running
  :data:`GRACE_SECONDS` past its time limit; the worker's address space is
  capped as a backstop;
* **cancellable**: cancelling ends the job's whole process group (the
  composer's worker processes with it) -- SIGTERM, then SIGKILL after
  :data:`KILL_AFTER` seconds;
* **parallel**: up to ``parallel`` jobs run at once; more wait their turn
  (state ``running``, progress ``{"queued": true}``); past ``max_jobs``
  unfinished jobs a new one is refused (:class:`Busy`);
* **stopped with the server**: :meth:`JobRunner.shutdown` ends every job.

Threads: the server's threads submit, read and cancel jobs; one monitor
thread reads the workers' pipes and watches the clock.  A lock guards every
job, and the monitor alone ends a process's life: it alone joins a worker,
closes its pipe and forgets them.  Any thread may *signal* a worker (with the
lock held, so that the process is still the job's); none but the monitor
waits for one, so no thread ever finds a process gone from under it.

Everything the rest of the studio knows about jobs is this module's public
face (:class:`JobRunner`, :class:`Job`, the states): a runner on threads can
replace the processes once the search releases the GIL.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

__all__ = ["JobRunner", "Job", "Busy", "RUNNING", "DONE", "FAILED", "CANCELLED", "STATES", "GRACE_SECONDS"]

RUNNING, DONE, FAILED, CANCELLED = "running", "done", "failed", "cancelled"
STATES = (RUNNING, DONE, FAILED, CANCELLED)

log = logging.getLogger("tsume.studio")

#: A job still running this long after its time limit is ended by the watchdog.
GRACE_SECONDS = 10.0
#: Seconds between SIGTERM and SIGKILL when a job is ended.
KILL_AFTER = 2.0
#: The modules the fork server imports once, so that a job starts at once
#: ("__main__": the program that started the server, which every child
#: would otherwise run again as multiprocessing prepares it).
_PRELOAD = ["__main__", "tsume.cli", "tsume.studio.worker", "tsume.studio.calls", "tsume.solve", "tsume.verify",
            "tsume.play", "tsume.booklet", "tsume.compose.run"]


def _nothing() -> None:
    """What the warm-up process runs."""


class Busy(Exception):
    """Too many unfinished jobs: the message says how many are allowed."""


@dataclass
class Job:
    """One job and what is known of it (read it through :meth:`JobRunner.view`)."""

    id: str
    kind: str
    payload: dict
    #: Seconds the job may take (its time limit); the watchdog ends it GRACE_SECONDS later.
    seconds: float
    state: str = RUNNING
    progress: dict = field(default_factory=dict)
    result: Any = None
    error: str | None = None
    started: float | None = None
    finished: float | None = None
    # Runtime only.
    process: Any = None
    conn: Any = None
    kill_at: float | None = None

    def view(self) -> dict[str, Any]:
        """The job as the API shows it."""
        now = time.time()
        elapsed = None
        if self.started is not None:
            elapsed = round((self.finished or now) - self.started, 3)
        return {"id": self.id, "kind": self.kind, "state": self.state, "progress": self.progress,
                "result": self.result, "error": self.error, "time_limit": self.seconds, "elapsed": elapsed}


class JobRunner:
    """Runs jobs in worker processes (module docstring).

    ``parallel``: jobs running at once; ``max_jobs``: unfinished jobs
    (running or waiting) at most; ``keep``: finished jobs remembered.
    """

    def __init__(self, parallel: int = 2, max_jobs: int = 8, keep: int = 64) -> None:
        if parallel < 1 or max_jobs < parallel or keep < 1:
            raise ValueError("need 1 <= parallel <= max_jobs and keep >= 1")
        self.parallel = parallel
        self.max_jobs = max_jobs
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.RLock()
        self._stopping = threading.Event()
        self._ctx: Any = None
        self._thread: threading.Thread | None = None
        # A pipe that wakes the monitor when a job starts (its pipe and process join the wait).
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    # --- life ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the fork server (a second or so, once) and the monitor thread."""
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(_PRELOAD)
        from multiprocessing import forkserver

        forkserver.ensure_running()
        self._ctx = ctx
        # One empty process now, so that the fork server has its modules
        # imported before the first job (else that job waits a second).
        warm = ctx.Process(target=_nothing, daemon=True)
        warm.start()
        warm.join(60)
        self._thread = threading.Thread(target=self._monitor, name="tsume-jobs", daemon=True)
        self._thread.start()

    def shutdown(self) -> None:
        """End every job (SIGTERM, then SIGKILL) and stop the monitor.

        The monitor ends the processes' lives as it always does (it alone
        reaps them, see :meth:`_monitor`); this only cancels every job, asks
        the processes to end, and waits for the monitor to have seen them go."""
        with self._lock:
            self._stopping.set()
            now = time.monotonic()
            for job in self._jobs.values():
                if job.state == RUNNING:
                    job.state, job.error, job.finished = CANCELLED, "the server stopped", time.time()
                if job.process is not None:
                    self._signal(job, signal.SIGTERM)
                    job.kill_at = now + KILL_AFTER
        self._poke()
        if self._thread is not None:
            self._thread.join(KILL_AFTER + 3.0)
            if self._thread.is_alive():
                # A process that outlives SIGKILL (stuck in the kernel): leave it, and the monitor with it.
                log.warning("jobs: a worker process did not end within %.0f s of the shutdown", KILL_AFTER + 3.0)
                return
        # No monitor (never started, or it died): reap here, now that no other thread does.
        with self._lock:
            for job in self._jobs.values():
                if job.process is not None:
                    self._signal(job, signal.SIGKILL)
                    job.process.join(1.0)
                    self._ended(job)

    # --- requests -----------------------------------------------------------------------

    def submit(self, kind: str, payload: dict, seconds: float) -> dict[str, Any]:
        """Start (or queue) a job; its view.  Raises :class:`Busy`."""
        with self._lock:
            # (Under the lock: a job submitted as the server stops is refused, never left waiting.)
            if self._stopping.is_set() or self._ctx is None:
                raise Busy("the job runner is not running (the server is starting or stopping)")
            unfinished = sum(1 for j in self._jobs.values() if j.state == RUNNING)
            if unfinished >= self.max_jobs:
                raise Busy(f"{unfinished} jobs are unfinished, the most this server takes "
                           f"({self.parallel} run at once): wait for one, or cancel one")
            job = Job(id=uuid.uuid4().hex[:16], kind=kind, payload=payload, seconds=seconds)
            self._jobs[job.id] = job
            self._forget_old()
            self._start_waiting()
            return job.view()

    def view(self, job_id: str) -> dict[str, Any] | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return None if job is None else job.view()

    def views(self) -> list[dict[str, Any]]:
        """Every job remembered, oldest first, without results (they may be large)."""
        with self._lock:
            return [{**j.view(), "result": None} for j in self._jobs.values()]

    def cancel(self, job_id: str) -> dict[str, Any] | None:
        """Cancel a job (a finished one stays as it was); its view, or None if unknown."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return None
            if job.state == RUNNING:
                job.state, job.finished = CANCELLED, time.time()
                job.error = "cancelled"
                if job.process is not None:
                    self._signal(job, signal.SIGTERM)
                    job.kill_at = time.monotonic() + KILL_AFTER
                self._start_waiting()
            return job.view()

    def live_pids(self) -> list[int]:
        """The process ids of the jobs' worker processes still alive (for
        diagnostics and tests: after a cancel or a shutdown, none)."""
        with self._lock:
            return [j.process.pid for j in self._jobs.values() if j.process is not None and j.process.is_alive()]

    def payload(self, job_id: str) -> dict | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return None if job is None else job.payload

    # --- inside -------------------------------------------------------------------------

    def _forget_old(self) -> None:
        # (A cancelled job whose process has not ended yet is kept until it has.)
        finished = [j for j in self._jobs.values() if j.state != RUNNING and j.process is None]
        for job in finished[: max(0, len(finished) - self.keep)]:
            self._jobs.pop(job.id, None)

    def _start_waiting(self) -> None:
        """Start waiting jobs while fewer than ``parallel`` run (lock held)."""
        live = sum(1 for j in self._jobs.values() if j.process is not None)
        position = 0
        for job in self._jobs.values():
            if job.state != RUNNING or job.process is not None:
                continue
            if live < self.parallel and not self._stopping.is_set():
                self._launch(job)
                live += 1
            else:
                position += 1
                job.progress = {"queued": True, "waiting_for": position}

    def _launch(self, job: Job) -> None:
        from .worker import main

        reader, writer = self._ctx.Pipe(duplex=False)
        process = self._ctx.Process(target=main, args=(job.kind, job.payload, writer), daemon=False,
                                    name=f"tsume-job-{job.id}")
        try:
            process.start()
        except OSError as exc:  # no more processes: the job fails, the server goes on
            job.state, job.error, job.finished = FAILED, f"cannot start a worker: {exc.strerror or exc}", time.time()
            reader.close()
            writer.close()
            return
        writer.close()
        job.process, job.conn = process, reader
        job.started = time.time()
        job.progress = {}
        self._poke()

    def _poke(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:  # full (the monitor is behind anyway) or closed
            pass

    def _signal(self, job: Job, signum: int) -> None:
        """Signal a job's process group (its own process if it has no group yet)."""
        pid = job.process.pid if job.process is not None else None
        if not pid:
            return
        try:
            os.killpg(pid, signum)
        except OSError:
            try:
                os.kill(pid, signum)
            except OSError:
                pass

    def _close(self, job: Job) -> None:
        if job.conn is not None:
            try:
                job.conn.close()
            except OSError:
                pass
            job.conn = None

    def _monitor(self) -> None:
        """Read the workers' messages, notice their ends, enforce time limits;
        after :meth:`shutdown`, until the last process has gone."""
        while True:
            with self._lock:
                live = [j for j in self._jobs.values() if j.process is not None]
                if self._stopping.is_set() and not live:
                    return
                waitables = [j.conn for j in live if j.conn is not None] + [j.process.sentinel for j in live]
            # (Outside the lock: no other thread closes these pipes, the monitor alone does.)
            try:
                ready = set(multiprocessing.connection.wait(waitables + [self._wake_r], timeout=0.2))
            except OSError:
                ready = set()
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 4096)
                except OSError:
                    pass
            with self._lock:
                for job in live:
                    if job.conn is not None and job.conn in ready:
                        self._read(job)
                    if job.process.sentinel in ready and not job.process.is_alive():
                        self._ended(job)
                self._watch(live)
                self._start_waiting()

    def _read(self, job: Job) -> None:
        try:
            while job.conn is not None and job.conn.poll():
                what, value = job.conn.recv()
                if job.state != RUNNING:
                    continue  # cancelled: whatever comes is dropped
                if what == "progress":
                    job.progress = value
                elif what == "done":
                    job.state, job.result, job.finished = DONE, value, time.time()
                elif what == "failed":
                    job.state, job.error, job.finished = FAILED, str(value), time.time()
        except (EOFError, OSError):
            self._close(job)

    def _ended(self, job: Job) -> None:
        """The worker process has exited: collect what it said, then forget it
        (the monitor's, lock held)."""
        self._read(job)
        code = job.process.exitcode
        if job.state == RUNNING:
            job.state, job.finished = FAILED, time.time()
            job.error = (f"the job's process ended unexpectedly (exit status {code}): "
                         "out of memory, or killed from outside")
        # Whatever is left of its process group (the composer's workers) goes too:
        # before the join, while the leader's id cannot have been reused.
        self._signal(job, signal.SIGKILL)
        job.process.join(0)
        self._close(job)
        job.process, job.kill_at = None, None

    def _watch(self, live: list[Job]) -> None:
        now = time.monotonic()
        for job in live:
            if job.process is None:
                continue
            if job.kill_at is not None and now >= job.kill_at:
                self._signal(job, signal.SIGKILL)
                job.kill_at = None
            elif job.state == RUNNING and job.started is not None and \
                    time.time() - job.started > job.seconds + GRACE_SECONDS:
                job.state, job.finished = FAILED, time.time()
                job.error = f"stopped: still running {GRACE_SECONDS:.0f} s past its time limit of {job.seconds:g} s"
                self._signal(job, signal.SIGTERM)
                job.kill_at = now + KILL_AFTER
