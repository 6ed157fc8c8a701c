"""Certificates: the checker stands alone, agrees with the engine's rules,
accepts what the writer writes and rejects corrupted certificates."""

from __future__ import annotations

import copy
import functools
import gzip
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from tsume import Limits, Position, verify
from tsume.errors import ArgumentError
from tsume import collection as C
from tsume.certificate import rules as R
from tsume.certificate import write as W
from tsume.certificate.check import check_certificate
from tsume.certificate.write import CertificateError, certificate_for, pack
from tsume.cli import run

try:
    from tests.random_positions import random_positions
except ImportError:  # pragma: no cover
    from random_positions import random_positions

ROOT = Path(__file__).resolve().parent.parent
#: Small sound problems of every bundled kind, for the writer and the mutations.
SAMPLE = {"examples": None, "seed-ito": 8, "seed-rutherford": 12}


#: More of every bundled sound collection, for the larger mutation run.
LARGER = {"examples": None, "records": None, "long-ito": 2, "seed-ito": 40, "seed-rutherford": 60}


@functools.cache
def certificates(sample: tuple = tuple(SAMPLE.items())) -> tuple:
    out = []
    for name, count in sample:
        for rec in C.load(C.locate(name))[:count]:
            problem = rec.problem()
            try:
                out.append(certificate_for(problem, verify(problem, id=rec.id)))
            except CertificateError:
                continue  # not every sound problem can be certified (docs/certificates.md)
    return tuple(out)


def test_checker_imports_no_engine(tmp_path):
    cert = tmp_path / "c.tsume-cert"
    cert.write_bytes(pack([certificates()[0]]))
    code = f"""
import importlib.util, sys
sys.modules['tsume'] = None
sys.modules['tsume._engine'] = None
spec = importlib.util.spec_from_file_location(
    'standalone', {str(ROOT / 'tsume/certificate/__init__.py')!r},
    submodule_search_locations=[{str(ROOT / 'tsume/certificate')!r}])
package = importlib.util.module_from_spec(spec)
sys.modules['standalone'] = package
spec.loader.exec_module(package)
from standalone.check import check_certificate
result = check_certificate(open({str(cert)!r}, 'rb').read())
assert result.accepted, result.line()
assert not any(name.startswith('tsume.') and sys.modules[name] is not None for name in sys.modules)
print('ok')
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def _position_string(pos: R.Pos, rules: R.Rules) -> str:
    """The checker's position written as a position string, to compare it
    with the engine's (the checker itself only reads them)."""
    board = "".join(p or "." for p in pos.board[1:])
    board = re.sub(r"\.+", lambda m: str(len(m[0])), board)
    hand = "".join((str(c) if c > 1 else "") + (rules.kinds[k] if side == R.BLACK else rules.kinds[k].lower())
                   for side in (R.BLACK, R.WHITE) for k, c in enumerate(pos.hands[side]) if c)
    return f"{board} {'bw'[pos.turn]} {hand or '-'}"


@pytest.mark.parametrize("spec", ["ito", "rutherford", "ito:drop_mate=no", "ito:stalemate=loss"])
def test_move_generation_agrees_with_engine(spec):
    rules = R.rules_for(spec)
    for text in random_positions(20261128, spec, 300):
        engine = Position(text, spec)
        pos = R.parse_position(text, rules)
        assert _position_string(pos, rules) == engine.fen(move_number=False)
        assert R.validate(pos, rules) is None, text
        assert {m for m, _, _ in R.legal(pos, rules)} == {str(m) for m in engine.legal_moves(repetition=False)}, text
        assert {m for m, _ in R.checks(pos, rules)} == {str(m) for m in engine.checks()}, text
        assert set(R.ride_checkers(pos, rules)) == set(engine.ride_checkers()), text
        for m, after, _ in R.legal(pos, rules):
            assert R.play(pos, m, rules) == after


def test_written_certificates_are_accepted():
    certs = certificates()
    assert len(certs) >= 15
    result = check_certificate(pack(list(certs)))
    assert result.accepted, result.line()
    assert result.problems == len(certs)
    for cert in certs:
        _assert_every_node_is_reached(cert)


def _assert_every_node_is_reached(cert: dict) -> None:
    """The writer keeps no refutation the checker does not visit, and no
    strategy node the alternatives do not lead to."""
    assert _used_refutations(cert) == set(range(len(cert["refute"]))), cert["id"]
    seen, todo = set(), [t for _, _, t in cert["alternatives"]]
    while todo:
        i = todo.pop()
        if isinstance(i, int) and i not in seen:
            seen.add(i)
            node = cert["strategy"][i]
            todo += [node[2]] if node[0] == "SD" else list(node[1].values())
    assert seen == set(range(len(cert["strategy"]))), cert["id"]


def _c0162() -> tuple:
    rec = next(rec for rec in C.load(C.locate("seed-ito")) if rec.id == "ito-c0162")
    return rec.problem(), verify(rec.problem(), id=rec.id)


def test_the_node_limit_is_an_option():
    problem, report = _c0162()
    with pytest.raises(CertificateError, match="uniqueness: more than 100 nodes of refutations and strategies"):
        certificate_for(problem, report, max_nodes=100)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ArgumentError, match="max_nodes"):
            certificate_for(problem, report, max_nodes=bad)
    cert = certificate_for(problem, report, max_nodes=None)
    assert len(cert["strategy"]) > 100
    assert check_certificate(pack([cert])).accepted
    _STRATEGY_23K.append(cert)


#: ito-c0162's certificate (a strategy of 23,543 nodes), once made.
_STRATEGY_23K: list[dict] = []


#: A problem whose witnesses need the refutation entries of version 3 (an
#: interposition the checker can take, counted in a refutation).
LONG = C.Record(id="long", position="14k1+hG1PFC1H2T+C+tG1 b - 1", variant="ito")
#: The corruptions of those entries.
ENTRY_KINDS = {"claim a repetition in a refutation", "claim a reply repeats", "change the escape after a capture",
               "drop the escape after a capture", "change an immediate mate", "drop an immediate mate"}


def _long_problem():
    return LONG.problem(), verify(LONG.problem(), id=LONG.id)


@functools.cache
def long_certificate() -> dict:
    return certificate_for(*_long_problem(), check=False)


@functools.cache
def line_certificate() -> dict:
    """The same certificate with every witness's refutation on its line
    ("H" nodes): the writer's second choice, made its only one."""
    def refused(self, ctx, k):
        raise W.CertificateError("refutations without repetitions are refused here")

    with mock.patch.object(W._Writer, "refutation", refused):
        return certificate_for(*_long_problem(), check=False)


def _entries(cert: dict) -> list:
    return [e for node in cert["refute"] for e in node[2].values()]


def test_long_problems_are_certified():
    plain, line = long_certificate(), line_certificate()
    _assert_every_node_is_reached(plain)
    _assert_every_node_is_reached(line)
    assert any(len(e) == 4 for e in _entries(plain) if isinstance(e, list))
    assert {node[0] for node in line["refute"]} == {"H"}
    entries = _entries(line)
    assert "rep" in entries or any(e[1:2] == ["rep"] for e in entries if isinstance(e, list))
    assert any(isinstance(e, list) and len(e) >= 3 and isinstance(e[2], dict) for e in entries)
    result = check_certificate(pack([plain, line]))
    assert result.accepted, result.line()


def test_corrupted_refutation_entries_are_rejected():
    counts = _rejects_every_corruption((line_certificate(),), 7, most=1, kinds=ENTRY_KINDS)
    assert set(counts) == ENTRY_KINDS, counts


def test_dominators_follow_every_line():
    from tsume.certificate import check as K

    # Node 4 is reached through 2 and through 3: only 1 and 0 lie on both
    # lines.  Node 6 is a capture's position with the piece handed back.
    nodes = [["A", "a", 1], ["D", {"b": 2, "c": 3}], ["A", "d", 4], ["A", "e", 4],
             ["D", {"f": 5, "g": ["u", 5, "h", 6, None]}], ["D", {}], ["D", {}]]
    up, parents = K._dominators(K._Graph(nodes, "mate"))
    assert up == [-1, 0, 1, 1, 1, 4, -1]
    assert parents == [[], [0], [1], [1], [2, 3], [4, 4], []]  # the capture's position has none


def test_an_interposition_only_mate_is_mated_at_once():
    from tsume.certificate import check as K

    # After T*5 the cannon on 4 checks over it; the defender can only drop on
    # 6, and the cannon takes what it drops with mate: each interposition is
    # useless (R is 0).
    rules = R.rules_for("ito")
    pos = R.parse_position("3CT1k1+g1+P2G17 w TH2Fpch", rules)
    replies = R.legal(pos, rules)
    assert replies and all(R.interposition_checker(pos, m, rules) == 4 for m, _, _ in replies)
    assert K._mated(pos, rules, frozenset())
    d, after, _ = replies[0]
    taken = K._taken(pos, d, after, rules)[2]
    for line in ({pos}, {after}, {taken}):  # a mate that recreates a position of the line fails
        assert not K._mated(pos, rules, frozenset(line))
    # A defence that does not interpose (the king takes the Flying General) is no mate.
    assert not K._mated(R.parse_position("2gC1Fk1+P1+P2G17 w 2THFch", rules), rules, frozenset())


#: A position of a 27-ply Ito problem (kG1Ff+T+t1+P+H+P2G17 b H 1) where
#: the writer's witness needs "M" nodes: no mate within 13 plies, shown on
#: its line.
M_POSITION = "1G2k2C+t1+P2G17 b PHFtchf"


@functools.cache
def _m_refutation() -> tuple[int, list]:
    from tsume.search import Search

    pos = Position(M_POSITION, "ito")
    writer = W._Writer(None, Limits(), None)
    root = writer.line_refutation(W._Ctx(Search(pos.copy()), pos), 13)
    return root, writer.refute


def _check_refutation(root: int, nodes: list, may: frozenset = frozenset()) -> list:
    """The positions of ``nodes`` as the checker reaches them from ``root``,
    after checking every claim; raises the checker's Reject."""
    from tsume.certificate import check as K

    rules = R.rules_for("ito")
    g = K._Graph(nodes, "refutation")
    K._check_refutations(g, [(root, R.parse_position(M_POSITION, rules), [], frozenset(), may)], rules)
    return g.pos


def test_m_nodes_bound_r_and_corruptions_are_rejected():
    from tsume.certificate import check as K

    root, nodes = _m_refutation()
    reached = _check_refutation(root, nodes)
    m_nodes = [j for j, n in enumerate(nodes) if n[0] == "M" and reached[j] is not None]
    tops = {j for n, p in zip(nodes, reached) if p is not None and n[0] == "H" for e in n[2].values()
            if isinstance(e, list) and len(e) > 2 and isinstance(e[2], dict) for j in e[2].values() if isinstance(j, int)}
    assert tops and tops <= set(m_nodes) and any(nodes[j][3] for j in m_nodes)
    # Without the mates they show, R is taken as k - 1, and the refutation fails.
    bare = copy.deepcopy(nodes)
    for n in bare:
        for e in n[2].values() if n[0] == "H" else ():
            if isinstance(e, list) and len(e) > 2 and isinstance(e[2], dict) and any(isinstance(j, int) for j in e[2].values()):
                e[2] = None
    with pytest.raises(K.Reject):
        _check_refutation(root, bare)
    changes = [(f"claim a shorter mate at {j}", lambda c, j=j: c[j].__setitem__(1, c[j][1] - 2)) for j in sorted(tops)]
    for j in m_nodes:
        if nodes[j][3]:
            reply = sorted(nodes[j][3])[0]
            changes += [(f"drop a reply at {j}", lambda c, j=j, d=reply: c[j][3].pop(d)),
                        (f"empty the table at {j}", lambda c, j=j: c[j].__setitem__(3, {}))]
    for what, change in changes:
        corrupted = copy.deepcopy(nodes)
        change(corrupted)
        with pytest.raises(K.Reject):
            _check_refutation(root, corrupted)
            pytest.fail(what)
    # A mate recreating a position some line to the interposition passes fails.
    for j in sorted(tops)[:3]:
        with pytest.raises(K.Reject):
            _check_refutation(root, nodes, frozenset({reached[j]}))


def test_the_checker_lets_go_of_its_moves():
    from tsume.certificate import check as K

    big = _STRATEGY_23K[0] if _STRATEGY_23K else certificate_for(*_c0162(), max_nodes=None)
    # ito-c0162's meets more positions than a check keeps for the next.
    assert check_certificate(pack([big])).accepted
    assert not K._MOVES
    assert check_certificate(pack([certificates()[0]])).accepted
    assert 0 < len(K._MOVES) <= 10_000  # a small one's are kept: the next check may meet them


def test_flawed_problems_are_not_certified():
    for rec in C.load(C.locate("flawed")):
        problem = rec.problem()
        report = verify(problem, id=rec.id)
        if report.verdict == "sound":
            continue
        with pytest.raises(CertificateError, match="not certified"):
            certificate_for(problem, report)


def _mutations(cert: dict, rng: random.Random, flawed: list[str], most: int | None = None,
               kinds: set | None = None) -> list[tuple[str, dict]]:
    """Corrupted copies of ``cert``, each with what was done (``most`` of
    them drawn at random, when given; with ``kinds``, ``most`` of each of them)."""
    changes = []

    def variant(what, change):
        changes.append((what, change))

    for i, node in enumerate(cert["mate"]):
        if node[0] == "D" and node[1]:
            move = rng.choice(sorted(node[1]))
            variant("drop a defence", lambda c, i=i, m=move: c["mate"][i][1].pop(m))
            if i > 0:
                variant("add a repetition", lambda c, i=i, m=move: c["mate"][i][1].__setitem__(
                    m, 0 if not isinstance(c["mate"][i][1][m], list) else c["mate"][i][1][m][:1] + [0] + c["mate"][i][1][m][2:]))
        if node[0] == "A":
            other = rng.choice([m for m in ["1-2", "P*5", "T*3", "S*4", "3-1"] if m != node[1]])
            variant("change a move", lambda c, i=i, o=other: c["mate"][i].__setitem__(1, o))
            variant("point a move elsewhere", lambda c, i=i: c["mate"][i].__setitem__(2, (c["mate"][i][2] + 1) % len(c["mate"])))
    used = _used_refutations(cert)
    for i, node in enumerate(cert["refute"]):
        if i not in used:
            continue  # a node no witness reaches is not evidence
        if node[0] == "M":  # a mate shown within a bound
            variant("change a mate's check", lambda c, i=i: c["refute"][i].__setitem__(2, "1-2"))
            if node[3]:
                variant("drop a mate's reply", lambda c, i=i, m=sorted(node[3])[0]: c["refute"][i][3].pop(m))
            continue
        if node[2]:
            check = rng.choice(sorted(node[2]))
            variant("drop a refutation", lambda c, i=i, m=check: c["refute"][i][2].pop(m))
            if isinstance(node[2][check], list):
                variant("change a defence", lambda c, i=i, m=check: c["refute"][i][2][m].__setitem__(0, "2-1"))
            variant("inflate a claim", lambda c, i=i: c["refute"][i].__setitem__(1, c["refute"][i][1] + 2))
            # (a node with no checks to answer holds any claim: not a corruption)
        for check, entry in sorted(node[2].items()):
            _refutation_entry_mutations(cert, i, check, entry, variant)
    for n, alt in enumerate(cert["alternatives"]):
        variant("drop an alternative's refutation", lambda c, n=n: c["alternatives"].pop(n))
        variant("claim a repetition", lambda c, n=n: c["alternatives"][n].__setitem__(2, "rep"))
    for i, node in enumerate(cert["strategy"]):
        if node[0] == "SA" and node[1]:
            check = rng.choice(sorted(node[1]))
            variant("drop a check from a strategy", lambda c, i=i, m=check: c["strategy"][i][1].pop(m))
            variant("claim a repetition in a strategy", lambda c, i=i, m=check: False if c["strategy"][i][1][m] == "rep"
                    else c["strategy"][i][1].__setitem__(m, "rep"))
        if node[0] == "SD":
            other = "2-1" if node[1] == "1-2" else "1-2"
            variant("change a strategy's defence", lambda c, i=i, o=other: c["strategy"][i].__setitem__(1, o))
    if len(cert["mainline"]) > 1:
        variant("shorten the length", lambda c: c.update(length=c["length"] - 2, mainline=c["mainline"][:-2]))
    variant("add pieces to the hand", lambda c: c.update(position=_more_in_hand(c["position"])))
    same_variant = [p for v, p in flawed if v == cert["variant"]]
    for p in same_variant:
        variant("swap the position for a flawed problem's", lambda c, p=p: c.update(position=p))
    if kinds is not None:  # then ``most`` of each kind
        by_kind: dict[str, list] = {}
        for what, change in changes:
            if what in kinds:
                by_kind.setdefault(what, []).append((what, change))
        changes = [x for group in by_kind.values() for x in rng.sample(group, min(most or len(group), len(group)))]
    elif most is not None and len(changes) > most:
        changes = rng.sample(changes, most)
    out = []
    for what, change in changes:
        c = copy.deepcopy(cert)
        if change(c) is not False:
            out.append((what, c))
    return out


def _used_refutations(cert: dict) -> set[int]:
    from tsume.certificate import check as K

    rules = R.rules_for(cert["variant"])
    mate, witnesses = K._Graph(cert["mate"], "mate"), []
    K._check_mate(mate, R.parse_position(cert["position"], rules), rules, witnesses)
    refute = K._Graph(cert["refute"], "refutation")
    K._check_refutations(refute, witnesses, rules)
    return {i for i, pos in enumerate(refute.pos) if pos is not None}


def _refutation_entry_mutations(cert: dict, i: int, check: str, entry, variant) -> None:
    """Corruptions of a refutation's entry: a repetition claimed where there
    is none, a counted interposition's evidence changed or dropped."""
    node = cert["refute"][i]
    if node[0] == "H" and entry != "rep":
        variant("claim a repetition in a refutation", lambda c: c["refute"][i][2].__setitem__(check, "rep"))
        if len(entry) >= 2 and isinstance(entry[1], int):
            variant("claim a reply repeats", lambda c: c["refute"][i][2][check].__setitem__(1, "rep"))
    if isinstance(entry, list) and len(entry) == 4:
        variant("change the escape after a capture", lambda c: c["refute"][i][2][check][3].__setitem__(0, entry[0]))
        if entry[1] is None:
            variant("drop the escape after a capture", lambda c: c["refute"][i][2][check].pop())
    if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], dict) and isinstance(entry[1], int):
        if cert["refute"][entry[1]][1] < node[1]:  # else the entry holds without them
            e = sorted(entry[2])[0]
            variant("change an immediate mate", lambda c: c["refute"][i][2][check][2].__setitem__(e, "0-0"))
            variant("drop an immediate mate", lambda c: c["refute"][i][2][check][2].pop(e))


def _claims_hold(cert: dict) -> bool:
    """An independent reason for a refutation that claims more: the engine
    proves every claim of the refutations (at the positions the checker
    gives them)."""
    from tsume.certificate import check as K
    from tsume.search import Search

    rules = R.rules_for(cert["variant"])
    mate, witnesses = K._Graph(cert["mate"], "mate"), []
    K._check_mate(mate, R.parse_position(cert["position"], rules), rules, witnesses)
    refute = K._Graph(cert["refute"], "refutation")
    K._check_refutations(refute, witnesses, rules)
    for node, pos in zip(cert["refute"], refute.pos):
        if pos is not None:
            value = Search(Position(_position_string(pos, rules), cert["variant"])).value()
            if (value is None or value > node[1]) if node[0] == "M" else (value is not None and value <= node[1]):
                return False
    return True


def _more_in_hand(position: str) -> str:
    board, side, hand = position.split()[:3]
    return f"{board} {side} {'P' if hand == '-' else 'P' + hand}"


@functools.cache
def _flawed_positions() -> list:
    return [(rec.problem().variant.spec, rec.problem().fen) for rec in C.load(C.locate("flawed"))]


class _KeptMoves(dict):
    """The checker's memory of moves, kept whole from check to check."""

    def clear(self) -> None:
        if len(self) > 100_000:
            super().clear()


def _rejects_every_corruption(certs: tuple, seed: int, most: int | None = None, kinds: set | None = None) -> dict[str, int]:
    """Every corruption (of ``kinds``, if given) of every certificate is
    rejected, or shown still valid; how many of each kind were tried."""
    from tsume.certificate import check as K

    rng = random.Random(seed)
    counts: dict[str, int] = {}
    accepted = []
    # Each certificate is checked again for every corruption: the checker's
    # moves are kept across those checks, as they are within one file.
    kept = mock.patch.object(K, "_MOVES", _KeptMoves())
    for cert in certs:
        for what, bad in _mutations(cert, rng, _flawed_positions(), most, kinds):
            counts[what] = counts.get(what, 0) + 1
            with kept:
                result = check_certificate(json.dumps({"format": "tsume-certificate", "version": 3, "problems": [bad]}).encode())
            if result.accepted:
                if not (what == "inflate a claim" and _claims_hold(bad)):
                    accepted.append((cert["id"], what))
            else:
                assert result.status == "rejected" and result.reason
    assert not accepted, accepted[:5]
    return counts


def test_corrupted_certificates_are_rejected():
    counts = _rejects_every_corruption(certificates(), 5)
    assert sum(counts.values()) >= 1000, counts


@pytest.mark.long
def test_corrupted_certificates_are_rejected_larger_run():
    certs = certificates(tuple(LARGER.items()))
    assert len(certs) >= 100 and {c["variant"].split(":")[0] for c in certs} == {"ito", "rutherford"}
    # Drawn at random: every kind of corruption on every problem, without
    # the thousands a large strategy alone would give.
    counts = _rejects_every_corruption(certs, 11, most=40)
    kinds = {"drop a defence", "change a move", "drop an alternative's refutation",
             "swap the position for a flawed problem's", "add a repetition", "claim a repetition in a strategy"}
    assert sum(counts.values()) >= 4_000 and kinds <= set(counts), counts


def test_the_checker_stays_short():
    # The checker is meant to be read: docs/certificates.md counts its lines so.
    lines = sum(len((ROOT / "tsume" / "certificate" / f).read_text().splitlines()) for f in ("check.py", "rules.py"))
    assert lines < 800, lines


def test_unreadable_certificates():
    assert check_certificate(b"\x1f\x8bnot gzip").status == "unreadable"
    assert check_certificate(b"{}").status == "unreadable"
    assert check_certificate(b"[1, 2").status == "unreadable"
    assert check_certificate(gzip.compress(b'{"format": "tsume-certificate", "version": 9}')).status == "unreadable"


def test_cli_verify_certificate_and_check(tmp_path, capsys):
    out = tmp_path / "ex.cert"
    with pytest.raises(SystemExit) as exc:
        run(["verify", "--file", "examples", "-q", "--certificate", str(out)])
    assert exc.value.code == 0
    with pytest.raises(SystemExit) as exc:
        run(["check", str(out)])
    assert exc.value.code == 0
    assert "accepted: 6 problems" in capsys.readouterr().out
    doc = json.loads(gzip.decompress(out.read_bytes()))
    doc["problems"][0]["mate"][0][1] = "1-2"
    bad = tmp_path / "bad.cert"
    bad.write_bytes(gzip.compress(json.dumps(doc).encode()))
    with pytest.raises(SystemExit) as exc:
        run(["check", str(bad)])
    assert exc.value.code == 1
    assert "rejected" in capsys.readouterr().out
    junk = tmp_path / "junk.cert"
    junk.write_bytes(b"junk")
    with pytest.raises(SystemExit) as exc:
        run(["check", str(junk)])
    assert exc.value.code == 2
    assert "unreadable" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        run(["check", str(tmp_path / "missing.cert")])
    assert exc.value.code == 2


def test_cli_certificate_nodes(tmp_path, capsys):
    out = tmp_path / "c.cert"
    with pytest.raises(SystemExit) as exc:
        run(["verify", "--file", "seed-ito", "--id", "ito-c0162", "-q", "--certificate", str(out),
             "--certificate-nodes", "100"])
    assert exc.value.code == 1
    assert "not certified: ito-c0162: uniqueness: more than 100 nodes" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(SystemExit) as exc:
        run(["verify", "--file", "seed-ito", "--id", "ito-c0162", "-q", "--certificate-nodes", "100"])
    assert exc.value.code == 2
    assert "--certificate-nodes needs --certificate" in capsys.readouterr().err


def test_cli_refuses_flawed(tmp_path, capsys):
    out = tmp_path / "f.cert"
    with pytest.raises(SystemExit) as exc:
        run(["verify", "--file", "flawed", "--id", "ito-yozume-1", "-q", "--certificate", str(out)])
    assert exc.value.code == 1
    assert "not certified: ito-yozume-1" in capsys.readouterr().err
    assert not out.exists()


def test_a_certificate_file_is_named_after_its_problem():
    from tsume.certificate import file_name

    assert file_name("ito-05") == "ito-05.cert"
    assert file_name("a b/c:d") == "a_b_c_d.cert"
    assert file_name(None) == file_name("") == "position.cert"
    assert file_name("x" * 200) == "x" * 80 + ".cert"
