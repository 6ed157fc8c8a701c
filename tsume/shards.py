"""Running sharded work on a :class:`concurrent.futures.Executor`.

A long job -- a composing run, a census, a census check -- is cut into
**shards**: tasks ``fn(*args)`` with plain arguments and a plain result, each
a function of its arguments alone, so that the job's result does not depend
on where, when or beside what a shard runs.  A :class:`Runner` runs them:

* on any executor: a local process pool it makes itself (the default, one
  worker per core), a thread pool (``--threads``: one interpreter and one
  copy of the package for all workers, so less memory; the engine's searches
  release the GIL and run in parallel, the Python work between them does
  not), or a Dask cluster's executor (:func:`dask_executor`, when the user
  names a scheduler); :func:`shard_executor` picks one for a command;
* a bounded number at a time (``width``): results come back while the job
  runs, so the caller **checkpoints** each one as it arrives (a shard file,
  a collection and its state) and a stopped job loses at most the shards
  that were running; resuming means submitting the shards not on disk;
* results as they finish (:meth:`Runner.wait`, :meth:`Runner.run`); a caller
  that needs them **in shard order** (the composer, whose later shards start
  from earlier results) keeps the early ones until their turn, which makes
  the job's result the same on 1 worker, 2 or a cluster;
* **progress from inside a shard**: a task calls :func:`report` with a small
  dict, and the runner hands it to its ``on_report`` callback while the
  shard still runs (from the runner's own process pool; on other executors
  progress comes with each finished shard);
* a **clean stop**: leaving the runner (the job's end, an error, Ctrl-C)
  cancels the shards not started and, for a pool the runner made, ends its
  worker processes at once -- their work is redone by a resumed job.  The
  workers ignore SIGINT (a Ctrl-C at the terminal reaches the whole process
  group): the runner's process stops them, and none prints a traceback.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .errors import ArgumentError

__all__ = ["Runner", "Finished", "report", "dask_executor", "shard_executor", "REPORT_INTERVAL"]

#: The least time between two reports of one worker (seconds): progress is
#: for people, and a busy channel would slow the workers down.
REPORT_INTERVAL = 0.25

# In a worker process of a Runner's own pool: the channel to the runner.
_channel: Any = None
_last_report = 0.0


def _worker_start(channel: Any) -> None:
    """Initialiser of the runner's worker processes."""
    global _channel
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner's process stops us
    _channel = channel
    channel.put(("pid", os.getpid()))


def report(data: dict[str, Any], *, force: bool = False) -> None:
    """Tell the runner how the current shard is going (a small dict of plain
    values, e.g. ``{"shard": 3, "candidates": 12}``).  Sent at most every
    :data:`REPORT_INTERVAL` seconds per worker unless ``force``; a no-op
    outside a runner's own worker process."""
    global _last_report
    if _channel is None:
        return
    now = time.monotonic()
    if not force and now - _last_report < REPORT_INTERVAL:
        return
    _last_report = now
    try:
        _channel.put(("report", data))
    except (OSError, ValueError):
        pass  # the runner is gone: progress is a courtesy


@dataclass
class Finished:
    """A shard that finished: its ``key`` and its ``value``, or the ``error`` it raised."""

    key: int
    value: Any = None
    error: BaseException | None = None

    def get(self) -> Any:
        """The value, or the shard's error raised here."""
        if self.error is not None:
            raise self.error
        return self.value


class Runner:
    """Runs shards ``fn(*args)`` on an executor, at most ``width`` at a time.

    ``executor``: any :class:`concurrent.futures.Executor` (the caller owns it);
    None makes a process pool of ``workers`` processes (all cores when None),
    stopped when the runner closes.  ``width`` defaults to twice the workers
    for the runner's own pool, 8 for another executor.  ``on_report(data)``
    receives what the running shards :func:`report`.  Use it as a context
    manager: leaving it stops the work (module docstring)."""

    def __init__(self, fn: Callable[..., Any], *, executor: cf.Executor | None = None, workers: int | None = None,
                 width: int | None = None, on_report: Callable[[dict[str, Any]], None] | None = None) -> None:
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ArgumentError(f"workers must be a whole number of at least 1, not {workers!r}")
        if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 1):
            raise ArgumentError(f"width must be a whole number of at least 1, not {width!r}")
        self.fn = fn
        self.on_report = on_report
        self.own = executor is None
        self.workers = workers or os.cpu_count() or 1
        self._channel: Any = None
        self._pids: set[int] = set()
        if executor is None:
            ctx = mp.get_context()
            self._channel = ctx.SimpleQueue()
            executor = cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                              initializer=_worker_start, initargs=(self._channel,))
        self.executor = executor
        self.width = width or (2 * self.workers if self.own else 8)
        self._pending: dict[cf.Future, int] = {}
        self._closed = False

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> int:
        """Shards submitted and not yet handed back."""
        return len(self._pending)

    @property
    def pids(self) -> frozenset[int]:
        """The process ids of the runner's own workers that have started
        (none for another executor)."""
        self._drain()
        return frozenset(self._pids)

    @property
    def room(self) -> int:
        """How many more shards may be submitted now."""
        return max(0, self.width - len(self._pending))

    def submit(self, key: int, *args: Any) -> None:
        """Start shard ``key`` (an int naming it in :class:`Finished`)."""
        if self._closed:
            raise RuntimeError("the runner is closed")
        self._pending[self.executor.submit(self.fn, *args)] = key

    def wait(self, timeout: float | None = 0.5) -> list[Finished]:
        """The shards that finished, waiting up to ``timeout`` seconds for the
        first (None: until one does), in key order; reports are passed on
        meanwhile.  An empty list when none finished in time."""
        self._drain()
        if not self._pending:
            return []
        done, _ = cf.wait(list(self._pending), timeout=timeout, return_when=cf.FIRST_COMPLETED)
        self._drain()
        out = []
        for fut in done:
            key = self._pending.pop(fut)
            try:
                out.append(Finished(key, fut.result()))
            except cf.CancelledError as exc:
                out.append(Finished(key, error=exc))
            except Exception as exc:  # a shard's error comes with its result
                out.append(Finished(key, error=exc))
        return sorted(out, key=lambda f: f.key)

    def run(self, tasks: Iterable[tuple[int, tuple[Any, ...]]], timeout: float = 0.5) -> Iterator[list[Finished]]:
        """Run every ``(key, args)`` of ``tasks``, at most ``width`` at once,
        and yield the shards as they finish: the list of each :meth:`wait`
        (never empty), so that a caller can take a whole batch before it
        stops on an error."""
        queue = iter(tasks)
        more = True
        while more or self._pending:
            while more and self.room:
                try:
                    key, args = next(queue)
                except StopIteration:
                    more = False
                    break
                self.submit(key, *args)
            batch = self.wait(timeout)
            if batch:
                yield batch

    def _drain(self) -> None:
        """Read the workers' messages: their process ids, their reports."""
        ch = self._channel
        if ch is None:
            return
        try:
            while not ch.empty():
                kind, data = ch.get()
                if kind == "pid":
                    self._pids.add(data)
                elif self.on_report is not None:
                    self.on_report(data)
        except (OSError, EOFError, ValueError):
            pass

    def close(self) -> None:
        """Stop: cancel the shards not started; a pool of our own is shut down
        and its workers ended at once, never waited for."""
        if self._closed:
            return
        self._closed = True
        for fut in self._pending:
            fut.cancel()
        self._pending.clear()
        if not self.own:
            return
        report_to, self.on_report = self.on_report, None
        self._drain()  # the last process ids
        self.on_report = report_to
        self.executor.shutdown(wait=False, cancel_futures=True)
        workers = [p for p in mp.active_children() if p.pid in self._pids]
        for p in workers:
            try:
                p.terminate()
            except OSError:
                pass
        # The pool's own thread reaps its workers too; a worker counts as
        # ended once either of us has recorded its exit code.
        if not _await_exit(workers, 2.0):
            for p in workers:
                if p.exitcode is None:
                    try:
                        p.kill()
                    except OSError:
                        pass
            _await_exit(workers, 2.0)
        try:
            self._channel.close()
        except (OSError, AttributeError):
            pass


def _await_exit(processes: list[Any], seconds: float) -> bool:
    """Wait up to ``seconds`` for every process to have an exit code."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if all(p.exitcode is not None for p in processes):
                return True
        except (OSError, AssertionError):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


@contextmanager
def dask_executor(scheduler: str | None) -> Iterator[cf.Executor | None]:
    """The executor of a Dask cluster whose scheduler is at ``scheduler``
    (``tcp://HOST:PORT``), its client closed on leaving; None without a
    scheduler (a :class:`Runner` then makes a local pool).  One-line
    :class:`~tsume.errors.ArgumentError` without Dask or a reachable scheduler."""
    if scheduler is None:
        yield None
        return
    try:
        from dask.distributed import Client
    except ImportError:
        raise ArgumentError("--scheduler needs Dask: pip install 'tsume[cluster]'") from None
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise ArgumentError(f"--scheduler {scheduler}: cannot connect: {exc}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()


@contextmanager
def shard_executor(scheduler: str | None, threads: bool, workers: int | None) -> Iterator[cf.Executor | None]:
    """The executor a command runs its shards on: a Dask cluster's
    (``scheduler``), a pool of ``workers`` threads of this process
    (``threads``; default one per core), or None for the :class:`Runner`'s
    own process pool.  Both at once is a one-line :class:`~tsume.errors.ArgumentError`."""
    if threads and scheduler is not None:
        raise ArgumentError("--threads and --scheduler exclude each other")
    if threads:
        with cf.ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
            yield pool
        return
    with dask_executor(scheduler) as executor:
        yield executor
