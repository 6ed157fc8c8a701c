"""The SAT engine's limits: a deadline and a memory budget, checked while it works.

One :class:`Budget` is shared by everything a SAT run builds (every
abstraction, the engines of the main line, the oracle), so a limit covers the
whole run.  It is checked

* in the encoder, every :data:`CHECK_EVERY` new variables (the circuit calls
  :meth:`Budget.check`), and by the oracle for every position it lists, so
  that building an encoding never runs far past a limit;
* around every SAT call, which runs with the GIL released while a watchdog
  thread interrupts the solver at the deadline (:meth:`Budget.solve`).  The
  watchdog also wakes on a signal (Ctrl-C): the main thread is inside the C
  solver, where Python cannot run its signal handlers, so the signal would
  otherwise wait for the call to end.

**Memory** is counted as what the engine holds, not the process's resident
size (which also holds whatever else the process does): the clauses and
variables of every live abstraction (the solver's copy and the encoder's gate
table) and the move lists the oracle keeps, at the bytes per item of
:data:`BYTES_PER_VAR`, :data:`BYTES_PER_LITERAL` and
:data:`BYTES_PER_ORACLE_MOVE`, measured against resident size (docs/sat.md,
"Limits").  Reaching the budget stops the run with status ``unknown``.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
import weakref
from typing import Any, Protocol

from ..limits import Limits

__all__ = [
    "SatLimit",
    "SatTimeout",
    "SatMemoryLimit",
    "Budget",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_LIMITS",
    "BYTES_PER_VAR",
    "BYTES_PER_LITERAL",
    "BYTES_PER_ORACLE_MOVE",
    "line_bytes",
    "longest_line",
]

#: The memory budget when none is given (megabytes of clauses, variables and oracle lists).
DEFAULT_MEMORY_MB = 2048.0
#: The SAT engine's limits when none are given: no time limit, that memory budget.
DEFAULT_LIMITS = Limits(memory=DEFAULT_MEMORY_MB)

# Bytes per item, fitted to the growth of the resident size on the hardest runs
# (docs/sat.md, "Limits"): a variable costs its gate-table entry in Python and
# its watch lists, activity and trail slots in the solver; a literal of a clause
# its slot in the solver's clause and the gate table's key tuple; a move the
# oracle keeps, the position tuple it leads to.
BYTES_PER_VAR = 275
BYTES_PER_LITERAL = 44
BYTES_PER_ORACLE_MOVE = 550

#: The circuit checks the budget once per this many new variables.
CHECK_EVERY = 1024

# The size of one line of the strategy tree with every attacker node symbolic,
# what a mate of that length costs when its line is symbolic (measured on the
# hardest runs, docs/sat.md, "Limits"): a symbolic attacker node writes about 4,400 clauses
# on Ito's 31 squares (140 per square); a repetition test between two symbolic
# positions up to 10 per square, and the node at depth j makes about 2j of them.
CLAUSES_PER_NODE_SQUARE = 140
CLAUSES_PER_EQUALITY_SQUARE = 10
#: bytes per clause: about 2.4 literals and a third of a variable each
BYTES_PER_CLAUSE = 200


def line_bytes(plies: int, squares: int) -> int:
    """Estimated bytes of one symbolic line of ``plies`` plies on ``squares`` squares.

    The first move is expanded concretely; each of the ``(plies - 1) // 2``
    attacker nodes below it is a symbolic choice, and each compares its
    position with the earlier ones of the line (the repetition rule), so the
    size grows with the square of the length.
    """
    m = max(0, (plies - 1) // 2)
    clauses = (m * CLAUSES_PER_NODE_SQUARE + m * m * CLAUSES_PER_EQUALITY_SQUARE) * squares
    return clauses * BYTES_PER_CLAUSE


def longest_line(limit_bytes: int, squares: int) -> int:
    """The most plies (odd) whose :func:`line_bytes` fits in ``limit_bytes``."""
    lo, hi = 1, 3
    while line_bytes(hi, squares) <= limit_bytes:
        lo, hi = hi, 2 * hi + 1
    while hi - lo > 2:  # invariant: lo fits, hi does not, both odd
        mid = (lo + hi) // 2 | 1
        if line_bytes(mid, squares) <= limit_bytes:
            lo = mid
        else:
            hi = mid
    return lo


class SatLimit(Exception):
    """A limit stopped the SAT engine; ``str()`` names it (the result's ``reason``)."""


class SatTimeout(SatLimit):
    """The time limit ran out."""


class SatMemoryLimit(SatLimit):
    """The memory budget was reached."""


class _Sized(Protocol):
    """What the budget counts: a circuit (variables, literals) or the oracle (moves kept)."""

    def held_bytes(self) -> int: ...


class _Interruptible(Protocol):
    def solve_limited(self, assumptions: list[int] = ..., expect_interrupt: bool = ...) -> bool | None: ...

    def interrupt(self) -> None: ...

    def clear_interrupt(self) -> None: ...


class Budget:
    """A deadline (``limits.time`` seconds from now) and a memory budget
    (``limits.memory`` megabytes; a node limit means nothing here).

    ``None`` means no limit of that kind.  Register what grows with :meth:`track`
    (and :meth:`untrack` when it is freed); :meth:`check` raises
    :class:`SatTimeout` or :class:`SatMemoryLimit`.
    """

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.deadline = time.perf_counter() + limits.time if limits.time is not None else None
        self.limit_bytes = int(limits.memory * 1e6) if limits.memory is not None else None
        self._held: list[_Sized] = []
        #: the largest estimate seen at a check (bytes)
        self.peak_bytes = 0
        self._watchdog: _Watchdog | None = None

    # --- what the engine holds ---------------------------------------------------------

    def track(self, item: _Sized) -> None:
        self._held.append(item)

    def untrack(self, item: _Sized) -> None:
        self.peak_bytes = max(self.peak_bytes, self.held_bytes())
        self._held = [x for x in self._held if x is not item]

    def held_bytes(self) -> int:
        """The estimated bytes of everything tracked."""
        return sum(x.held_bytes() for x in self._held)

    # --- checks ---------------------------------------------------------------------------

    def check(self) -> None:
        """Raise if the deadline has passed or the memory budget is reached."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SatTimeout("time limit")
        held = self.held_bytes()
        if held > self.peak_bytes:
            self.peak_bytes = held
        if self.limit_bytes is not None and held >= self.limit_bytes:
            raise SatMemoryLimit(f"memory limit ({self.limits.memory:g} MB)")

    def solve(self, solver: Any, assumptions: list[int]) -> bool:
        """``solver.solve(assumptions)`` that stops at the deadline (:class:`SatTimeout`)
        and lets a signal's Python handler (Ctrl-C: KeyboardInterrupt) run at once."""
        self.check()
        if self._watchdog is None:
            self._watchdog = _Watchdog(self.deadline)
            weakref.finalize(self, self._watchdog.stop)
        while True:
            got = self._watchdog.run(solver, assumptions)
            if got is not None:
                return bool(got)
            # Interrupted: by the deadline, or for a signal whose handler has just
            # run (the call returned into Python) without raising; go on then.
            self.check()

    def close(self) -> None:
        """Stop the watchdog thread (also done when the budget is garbage-collected)."""
        if self._watchdog is not None:
            self._watchdog.stop()


class _Watchdog:
    """A thread that interrupts the running solver at the deadline or when a signal
    arrives.

    The solver runs with the GIL released (``expect_interrupt=True``), so this
    thread can run meanwhile.  Python runs signal handlers only in the main
    thread between bytecodes, so during a long C call a Ctrl-C would wait for
    the call to end; but the C-level handler writes the signal number to the
    *wakeup fd* (:func:`signal.set_wakeup_fd`), which is ours during a call: the
    thread wakes, interrupts the solver, the call returns, and the handler runs.
    Bytes read are passed on to the wakeup fd installed before (asyncio's, say).
    Outside the main thread (where signals are not delivered) only the deadline
    is watched.
    """

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self._lock = threading.Lock()
        self._solver: _Interruptible | None = None  # the solver inside a call, under the lock
        self._old_fd = -1
        self._ctl_r, self._ctl_w = os.pipe()
        self._sig_r, self._sig_w = os.pipe()
        os.set_blocking(self._sig_w, False)  # the C signal handler must never block
        self._thread = threading.Thread(target=self._watch, name="tsume-sat-watchdog", daemon=True)
        self._thread.start()

    def run(self, solver: _Interruptible, assumptions: list[int]) -> bool | None:
        """One interruptible call: True/False, or None if interrupted."""
        installed = False
        if threading.current_thread() is threading.main_thread():
            try:
                self._old_fd = signal.set_wakeup_fd(self._sig_w, warn_on_full_buffer=False)
                installed = True
            except ValueError:  # pragma: no cover - e.g. a sub-interpreter
                pass
        try:
            with self._lock:
                solver.clear_interrupt()
                # Checked under the lock: the thread fires at the deadline only while
                # a solver is set, so a deadline passing just before this call is seen here.
                if self.deadline is not None and time.perf_counter() >= self.deadline:
                    return None
                self._solver = solver
            try:
                return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                with self._lock:
                    self._solver = None
        finally:
            if installed:
                signal.set_wakeup_fd(self._old_fd)

    def _watch(self) -> None:
        deadline = self.deadline
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.perf_counter())
            if self._ctl_w < 0:
                return  # stopped from this very thread (a garbage collection ran here)
            try:
                ready, _, _ = select.select([self._ctl_r, self._sig_r], [], [], timeout)
                if self._ctl_r in ready:
                    return
                data = os.read(self._sig_r, 512) if self._sig_r in ready else b""
            except OSError:  # the pipes were closed under it: stopped
                return
            if self._sig_r in ready:
                if self._old_fd >= 0:
                    try:
                        os.write(self._old_fd, data)
                    except OSError:
                        pass
            elif deadline is not None and time.perf_counter() < deadline:
                continue  # select woke a little early
            with self._lock:
                if self._solver is not None:
                    self._solver.interrupt()
            if not ready:
                # Past the deadline: every later call returns at once (run() checks
                # it); only signals are left to watch.
                deadline = None

    def stop(self) -> None:
        if self._ctl_w < 0:
            return
        os.write(self._ctl_w, b"q")
        if self._thread is not threading.current_thread():
            self._thread.join()
        for fd in (self._ctl_r, self._ctl_w, self._sig_r, self._sig_w):
            os.close(fd)
        self._ctl_w = -1
