"""Which implementation of the df-pn search runs: mypyc-compiled or its Python source.

The rules engine is Rust (``tsume._engine``, built from ``engine/``).  The
df-pn search and what it calls per node (:data:`COMPILED`) are typed Python
that ``setup.py`` also compiles with mypyc; the ``.py`` files remain their
source.  An extension module sits next to its source and Python would import
it first even after the source has changed (an editable install after
``git pull``, say), so :func:`load` checks the extensions before anything
imports them.  It loads the Python source of every compiled module when

* an extension is missing, or its source has changed since it was compiled
  (with a warning saying to reinstall): the build records a SHA-256 digest of
  each compiled source in :data:`DIGESTS` (file times would not do: a wheel
  install may write a source after its extension), or
* an extension fails to import.

It is all or nothing: compiled modules call each other's native classes
directly and cannot be mixed with interpreted ones.

This module must stay pure Python, with no imports from the package:
``setup.py`` reads :data:`COMPILED` from it before the package is built.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import sys
import warnings
from pathlib import Path

__all__ = ["COMPILED", "DIGESTS", "record_sources", "stale_reason", "load"]

#: The modules setup.py compiles, in import order (each imports only earlier
#: ones): the df-pn search and what it calls per node.
COMPILED = ("conventions", "hands", "dfpn")

#: Written by setup.py next to the sources: ``{module name: SHA-256 of its source}``.
DIGESTS = "_compiled_sources.json"

_PACKAGE = "tsume"
_HERE = Path(__file__).resolve().parent


def _extension(name: str, where: Path) -> Path | None:
    """The extension module file for ``name`` in ``where``, if one was built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = where / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record_sources(where: Path = _HERE, names: tuple[str, ...] = COMPILED) -> None:
    """Record the digests of the sources about to be compiled (setup.py calls this)."""
    digests = {name: _digest(where / f"{name}.py") for name in names}
    (where / DIGESTS).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


def stale_reason(where: Path = _HERE, names: tuple[str, ...] = COMPILED) -> str | None:
    """Why the extensions in ``where`` must not be used (None if they are usable).

    Returns ``"not compiled"`` when no module was compiled at all.
    """
    found = {name: _extension(name, where) for name in names}
    if not any(found.values()):
        return "not compiled"
    for name, ext in found.items():
        if ext is None:
            return f"{name} was not compiled"
    try:
        recorded = json.loads((where / DIGESTS).read_text())
    except (OSError, ValueError):
        return f"{DIGESTS} is missing or unreadable"
    for name in names:
        src = where / f"{name}.py"
        if src.exists() and recorded.get(name) != _digest(src):
            return f"{src.name} changed after it was compiled"
    return None


def _load_sources() -> None:
    """Import every compiled module from its ``.py`` source instead."""
    package = sys.modules[_PACKAGE]
    for name in COMPILED:
        full = f"{_PACKAGE}.{name}"
        spec = importlib.util.spec_from_file_location(full, _HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)
        setattr(package, name, module)


def load() -> bool:
    """Import the search modules, compiled if possible; True if compiled code runs.

    Called by ``tsume/__init__.py`` before anything else imports them.
    """
    why = stale_reason()
    if why == "not compiled":
        return False  # a pure-Python install: the ordinary imports find the sources
    if why is None:
        try:
            for name in COMPILED:
                importlib.import_module(f"{_PACKAGE}.{name}")
            return True
        except ImportError as exc:
            why = f"the compiled modules do not import ({exc})"
            for name in COMPILED:
                sys.modules.pop(f"{_PACKAGE}.{name}", None)
    warnings.warn(
        f"tsume: {why}; running the df-pn search from its Python source (same results, slower). "
        "Reinstall (pip install -e .) to rebuild it.",
        RuntimeWarning,
        stacklevel=3,
    )
    _load_sources()
    return False
