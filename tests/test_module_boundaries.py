"""Modules talk through public names: no module of the package imports or reads
another module's underscore names (``from .x import _y``, ``x._y``), and no
two modules import each other, even from inside a function.

The package's source is parsed with ``ast``; every reach across modules is
listed with its file and line.  The few allowed are in :data:`ALLOWED`, each
with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tsume"

#: (file, the name reached): the reaches allowed, and why.
ALLOWED: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The absolute name ``from ... import`` names in ``module``."""
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def reaches(module: str) -> list[tuple[int, str]]:
    """(line, name) of every underscore name of another module that ``module`` reaches."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    bound: dict[str, str] = {}  # local name -> the package module it is bound to
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            if not source.startswith("tsume"):
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in MODULES:
                    bound[alias.asname or alias.name] = full
                # (a package's ``from . import _x`` reaches its submodule _x)
                if _private(alias.name) and (source != module or full in MODULES):
                    found.append((node.lineno, full))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tsume"):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append((node.lineno, alias.name))
                    bound[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            target = node.value
            if isinstance(target, ast.Name) and target.id in bound and bound[target.id] != module:
                found.append((node.lineno, f"{bound[target.id]}.{node.attr}"))
    return found


def imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in it (a
    function's own imports included)."""
    out = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                out.add(full if full in MODULES else source)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in MODULES and m != module}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_is_parsed():
    assert {"tsume", "tsume.solve", "tsume.verify", "tsume.problem", "tsume.compose.run"} <= set(MODULES)


def test_no_module_reaches_another_modules_underscore_names():
    bad = []
    for module, path in sorted(MODULES.items()):
        where = path.relative_to(PACKAGE).as_posix()
        bad += [f"tsume/{where}:{line}: {name}" for line, name in reaches(module) if (where, name) not in ALLOWED]
    assert not bad, "\n".join(bad)


def test_every_allowed_reach_is_still_made():
    # An entry no longer needed goes from the list.
    made = {(path.relative_to(PACKAGE).as_posix(), name) for module, path in MODULES.items()
            for _, name in reaches(module)}
    assert set(ALLOWED) <= made, set(ALLOWED) - made


def test_no_import_cycle():
    graph = {m: imports(m) for m in MODULES}
    assert graph["tsume.solve"] >= {"tsume.search", "tsume.problem", "tsume.lines"}
    assert not cycles(graph)


def test_the_cycle_finder():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_checker_finds_each_kind_of_reach(tmp_path, monkeypatch):
    # The checker itself: each spelling of a reach is found, a module's own
    # private names and dunder names are not.
    source = (
        "from .solve import _hidden\n"
        "from . import solve\n"
        "from . import _native\n"
        "import tsume.verify as v\n"
        "from .x import _own\n"
        "solve._reach\n"
        "v._other\n"
        "solve.__doc__\n"
        "_local = 1\n"
    )
    (tmp_path / "x.py").write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, "tsume.x", tmp_path / "x.py")
    names = {name for _, name in reaches("tsume.x")}
    assert names == {"tsume.solve._hidden", "tsume._native", "tsume.solve._reach", "tsume.verify._other"}
