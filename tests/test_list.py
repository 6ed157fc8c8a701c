"""``tsume list FILE [--json]``: a collection's problems, one a line, or as JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tsume.cli import main
from tsume.collection import Problem, bundled_names, load, locate

HEADER = ("ID", "VARIANT", "LENGTH", "PROVEN", "TITLE", "TAGS")
JSON_KEYS = {"id", "variant", "position", "defender", "length", "proven_length", "solution", "title", "author",
             "tags", "notes", "provenance", "rating", "source"}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def listed(*args: str) -> list[str]:
    result = run("list", *args)
    assert result.exit_code == 0, result.output + result.stderr
    assert result.stderr == ""
    return result.stdout.splitlines()


def one_line_error(result, *needles: str) -> str:
    assert result.exit_code == 2, result.output + result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsume: error: "), result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("name", ["examples", "seed-ito", "seed-rutherford"])
def test_lists_every_problem_of_a_bundled_collection(name):
    problems = load(locate(name))
    lines = listed(name)
    header, rows, count = lines[0], lines[1:-1], lines[-1]
    assert header.split() == list(HEADER)
    assert [row.split()[0] for row in rows] == [pr.id for pr in problems]
    assert count == f"{len(problems)} problems in {locate(name)}"


def test_columns_are_aligned_under_the_header():
    problems = load(locate("examples"))
    lines = listed("examples")
    header, rows = lines[0], lines[1:-1]
    at = {name: header.index(name) for name in HEADER}
    for pr, row in zip(problems, rows):
        assert row.startswith(pr.id + " ")
        assert row[at["VARIANT"]:].startswith(pr.variant + " ")
        # Lengths are right-aligned: they end where their header ends.
        end = at["LENGTH"] + len("LENGTH")
        assert row[:end].endswith(" " + str(pr.length))
        assert row[: at["PROVEN"] + len("PROVEN")].endswith(" -")  # the examples record no rating
        assert row[at["TITLE"]:].startswith(pr.title + " ")
        assert row[at["TAGS"]:] == ", ".join(pr.tags)


def test_the_proven_length_comes_from_the_rating():
    problems = load(locate("seed-ito"))
    assert all(pr.rating for pr in problems)
    lines = listed("seed-ito")
    at = lines[0].index("PROVEN") + len("PROVEN")
    for pr, row in zip(problems, lines[1:-1]):
        proven = int(pr.fields("rating")["length"])
        assert pr.proven_length() == proven
        assert row[:at].endswith(" " + str(proven))


def test_json_fields():
    result = run("list", "examples", "--json")
    assert result.exit_code == 0, result.output + result.stderr
    data = json.loads(result.stdout)
    problems = load(locate("examples"))
    assert set(data) == {"file", "count", "problems"}
    assert data["file"] == str(locate("examples")) and data["count"] == len(problems) == len(data["problems"])
    for pr, item in zip(problems, data["problems"]):
        assert set(item) == JSON_KEYS
        assert item["id"] == pr.id and item["variant"] == pr.variant and item["position"] == pr.position
        assert item["length"] == pr.length and item["solution"] == pr.solution and item["tags"] == pr.tags
        assert item["title"] == pr.title and item["proven_length"] is None
        assert item["provenance"] == {} and item["rating"] == {}
        assert item["source"].startswith(f"{locate('examples')}:")


def test_json_of_a_composed_problem():
    data = json.loads(run("list", "seed-rutherford", "--json").stdout)
    first = data["problems"][0]
    pr = load(locate("seed-rutherford"))[0]
    assert first["proven_length"] == int(pr.fields("rating")["length"]) == pr.length
    assert first["rating"] == pr.fields("rating") and first["provenance"]["method"] == pr.fields("provenance")["method"]


def test_a_path_with_one_problem_and_missing_values(tmp_path):
    long_title = "A title that goes on and on, well past the forty characters of its column"
    path = tmp_path / "mine.tsume"
    path.write_text(f"[only]\nposition: k1P2H25 b G\ntitle: {long_title}\nrating: length=seven\n", encoding="utf-8")
    lines = listed(str(path))
    assert len(lines) == 3 and lines[-1] == f"1 problem in {path}"
    row = lines[1]
    assert row.split()[:4] == ["only", "ito", "-", "-"]  # no stated length; an unreadable rating length
    assert long_title[:37] + "..." in row and long_title not in row
    assert row.endswith("  -")  # no tags
    item = json.loads(run("list", str(path), "--json").stdout)["problems"][0]
    assert item["title"] == long_title and item["tags"] == [] and item["length"] is None
    assert item["proven_length"] is None and item["rating"] == {"length": "seven"}


def test_proven_length():
    assert Problem("a", "k1P2H25 b G", rating="score=1; length=7").proven_length() == 7
    assert Problem("a", "k1P2H25 b G", rating="score=1").proven_length() is None
    assert Problem("a", "k1P2H25 b G").proven_length() is None
    assert Problem("a", "k1P2H25 b G", rating="length=" + "9" * 5000).proven_length() is None


# --- errors: one line, exit status 2 ---------------------------------------------------------------


def test_missing_file():
    line = one_line_error(run("list", "no-such-collection"), "'no-such-collection'", "no such file")
    assert all(name in line for name in bundled_names())  # it names the ones there are


def test_empty_collection(tmp_path):
    path = tmp_path / "empty.tsume"
    path.write_text("# nothing here\nvariant: ito\n", encoding="utf-8")
    one_line_error(run("list", str(path)), str(path), "holds no problem")
    one_line_error(run("list", str(path), "--json"), "holds no problem")


def test_bad_file(tmp_path):
    path = tmp_path / "bad.tsume"
    path.write_text("[a]\nposition: k1P2H25 b G\nlenght: 3\n", encoding="utf-8")
    one_line_error(run("list", str(path)), f"{path}:3", "unknown key 'lenght'")
    path.write_bytes(b"[a]\nposition: k1P2H25 b G\ntitle: caf\xe9\n")
    one_line_error(run("list", str(path)), "not UTF-8")


def test_no_file_argument(capsys):
    # Through the console entry point, which turns click's usage errors into one line.
    from tsume.cli import run as entry

    with pytest.raises(SystemExit) as exc:
        entry(["list"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("tsume: error:") and "FILE" in err
