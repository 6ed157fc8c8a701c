"""Build hook: the Rust rules engine, and the df-pn search compiled with mypyc.

* ``tsume._engine``: the rules engine, the Rust crate in ``engine/`` with its
  ``python`` feature, built by setuptools-rust in release mode.  It is
  required: without a Rust toolchain (cargo) the install fails.
* The modules in ``tsume/_native.py``'s ``COMPILED`` list (the df-pn search
  and what it calls per node) are typed Python that mypyc compiles into C
  extensions from the same source (the search runs about 3 times as fast).
  Without mypy or a working C compiler the install goes on with them as
  Python, with a warning, rather than failing; ``TSUME_BUILD_MYPYC=0`` at
  build time skips mypyc (quicker builds, a slower search).

The bundled problem collections (``problems/*.tsume``, their one source in
the repository) are copied into the built package as ``tsume/problems/``, so
that a plain (non-editable) install carries them; ``tsume.collection.locate``
finds them there, or beside the package in a source checkout.
"""

from __future__ import annotations

import glob
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools_rust import Binding, RustExtension

HERE = os.path.dirname(os.path.abspath(__file__))

sys.path.insert(0, os.path.join(HERE, "tsume"))
from _native import COMPILED, record_sources  # noqa: E402  (the list lives with the loader)

sys.path.pop(0)


def _warn(why: str) -> None:
    print(f"tsume: {why}; installing the df-pn search as Python (slower, same results)", file=sys.stderr)


class _OptionalBuildExt(build_ext):
    """Compile the mypyc extensions, or leave the search as Python if the compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing or failing C toolchain has many exception types
            _warn(f"compiling with mypyc failed ({exc})")
            self.extensions = []


class _BuildPyWithProblems(build_py):
    """Also put the bundled collections into the built package, as ``tsume/problems/*.tsume``."""

    def _problems(self) -> list[tuple[str, str]]:
        """(source, destination) of each bundled collection."""
        target = os.path.join(self.build_lib, "tsume", "problems")
        return [(src, os.path.join(target, os.path.basename(src)))
                for src in sorted(glob.glob(os.path.join(HERE, "problems", "*.tsume")))]

    def run(self) -> None:
        super().run()
        # An editable install runs from the checkout, whose problems/ it reads directly.
        if getattr(self, "editable_mode", False):
            return
        problems = self._problems()
        if not problems:
            raise SystemExit("tsume: no problems/*.tsume to bundle (an incomplete source tree?)")
        self.mkpath(os.path.dirname(problems[0][1]))
        for src, dst in problems:
            self.copy_file(src, dst)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        return outputs + [dst for _, dst in self._problems()]


def _extensions() -> list:
    if os.environ.get("TSUME_BUILD_MYPYC", "") == "0":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypy is not installed")
        return []
    # Type errors in the compiled modules fail the build (they are ours to
    # fix); the rest of the package is type-checked but not compiled.
    paths = [f"tsume/{name}.py" for name in COMPILED]
    # What is compiled, so that tsume can tell later whether a source changed.
    record_sources()
    return mypycify(["--follow-imports=silent", *paths], opt_level="3", group_name="tsume")


#: The rules engine: required (a failing cargo build fails the install).
ENGINE = RustExtension(
    "tsume._engine",
    path="engine/Cargo.toml",
    binding=Binding.PyO3,
    features=["python"],
    debug=False,
)

setup(
    ext_modules=_extensions(),
    rust_extensions=[ENGINE],
    cmdclass={"build_ext": _OptionalBuildExt, "build_py": _BuildPyWithProblems},
)
