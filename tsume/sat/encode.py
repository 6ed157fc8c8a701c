"""The rules of play as circuits over symbolic positions.

A :class:`SPos` is a position whose contents are literals:

* every square is **one-hot**: a dict ``value -> literal`` over the values it may
  hold (0 empty, else ``face << 1 | colour``); absent values are FALSE;
* every hand count is **order-encoded**: ``hand[colour][kind][i]`` is the
  literal "holds at least i + 1".

Nothing is enumerated from a move generator: a move is one of the
*candidates* the piece tables allow geometrically, and its legality is a
formula over the position -- leaps are plain implications, slides use ray
chains (``clear``: every square between empty), stride-2 riders the same
chains over the landing squares only (two parity classes), and the cannons
"clear ray, then exactly one screen" chains (``one_screen``).  Making a move
builds the next position: the mover leaves its square, the piece lands
(turned over if it captured), the captured kind goes to the hand unpromoted,
a drop takes a piece out of the hand.  Check, king safety, drop limits and
equality of positions (for repetition) are formulas too.

With every input constant the circuit folds to constants, so the very same
functions evaluate the rules on a concrete position (no clause is written).
"""

from __future__ import annotations


from .circuit import FALSE, TRUE, Circuit
from .rules import BLACK, LEAP, Rules

__all__ = ["SPos", "CPos", "Cand", "candidates", "legal", "apply_moves", "attacked", "positions_equal"]

#: A concrete position: (board values 0..n, ((black hand per kind), (white ...)), side to move).
CPos = tuple

#: A move candidate: (0, from, to, value) for a board move; (1, kind, face, to) for a drop.
Cand = tuple


class SPos:
    """A symbolic position with memoised derived literals (empty squares, rays, attacks)."""

    __slots__ = ("c", "r", "sq", "hand", "turn", "_memo")

    def __init__(self, c: Circuit, r: Rules, sq: list[dict[int, int]], hand: list[list[list[int]]], turn: int) -> None:
        self.c = c
        self.r = r
        self.sq = sq
        self.hand = hand
        self.turn = turn
        self._memo: dict = {}

    @classmethod
    def concrete(cls, c: Circuit, r: Rules, cpos: CPos) -> "SPos":
        board, hands, turn = cpos
        sq: list[dict[int, int]] = [{}] + [{board[s]: TRUE} for s in range(1, r.n + 1)]
        hand = [
            [[TRUE if hands[col][k] > i else FALSE for i in range(r.kind_count[k])] for k in range(r.nkinds)]
            for col in (0, 1)
        ]
        return cls(c, r, sq, hand, turn)

    @classmethod
    def free(cls, c: Circuit, r: Rules, turn: int) -> "SPos":
        """A position with every square and hand count free (one-hot / order constraints added)."""
        sq: list[dict[int, int]] = [{}]
        values = [0] + [f << 1 | col for f in range(1, r.nfaces + 1) for col in (0, 1)]
        for _s in range(1, r.n + 1):
            d = {v: c.var() for v in values}
            c.clause(d.values())
            c.at_most_one(list(d.values()))
            sq.append(d)
        hand = []
        for _col in (0, 1):
            per = []
            for k in range(r.nkinds):
                lits = [c.var() for _ in range(r.kind_count[k])]
                for a, b in zip(lits[1:], lits):
                    c.clause([-a, b])
                per.append(lits)
            hand.append(per)
        return cls(c, r, sq, hand, turn)

    @classmethod
    def multiplex(cls, c: Circuit, r: Rules, outs: list["SPos"], sels: list[int], turn: int) -> "SPos":
        """The position ``outs[i]`` where ``sels[i]`` holds (selectors mutually exclusive)."""
        sq: list[dict[int, int]] = [{}]
        for x in range(1, r.n + 1):
            acc: dict[int, list[int]] = {}
            for o, s in zip(outs, sels):
                for v, lit in o.sq[x].items():
                    acc.setdefault(v, []).append(c.AND([s, lit]))
            sq.append({v: c.OR(lits) for v, lits in acc.items()})
        hand = []
        for col in (0, 1):
            per = []
            for k in range(r.nkinds):
                per.append([c.OR([c.AND([s, o.hand[col][k][i]]) for o, s in zip(outs, sels)])
                            for i in range(r.kind_count[k])])
            hand.append(per)
        if len(outs) == 1:
            # One choice: the node is active only when it is taken, so the position is that one.
            return cls(c, r, outs[0].sq, outs[0].hand, turn)
        return cls(c, r, sq, hand, turn)

    def is_concrete(self) -> bool:
        return all(len(d) == 1 and next(iter(d.values())) == TRUE for d in self.sq[1:]) and all(
            lit in (TRUE, FALSE) for per in self.hand for h in per for lit in h
        )

    # --- literals of the position -------------------------------------------

    def lit(self, s: int, v: int) -> int:
        return self.sq[s].get(v, FALSE)

    def empty(self, s: int) -> int:
        return self.sq[s].get(0, FALSE)

    def side(self, s: int, colour: int) -> int:
        """A piece of ``colour`` stands on ``s``."""
        key = ("side", s, colour)
        m = self._memo.get(key)
        if m is None:
            m = self._memo[key] = self.c.OR([lit for v, lit in self.sq[s].items() if v and (v & 1) == colour])
        return m

    def kind_on(self, s: int, colour: int, kind: int) -> int:
        return self.c.OR([lit for v, lit in self.sq[s].items() if v and (v & 1) == colour and self.r.kind_of(v) == kind])

    def king_somewhere(self, colour: int) -> int:
        kv = self.r.king(colour)
        return self.c.OR([d[kv] for d in self.sq[1:] if kv in d])

    def may_have_king(self, colour: int) -> bool:
        kv = self.r.king(colour)
        return any(d.get(kv, FALSE) != FALSE for d in self.sq[1:])

    # --- ray chains -----------------------------------------------------------

    def clear(self, a: int, b: int, stride: int) -> int:
        """Every landing square strictly between a and b (``stride`` apart) is empty."""
        step = stride if b > a else -stride
        key = ("clr", a, b, stride)
        m = self._memo.get(key)
        if m is not None:
            return m
        # Build the chain outward from a, memoising every prefix.
        x = a + step
        prev = TRUE
        while True:
            k2 = ("clr", a, x, stride)
            got = self._memo.get(k2)
            if got is None:
                got = self._memo[k2] = prev if x == a + step else self.c.AND([prev, self.empty(x - step)])
            prev = got
            if x == b:
                return got
            x += step

    def one_screen(self, a: int, b: int, stride: int) -> int:
        """Exactly one occupied landing square strictly between a and b."""
        step = stride if b > a else -stride
        key = ("scr", a, b, stride)
        m = self._memo.get(key)
        if m is not None:
            return m
        x = a + step
        prev = FALSE
        while True:
            k2 = ("scr", a, x, stride)
            got = self._memo.get(k2)
            if got is None:
                if x == a + step:
                    got = FALSE
                else:
                    y = x - step
                    # one screen before y and y empty, or none before y and y occupied
                    got = self.c.OR([
                        self.c.AND([prev, self.empty(y)]),
                        self.c.AND([self.clear(a, y, stride), -self.empty(y)]),
                    ])
                self._memo[k2] = got
            prev = got
            if x == b:
                return got
            x += step

    def path(self, a: int, b: int, specs: tuple, capture: bool) -> int:
        """How a piece with these reach specs gets from a to b (to an empty square or to capture)."""
        out = []
        for spec in specs:
            if spec is LEAP:
                return TRUE
            mode = spec.capture if capture else spec.move
            if mode == "slide":
                out.append(self.clear(a, b, spec.stride))
            elif mode == "hop":
                out.append(self.one_screen(a, b, spec.stride))
        return self.c.OR(out)

    # --- attacks ----------------------------------------------------------------

    def attacks_square(self, s: int, by: int) -> int:
        """Some piece of colour ``by`` could capture on ``s``."""
        key = ("att", s, by)
        m = self._memo.get(key)
        if m is not None:
            return m
        geo = self.r.geometry
        terms = []
        for q in range(1, self.r.n + 1):
            if q == s:
                continue
            for v, lit in self.sq[q].items():
                if not v or (v & 1) != by:
                    continue
                specs = geo[v].get(s - q)
                if specs:
                    terms.append(self.c.AND([lit, self.path(q, s, specs, True)]))
        m = self._memo[key] = self.c.OR(terms)
        return m

    def in_check(self, colour: int) -> int:
        """The king of ``colour`` stands on a square attacked by the other side (FALSE without a king)."""
        key = ("chk", colour)
        m = self._memo.get(key)
        if m is None:
            kv = self.r.king(colour)
            m = self._memo[key] = self.c.OR(
                [self.c.AND([d[kv], self.attacks_square(s, colour ^ 1)]) for s, d in enumerate(self.sq) if kv in d]
            )
        return m

    # --- reading a model ----------------------------------------------------------

    def value(self, truth) -> CPos:
        """The concrete position under an assignment (``truth(lit) -> bool``)."""
        board = [0]
        for d in self.sq[1:]:
            for v, lit in d.items():
                if truth(lit):
                    board.append(v)
                    break
            else:
                raise RuntimeError("internal error: a square holds nothing under the model")
        hands = tuple(tuple(sum(1 for lit in per if truth(lit)) for per in self.hand[col]) for col in (0, 1))
        return (tuple(board), hands, self.turn)


# --- moves --------------------------------------------------------------------------


def candidates(p: SPos, mover: int) -> list[Cand]:
    """Every move the piece tables allow geometrically in some instance of ``p``."""
    r = p.r
    n = r.n
    out: list[Cand] = []
    for q in range(1, n + 1):
        for v, lit in p.sq[q].items():
            if not v or (v & 1) != mover or lit == FALSE:
                continue
            for delta in r.geometry[v]:
                t = q + delta
                if 1 <= t <= n and any(u == 0 or (u & 1) != mover for u in p.sq[t]):
                    out.append((0, q, t, v))
    for k in range(r.nkinds):
        h = p.hand[mover][k]
        if not h or h[0] == FALSE:
            continue
        for f in r.drop_faces[k]:
            for t in range(1, n + 1):
                if p.sq[t].get(0, FALSE) != FALSE:
                    out.append((1, k, f, t))
    return out


def legal(p: SPos, cand: Cand, mover: int) -> int:
    """The candidate is a legal move by its movement (or drop rules); king safety is separate."""
    c = p.c
    if cand[0] == 0:
        _, q, t, v = cand
        specs = p.r.geometry[v][t - q]
        return c.AND([
            p.lit(q, v),
            c.OR([
                c.AND([p.empty(t), p.path(q, t, specs, False)]),
                c.AND([p.side(t, mover ^ 1), p.path(q, t, specs, True)]),
            ]),
        ])
    _, k, _f, t = cand
    return c.AND([p.hand[mover][k][0], p.empty(t), drop_limits(p, t, mover)])


def drop_limits(p: SPos, t: int, mover: int) -> int:
    """Rutherford: no drop behind one's own king nor next to it, while that king is on the board."""
    if not p.r.variant.drop_king_limits:
        return TRUE
    kv = p.r.king(mover)
    bad = []
    for s, d in enumerate(p.sq):
        if kv not in d:
            continue
        # Black's home end is square n, so "behind" Black's king is a larger number.
        behind = t > s if mover == BLACK else t < s
        if behind or abs(t - s) < 2:
            bad.append(d[kv])
    return -p.c.OR(bad)


def apply_moves(p: SPos, cands: list[Cand], sels: list[int], mover: int) -> SPos:
    """The position after the one selected candidate (selectors mutually exclusive;
    none selected leaves the board as it was)."""
    c = p.c
    r = p.r
    frm: dict[int, list[int]] = {}
    to: dict[int, list[tuple]] = {}
    drops_of_kind: dict[int, list[int]] = {}
    for cand, sel in zip(cands, sels):
        if sel == FALSE:
            continue
        if cand[0] == 0:
            _, q, t, v = cand
            frm.setdefault(q, []).append(sel)
            to.setdefault(t, []).append((sel, v, False))
        else:
            _, k, f, t = cand
            to.setdefault(t, []).append((sel, f << 1 | mover, True))
            drops_of_kind.setdefault(k, []).append(sel)
    sq = list(p.sq)
    captures: dict[int, int] = {}  # square -> "a board move lands here"
    for x in set(frm) | set(to):
        touched = c.OR(frm.get(x, []) + [t[0] for t in to.get(x, [])])
        acc: dict[int, list[int]] = {}
        for u, lit in p.sq[x].items():
            acc.setdefault(u, []).append(c.AND([lit, -touched]))
        if x in frm:
            acc.setdefault(0, []).append(c.OR(frm[x]))
        enemy = None
        landing = []
        for sel, v, is_drop in to.get(x, []):
            if is_drop:
                acc.setdefault(v, []).append(sel)
                continue
            landing.append(sel)
            fv = r.flip(v)
            if fv == v:
                acc.setdefault(v, []).append(sel)
            else:
                if enemy is None:
                    enemy = p.side(x, mover ^ 1)
                # A capture turns the capturer over.
                acc.setdefault(v, []).append(c.AND([sel, -enemy]))
                acc.setdefault(fv, []).append(c.AND([sel, enemy]))
        if landing:
            captures[x] = c.OR(landing)
        d = {}
        for u, lits in acc.items():
            lit = c.OR(lits)
            if lit != FALSE:
                d[u] = lit
        sq[x] = d
    hand = [p.hand[0], p.hand[1]]
    mine = []
    for k in range(r.nkinds):
        h = p.hand[mover][k]
        if not h:
            mine.append(h)
            continue
        gain = c.OR([c.AND([land, p.kind_on(x, mover ^ 1, k)]) for x, land in captures.items()])
        lose = c.OR(drops_of_kind.get(k, []))
        if gain == FALSE and lose == FALSE:
            mine.append(h)
            continue
        new = []
        for i in range(len(h)):
            below = TRUE if i == 0 else h[i - 1]
            above = h[i + 1] if i + 1 < len(h) else FALSE
            new.append(c.OR([c.AND([h[i], -lose]), c.AND([below, gain]), c.AND([above, lose])]))
        mine.append(new)
    hand[mover] = mine
    return SPos(c, r, sq, hand, p.turn ^ 1)


def attacked(p: SPos, colour: int) -> int:
    """The king of ``colour`` is attacked in ``p``."""
    return p.in_check(colour)


def positions_equal(a: SPos, b: SPos) -> int:
    """Board and both hands equal (the side to move is compared by the caller)."""
    c = a.c
    if a.turn != b.turn:
        return FALSE
    terms = []
    for x in range(1, a.r.n + 1):
        da, db = a.sq[x], b.sq[x]
        if da is db:
            continue
        terms.append(c.OR([c.AND([lit, db[u]]) for u, lit in da.items() if u in db]))
    for col in (0, 1):
        for ha, hb in zip(a.hand[col], b.hand[col]):
            if ha is hb:
                continue
            for la, lb in zip(ha, hb):
                terms.append(c.IFF(la, lb))
    return c.AND(terms)


def move_of(cand: Cand) -> tuple[int, int, int]:
    """(from, to, dropped face) of a candidate: from 0 for a drop, face 0 for a board move."""
    if cand[0] == 0:
        return cand[1], cand[2], 0
    return 0, cand[3], cand[2]


def label_candidates(p: SPos, move: tuple[int, int, int], mover: int) -> tuple[list[Cand], list[int]]:
    """The candidates of one given move (from, to, face) in a symbolic position, with their
    selectors: for a board move, one per value the mover may have on the from-square
    (the square literal itself selects it); for a drop, the drop itself."""
    frm, to, face = move
    if frm:
        cands, sels = [], []
        for v, lit in p.sq[frm].items():
            if v and (v & 1) == mover and (to - frm) in p.r.geometry[v]:
                cands.append((0, frm, to, v))
                sels.append(lit)
        return cands, sels
    return [(1, p.r.face_kind[face], face, to)], [TRUE]
