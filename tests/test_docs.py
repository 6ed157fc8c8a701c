"""The docs stand alone: nothing sends a reader outside the repository.

Cheap text checks over README.md, CHANGELOG.md and docs/*.md (and, for the
names of the rules text the project started from, over every source file):
links resolve to files inside the repository, repository paths named in the
text exist, no absolute path of some machine appears, and the README's
commands name problems that exist.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tsume.collection import load

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = sorted({p for d in ("tsume", "tests", "benchmarks", "problems") for p in (ROOT / d).rglob("*")
                  if p.suffix in (".py", ".md", ".tsume")} | {*DOCS, ROOT / "setup.py", ROOT / "pyproject.toml"})
LINK = re.compile(r"\]\(([^)\s]+)\)")
REPO_PATH = re.compile(r"(?<![\w/.-])((?:docs|tests|benchmarks|problems|tsume)/[\w./-]*\.(?:md|py|tsume|json))")
# An absolute path of a machine, or a home directory: the reader has neither.
ABSOLUTE = re.compile(r"(?<![\w.:/-])(?:/(?:work|home|root|opt|tmp|Users|mnt|srv)/|~/|[A-Z]:\\)")
# The shared rules text the project was started from lives outside the repository.
OUTSIDE = ("RULES" + ".md", "shared" + "/")


def test_the_doc_set_is_there():
    assert all(p.is_file() for p in DOCS) and len(DOCS) >= 9


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_stay_inside_the_repository_and_resolve(doc):
    text = doc.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        parts = urlsplit(target)
        if parts.scheme in ("http", "https", "mailto"):
            continue
        assert not parts.scheme and not parts.netloc, f"{doc.name}: link {target!r}"
        if not parts.path:  # an anchor on the same page
            continue
        resolved = (doc.parent / parts.path).resolve()
        assert resolved.is_relative_to(ROOT), f"{doc.name}: link {target!r} leaves the repository"
        assert resolved.exists(), f"{doc.name}: link {target!r} names no file"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_named_repository_paths_exist_and_no_outside_path_is_named(doc):
    text = doc.read_text(encoding="utf-8")
    missing = [p for p in REPO_PATH.findall(text) if not (ROOT / p).exists()]
    assert not missing, f"{doc.name} names missing files: {missing}"
    outside = [m.group(0) for m in ABSOLUTE.finditer(text)]
    assert not outside, f"{doc.name} names paths outside the repository: {outside}"


def test_no_file_points_to_the_rules_text_outside_the_repository():
    hits = [f"{p.relative_to(ROOT)}:{n}" for p in SOURCES
            for n, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1)
            if any(word in line for word in OUTSIDE)]
    assert not hits, hits


def test_the_readme_commands_name_problems_that_exist():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"--file (\S+) --id (\S+)", text) + re.findall(r"tsume verify (\S+) --id (\S+)", text)
    assert named
    for collection, pid in named:
        path = ROOT / collection if "/" in collection else ROOT / "problems" / f"{collection.removesuffix('.tsume')}.tsume"
        assert pid in {p.id for p in load(path)}, (collection, pid)


def test_the_readme_python_example_prints_what_its_comments_say():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = text.split("From Python:\n\n```python\n", 1)[1].split("```", 1)[0]
    # Each print(...) line's comment is its output ("..." stands for any text).
    expected = [line.split("  # ", 1)[1].strip() for line in code.splitlines()
                if line.startswith("print(") and "  # " in line]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    assert len(printed) == len(expected) >= 5
    for want, got in zip(expected, printed):
        pattern = ".*".join(re.escape(part) for part in want.split("..."))
        assert re.fullmatch(pattern, got), (want, got)
