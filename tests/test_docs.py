"""The docs stand alone: nothing sends a reader outside the repository.

Cheap text checks over README.md, CHANGELOG.md and docs/*.md (and, for the
names of the rules text the project started from, over every source file):
links resolve to files inside the repository, repository paths named in the
text exist, no absolute path of some machine appears, and the README's
commands name problems that exist.  No file of the repository names one of
the project's work items (an issue or a stop, by number): a reader has no
way to look them up.  The README's Layout names every module, and its "Enter your own
problem" walkthrough runs as written.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tsume.collection import load

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = sorted({p for d in ("tsume", "tests", "benchmarks", "problems") for p in (ROOT / d).rglob("*")
                  if p.suffix in (".py", ".md", ".tsume")} | {*DOCS, ROOT / "pyproject.toml"})
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
    own = _walkthrough()[0]  # the walkthrough's own file, checked by running it
    for collection, pid in named:
        if collection in own:
            continue
        path = ROOT / collection if "/" in collection else ROOT / "problems" / f"{collection.removesuffix('.tsume')}.tsume"
        assert pid in {p.id for p in load(path)}, (collection, pid)


# --- no work items ---------------------------------------------------------------------------------

# An issue or a stop named by its number: the project's own work items, which
# no reader can look up (the CHANGELOG and git hold the history).  The words are
# split in this file's own text so that it does not match itself.
WORK_ITEM = re.compile(r"\b(?:issue|stop)s?[\s_-]*(?:#|no\.?)?\s*\d", re.IGNORECASE)
SKIP_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis"}


def _tracked_files() -> list[Path]:
    """The files git tracks; outside a git checkout, every file but build products."""
    try:
        done = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        done = None
    if done is not None and done.returncode == 0 and done.stdout:
        return [ROOT / name for name in done.stdout.decode("utf-8").split("\0") if name]
    return [Path(d) / f for d, dirs, files in os.walk(ROOT)
            for _ in [dirs.__setitem__(slice(None), [x for x in dirs if x not in SKIP_DIRS and
                                                      not x.endswith(".egg-info")])]
            for f in files]


def test_work_items_match_what_they_should():
    issue, stop = "is" "sue", "st" "op"
    for text in (f"{issue} 10", f"{issue.title()} #12", f"{stop} 23", f"{stop}s 23-30", f"{stop.upper()}-30",
                 f"{issue}s 12 and 13", f"{stop}_29", f"{issue} no. 4"):
        assert WORK_ITEM.search(text), text
    for text in ("the search stops", "an issue when pasted", "stopped at 4.1 million", "nonstop 3", "tissue 5"):
        assert not WORK_ITEM.search(text), text


def test_no_file_mentions_a_work_item():
    """No tracked file (docs, code, comments, tests, benchmarks, data) names an issue or a stop by number."""
    files = [p for p in _tracked_files() if p.is_file()]
    assert len(files) > 100
    hits = []
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        if WORK_ITEM.search(name):
            hits.append(name)
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # images, compiled files
        for n, line in enumerate(text.split("\n"), 1):
            if WORK_ITEM.search(line):
                hits.append(f"{name}:{n}: {line.strip()[:100]}")
    assert not hits, "\n".join(hits[:30])


# --- the README ------------------------------------------------------------------------------------


def _readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def test_the_layout_names_every_module():
    layout = _readme_section("Layout")
    package = ROOT / "tsume"
    want = [p.relative_to(package) for p in package.rglob("*.py")
            if "__pycache__" not in p.parts and p.name != "__init__.py" and "problems" not in p.parts]
    subpackages = {p.parent.relative_to(package) for p in package.rglob("__init__.py") if p.parent != package}
    assert want and subpackages
    missing = [str(m) for m in want if f"`{m.name}`" not in layout]
    missing += [f"{d}/" for d in subpackages if f"`{d}/`" not in layout]
    assert not missing, f"README's Layout does not name {missing}"


def _walkthrough() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The walkthrough's files (a block whose first line is "# NAME: ...") and its
    commands with their comments, in order."""
    section = _readme_section("Enter your own problem")
    files: dict[str, str] = {}
    commands: list[tuple[str, str]] = []
    for lang, body in re.findall(r"```(\w*)\n(.*?)```", section, re.DOTALL):
        if lang == "sh":
            for line in body.splitlines():
                if line.strip():
                    words = shlex.split(line, comments=False)
                    cut = words.index("#") if "#" in words else len(words)
                    commands.append((shlex.join(words[:cut]), " ".join(words[cut + 1:])))
        else:
            first = body.splitlines()[0]
            named = re.match(r"# (\S+):", first)
            assert named, f"a file block of the walkthrough must start with '# NAME:', not {first!r}"
            files[named.group(1)] = body
    return files, commands


def test_the_walkthrough_runs_as_written(tmp_path):
    """Each command of "Enter your own problem" run in an empty folder holding the
    file the README shows: every one succeeds, and what a comment says it prints
    ("Mate in 5 plies...", "Verdict: sound") is printed."""
    files, commands = _walkthrough()
    assert "mine.tsume" in files and len(commands) >= 6
    for name, body in files.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = set()
    for command, comment in commands:
        words = shlex.split(command)
        assert words[0] == ".venv/bin/tsume", command
        done = subprocess.run([sys.executable, "-m", "tsume", *words[1:]], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{command}: exit {done.returncode}: {done.stderr.strip()}"
        if comment[:1].isupper():  # a comment that quotes the output, up to an ellipsis
            said = " ".join(comment.removesuffix("...").split())
            assert said in " ".join(done.stdout.split()), f"{command}: does not print {said!r}"
        if "-o" in words:
            out = tmp_path / words[words.index("-o") + 1]
            assert out.is_file() and out.stat().st_size > 0, command
        ran.add(words[1])
    assert {"show", "solve", "verify", "list", "booklet"} <= ran
    # The problem entered is sound, and the collection names it.
    done = subprocess.run([sys.executable, "-m", "tsume", "verify", "mine.tsume", "--json", "-q"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and '"verdict": "sound"' in done.stdout, done.stdout[:300]
def _use_commands() -> list[list[str]]:
    """The commands of the README's "Use" block, as argument lists (comments dropped)."""
    section = _readme_section("Use")
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "README's Use section has lost its commands"
    commands = []
    for line in block.group(1).splitlines():
        words = shlex.split(line, comments=True)
        if words:
            commands.append(words)
    return commands


@pytest.mark.slow
def test_the_use_commands_leave_the_checkout_clean(tmp_path):
    """Every command of "Use" (the studio's aside) run where a checkout would be:
    none fails with a traceback, and each file they write lands in ``out/``,
    which git ignores, so a clean checkout stays clean."""
    commands = _use_commands()
    assert len(commands) >= 15
    (tmp_path / "problems").symlink_to(ROOT / "problems")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = 0
    for words in commands:
        assert words[0] == ".venv/bin/tsume", words
        if words[1] == "serve":
            continue
        done = subprocess.run([sys.executable, "-m", "tsume", *words[1:]], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode in (0, 1), f"{shlex.join(words)}: exit {done.returncode}: {done.stderr.strip()}"
        assert "Traceback" not in done.stderr, shlex.join(words)
        if {"-o", "--out"} & set(words):
            writers += 1
    assert writers >= 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "problems"]
    assert any((tmp_path / "out").iterdir())
    ignored = subprocess.run(["git", "check-ignore", "-q", "out/booklet.html"], cwd=ROOT)
    assert ignored.returncode == 0, "git does not ignore out/"


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


@pytest.mark.parametrize("doc", [d for d in DOCS if ">>> " in d.read_text(encoding="utf-8")], ids=lambda p: p.name)
def test_the_python_examples_of_the_docs_run_as_written(doc):
    import doctest

    failed, tried = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried and not failed, f"{doc.name}: {failed} of {tried} examples fail (python -m doctest {doc.name})"
