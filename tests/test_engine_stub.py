"""The type stub of the engine's module (``tsume/_engine.pyi``) names what the
module has: every class and function, and every public method and property of
each class, neither more nor less, so that mypy checks the package against the
engine it really calls."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import tsume._engine as engine

STUB = Path(engine.__file__).with_name("_engine.pyi")


def _stub() -> dict[str, set[str] | None]:
    """Each top-level name of the stub: a class's members, or None for a function."""
    out: dict[str, set[str] | None] = {}
    for node in ast.parse(STUB.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    members.update(t.id for t in item.targets if isinstance(t, ast.Name))
            out[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = None
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = None
    return out


def _public(cls: type) -> set[str]:
    """The members a class defines itself that a user calls (no dunders but __init__'s stand-in)."""
    names = {name for name in vars(cls) if not name.startswith("_")}
    if issubclass(cls, BaseException):
        return set()
    return names


def test_every_name_of_the_module_is_in_the_stub_and_back():
    stub = _stub()
    runtime = {name for name in dir(engine) if not name.startswith("_")}
    assert runtime - set(stub) == set(), "in the module, not the stub"
    assert set(stub) - runtime == set(), "in the stub, not the module"


def test_every_class_member_is_in_the_stub_and_back():
    stub = _stub()
    for name, members in stub.items():
        obj = getattr(engine, name)
        if members is None:
            assert not inspect.isclass(obj), name
            continue
        assert inspect.isclass(obj), name
        have = _public(obj)
        declared = {m for m in members if not m.startswith("_")}
        assert have - declared == set(), f"{name}: in the module, not the stub"
        assert declared - have == set(), f"{name}: in the stub, not the module"
