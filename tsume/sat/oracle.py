"""Legal moves of a *concrete* position, by evaluating the SAT encoding.

The refinement loop needs, at every defender node the current attacker
strategy reaches, the defender's legal replies.  With the position fixed,
every clause of the one-ply encoding reduces by unit propagation alone, so
instead of handing a second solver a problem it would settle without a single
decision, the same circuit code is run with constant inputs
(:class:`~tsume.sat.circuit.Circuit` without a sink folds every gate).  The
rules used are therefore exactly the clauses the solver sees, not the move
generator's.

Legality here, as in docs/rules.md:

* *basic* legality: movement or drop rules, drop limits, own king not
  attacked afterwards (the "inner test");
* an attacker move must give check; a drop that leaves the opponent no
  basic move while in check is a drop mate, banned when the variant bans it;
* Ito's stalemate rule (``stalemate=illegal``): a move after which the
  opponent, having a king and not in check, has no basic move is illegal.
  Each legal defender reply comes with a *witness* -- one basic move of the
  attacker proving it is not stalemated (or not drop-mated) -- which the
  abstraction uses to state the reply's legality without a universal
  quantifier.
"""

from __future__ import annotations

from collections.abc import Callable

from .budget import BYTES_PER_ORACLE_MOVE
from .circuit import TRUE, Circuit
from .encode import CPos, SPos, apply_moves, candidates, legal, move_of
from .rules import BLACK, LEAP, Rules

__all__ = ["Oracle", "Move"]

#: A move as (from, to, dropped face): from 0 for a drop, face 0 for a board move.
Move = tuple


def _truth(lit: int) -> bool:
    return lit == TRUE


class Oracle:
    """Concrete move lists for one variant and board length, memoised per position.

    ``fold=True`` evaluates the circuits of :mod:`tsume.sat.encode` with constant
    inputs.  The default evaluates the same definitions (the reach tables of
    :mod:`tsume.sat.rules`, "clear ray", "exactly one screen", flip on capture,
    drop limits, king safety) directly on the board tuple, about ten times
    faster; the tests check on random positions that both give the same lists.
    """

    def __init__(self, rules: Rules, *, fold: bool = False, on_grow: Callable[[], None] | None = None) -> None:
        self.r = rules
        self.fold = fold
        #: called for every position whose moves are listed (the budget's check: it may raise)
        self.on_grow = on_grow
        #: moves held in the memo lists (what the memory budget counts)
        self.kept = 0
        self.c = Circuit(None)
        self._basic: dict[CPos, list[tuple[Move, CPos]]] = {}
        self._check: dict[tuple[CPos, int], bool] = {}
        self._checks: dict[CPos, list[tuple[Move, CPos]]] = {}
        self._replies: dict[CPos, list[tuple[Move, CPos, Move | None]]] = {}
        self._ordered: dict[CPos, list[tuple[Move, CPos, Move | None]]] = {}
        self._has: dict[CPos, bool] = {}
        self._mated: dict[CPos, bool] = {}
        self._mate1: dict[CPos, tuple | None] = {}
        self.evaluations = 0

    def in_check(self, cpos: CPos, colour: int) -> bool:
        key = (cpos, colour)
        got = self._check.get(key)
        if got is None:
            if self.fold:
                got = SPos.concrete(self.c, self.r, cpos).in_check(colour) == TRUE
            else:
                got = _in_check(self.r, cpos[0], colour)
            self._check[key] = got
        return got

    def basic(self, cpos: CPos) -> list[tuple[Move, CPos]]:
        """Moves of the side to move legal by movement, drop rules and own king safety."""
        got = self._basic.get(cpos)
        if got is not None:
            return got
        self._grow()
        got = self._basic[cpos] = self._basic_fold(cpos) if self.fold else list(_basic(self.r, cpos))
        self.kept += len(got)
        return got

    def _grow(self) -> None:
        self.evaluations += 1
        if self.on_grow is not None:
            self.on_grow()

    def held_bytes(self) -> int:
        """Estimated bytes of the memoised move lists (see :mod:`tsume.sat.budget`)."""
        return self.kept * BYTES_PER_ORACLE_MOVE

    def has_basic(self, cpos: CPos) -> bool:
        """The side to move has a basic legal move (stops at the first one)."""
        got = self._has.get(cpos)
        if got is None:
            full = self._basic.get(cpos)
            if full is not None or self.fold:
                got = bool(self.basic(cpos))
            else:
                got = next(_basic(self.r, cpos), None) is not None
            self._has[cpos] = got
        return got

    def first_basic(self, cpos: CPos) -> Move | None:
        full = self._basic.get(cpos)
        if full is not None or self.fold:
            full = self.basic(cpos)
            return full[0][0] if full else None
        got = next(_basic(self.r, cpos), None)
        return got[0] if got else None

    def _basic_fold(self, cpos: CPos) -> list[tuple[Move, CPos]]:
        mover = cpos[2]
        p = SPos.concrete(self.c, self.r, cpos)
        out = []
        for cand in candidates(p, mover):
            if legal(p, cand, mover) != TRUE:
                continue
            q = apply_moves(p, [cand], [TRUE], mover)
            if q.in_check(mover) == TRUE:
                continue
            out.append((move_of(cand), q.value(_truth)))
        return out

    def _drop_mates(self, move: Move, after: CPos) -> bool:
        return (
            move[0] == 0
            and not self.r.variant.drop_mate
            and self.in_check(after, after[2])
            and not self.has_basic(after)
        )

    def checks(self, cpos: CPos) -> list[tuple[Move, CPos]]:
        """The attacker's legal checking moves (a check never stalemates)."""
        got = self._checks.get(cpos)
        if got is None:
            got = self._checks[cpos] = [
                (m, after)
                for m, after in self.basic(cpos)
                if self.in_check(after, after[2]) and not self._drop_mates(m, after)
            ]
            self.kept += len(got)
        return got

    def replies_ordered(self, cpos: CPos) -> list[tuple[Move, CPos, Move | None]]:
        """The replies in the order the refinement tries them: board moves (king moves
        first, then captures) before drops; strong defences usually come first."""
        got = self._ordered.get(cpos)
        if got is None:
            board, _hands, mover = cpos
            kv = self.r.king(mover)

            def rank(item):
                (frm, to, _f), _after, _w = item
                if not frm:
                    return 3
                return 0 if board[frm] == kv else 1 if board[to] else 2

            got = self._ordered[cpos] = sorted(self.replies(cpos), key=rank)
            self.kept += len(got)
        return got

    def _reply_iter(self, cpos: CPos):
        stalemate_rule = self.r.variant.stalemate == "illegal"
        source = self.basic(cpos) if (self.fold or cpos in self._basic) else _basic(self.r, cpos)
        for m, after in source:
            opp = after[2]
            checked = self.in_check(after, opp)
            need = (m[0] == 0 and not self.r.variant.drop_mate and checked) or (
                stalemate_rule and not checked and self.r.king(opp) in after[0]
            )
            if not need:
                yield m, after, None
                continue
            witness = self.first_basic(after)
            if witness is not None:
                yield m, after, witness

    def replies(self, cpos: CPos) -> list[tuple[Move, CPos, Move | None]]:
        """The defender's legal moves, each with a witness move of the opponent when
        its legality needs one (stalemate rule, drop-mate ban), else None."""
        got = self._replies.get(cpos)
        if got is None:
            if cpos not in self._basic:
                self._grow()
            got = self._replies[cpos] = list(self._reply_iter(cpos))
            self._mated[cpos] = not got
            self.kept += len(got)
        return got

    def mated(self, cpos: CPos) -> bool:
        """The side to move has no legal move (stops at the first one)."""
        got = self._mated.get(cpos)
        if got is None:
            got = self._mated[cpos] = next(self._reply_iter(cpos), None) is None
        return got

    def mate_in_one(self, cpos: CPos) -> tuple[Move, CPos] | None:
        """The first legal check after which the defender has no legal move, or None."""
        if cpos not in self._mate1:
            self._mate1[cpos] = next(((m, q) for m, q in self.checks(cpos) if self.mated(q)), None)
        return self._mate1[cpos]


# --- direct evaluation on a board tuple (the same definitions as encode.py) ------------------


def _clear(board, a: int, b: int, stride: int) -> bool:
    step = stride if b > a else -stride
    return all(board[x] == 0 for x in range(a + step, b, step))


def _one_screen(board, a: int, b: int, stride: int) -> bool:
    step = stride if b > a else -stride
    return sum(1 for x in range(a + step, b, step) if board[x]) == 1


def _path(board, a: int, b: int, specs: tuple, capture: bool) -> bool:
    for spec in specs:
        if spec is LEAP:
            return True
        mode = spec.capture if capture else spec.move
        if mode == "slide" and _clear(board, a, b, spec.stride):
            return True
        if mode == "hop" and _one_screen(board, a, b, spec.stride):
            return True
    return False


def _attacks(r: Rules, board, s: int, by: int) -> bool:
    geo = r.geometry
    for q in range(1, r.n + 1):
        v = board[q]
        if v and (v & 1) == by and q != s:
            specs = geo[v].get(s - q)
            if specs and _path(board, q, s, specs, True):
                return True
    return False


def _in_check(r: Rules, board, colour: int) -> bool:
    kv = r.king(colour)
    for s in range(1, r.n + 1):
        if board[s] == kv:
            return _attacks(r, board, s, colour ^ 1)
    return False


def _drop_ok(r: Rules, board, t: int, mover: int) -> bool:
    if not r.variant.drop_king_limits:
        return True
    kv = r.king(mover)
    for s in range(1, r.n + 1):
        if board[s] == kv:
            behind = t > s if mover == BLACK else t < s
            return not (behind or abs(t - s) < 2)
    return True


def _pieces(board, n: int, colour: int) -> list[tuple[int, int]]:
    return [(q, board[q]) for q in range(1, n + 1) if board[q] and (board[q] & 1) == colour]


def _hit(r: Rules, board, ks: int, pieces) -> bool:
    """Some of ``pieces`` (square, value) attacks square ``ks`` on ``board``."""
    geo = r.geometry
    for q, v in pieces:
        if q != ks and board[q] == v:
            specs = geo[v].get(ks - q)
            if specs and _path(board, q, ks, specs, True):
                return True
    return False


def _basic(r: Rules, cpos: CPos):
    """Generate the basic legal moves with the positions they make."""
    board, hands, mover = cpos
    n = r.n
    kv = r.king(mover)
    ks = next((s for s in range(1, n + 1) if board[s] == kv), 0)
    enemy = _pieces(board, n, mover ^ 1)
    for q in range(1, n + 1):
        v = board[q]
        if not v or (v & 1) != mover:
            continue
        for delta, specs in r.geometry[v].items():
            t = q + delta
            if not 1 <= t <= n:
                continue
            u = board[t]
            if u == 0:
                if not _path(board, q, t, specs, False):
                    continue
                landed = v
            elif (u & 1) != mover:
                if not _path(board, q, t, specs, True):
                    continue
                landed = r.flip(v)  # a capture turns the capturer over
            else:
                continue
            nb = list(board)
            nb[q] = 0
            nb[t] = landed
            if ks and _hit(r, nb, t if q == ks else ks, enemy):
                continue
            nh = [list(hands[0]), list(hands[1])]
            if u:
                nh[mover][r.kind_of(u)] += 1
            yield (q, t, 0), (tuple(nb), (tuple(nh[0]), tuple(nh[1])), mover ^ 1)
    # Drops.  An attack from q on the king depends only on the squares strictly
    # between them, so when in check a drop can only help strictly between the
    # king and every checker (the full test still decides).
    lo, hi = 1, n
    if ks:
        for q, v in enemy:
            kspecs = r.geometry[v].get(ks - q)
            if kspecs and _path(board, q, ks, kspecs, True):
                lo, hi = max(lo, min(q, ks) + 1), min(hi, max(q, ks) - 1)
    for k in range(r.nkinds):
        if not hands[mover][k] or not r.drop_faces[k]:
            continue
        nh = [list(hands[0]), list(hands[1])]
        nh[mover][k] -= 1
        new_hands = (tuple(nh[0]), tuple(nh[1]))
        for t in range(lo, hi + 1):
            if board[t] or not _drop_ok(r, board, t, mover):
                continue
            for f in r.drop_faces[k]:
                nb = list(board)
                nb[t] = f << 1 | mover
                if ks and _hit(r, nb, ks, enemy):
                    continue
                yield (0, t, f), (tuple(nb), new_hands, mover ^ 1)
