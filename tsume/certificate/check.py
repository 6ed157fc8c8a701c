"""The certificate checker: accepts a certificate (docs/certificates.md) or
rejects it with a one-line reason and the move path where it failed.

Standard library and :mod:`.rules` only: no engine, no code shared with the
solver or the verifier.  Deterministic: the same file gives the same answer.
"""

from __future__ import annotations

import gzip
import io
import json
import lzma
from dataclasses import dataclass, field
from typing import Any

from . import rules as r

FORMAT = "tsume-certificate"
VERSION = 3  #: version 2 is read too: it has no "H" nodes
CLAIMS = ("mate", "length", "uniqueness", "no-te-amari")
#: A compressed certificate may not grow past this when read (a zip bomb is unreadable).
MAX_BYTES = 1 << 30
#: The most lines of "H" nodes checked (each is checked on every line reaching it).
MAX_LINES = 1_000_000


@dataclass
class CheckResult:
    """``status``: accepted, rejected or unreadable; for a rejection, the
    problem's id, the reason and the moves from the problem's position to
    the place at fault."""

    status: str
    reason: str = ""
    id: str | None = None
    path: list[str] = field(default_factory=list)
    problems: int = 0
    claims: tuple = ()

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    def line(self) -> str:
        if self.accepted:
            return f"accepted: {self.problems} problem{'s' * (self.problems != 1)}; claims: {', '.join(self.claims)}"
        where = f" [{self.id}]" if self.id else ""
        at = f" (after {' '.join(self.path)})" if self.path else (" (at the problem's position)" if self.id else "")
        return f"{self.status}{where}: {self.reason}{at}"


class Reject(Exception):
    def __init__(self, reason: str, path: list[str] | None = None) -> None:
        super().__init__(reason)
        self.reason, self.path = reason, path or []


def load(data: bytes) -> Any:
    """The JSON document of a certificate file (gzip, xz or plain)."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.GzipFile(fileobj=io.BytesIO(data)).read(MAX_BYTES + 1)
    elif data[:6] == b"\xfd7zXZ\x00":
        data = lzma.LZMADecompressor().decompress(data, MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError("the certificate is too large")
    return json.loads(data.decode("utf-8"))


def check_certificate(data: Any) -> CheckResult:
    """Check a certificate given as file contents (bytes) or as its JSON document."""
    try:
        doc = load(bytes(data)) if isinstance(data, (bytes, bytearray)) else data
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        if doc.get("version") not in (2, VERSION):
            raise ValueError(f"version {str(doc.get('version'))[:20]} (this checker reads 2 and {VERSION})")
        problems = doc.get("problems")
        if not isinstance(problems, list) or not problems:
            raise ValueError("no problems")
    except (ValueError, OSError, EOFError, lzma.LZMAError, UnicodeDecodeError, RecursionError) as exc:
        return CheckResult("unreadable", str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__)
    try:
        for i, cert in enumerate(problems):
            pid = cert.get("id") if isinstance(cert, dict) and isinstance(cert.get("id"), str) else f"#{i + 1}"
            try:
                _check_one(cert)
            except Reject as exc:
                return CheckResult("rejected", exc.reason, pid, exc.path, i)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError, r.RulesError) as exc:
                return CheckResult("rejected", f"malformed certificate ({type(exc).__name__}: {str(exc)[:80]})", pid, [], i)
        return CheckResult("accepted", problems=len(problems), claims=CLAIMS)
    finally:  # the moves of a file's positions: a few are worth keeping for the next check, not all
        if len(_MOVES) > 10_000:
            _MOVES.clear()


class _Graph:
    """A node list whose positions are found by following its edges: each
    node's position is set by the first edge reaching it and must agree with
    every other; ``parent`` keeps that first edge for the move path."""

    def __init__(self, nodes: Any, what: str) -> None:
        if not isinstance(nodes, list):
            raise Reject(f"{what}: not a list")
        self.nodes, self.what = nodes, what
        self.pos: list[r.Pos | None] = [None] * len(nodes)
        self.parent: list[tuple[int, list[str]] | None] = [None] * len(nodes)
        self.base: list[list[str]] = [[] for _ in nodes]

    def reach(self, i: Any, pos: r.Pos, parent: int | None, moves: list[str], base: list[str] | None = None) -> int:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.nodes):
            raise Reject(f"{self.what}: no node {str(i)[:20]}", self.path(parent) + moves if parent is not None else moves)
        if self.pos[i] is None:
            self.pos[i], self.parent[i], self.base[i] = pos, (parent, moves) if parent is not None else None, base or []
        elif self.pos[i] != pos:
            where = self.path(parent) + moves if parent is not None else (base or []) + moves
            raise Reject(f"{self.what}: node {i} is reached in two different positions", where)
        return i

    def path(self, i: int | None) -> list[str]:
        out: list[str] = []
        for _ in range(len(self.nodes) + 1):
            if (link := self.parent[i] if i is not None else None) is None:
                return (self.base[i] if i is not None else []) + out
            i, moves = link
            out = moves + out
        return out


def _check_one(cert: dict) -> None:
    if not isinstance(cert, dict):
        raise Reject("a problem's certificate is not an object")
    if tuple(cert.get("claims", ())) != CLAIMS:
        raise Reject(f"the claims must be {', '.join(CLAIMS)}")
    rules = r.rules_for(cert["variant"])
    root = r.parse_position(cert["position"], rules)
    invalid = r.validate(root, rules)
    if invalid:
        raise Reject(f"not a valid position: {invalid}")
    length, mainline = cert["length"], cert["mainline"]
    if not isinstance(length, int) or isinstance(length, bool) or length < 1 or length % 2 == 0:
        raise Reject("the length must be a positive odd number of plies")
    if not isinstance(mainline, list) or len(mainline) != length:
        raise Reject(f"the main line must have {length} ply{'s' * (length != 1)}")
    if cert.get("stated_length") is not None and cert["stated_length"] != length:
        raise Reject(f"the stated length {cert['stated_length']} is not the certified {length}")
    if cert.get("stated_solution") is not None and cert["stated_solution"] != mainline:
        raise Reject("the stated solution is not the certified main line")
    witnesses: list[tuple[int, r.Pos, list[str], frozenset, frozenset]] = []
    mate = _Graph(cert["mate"], "mate")
    _check_mate(mate, root, rules, witnesses)
    refute = _Graph(cert["refute"], "refutation")
    _check_refutations(refute, witnesses, rules)
    # The depths need the witnesses' bounds, now proven.
    depth = _depths(mate, rules, refute)
    if depth[0] != length:
        raise Reject(f"the proof mates within {depth[0]} ply{'s' * (depth[0] != 1)}, not {length}")
    _check_main_line(mate, mainline, depth, root, rules)
    # The length and no te-amari follow: against a defender who plays the
    # main line until the attacker leaves it, then the strategy, only the
    # main line mates, after exactly L counted plies and with an empty hand.
    _check_alternatives(cert, mainline, root, rules)


_MOVES: dict[tuple, dict[str, r.Pos]] = {}  # a position's moves, for one file: many nodes and lines meet it again


def _legal_map(pos: r.Pos, rules: r.Rules, only_checks: bool) -> dict[str, r.Pos]:
    key = (pos, only_checks, rules[:2] + rules[3:])  # the rules but their faces, which the name fixes
    got = _MOVES.get(key)
    if got is None:
        if len(_MOVES) > 100_000:
            _MOVES.clear()
        got = _MOVES[key] = dict(r.checks(pos, rules)) if only_checks else {m: a for m, a, _ in r.legal(pos, rules)}
    return got


def _covered(entries: Any, moves: dict, what: str, g: _Graph, i: int) -> None:
    if not isinstance(entries, dict):
        raise Reject(f"{what}: no move table", g.path(i))
    missing, extra = sorted(set(moves) - set(entries)), sorted(map(str, set(entries) - set(moves)))
    if missing or extra:
        raise Reject(f"{what}: {missing[0]} is not answered" if missing else f"{what}: {extra[0][:20]} is not a legal move here", g.path(i))


def _check_mate(g: _Graph, root: r.Pos, rules: r.Rules, witnesses: list) -> None:
    """Positions, legality, coverage and acyclicity (every edge goes to a later
    node) of the proof of mate; one node per position, so no line repeats one."""
    attacker = root.turn
    g.reach(0, root, None, [])
    seen: dict[tuple, int] = {}
    for i, node in enumerate(g.nodes):
        pos = g.pos[i]
        if pos is None:
            raise Reject(f"mate: node {i} is never reached")
        path = g.path(i)
        if pos in seen:
            raise Reject(f"mate: the position of node {i} is also node {seen[pos]}: a line could repeat it", path)
        seen[pos] = i

        def later(j: Any, moves: list[str], p: r.Pos) -> None:
            if not isinstance(j, int) or j <= i:
                raise Reject(f"mate: node {i} leads back to node {str(j)[:20]}", path + moves)
            g.reach(j, p, i, moves)

        if pos.turn == attacker:
            if not (isinstance(node, list) and len(node) == 3 and node[0] == "A"):
                raise Reject("mate: an attacker node must give its move", path)
            after = _legal_map(pos, rules, True).get(node[1])
            if after is None:
                raise Reject(f"mate: {str(node[1])[:20]} is not a legal check", path)
            later(node[2], [node[1]], after)
            continue
        if not (isinstance(node, list) and len(node) == 2 and node[0] == "D"):
            raise Reject("mate: a defender node must answer every defence", path)
        replies = _legal_map(pos, rules, False)
        _covered(node[1], replies, "mate", g, i)
        for d in sorted(replies):
            entry = node[1][d]
            if not isinstance(entry, list):
                later(entry, [d], replies[d])
                continue
            if len(entry) != 5 or entry[0] != "u":
                raise Reject(f"mate: a bad entry for {d}", path)
            _, child, capture, q, witness = entry
            later(child, [d], replies[d])
            checker, to, after = _taken(pos, d, replies[d], rules)
            if after is None or capture != f"{checker}-{to}":
                raise Reject(f"mate: {d} is no interposition that its checker takes with check ({str(capture)[:20]})", path + [d])
            later(q, [d, capture, "(handed back)"], r.handed_back(after, rules, replies[d].board[to][-1]))
            if witness is not None:
                w, ref = witness
                if w not in replies or r.interposition_checker(pos, w, rules):
                    raise Reject(f"mate: the witness {str(w)[:20]} is not a defence that does not interpose", path)
                witnesses.append((ref, replies[w], path + [w], i))
    # The positions on every line from the problem's position to a node:
    # those a witness's repetitions may recreate, whichever line is played;
    # and those on some line to it, which a mate shown there may not recreate.
    up, parents = _dominators(g)
    for n, (ref, p, path, i) in enumerate(witnesses):
        chain, may, todo = [i], {i}, [i]
        while up[chain[-1]] >= 0:
            chain.append(up[chain[-1]])
        while todo:
            new = set(parents[todo.pop()]) - may
            may |= new
            todo += new
        witnesses[n] = (ref, p, path, frozenset(g.pos[j] for j in chain), frozenset(g.pos[j] for j in may))


def _dominators(g: _Graph) -> tuple[list[int], list[list[int]]]:
    """For each node of the proof (edges go forward), the nearest earlier node
    on every line reaching it, -1 for none, and the nodes a move leads from to
    it.  A capture with the piece handed back is no move played: the position
    it makes starts a line of its own."""
    up, parents = [-2] * len(g.nodes), [list[int]() for _ in g.nodes]
    up[0] = -1
    for i, node in enumerate(g.nodes):
        edges = [(node[2], i)] if node[0] == "A" else []
        for e in node[1].values() if node[0] == "D" else ():
            edges += [(e[1], i), (e[3], -1)] if isinstance(e, list) else [(e, i)]
        for j, via in edges:
            parents[j] += [i] if via == i else []
            a = up[j] if up[j] != -2 else via
            while a != via:  # the nearest node both lines pass: each step goes to an earlier node
                a, via = (up[a], via) if a > via else (a, up[via])
            up[j] = a
    return up, parents


def _depths(g: _Graph, rules: r.Rules, refute: _Graph) -> list[int]:
    """Counted plies to mate proven at each node, deepest first; checks the
    useless interpositions (docs/solver.md, convention 6) on the way."""
    depth = [0] * len(g.nodes)
    for i in range(len(g.nodes) - 1, -1, -1):
        node, pos = g.nodes[i], g.pos[i]
        assert pos is not None
        if node[0] == "A":
            depth[i] = 1 + depth[node[2]]
            continue
        counted = [1 + depth[e] for e in node[1].values() if not isinstance(e, list)]
        depth[i] = max(counted, default=0)
        for d, e in sorted(node[1].items()):
            if not isinstance(e, list):
                continue
            # R: the best defence that does not interpose; its lower bound
            # comes from a refutation (a witness), else from its existence.
            plain = [m for m in node[1] if not r.interposition_checker(pos, m, rules)]
            low = 2 if plain else 0
            if e[4] is not None and refute.nodes[e[4][1]][0] != "M":  # an "M" node shows a mate, not its absence
                low = max(low, refute.nodes[e[4][1]][1] + 3)
            if depth[e[3]] > low or depth[e[1]] > low + 1:
                raise Reject(f"mate: {d} is not shown useless (mate after the capture in {depth[e[3]]}, "
                             f"after it in {depth[e[1]]}, the other defences last at least {low})", g.path(i))
    return depth


def _check_refutations(g: _Graph, roots: list, rules: r.Rules) -> None:
    """``["R", k, replies]``: attacker to move, no mate within k counted plies;
    a defence that counts answers every check.  Without repetitions these may
    share and loop (the claims hold by induction on k).  An "H" node may answer
    "rep" (a check or reply recreating a position of its line) and is checked
    on every line reaching it, which it may not repeat, as is an "M" node (a
    mate within b there: an upper bound of R)."""
    todo = [(g.reach(i, pos, None, [], path), line, may) for i, pos, path, line, may in roots]
    done, walks = set(), 0
    while todo:
        i, line, may = todo.pop()
        node, pos = g.nodes[i], g.pos[i]
        assert pos is not None
        if not (isinstance(node, list) and len(node) == (4 if node[:1] == ["M"] else 3) and node[0] in ("R", "H", "M")
                and isinstance(node[1], int) and not isinstance(node[1], bool)):
            raise Reject(f"refutation: node {i} is malformed", g.path(i))
        if node[0] == "R" and i in done:
            continue
        done.add(i)
        if node[0] != "R":
            walks += 1
            if line is None or pos in line or walks > MAX_LINES:
                raise Reject(f"refutation: node {i} is met on no line, repeats its line or on too many", g.path(i))
            line = line | {pos}
        if node[0] == "M":  # ["M", b, check, {reply: "M" node}]: mated within b on its line
            _, b, x, table = node
            after = _legal_map(pos, rules, True).get(x)
            if b < 1 or after is None or after in line or not (table or _mated(after, rules, line)):
                raise Reject(f"refutation: node {i} does not mate within {b}", g.path(i))
            replies = _legal_map(after, rules, False) if table else {}
            _covered(table, replies, "refutation", g, i)
            for d in sorted(replies):
                j = g.reach(table[d], replies[d], i, [x, d])
                if g.nodes[j][:1] != ["M"] or g.nodes[j][1] > b - 2:
                    raise Reject(f"refutation: node {j} does not mate within {b - 2}", g.path(i) + [x, d])
                todo.append((j, line | {after}, None))
            continue
        _, k, table = node
        checks = _legal_map(pos, rules, True) if k >= 1 else {}  # a node claiming nothing answers nothing
        _covered(table, checks, "refutation", g, i)
        for c in sorted(checks):
            entry, dpos = table[c], checks[c]
            if entry == "rep" and node[0] == "H" and dpos in line:
                continue
            if not isinstance(entry, list) or not 1 <= len(entry) <= 4:
                raise Reject(f"refutation: a bad entry for {c}", g.path(i) + [c])
            d = entry[0]
            after = r.play(dpos, d, rules)
            if after is None:
                raise Reject(f"refutation: {str(d)[:20]} is not a legal defence", g.path(i) + [c])
            need = k - 2
            checker, to, taken = _taken(dpos, d, after, rules)
            plain = [e for e in _legal_map(dpos, rules, False) if not r.interposition_checker(dpos, e, rules)] if taken else []
            # It may be useless, unless no mate within R + 1 follows it, or after the
            # capture, the piece handed back, a defence that counts (entry[3]) escapes
            # a mate within R.  R is 0 if all defences interpose; on a known line
            # ("H"), at most what entry[2] shows (mates of the others).  Else R is
            # even: k - 1 at most, or k + 1 at least and one of them lasts.
            mates, rr = entry[2] if len(entry) > 2 and node[0] == "H" else None, 0 if not plain else k - 1
            if plain and isinstance(mates, dict) and sorted(mates) == sorted(plain):
                bound = 2  # R at most: 1 + each defence's mate, at once (a check) or an "M" node
                for e in plain:
                    epos = r.make(dpos, e, rules)
                    if not isinstance(mates[e], str):
                        m = g.nodes[g.reach(mates[e], epos, i, [c, e])]
                        bound = max(bound, 1 + m[1]) if m[:1] == ["M"] else k
                        todo.append((mates[e], line | may | {dpos}, None))
                        continue
                    mated = _legal_map(epos, rules, True).get(mates[e])
                    if mated is None or not _mated(mated, rules, line | may | {dpos, epos}):
                        raise Reject(f"refutation: {str(mates[e])[:20]} does not mate at once", g.path(i) + [c, e])
                rr = min(rr, bound)
            if taken and len(entry) == 4:
                (e, ref), q = entry[3], r.handed_back(taken, rules, after.board[to][-1])
                back = r.play(q, e, rules)
                if back is None or _taken(q, e, back, rules)[2]:
                    raise Reject(f"refutation: {str(e)[:20]} does not escape after the capture", g.path(i) + [c, d])
                if rr > 1 and g.nodes[g.reach(ref, back, i, [c, d, f"{checker}-{to}", "(handed back)", e])][1] < rr - 1:
                    raise Reject("refutation: the escape after the capture is not shown", g.path(i) + [c, d])
                todo += [(ref, None, None)] if rr > 1 else []
            elif taken:
                need = max(need, rr + 1)
            if len(entry) > 2 and not taken:
                raise Reject(f"refutation: a bad entry for {c}", g.path(i) + [c])
            if entry[1:] == ["rep"] and node[0] == "H" and after in line | {dpos}:
                continue
            if need < 1:
                continue
            if len(entry) < 2:
                raise Reject(f"refutation: no refutation after {d}", g.path(i) + [c, d])
            j = g.reach(entry[1], after, i, [c, d])
            child = g.nodes[j]
            if not (isinstance(child, list) and len(child) == 3 and isinstance(child[1], int) and child[1] >= need):
                raise Reject(f"refutation: node {j} claims less than needed", g.path(i) + [c, d])
            todo.append((j, line | {dpos} if node[0] == "H" else None, may))


def _mated(pos: r.Pos, rules: r.Rules, line: frozenset) -> bool:
    """Mated at once, no position played recreating one of ``line`` (that
    fails for the attacker): every reply interposes (so R is 0) and is useless,
    the checker taking it leaving no legal move, the piece handed back or not."""
    if pos in line:
        return False
    for d, a, _ in r.legal(pos, rules):
        _, to, t = _taken(pos, d, a, rules)
        if t is None or not {a, t}.isdisjoint(line) or r.legal(t, rules) or r.legal(r.handed_back(t, rules, a.board[to][-1]), rules):
            return False
    return True


def _taken(pos: r.Pos, move: str, after: r.Pos, rules: r.Rules) -> tuple:
    """The checker a defence interposes against, its square, and the position
    after the checker takes it with check (None: it cannot)."""
    checker, to = r.interposition_checker(pos, move, rules), int(move.split("*")[-1].split("-")[-1])
    return checker, to, (_legal_map(after, rules, True).get(f"{checker}-{to}") if checker else None)


def _check_main_line(g: _Graph, mainline: list, depth: list[int], root: r.Pos, rules: r.Rules) -> None:
    i = 0
    for ply, m in enumerate(mainline):
        node = g.nodes[i]
        if m != node[1] if node[0] == "A" else not isinstance(node[1].get(m), int):
            raise Reject(f"main line: {str(m)[:20]} is not the proof's move or a counted defence", mainline[:ply])
        i = node[2] if node[0] == "A" else node[1][m]
    if g.nodes[i][0] != "D" or depth[i] != 0:
        raise Reject("main line: it does not end in mate", mainline)
    if (end := g.pos[i]) is None or any(end.hands[root.turn]):
        raise Reject("main line: the attacker has pieces left in hand (te-amari)", mainline)


def _check_alternatives(cert: dict, mainline: list, root: r.Pos, rules: r.Rules) -> None:
    """At each attacker turn of the main line, every other check is refuted by
    a defender strategy closed under the attacker's checks; a move into a
    position met earlier on the line ("rep") fails for the attacker, and a
    loop repeats a position, so it fails too (tsume convention 3)."""
    g = _Graph(cert["strategy"], "uniqueness")
    given: dict[tuple[int, str], Any] = {(ply, c): target for ply, c, target in cert["alternatives"]}
    history: set = set()
    pos, done = root, set[int]()
    for ply, m in enumerate(mainline, 1):
        history.add(pos)
        if pos.turn == root.turn:
            checks = _legal_map(pos, rules, True)
            for c in sorted(checks):
                if c == m:
                    continue
                path = mainline[:ply - 1] + [c]
                if (ply, c) not in given:
                    raise Reject(f"uniqueness: {c} is not refuted", path)
                target = given.pop((ply, c))
                if target == "rep" and checks[c] not in history:
                    raise Reject("uniqueness: no repetition here", path)
                if target != "rep":
                    _close(g, g.reach(target, checks[c], None, [], path), history, rules, done, root.turn)
        pos = r.make(pos, m, rules)
    if given:
        raise Reject(f"uniqueness: an entry for {str(sorted(given)[0])[:30]}, not a check at an attacker turn")


def _close(g: _Graph, start: int, history: set, rules: r.Rules, done: set, attacker: int) -> None:
    if not (isinstance(g.nodes[start], list) and g.nodes[start][:1] == ["SD"]):
        raise Reject(f"uniqueness: node {start} is of the wrong side", g.path(start))
    todo = [start]
    while todo:
        i = todo.pop()
        if i in done:
            continue
        done.add(i)  # checked against this history, a subset of any later one
        node, pos = g.nodes[i], g.pos[i]
        assert pos is not None
        if isinstance(node, list) and len(node) == 3 and node[0] == "SD":
            reply = r.play(pos, node[1], rules)
            if reply is None:
                raise Reject(f"uniqueness: {str(node[1])[:20]} is not a legal defence", g.path(i))
            moves, targets = {node[1]: reply}, {node[1]: node[2]}
        elif isinstance(node, list) and len(node) == 2 and node[0] == "SA":
            moves = _legal_map(pos, rules, True)
            _covered(node[1], moves, "uniqueness", g, i)
            targets = node[1]
        else:
            raise Reject(f"uniqueness: node {i} is malformed", g.path(i))
        for m, target in sorted(targets.items()):
            after = moves[m]
            if target == "rep":
                if after not in history:
                    raise Reject(f"uniqueness: {m} repeats no position of the line", g.path(i) + [m])
                continue
            j = g.reach(target, after, i, [m])
            if g.nodes[j][:1] != ["SA" if after.turn == attacker else "SD"]:
                raise Reject(f"uniqueness: node {j} is of the wrong side", g.path(i) + [m])
            todo.append(j)
