"""The df-pn transposition table: budget-aware results and proof/disproof hands.

Entries are keyed on the full position hash (board, both hands, side to
move).  Each holds:

* ``proven_b`` -- the smallest counted length the node is proven mate within
  (valid for every larger bound);
* ``disproven_b`` -- the largest bound it is known not to mate within (valid
  for every smaller bound; :data:`INF` = no mate at all);
* ``rep``/``rep_b`` -- a disproof at bound ``rep_b`` that rests on
  repetitions: the set of positions of the line it relied on.  It is trusted
  only while every one of them is on the current line;
* ``lp_b``/``lp_rep`` -- a proof that rests on the line: the useless-
  interposition rule judged an interposition with repetitions of the line
  counting (in the value R or the test positions), and on another line the
  count may differ.  It holds only while all of ``lp_rep`` is on the line;
* ``pn``/``dn`` for the bound ``b`` they were computed at, and ``work`` (nodes
  spent below it): garbage collection keeps the entries with the most work.

**Hands.**  Hands are packed ints, five bits per piece kind.  A proof also
records the least attacker hand it needs (``ph``) and the most the defender
may hold (``du``); a disproof the most the attacker may hold (``dh``) and the
least the defender must hold (``dl``).  Another position on the same board
(same hash without the hands, ``bkey``) whose attacker hand A and defender
hand D satisfy A >= ph and D <= du is proven too; A <= dh and D >= dl is
disproven.  Holding both bounds keeps this sound whether or not the defender
holds "the rest of the set".  The drop corrections of KomoringHeights are
applied where the hands are computed (see :mod:`tsume.dfpn`).  An entry
marked ``exact`` is never used for another hand.

**Proofs and the current line (GHI).**  A repetition fails for the attacker,
so a proof found while some positions were *not* on the line may be wrong
where they are: a defender may return to one of them.  Positions reach the
line in two ways.  The search itself expands them: a proof stored below an
expanded position can never pass through it (the lookup there sees the
repetition), and a proof stored earlier that passes through it would have
proven it before it was expanded.  Or a caller puts them there without a
search -- the main line the verifier walks, the root whose first moves are
valued: these are *anchors* (:meth:`HandTable.push_anchor`).  (A line read off
a node of known value needs none: a proof passing through one of its
positions would prove it faster than its value; see ``DfPn.anchor``.)
Every proof records the
*epoch* it was found in; each anchor starts a new epoch, and a proof is used
only if it was found since the newest anchor still on the line
(:attr:`HandTable.floor`), so it was found with every anchor on the line and
cannot pass through one.  When the anchor is taken off again, the proofs found
meanwhile stay good (fewer positions on the line only helps the attacker).
A proof found for one hand set never looked at the positions its moves
reach with another, and one of those may be an anchor.  Those positions have
the boards of the positions its own tree reached (the same moves, the
attacker holding more and the defender less), so each proof records whether
its tree met the board of an anchor standing when it was stored (``pa``: the
node's own board, or a proof of a child it rests on that did, a child's proof
for other hands keeping the flag of the proof it came from; a proof with a
useless interposition or a line proof below counts as one that did).  While
anchors stand, a proof is reused for other hands only if it did not (and the
anchor's board is known, ``push_anchor(-1)`` otherwise); it was stored with
every anchor now standing on the line, so its flag covers them all.
(Refusing them all while anchors stand would cost verify 7.5 % more nodes on
bench-ito: docs/performance.md.)  Dropping a proof the lookups may have used
(garbage collection) also starts a new epoch, since the argument above needs
every stored proof to stay findable.  Disproofs need none of this: a plain
disproof holds on any line, and one that rests on repetitions records them.
"""

from __future__ import annotations

from typing import Final

from .position import Position

__all__ = ["HandTable", "Entry", "Probe", "INF", "NOT_PROVEN", "HandOps", "FIELD_BITS"]

# Final: compiled code inlines these constants; a plain module global is a
# dictionary lookup by name, then an unboxing, at every use (docs/performance.md).
INF: Final = 1 << 40
#: "never proven": above every bound, INF included (bounds only grow by small
#: steps past INF); below 2**62, so compiled code keeps it unboxed.
NOT_PROVEN: Final = 1 << 61
#: The proof number of a position looked up at a bound it has not been
#: searched to, but found not mated within a smaller one (1 when nothing is
#: known).  Measured on verify's sample of bench-ito (docs/performance.md):
#: 2 saves 3.5 % of the nodes, 4 saves 9.2 %, 8 saves 7.7 %, 16 saves 2.8 %
#: (and with the numbers of open positions carried up, 4 saves 9.9 %, 8 saves
#: 11.3 %, 16 none: 4 is kept, it did better on bench-rutherford).
DISPROVEN_BELOW_PN: Final = 4
FIELD_BITS: Final = 5
_FIELD: Final = (1 << 5) - 1
_CAP: Final = 15  # largest count a field holds; "any number" is stored as _CAP


class HandOps:
    """Arithmetic on packed hands for a variant with ``nkinds`` piece kinds."""

    def __init__(self, nkinds: int) -> None:
        self.nkinds = nkinds
        self.shifts = [FIELD_BITS * ki for ki in range(nkinds)]
        self.full = sum(_CAP << s for s in self.shifts)
        self.guard = sum(16 << s for s in self.shifts)

    def pack(self, counts: list[int]) -> int:
        return sum(min(c, _CAP) << s for c, s in zip(counts, self.shifts))

    def hand_of(self, pos: Position, colour: int) -> int:
        """The packed hand of ``colour`` in ``pos`` (one engine call)."""
        return pos.hand_packed(colour, FIELD_BITS, _CAP)

    def ge(self, x: int, y: int) -> bool:
        """Every field of x >= the same field of y."""
        g = self.guard
        return ((x | g) - y) & g == g

    def get(self, x: int, ki: int) -> int:
        return x >> self.shifts[ki] & _FIELD

    def put(self, x: int, ki: int, value: int) -> int:
        s = self.shifts[ki]
        return (x & ~(_FIELD << s)) | (max(0, min(value, _CAP)) << s)

    def fmax(self, x: int, y: int) -> int:
        out = 0
        for s in self.shifts:
            a = x >> s & _FIELD
            b = y >> s & _FIELD
            out |= (a if a > b else b) << s
        return out

    def fmin(self, x: int, y: int) -> int:
        out = 0
        for s in self.shifts:
            a = x >> s & _FIELD
            b = y >> s & _FIELD
            out |= (a if a < b else b) << s
        return out

    def plus(self, x: int, ki: int) -> int:
        """One more of kind ``ki`` ("any number" stays so)."""
        v = self.get(x, ki)
        return x if v >= _CAP else x + (1 << self.shifts[ki])

    def minus(self, x: int, ki: int) -> int | None:
        """One fewer of kind ``ki``; None if the field is already 0.

        "Any number" stays so.
        """
        v = self.get(x, ki)
        if v >= _CAP:
            return x
        if v == 0:
            return None
        return x - (1 << self.shifts[ki])

    def minus_clamp(self, x: int, ki: int) -> int:
        r = self.minus(x, ki)
        return x if r is None else r


class Entry:
    __slots__ = (
        "pn", "dn", "b", "proven_b", "disproven_b", "rep", "rep_b", "work",
        "bkey", "ph", "du", "dh", "dl", "p_exact", "d_exact", "listed", "p_epoch",
        "lp_b", "lp_rep", "lp_epoch", "pa",
    )

    def __init__(self) -> None:
        self.pn = 1
        self.dn = 1
        self.b = -1
        self.proven_b = NOT_PROVEN
        self.disproven_b = -1
        self.rep: frozenset[int] | None = None
        self.rep_b = -1
        self.work = 0
        self.bkey = 0
        self.ph = 0
        self.du = 0
        self.dh = 0
        self.dl = 0
        self.p_exact = True
        self.d_exact = True
        self.listed = False
        self.p_epoch = 0  # the epoch the proof was found in (see the module doc)
        self.lp_b = NOT_PROVEN  # a proof that rests on the line (lp_rep), and its epoch
        self.lp_rep: frozenset[int] | None = None
        self.lp_epoch = 0
        self.pa = True  # the proof's tree meets an anchor's board (see the module doc)


class Probe:
    """What a table lookup found for one position: ``pn``, ``dn``; ``x``, the
    proof length of a proof or the disproven bound of a disproof; ``rep``, the
    positions a repetition disproof or a line proof rests on; ``entry``, the
    entry whose proof or disproof was used (for its hands).

    A class, filled in place: compiled, its fields are read and written
    unboxed, where a lookup returning a tuple allocated one and boxed its
    numbers for every child of every node searched (docs/performance.md,
    "Verify")."""

    __slots__ = ("pn", "dn", "x", "rep", "entry")

    def __init__(self) -> None:
        self.pn = 1
        self.dn = 1
        self.x = 0
        self.rep: tuple | None = None
        self.entry: Entry | None = None

    def set(self, pn: int, dn: int, x: int, rep: tuple | None, entry: "Entry | None") -> None:
        self.pn = pn
        self.dn = dn
        self.x = x
        self.rep = rep
        self.entry = entry


class HandTable:
    """Transposition table for one search."""

    #: how many proofs/disproofs one board keeps for hand dominance
    PER_BOARD = 12

    def __init__(self, pos: Position, dominance: bool = True) -> None:
        self.entries: dict[int, Entry] = {}
        self.by_board: dict[int, list[Entry]] = {}
        self.dominance = dominance
        self.ops = HandOps(pos.t.nkinds)
        self.dominance_hits = 0
        #: the current epoch: proofs stored now carry it
        self.epoch = 0
        #: proofs of an older epoch are not used (see the module doc)
        self.floor = 0
        #: the epoch each anchor on the line started, innermost last
        self.anchors: list[int] = []
        #: the board key of each anchor (``anchors``' order; -1: not known,
        #: and then no proof is reused for other hands), and how many anchors
        #: stand on each board
        self.anchor_bkeys: list[int] = []
        self.anchor_boards: dict[int, int] = {}
        #: the epoch of the last garbage collection: older proofs may rest on dropped ones
        self.collected = 0

    # --- anchors ----------------------------------------------------------------

    def push_anchor(self, bkey: int) -> None:
        """A position (board key ``bkey``, -1 if not known) was put on the
        line without being searched: start an epoch."""
        self.epoch += 1
        self.anchors.append(self.epoch)
        self.floor = self.epoch
        self.anchor_bkeys.append(bkey)
        self.anchor_boards[bkey] = self.anchor_boards.get(bkey, 0) + 1

    def pop_anchor(self) -> None:
        """The innermost anchor left the line: the proofs found since the one
        before it are good again, and so are those found meanwhile."""
        self.anchors.pop()
        self.floor = max(self.anchors[-1] if self.anchors else 0, self.collected)
        bkey = self.anchor_bkeys.pop()
        n = self.anchor_boards[bkey] - 1
        if n:
            self.anchor_boards[bkey] = n
        else:
            del self.anchor_boards[bkey]

    def on_anchor_board(self, bkey: int) -> bool:
        """Is ``bkey`` the board of an anchor on the line?"""
        return bkey in self.anchor_boards

    def proof_length(self, h: int, path: dict[int, int]) -> int:
        """The proven bound of a position's own entry, if usable on this line; NOT_PROVEN otherwise."""
        e = self.entries.get(h)
        if e is None:
            return NOT_PROVEN
        best = e.proven_b if e.p_epoch >= self.floor else NOT_PROVEN
        if e.lp_b < best and self._line_proof_holds(e, path):
            best = e.lp_b
        return best

    def _line_proof_holds(self, e: Entry, path: dict[int, int]) -> bool:
        rep = e.lp_rep
        if rep is None or e.lp_epoch < self.floor:
            return False
        for k in rep:
            if k not in path:
                return False
        return True

    def rests_on_line(self, h: int, b: int, path: dict[int, int], proven: bool) -> bool:
        """Does the search's answer for this position at ``b`` (a proof if
        ``proven``, else a disproof) hold only on the current line?  Answers
        not found in the position's own entry count as resting on it."""
        e = self.entries.get(h)
        if e is None:
            return not proven  # a proof for other hands is never one that rests on the line
        if proven:
            return not (e.proven_b <= b and e.p_epoch >= self.floor) and e.lp_b <= b and self._line_proof_holds(e, path)
        return e.disproven_b < b

    def __len__(self) -> int:
        return len(self.entries)

    def known(self, h: int) -> bool:
        return h in self.entries

    def get(self, h: int) -> Entry | None:
        return self.entries.get(h)

    def _entry(self, h: int) -> Entry:
        e = self.entries.get(h)
        if e is None:
            e = self.entries[h] = Entry()
        return e

    # --- lookup ----------------------------------------------------------------

    def lookup_into(self, out: Probe, h: int, bkey: int, a: int, d: int, b: int, path: dict[int, int]) -> None:
        """What the table knows of a position at bound ``b``, into ``out``."""
        e = self.entries.get(h)
        floor = self.floor
        if e is not None:
            if e.proven_b <= b and e.p_epoch >= floor:
                out.set(0, INF, e.proven_b, None, e)
                return
            if e.lp_b <= b and self._line_proof_holds(e, path):
                out.set(0, INF, e.lp_b, tuple(e.lp_rep or ()), e)
                return
            if e.disproven_b >= b:
                out.set(INF, 0, e.disproven_b, None, e)
                return
            rep = e.rep
            if rep is not None and e.rep_b >= b:
                for k in rep:
                    if k not in path:
                        break
                else:
                    out.set(INF, 0, e.rep_b, tuple(rep), e)
                    return
        if self.dominance:
            lst = self.by_board.get(bkey)
            if lst is not None:
                ops = self.ops  # (called as methods: a bound method kept in a local is a generic call when compiled)
                anchored = bool(self.anchors)
                for o in lst:
                    if (o.proven_b <= b and not o.p_exact
                            and not (anchored and (o.pa or -1 in self.anchor_boards)) and o.p_epoch >= floor
                            and ops.ge(a, o.ph) and ops.ge(o.du, d)):
                        self.dominance_hits += 1
                        out.set(0, INF, o.proven_b, None, o)
                        return
                    if o.disproven_b >= b and not o.d_exact and ops.ge(o.dh, a) and ops.ge(d, o.dl):
                        self.dominance_hits += 1
                        out.set(INF, 0, o.disproven_b, None, o)
                        return
        if e is not None:
            if e.b == b:
                out.set(e.pn, e.dn, 0, None, None)
                return
            if e.disproven_b >= 0:
                # Not mated within a smaller bound (the last step of a climb
                # to an exact length, or a shallower transposition): likely
                # not within this one either, so a proof is looked for
                # elsewhere first (docs/performance.md, "Verify").
                out.set(DISPROVEN_BELOW_PN, 1, 0, None, None)
                return
            if 0 <= e.b < b:
                # Left open at a smaller bound (the last step of the climb):
                # its numbers there are a better guess than (1, 1).  (They
                # are never 0: only an open node's numbers are stored.)
                out.set(e.pn, e.dn, 0, None, None)
                return
        out.set(1, 1, 0, None, None)

    # --- store -----------------------------------------------------------------

    def _list(self, e: Entry, bkey: int) -> None:
        if not self.dominance or e.listed:
            return
        e.bkey = bkey
        lst = self.by_board.setdefault(bkey, [])
        if len(lst) >= self.PER_BOARD:
            # Make room by forgetting the oldest disproof: a proof other
            # proofs may have used must stay findable (see the module doc).
            # A board full of proofs lists no more.
            for i, o in enumerate(lst):
                if o.proven_b == NOT_PROVEN:
                    lst.pop(i).listed = False
                    break
            else:
                return
        lst.append(e)
        e.listed = True

    def store_proof(
        self, h: int, bkey: int, length: int, work: int, ph: int, du: int, exact: bool, pa: bool
    ) -> None:
        e = self._entry(h)
        # A proof from an older epoch may not hold here: the new one replaces it.
        if length < e.proven_b or e.p_epoch < self.floor:
            e.proven_b = length
            e.ph = ph
            e.du = du
            e.p_exact = exact
            e.p_epoch = self.epoch
            e.pa = pa
        e.work += work
        if not exact:
            self._list(e, bkey)

    def store_line_proof(self, h: int, length: int, rep: frozenset[int], work: int) -> None:
        """A proof that holds only while every position of ``rep`` is on the
        line.  It replaces the entry's last such proof: it was just found for
        the current line, which the search must see again."""
        e = self._entry(h)
        e.lp_b = length
        e.lp_rep = rep
        e.lp_epoch = self.epoch
        e.work += work

    def store_disproof(
        self, h: int, bkey: int, bound: int, work: int, dh: int, dl: int, exact: bool
    ) -> None:
        e = self._entry(h)
        if bound > e.disproven_b:
            e.disproven_b = bound
            e.dh = dh
            e.dl = dl
            e.d_exact = exact
        e.work += work
        if not exact:
            self._list(e, bkey)

    def store_rep_disproof(self, h: int, b: int, rep: frozenset[int], work: int) -> None:
        e = self._entry(h)
        e.rep = rep
        e.rep_b = b
        e.work += work

    def store_unknown(self, h: int, b: int, pn: int, dn: int, work: int) -> None:
        e = self._entry(h)
        e.pn = pn
        e.dn = dn
        e.b = b
        e.work += work

    # --- memory ----------------------------------------------------------------

    def collect(self, keep: int) -> None:
        """Drop all but about ``keep`` entries, keeping those with the most work below them."""
        if len(self.entries) <= keep:
            return
        entries = self.entries
        works = sorted([e.work for e in entries.values()])
        cut = works[len(works) - keep]
        del works
        # Dropped in place and marked (work -1) for the per-board lists below:
        # a second dictionary and a set of the survivors would add a fifth of
        # the table's memory at the moment it is fullest (the memory budget
        # counts them; tsume.dfpn).
        dropped = [h for h, e in entries.items() if e.work <= cut]
        for h in dropped:
            entries.pop(h).work = -1
        del dropped
        # A proof kept may rest on one just dropped, which a later expansion
        # would no longer find: distrust every proof found before now.
        self.epoch += 1
        self.collected = self.epoch
        self.floor = self.epoch
        for bkey in list(self.by_board):
            lst = [e for e in self.by_board[bkey] if e.work >= 0]
            if lst:
                self.by_board[bkey] = lst
            else:
                del self.by_board[bkey]
