"""Problem collections: reading, errors with file and line, atomic writing."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from tsume.collection import CollectionError, Problem, load, loads, save

TEXT = """\
# a comment
variant: rutherford

[r-1]
position: l3k1n+P1S15 b PL 1
length: 13
tags: a, b

[i-1]
variant: ito
position: k1P2H25 b G
defender: none
solution: G*5
"""


def test_read_fields_and_defaults():
    first, second = loads(TEXT, "x.tsume")
    assert (first.id, first.variant, first.length, first.tags) == ("r-1", "rutherford", 13, ["a", "b"])
    assert (second.variant, second.defender, second.solution) == ("ito", "none", ["G*5"])
    assert first.source == "x.tsume:4"


P = "k1P2H25 b G"  # a valid Ito position (mate in 1)


@pytest.mark.parametrize(
    "text, where",
    [
        (f"[a]\nposition: {P}\nlenght: 3\n", "x.tsume:3: [a] unknown key 'lenght'"),
        (f"[a]\nposition: {P}\n[a]\nposition: {P}\n", "x.tsume:3: duplicate problem id [a] (first at line 1)"),
        ("[a]\nlength: 3\n", "x.tsume:1: [a] has no 'position'"),
        ("[a b]\n", "x.tsume:1: bad problem id"),
        (f"[a]\nposition: {P}\nlength: three\n", "x.tsume:3: [a]: length: expected a whole number"),
        # isdigit() is true for '²' and int() refuses it; 4,301 digits pass
        # isdigit() and exceed int()'s limit.
        (f"[a]\nposition: {P}\nlength: \u00b2\n", "x.tsume:3: [a]: length: expected a whole number"),
        (f"[a]\nposition: {P}\nlength: \u0661\n", "x.tsume:3: [a]: length: expected a whole number"),
        (f"[a]\nposition: {P}\nlength: {'9' * 4301}\n", "x.tsume:3: [a]: length has 4,301 digits"),
        (f"[a]\nposition: {P}\nlength: 0\n", "x.tsume:3: [a]: length must be at least 1 ply"),
        ("position: x\n", "x.tsume:1: only 'variant' may come before the first [id]"),
        ("[a]\nposition x\n", "x.tsume:2: [a] expected 'key: value'"),
        (f"[a]\nvariant: chess\nposition: {P}\n", "x.tsume:2: [a] unknown variant 'chess'"),
        (f"variant: chess\n[a]\nposition: {P}\n", "x.tsume:1: unknown variant 'chess'"),
        # The position and the defender's hand are read at load time, with the
        # problem's variant, and named by file, line and id.
        (f"[ok]\nposition: {P}\n\n[bad]\nposition: k1P2H25 b X\n", "x.tsume:5: [bad] position: hands: unknown piece letter 'X'"),
        ("[a]\nposition: K1p2h25 b G\n", "x.tsume:2: [a] position: the defender (White) has no king"),
        # Counts the hash tables cannot hold, and digits int() refuses, inside a position or hand.
        (f"[a]\nposition: {P}\ndefender: 30P\n", "x.tsume:3: [a] defender '30P': hands: 30 p"),
        ("[a]\nposition: k29K b \u00b2P 1\n", "x.tsume:2: [a] position: hands"),
        (f"[a]\nvariant: rutherford\nposition: {P}\n", "x.tsume:3: [a] position: board: unknown piece letter 'H'"),
        (f"[a]\nposition: {P}\ndefender: 2P\n", "x.tsume:3: [a] defender '2P': position: 3 pieces of kind P"),
        (f"[a]\nposition: {P}\ndefender: Q\n", "x.tsume:3: [a] defender 'Q': hands: unknown piece letter"),
        # An id has no length limit, but a message quoting it stays short.
        (f"[{'p' * 500}]\nposition: k1P2H25 b X\n", f"x.tsume:2: [{'p' * 40}...] (an id of 500 characters) position:"),
        (f"[{'p' * 500}]\nposition: {P}\n[{'p' * 500}]\n", "x.tsume:3: duplicate problem id [ppp"),
        (f"[{'p' * 500}]\nposition: {P}\nlength: {'9' * 5000}\n", "x.tsume:3: [ppp"),
        # No problem at all.
        ("", "x.tsume: holds no problem"),
        ("# only a comment\nvariant: ito\n", "x.tsume: holds no problem"),
    ],
)
def test_errors_name_file_line_and_problem(text, where):
    with pytest.raises(CollectionError) as exc:
        loads(text, "x.tsume")
    assert str(exc.value).startswith(where), str(exc.value)
    assert "\n" not in str(exc.value) and len(str(exc.value)) < 300


def test_lines_are_counted_by_newlines_only():
    # \f, \v, \x1c-\x1e, \x85, U+2028 and U+2029 end a line for str.splitlines(),
    # not for an editor: line numbers must agree with the editor's.
    odd = "\f\v\x1c\x1d\x1e\x85\u2028\u2029"
    text = f"# a comment with odd breaks {odd}\r\n[a]\r\nposition: {P}\r\nlenght: 1\r\n"
    with pytest.raises(CollectionError, match=r"^x\.tsume:4: \[a\] unknown key"):
        loads(text, "x.tsume")
    (a,) = loads(f"# {odd}\n[a]\r\nposition: {P}\r\ntitle: odd {odd} breaks\r\n", "x.tsume")
    assert a.source == "x.tsume:2" and a.position == P


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.tsume"
    path.write_bytes(b"\xef\xbb\xbf[a]\nposition: " + P.encode() + b"\n")
    (a,) = load(path)
    assert a.id == "a" and a.source == f"{path}:1"


def test_not_utf8_names_the_line_and_offset(tmp_path):
    path = tmp_path / "latin1.tsume"
    data = f"[a]\nposition: {P}\ntitle: caf".encode() + b"\xe9\n"
    path.write_bytes(data)
    with pytest.raises(CollectionError) as exc:
        load(path)
    offset = data.index(b"\xe9")
    assert str(exc.value) == f"{path}:3: not UTF-8 text (byte 0xe9 at offset {offset})"


def test_an_empty_collection_file_is_refused_and_the_cli_exits_2(tmp_path, capsys):
    from tsume.cli import run

    path = tmp_path / "empty.tsume"
    path.write_text("# nothing yet\n")
    with pytest.raises(CollectionError, match="holds no problem"):
        load(path)
    for command in (["solve", "--file", str(path)], ["verify", str(path)]):
        with pytest.raises(SystemExit) as exc:
            run([*command, "-q"])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert f"{path}: holds no problem" in err and len(err.strip().splitlines()) == 1


# --- comments after a value -----------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "problems.md"


def documented_example() -> str:
    """The format example of docs/problems.md, verbatim: its first code block."""
    match = re.search(r"^```\n(.*?)^```$", DOCS.read_text(encoding="utf-8"), re.S | re.M)
    assert match, "docs/problems.md has lost its format example"
    return match.group(1)


def test_the_documented_example_loads_as_documented():
    text = documented_example()
    assert re.search(r"^variant: ito +# ", text, re.M)  # the line users copy, a comment after its value
    (pr,) = loads(text, "docs/problems.md")
    assert (pr.id, pr.variant, pr.position, pr.length) == ("ito-05", "ito", "H1kf1P1c2K20 b PHG 1", 5)
    assert pr.solution == ["G*7", "3-2", "H*5", "2-1", "P*2"]
    assert (pr.title, pr.author, pr.tags) == ("Three drops", "tsume generator", ["example", "drops"])
    assert pr.notes == "free text on one line, #1 of a set"


@pytest.mark.parametrize(
    "line, value",
    [
        ("title: A title # a comment", "A title"),
        ("title: A title\t#\ta comment", "A title"),
        ("title: A title #", "A title"),
        ("title: # only a comment", ""),
        ("title: Problem #5", "Problem #5"),
        ("title: in C# minor", "in C# minor"),
        ("title: #1 of 3 # first", "#1 of 3"),
        ("title: a#b # c # d", "a#b"),
        ("title: 5 \\# 3", "5 # 3"),
        ("title: 5 \\\\# 3 # comment", "5 \\# 3"),
        ("title: a\\# b", "a\\# b"),  # a backslash inside a word is text too
    ],
)
def test_a_comment_after_a_value(line, value):
    (pr,) = loads(f"[a]   # the first\nposition: {P}  # mate in 1\n{line}\n", "x.tsume")
    assert (pr.id, pr.position, pr.title or "") == ("a", P, value)


def test_a_comment_after_the_default_variant():
    (pr,) = loads("variant: rutherford   # for the problems below\n[a]\nposition: k19K b L\n", "x.tsume")
    assert pr.variant == "rutherford"


@pytest.mark.parametrize("value", ["a # b", "# first", "last #", "a\t# b", "5 \\# 3", "\\#", "\\\\# x",
                                   "C# #5 P*2#", "a \\\\\\# b #"])
def test_a_value_holding_a_lone_hash_is_saved_so_that_it_loads_back(tmp_path, value):
    pr = Problem(id="a", position=P, title=value, author=value, notes=value, tags=[value, "t"],
                 provenance=f"method={value}")
    path = tmp_path / "c.tsume"
    save(path, [pr])
    (back,) = load(path)
    assert (back.title, back.author, back.notes, back.tags) == (value, value, value, [value, "t"])
    assert back.provenance == f"method={value}"


def test_save_is_atomic_round_trip_and_keeps_a_normal_mode(tmp_path):
    path = tmp_path / "c.tsume"
    problems = loads(TEXT, "x")
    save(path, problems, header="two problems")
    again = load(path)
    assert [p.to_text() for p in again] == [p.to_text() for p in problems]
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode & 0o044, oct(mode)  # not a private 0600 temp file
    assert [f.name for f in tmp_path.iterdir()] == ["c.tsume"]  # no temporary left behind
    os.chmod(path, 0o640)
    save(path, [Problem(id="z", position="k1P2H25 b G")])
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_cli_solves_from_a_collection(tmp_path, capsys):
    from tsume.cli import run

    path = tmp_path / "c.tsume"
    path.write_text(TEXT)
    with pytest.raises(SystemExit) as exc:
        run(["solve", "--file", str(path), "--id", "i-1", "--json", "-q"])
    assert exc.value.code == 0
    assert '"mainline": ["G*5"]' in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        run(["solve", "--file", str(path), "--id", "nope", "-q"])
    assert exc.value.code == 2


def _temporaries(folder, name="c.tsume"):
    return sorted(f.name for f in folder.iterdir() if f.name.startswith(f".{name}.tsume-save-"))


# Saves one of two versions of a collection (2,000 and 1,999 problems) in an
# endless loop, and says "ready" after the first.
SAVER = """
import sys
from tsume.collection import Problem, save
problems = [Problem(id=f"p{i}", position="k1P2H25 b G", notes="x" * 2000) for i in range(2000)]
i = 0
while True:
    save(sys.argv[1], problems[: 2000 - i % 2])
    if i == 0:
        print("ready", flush=True)
    i += 1
"""


def test_a_save_killed_mid_write_leaves_a_whole_file_and_its_temporary_goes_at_the_next_save(tmp_path):
    import random
    import signal
    import subprocess
    import sys
    import time

    from tsume.collection import dumps

    path = tmp_path / "c.tsume"
    problems = [Problem(id=f"p{i}", position="k1P2H25 b G", notes="x" * 2000) for i in range(2000)]
    versions = {dumps(problems), dumps(problems[:1999])}
    rng = random.Random(10)
    left_behind = 0
    for kill in range(40):
        child = subprocess.Popen([sys.executable, "-c", SAVER, str(path)], stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline() == "ready\n"
        # Each new saver's first save removed the temporaries of the one before.
        assert len(_temporaries(tmp_path)) <= 1
        time.sleep(rng.uniform(0, 0.05))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        assert path.read_text() in versions  # the old file or the new one, never a part
        left_behind += len(_temporaries(tmp_path))
        if left_behind >= 3 and kill >= 7:
            break
    # The kills did interrupt saves mid-write (else this test proves nothing).
    assert left_behind >= 3
    save(path, problems[:5])
    assert _temporaries(tmp_path) == [] and len(load(path)) == 5


def test_save_keeps_a_live_writers_temporary_and_removes_a_dead_ones(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "c.tsume"
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(done.stdout)  # reaped: no process has it (unless reused at once)
    dead = tmp_path / f".c.tsume.tsume-save-{dead_pid}-abc_123.tmp"
    live = tmp_path / f".c.tsume.tsume-save-{os.getppid()}-abc_123.tmp"  # our parent: alive
    other = tmp_path / f".d.tsume.tsume-save-{dead_pid}-abc_123.tmp"  # another collection's
    mine = tmp_path / "notes.tmp"  # not a temporary of save()
    for f in (dead, live, other, mine):
        f.write_text("partial")
    save(path, [Problem(id="z", position="k1P2H25 b G")])
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(["c.tsume", live.name, other.name, mine.name])
    # A live writer's temporary is removed once it is too old to be a save in progress.
    old = os.stat(live).st_mtime - 3600
    os.utime(live, (old, old))
    save(path, [Problem(id="z", position="k1P2H25 b G")])
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(["c.tsume", other.name, mine.name])


# --- continuation lines ------------------------------------------------------------------------------


def test_a_long_value_is_saved_on_continuation_lines_and_read_back(tmp_path):
    from tsume.collection import WIDTH, Record, save

    moves = ["3-4", "2-1", "G*5", "1-3", "5-1"] * 12  # 60 moves: far wider than a line
    notes = "a  run of spaces stays, #5 is text, and a lone \\# too " * 4
    record = Record(id="long", position="1kT3H24 b G 1", solution=moves, notes=notes.strip(),
                    rating="score=1.0; " * 30)
    path = tmp_path / "long.tsume"
    save(path, [record])
    text = path.read_text(encoding="utf-8")
    assert max(len(line) for line in text.split("\n")) <= WIDTH
    assert any(line.startswith("  ") for line in text.split("\n"))
    back = load(path)[0]
    assert back.solution == moves and back.notes == record.notes and back.rating == record.rating.strip()


def test_an_indented_line_continues_the_value_above():
    text = "[a]\nposition: 1kT3H24 b G 1\nsolution: 3-4 2-1\n  G*5 1-3   # the rest\n\t5-1\nnotes: one\n two\n"
    r = loads(text)[0]
    assert r.solution == ["3-4", "2-1", "G*5", "1-3", "5-1"] and r.notes == "one two"


@pytest.mark.parametrize("text, words", [
    ("[a]\n  position: 1kT3H24 b G 1\n", "there is none"),            # nothing above to continue
    ("[a]\nposition: 1kT3H24 b G 1\n  title: x\n", "'title' is indented"),  # a key, indented
    ("[a]\nposition: 1kT3H24 b G 1\nnotes: x\n\n  more\n", "there is none"),  # a blank line ends a value
    ("[a]\nposition: 1kT3H24 b G 1\nnotes: x\n# c\n  more\n", "there is none"),  # so does a comment
    ("  variant: ito\n[a]\nposition: 1kT3H24 b G 1\n", "there is none"),
])
def test_a_continuation_with_nothing_to_continue_is_refused(text, words):
    with pytest.raises(CollectionError, match=words):
        loads(text, "x.tsume")
def test_bundled_path_names_only_the_bundled_collections(tmp_path, monkeypatch):
    from tsume.collection import bundled_path, locate

    (tmp_path / "examples.tsume").write_text("[decoy]\nposition: k1P2H25 b G\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = bundled_path("examples")
    assert found is not None and found.parent != tmp_path and [p.id for p in load(found)][0] == "ito-01"
    assert bundled_path("examples.tsume") == found
    assert locate("examples.tsume") == Path("examples.tsume")  # a path is read as a path
    for name in ("nosuch", "./examples", "../examples", "", ".tsume", "a\x00b", "x" * 5000):
        assert bundled_path(name) is None, name


# --- titles name pieces as docs/rules.md does ------------------------------------------------------

#: Words that name a piece in shogi or in chess: a title that uses one must use
#: it inside a full piece name of its problem's variant ("Silver Cannon", not
#: "Chariot" for it).
_PIECE_WORDS = {"king", "pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "dragon", "horse", "chariot",
                "cannon", "general", "tile", "goose", "swallow", "phoenix", "cavalryman", "go-between", "queen"}


def _title_piece_words_outside_names(title: str, names: list[str]) -> list[str]:
    text = title.lower()
    covered = [False] * len(text)
    for name in sorted(names, key=len, reverse=True):
        for m in re.finditer(rf"\b{re.escape(name.lower())}s?\b", text):
            covered[m.start():m.end()] = [True] * (m.end() - m.start())
    return [m.group(0) for m in re.finditer(r"[a-z-]+", text)
            if m.group(0).rstrip("s") in _PIECE_WORDS and not all(covered[m.start():m.end()])]


def test_bundled_titles_name_pieces_as_the_rules_do():
    from tsume.collection import bundled_names, locate
    from tsume.variant import get_variant

    wrong = []
    for name in bundled_names():
        for pr in load(locate(name)):
            if not pr.title:
                continue
            assert not re.search(r"\b1 plies\b", pr.title), (name, pr.id, pr.title)
            variant = get_variant(pr.variant)
            names = [f.name for k in variant.kinds for f in (k.unpromoted, k.promoted) if f is not None]
            stray = _title_piece_words_outside_names(pr.title, names)
            if stray:
                wrong.append(f"{name}/{pr.id}: {pr.title!r} says {stray}")
    assert not wrong, wrong


def test_the_title_check_catches_a_name_the_rules_do_not_use():
    names = ["Silver Cannon", "Reverse Chariot", "Pawn", "Tile General"]
    assert _title_piece_words_outside_names("Pawn first, Chariot last", names) == ["chariot"]
    assert _title_piece_words_outside_names("A Reverse Chariot and two Pawns", names) == []
    assert _title_piece_words_outside_names("Silver Cannon steps back to mate", names) == []
