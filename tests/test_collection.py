"""Problem collections: reading, errors with file and line, atomic writing."""

from __future__ import annotations

import os
import stat

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


@pytest.mark.parametrize(
    "text, where",
    [
        ("[a]\nposition: x\nlenght: 3\n", "x.tsume:3: unknown key 'lenght'"),
        ("[a]\nposition: x\n[a]\nposition: y\n", "x.tsume:3: duplicate problem id [a] (first at line 1)"),
        ("[a]\nlength: 3\n", "x.tsume:1: problem [a] has no 'position'"),
        ("[a b]\n", "x.tsume:1: bad problem id"),
        ("[a]\nposition: x\nlength: three\n", "x.tsume:3: length must be a positive whole number"),
        ("position: x\n", "x.tsume:1: only 'variant' may come before the first [id]"),
        ("[a]\nposition x\n", "x.tsume:2: expected 'key: value'"),
        ("[a]\nvariant: chess\nposition: x\n", "x.tsume:2: unknown variant 'chess'"),
    ],
)
def test_errors_name_file_and_line(text, where):
    with pytest.raises(CollectionError) as exc:
        loads(text, "x.tsume")
    assert str(exc.value).startswith(where)
    assert "\n" not in str(exc.value)


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
