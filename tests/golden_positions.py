"""A pytest plugin that notes every position the rules tests look at, for the perft golden file.

``benchmarks/make_golden.py`` runs the rules tests with this plugin
(``-p golden_positions``, ``tests/`` on ``sys.path``) and the pure-Python
engine, whose classes can be patched: every position a test builds
(``Position(...)``, ``Position.start``) or asks for its moves
(``legal_moves``, ``perft``, ``divide``, also after pushing moves) is written,
as ``[variant spec, position string, test file]`` rows, to the JSON file
named by ``TSUME_GOLDEN_POSITIONS``.  Positions built by the engine for its
own use are left out: a call counts only when the nearest caller outside the
``tsume`` package is a file in ``tests/``.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import tsume
import tsume.perft
import tsume.position

TESTS = Path(__file__).resolve().parent
PACKAGE = Path(tsume.__file__).resolve().parent
OUT = os.environ.get("TSUME_GOLDEN_POSITIONS")

if tsume.COMPILED:  # pragma: no cover - the plugin is only run by make_golden.py
    raise RuntimeError("golden_positions needs the pure-Python engine (TSUME_PURE_PYTHON=1)")

#: (variant spec, position string) -> the test files that used it
SEEN: dict[tuple[str, str], set[str]] = {}


@functools.cache
def _place(filename: str) -> str:
    """``package``, ``tests`` or ``other``: where a code object's file lies."""
    path = Path(filename).resolve()
    return "package" if path.is_relative_to(PACKAGE) else "tests" if path.is_relative_to(TESTS) else "other"


def _test_file(direct: bool) -> str | None:
    """The test file behind the current engine call, or None if the engine called itself.

    ``direct``: the call must come from outside the package (a move list the
    engine asks for while it searches or counts is not one a test looked at);
    otherwise the nearest caller outside it counts (``Position.start``)."""
    frame = sys._getframe(3)  # the caller of the patched function
    while frame is not None and _place(frame.f_code.co_filename) == "package":
        if direct:
            return None
        frame = frame.f_back
    if frame is None or _place(frame.f_code.co_filename) != "tests":
        return None
    helper = None
    while frame is not None:  # name the test module, not a helper it called
        if _place(frame.f_code.co_filename) == "tests":
            name = Path(frame.f_code.co_filename).name
            helper = helper or name
            if name.startswith("test_"):
                return name
        frame = frame.f_back
    return helper


def _variant_spec(variant):
    # Imported when first needed: golden_answers imports test modules, which
    # must see the patched perft and divide.
    try:
        from tests.golden_answers import variant_spec
    except ImportError:  # when tests/ itself is on sys.path
        from golden_answers import variant_spec
    return variant_spec(variant)


def _note(pos: tsume.position.Position, direct: bool = True) -> None:
    source = _test_file(direct)
    if source is None:
        return
    spec = _variant_spec(pos.variant)
    if spec is None:  # a variant the golden file cannot name (a deliberately broken one)
        return
    SEEN.setdefault((spec, pos.fen()), set()).add(source)


Position = tsume.position.Position
_init, _legal = Position.__init__, Position.legal_moves
_perft, _divide = tsume.perft.perft, tsume.perft.divide


def _patched_init(self, text=None, variant=tsume.ITO, *, validate=True):
    _init(self, text, variant, validate=validate)
    if validate is True and hasattr(self, "t"):  # a copy has no text and sets its fields itself
        _note(self, direct=False)


def _patched_legal(self, repetition=None):
    _note(self)
    return _legal(self, repetition)


def _patched_perft(pos, depth):
    if isinstance(pos, Position):
        _note(pos)
    return _perft(pos, depth)


def _patched_divide(pos, depth):
    if isinstance(pos, Position):
        _note(pos)
    return _divide(pos, depth)


Position.__init__ = _patched_init
Position.legal_moves = _patched_legal
tsume.perft.perft = _patched_perft
tsume.perft.divide = _patched_divide


def pytest_sessionfinish(session, exitstatus):
    if OUT:
        rows = sorted([spec, fen, sorted(files)] for (spec, fen), files in SEEN.items())
        Path(OUT).write_text(json.dumps(rows, indent=0) + "\n", encoding="utf-8")
