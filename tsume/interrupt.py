"""Ctrl-C in compiled loops: one call that lets Python run pending signal handlers.

Python runs a signal's handler (Ctrl-C: raise KeyboardInterrupt) only when
the interpreter's bytecode loop looks for pending signals.  Code compiled by
mypyc (tsume/_native.py) runs as C and never gets there, so a long compiled
loop -- perft, the df-pn search -- ignored Ctrl-C until it ended.  Every such
loop calls :func:`check_signals` every few thousand nodes; it calls
``PyErr_CheckSignals``, the C API's function for this very purpose, which runs
the handlers and raises what they raise, so a KeyboardInterrupt surfaces in the
loop at once.  Measured with ``tsume perft --depth 12`` (tests/test_interrupt.py):
exit 130 within 0.03 s of SIGINT, compiled and pure Python.

This module must not be compiled: the call goes through ctypes, whose
``pythonapi`` functions hold the GIL and raise the exception the C function
set.  In a thread other than the main one ``PyErr_CheckSignals`` does nothing
(handlers run only in the main thread).
"""

from __future__ import annotations

import ctypes

__all__ = ["check_signals"]

_check = ctypes.pythonapi.PyErr_CheckSignals
_check.argtypes = []
_check.restype = ctypes.c_int


def check_signals() -> None:
    """Run the handlers of signals that have arrived; raise what they raise (Ctrl-C: KeyboardInterrupt)."""
    _check()
