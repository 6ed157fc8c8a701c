"""Length-bounded df-pn over check-only attacker moves.

``DfPn(pos).search(b)`` answers "does the attacker (side to move) mate within
``b`` counted plies?" with the conventions of docs/solver.md; ``b`` may be
:data:`INF`.  One transposition table serves every bound:

* a proof is stored with the smallest bound it is known for (``proven_b``) and
  holds for every larger bound;
* a disproof is stored with the largest bound it is known for
  (``disproven_b``, :data:`INF` when no mate exists at any length) and holds
  for every smaller one;
* a disproof that rests on a repetition (a repeated position fails for the
  attacker) records the positions of the current line it relied on, and is
  trusted only while all of them are on the line again (no GHI error);
* a proof is used only where it cannot pass through a position of the current
  line: positions a caller puts on the line without searching them
  (:meth:`DfPn.anchor`) start a new epoch of the table, and proofs of older
  epochs are not used below them (:mod:`tsume.hands` explains why this is
  exact);
* proof and disproof *hands* let a position whose attacker hand is a superset
  (subset) of a proven (disproven) one reuse the result, with
  KomoringHeights' drop corrections (see :mod:`tsume.hands`).

Enhancements: heuristic initial numbers, a one-ply mate check when an attacker
node is expanded, same-square interposition drops counted once (max instead of
sum), threshold control (the ``second best + 1`` rule, widened by the 1 + epsilon
trick), a node/time/memory
bound with garbage collection of the table by subtree size, a cache of the
children of recently expanded nodes, and Python's cyclic collector paused
while searching (:mod:`tsume.gcpause`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .conventions import interposition_square, recaptures
from .gcpause import PausedGC
from .hands import INF, NOT_PROVEN, Entry, HandOps, HandTable, Probe
from .errors import ArgumentError
from .interrupt import check_signals
from .limits import NO_LIMITS, Limits
from .memory import resident_bytes
from .position import Position

# Bounds at least this large are "no bound": nested searches subtract from INF.
UNBOUNDED: Final = INF >> 1

__all__ = ["DfPn", "INF", "SearchLimit", "OverBudget", "Options", "check_options", "PROVEN", "DISPROVEN", "UNKNOWN"]

PROVEN: Final = "proven"
DISPROVEN: Final = "disproven"
UNKNOWN: Final = "unknown"


#: The fewest entries the resident-size measure shrinks the table to: below
#: it df-pn would expand the same nodes again and again, and what else the
#: process holds is beyond the table's reach anyway.
_MIN_ENTRIES: Final = 4096


class SearchLimit(Exception):
    """Raised inside the search when a node, time or memory bound is reached."""


class OverBudget(SearchLimit):
    """Raised when one question's own node budget (:meth:`DfPn.set_budget`)
    is spent.  Unlike the engine's limits it stops only that question."""


# No question budget set (see DfPn.set_budget).
_NO_BUDGET: Final = 1 << 62


@dataclass
class Options:
    """Switches for the enhancements (all on by default; the benchmarks turn them off)."""

    hand_dominance: bool = True
    one_ply_mate: bool = False  # measured: fewer nodes but more time (docs/performance.md)
    same_square_max: bool = True
    # An attacker node's disproof number counts the drops of one piece on one
    # side of the king as the largest of their numbers plus one for each other
    # one not yet disproved, not as their sum: they mostly share their fate, and
    # the sum made a king move that leaves room for many drops look far harder
    # to refute than it is (docs/performance.md, "Drops of one piece counted
    # once").
    drop_groups: bool = True
    heuristic_init: bool = False  # measured: more nodes on random problems (docs/performance.md)
    # The 1 + epsilon trick (Pawlewicz and Lew): a child's threshold is the
    # second-best number times 1 + 1/k, plus one, so the search stays longer
    # in a child before switching back (fewer re-expansions); 0 keeps the plain
    # "second best + 1".  Measured on verify's samples (docs/performance.md):
    # k = 2 saves 4.4 % of the nodes, 3 saves 11.5 %, 4 saves 11.6 %, 8 saves 5.0 %.
    one_plus_epsilon: int = 4  # k, for epsilon = 1/k; 0: off
    # False counts every interposition as a defence (no useless-interposition
    # rule): the raw game-tree length, which the SAT engine computes.
    useless_interpositions: bool = True
    # shortest(): bounds up to this are tried, from the smallest up, before one
    # search to the bound asked (often unbounded): a few small searches cost far
    # less than an unbounded one, and most mates asked for are short (docs/solver.md).
    short_first: int = 9
    # Reading a best line off (tsume.solve): alpha-beta on the leftover
    # tie-break.  Off, every line of the best length is read, to the same
    # line: tests and benchmarks/line_reading.py compare the two.
    leftover_pruning: bool = True
    # The longest search path (plies) before the search gives up as "unknown".
    # Compiled code does not honour Python's recursion limit: without this a
    # very deep path would overflow the C stack (a crash, not an exception);
    # in pure Python it would raise RecursionError.  500 stays under both.
    max_depth: int = 500


def check_options(value: object) -> Options | None:
    """None or an :class:`Options` (an entry point's ``options`` argument)."""
    if value is not None and not isinstance(value, Options):
        raise ArgumentError(f"options must be a tsume.dfpn.Options or None, not {type(value).__name__}")
    return value


class _Kid(Probe):
    """A child of an expanded node, as :meth:`DfPn._children` makes it, with
    its value as the parent last looked it up (the :class:`Probe` fields,
    which :meth:`DfPn._value` fills).

    A class with typed fields, not a list: compiled, its fields are read
    directly instead of through list indexing and unboxing."""

    __slots__ = ("m", "h", "checker", "group", "bkey", "a", "d", "ki", "sign", "ipn", "idn")

    def __init__(self, m: int, h: int, checker: int, group: int, bkey: int, a: int, d: int,
                 ki: int, sign: int, ipn: int, idn: int) -> None:
        super().__init__()
        self.m = m  # the move
        self.h = h  # the child's position hash
        self.checker = checker  # an interposition's checker square (0: not an interposition)
        self.group = group  # > 0: a drop group counted once (a defence: one square; a check: one piece, one side)
        self.bkey = bkey  # the board key (hash without hands)
        self.a = a  # the attacker's packed hand in the child
        self.d = d  # the defender's packed hand in the child
        self.ki = ki  # the hand kind the move drops (-1 sign) or captures (+1 sign)
        self.sign = sign  # -1 drop, +1 capture, 0 neither
        self.ipn = ipn  # initial numbers of an unseen child
        self.idn = idn


class DfPn:
    """A df-pn search on one position (attacker to move) and its descendants."""

    def __init__(
        self,
        pos: Position,
        *,
        limits: Limits = NO_LIMITS,
        progress: Callable[[dict], None] | None = None,
        progress_interval: float = 1.0,
        options: Options | None = None,
    ) -> None:
        self.pos = pos.copy()
        self.attacker = self.pos.turn
        self.options = options or Options()
        self.table = HandTable(self.pos, dominance=self.options.hand_dominance)
        self.path: dict[int, int] = {}
        self.nodes = 0
        # Of those, the nodes spent climbing from a first proof to an exact
        # length (_shortest): verify reports them apart, since they are the
        # part a length budget bounds and "does it mate?" never needs.
        self.climb_nodes = 0
        time_limit, memory_limit_mb = limits.time, limits.memory
        self.node_limit = limits.nodes
        self.deadline = time.perf_counter() + time_limit if time_limit else None
        self.max_entries = int(memory_limit_mb * 1e6 / 400) if memory_limit_mb else None
        # 400 bytes an entry is an average: the move cache, the verifier's
        # caches and the allocator's free lists come on top, and with them a
        # 100 MB budget grew the process by 170 MB (docs/performance.md,
        # "Limits").  So the process's resident size is read too, and when
        # its growth since the engine started nears the budget, the table's
        # size then becomes its limit (tsume.memory).
        self.memory_budget = int(memory_limit_mb * 1e6) if memory_limit_mb else 0
        self._rss_base = resident_bytes() if memory_limit_mb else 0
        self._rss_seen = 0  # what the process had grown by after the last collection
        # The children of recently expanded nodes, by position hash (the full
        # hash: board, hands, side to move, which fix them).  df-pn expands a
        # node again each time its thresholds let it, and verify asks many
        # questions about the same positions (ito-L21-0004: 203,512
        # expansions of 8,353 positions), so their moves were generated again
        # and again (docs/performance.md, "Verify").  The
        # cache is emptied when full; a memory limit gives it a tenth of its
        # budget (an entry with its children takes about 2.5 KB).
        self._kids: dict[int, tuple[int, list[_Kid]]] = {}
        self._kids_cap = 16384 if memory_limit_mb is None else max(64, min(16384, int(memory_limit_mb * 1e6 / 10 / 2500)))
        self.progress = progress
        self.started = time.perf_counter()
        self.progress_interval = progress_interval
        self._next_progress = self.started + progress_interval
        self.gc_runs = 0
        # Both caches hold answers found with proofs, so they carry the
        # table epoch they were found in and are used under the same rule.
        self.useless_cache: dict[tuple[int, int], tuple[bool, int]] = {}
        self.r_cache: dict[int, tuple[int, int]] = {}
        # Anchors on the line, innermost last: exact (True) or not (see anchor()).
        self._anchor_kinds: list[bool] = []
        self.exact_anchors: set[int] = set()
        # The node count at which the current question's budget is spent.
        self._budget_end = _NO_BUDGET
        # _tick runs when nodes reaches this: every 1024 nodes, and exactly at
        # the node limit and at the end of a question's budget.
        self._next_tick = self._tick_after(0)

    # --- public ------------------------------------------------------------

    def search(self, b: int) -> str:
        """Mate within ``b`` counted plies from the current position?  PROVEN, DISPROVEN or UNKNOWN."""
        try:
            return self.prove(b)
        except SearchLimit:
            return UNKNOWN

    def prove_on_line(self, b: int) -> tuple[str, bool]:
        """:meth:`prove`, and whether the answer rests on the current line (a
        repetition of one of its positions, or an anchor): such an answer
        holds only while the line stands.  Raises SearchLimit."""
        return self._nested(None, b)

    def anchor(self, h: int, exact: bool = False) -> None:
        """Put the position with hash ``h`` on the line without searching it
        (a caller walking a line).  Repetitions of it then fail for the
        attacker, and no proof found while it was off the line is used.

        ``exact``: the caller knows the position's value on this line (its
        shortest mate, or its longest defence) and asks below it only
        questions whose bounds are that value less the plies between.  A
        stored proof passing through the position would then prove it in
        fewer plies than its value, which cannot be: older proofs stay usable
        (tsume.hands), which keeps reading lines off cheap."""
        self.path[h] = 1
        self._anchor_kinds.append(exact)
        if exact:
            self.exact_anchors.add(h)
        else:
            # With its board key when it is the current position (a proof for
            # other hands must not pass through that board); else unknown (-1:
            # no proof is used for other hands while it stands).
            pos = self.pos
            self.table.push_anchor(h ^ pos.hand_hash if h == pos.hash else -1)

    def release(self, h: int) -> None:
        """Take the innermost anchor, ``h``, off the line again."""
        del self.path[h]
        if self._anchor_kinds.pop():
            self.exact_anchors.discard(h)
        else:
            self.table.pop_anchor()

    def shortest(self, b: int, descend: bool = False, exact: bool = True) -> tuple[int | None, bool]:
        """The least bound within which the current position is mated (counted
        plies: odd with the attacker to move, even with the defender), at most
        ``b`` -- None if it is not mated within ``b`` -- and whether an answer
        it rests on holds only on the current line.  Raises SearchLimit.

        Mate within a bound holds within every larger one, so the bounds are
        tried from the smallest up.  Up to ``Options.short_first`` plies that
        comes before any search to ``b`` itself: a few small searches cost far
        less than an unbounded one, which wanders into long lines, and most
        mates asked for are short.  Past it, one search to ``b`` says whether
        there is a mate at all and gives a length to climb up to.

        ``descend`` climbs down from that length instead: a proof within
        two plies less gives a new length, a disproof ends it.  It pays when
        the first proof is likely the shortest, as a main line found by a full
        solve is, and not for alternatives, whose first proofs are often long
        (each disproof on the way up primes the table for the next bound, a
        lone disproof just below the answer has no such help; measured in
        docs/performance.md).

        Not ``exact``: the first proof's length is returned as it is (it
        bounds the mate from above), for a caller that only asks whether
        there is a mate: the same searches until then, no climb.
        """
        v, _low, on_line = self._shortest(b, descend, exact, None)
        return v, on_line

    def set_budget(self, nodes: int | None) -> None:
        """From now on raise OverBudget once ``nodes`` more nodes are spent
        (None: no budget).  A budget bounds one question of a caller that
        has an answer without it (a length as a bound, any line instead of
        the best): unlike the engine's limits, it leaves the engine running."""
        self._budget_end = _NO_BUDGET if nodes is None else self.nodes + nodes
        if self._next_tick != 0:  # (0: a limit stopped the engine for good)
            self._next_tick = self._tick_after(self.nodes)

    def shortest_within(self, b: int, budget: int | None) -> tuple[int | None, int, bool]:
        """:meth:`shortest` with at most ``budget`` nodes (None: no budget)
        for the climb from a first proof to the exact length: ``(upper, low, on_line)``, the
        position being mated within ``upper`` and not within any bound below
        ``low`` (``low == upper``: the exact length; ``upper`` None: not mated
        within ``b``).  The searches up to the first proof are not budgeted
        (whether there is a mate is never left open), nor is the climb when
        the first proof gives no length to bound it by; only the engine's
        own limits stop them.  Raises SearchLimit."""
        return self._shortest(b, False, True, budget)

    def _shortest(self, b: int, descend: bool, exact: bool, budget: int | None) -> tuple[int | None, int, bool]:
        low = 1 if self.pos.turn == self.attacker else 0
        v, nxt, on_line = self._first_mated(low, min(b, self.options.short_first))
        if v is not None:
            return v, v, on_line
        if nxt > b:
            return None, nxt, on_line
        status, dep = self._nested(None, b)
        on_line |= dep
        if status != PROVEN:
            return None, nxt, on_line
        # A proof of some length is in hand (or, through other hands, of none known).
        upper = min(self.table.proof_length(self.pos.hash, self.path), b)
        if not exact:
            return upper, nxt, on_line
        climb_start = self.nodes
        try:
            return self._climb(nxt, upper, descend, budget, on_line)
        finally:
            self.climb_nodes += self.nodes - climb_start

    def _climb(self, nxt: int, upper: int, descend: bool, budget: int | None, on_line: bool) -> tuple[int | None, int, bool]:
        """:meth:`_shortest` after a first proof within ``upper``: the climb
        to the exact length from ``nxt``, the least bound not disproved."""
        if budget is not None or not descend or upper >= UNBOUNDED:  # (no length known to climb down from)
            # A spent budget leaves ``upper`` as the answer's bound, so with
            # no length known (a proof through other hands) the climb is not
            # budgeted: it goes on to the exact length, as without a budget.
            if upper >= UNBOUNDED:
                budget = None
            v, reached, dep = self._first_mated(nxt, upper - 1, budget)  # every bound below upper
            if v is None:
                return upper, min(reached, upper), on_line | dep  # (reached < upper: the budget ran out)
            return v, v, on_line | dep
        while upper - 2 >= nxt:
            status, dep = self._nested(None, upper - 2)
            on_line |= dep
            if status != PROVEN:
                break
            upper = min(self.table.proof_length(self.pos.hash, self.path), upper - 2)
        return upper, upper, on_line

    def _first_mated(self, low: int, high: int, budget: int | None = None) -> tuple[int | None, int, bool]:
        """The first of the bounds ``low``, ``low + 2``, ... up to ``high`` within
        which the current position is mated (None if none), the first bound
        not disproved, and whether an answer it rests on holds only on the
        current line.  With a ``budget``, the searches stop when they have
        spent that many nodes (the engine's own limits still raise)."""
        on_line = False
        if budget is not None:
            self.set_budget(budget)
        try:
            while low <= high:
                status, dep = self._nested(None, low)
                on_line |= dep
                if status == PROVEN:
                    return low, low, on_line
                low += 2
        except OverBudget:
            if budget is None:
                raise  # an enclosing question's budget: not this loop's to end
        finally:
            if budget is not None:
                self.set_budget(None)
        return None, low, on_line

    def stats(self) -> dict:
        secs = time.perf_counter() - self.started
        return {
            "nodes": self.nodes,
            "seconds": secs,
            "nodes_per_second": self.nodes / secs if secs > 0 else 0.0,
            "table_entries": len(self.table),
            "gc_runs": self.gc_runs,
        }

    # --- driver --------------------------------------------------------------

    def prove(self, b: int) -> str:
        """Mate within ``b`` counted plies from the current position: PROVEN or
        DISPROVEN, searched to a result (raises SearchLimit)."""
        with PausedGC():  # the table is large and acyclic (tsume.gcpause)
            while True:
                pn, dn = self.probe(b)
                if pn == 0:
                    return PROVEN
                if dn == 0:
                    return DISPROVEN
                self._mid(b, INF - 1, INF - 1)

    def probe(self, b: int) -> tuple[int, int]:
        """The table's proof and disproof numbers for the current position
        within ``b``, without searching (0, INF: proven; INF, 0: disproven
        or a repetition of the line)."""
        pos = self.pos
        h = pos.hash
        if h in self.path:
            return INF, 0
        t = self.table
        a = t.ops.hand_of(pos, self.attacker)
        d = t.ops.hand_of(pos, self.attacker ^ 1)
        out = Probe()
        t.lookup_into(out, h, h ^ pos.hand_hash, a, d, b, self.path)
        return out.pn, out.dn

    def _tick_after(self, nodes: int) -> int:
        nxt = (nodes | 1023) + 1
        limit = self.node_limit
        if limit is not None and nodes <= limit < nxt:
            nxt = limit
        if nodes < self._budget_end < nxt:
            nxt = self._budget_end
        return nxt

    def _tick(self) -> None:
        check_signals()  # Ctrl-C: compiled code never runs signal handlers by itself
        # Once a limit is reached, every later question to this engine stops
        # at its first node too (_next_tick stays 0).
        self._next_tick = 0
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchLimit("node limit")
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            raise SearchLimit("time limit")
        grown = resident_bytes() - self._rss_base if self._rss_base else 0
        budget = self.memory_budget
        if self._rss_base and grown > budget - budget // 8:
            # The collections below keep the table inside the budget, but not
            # what the allocator keeps beside it: stop, as the SAT engine
            # does, rather than go past what was asked.  (At seven eighths:
            # the size is read every 1,024 nodes, and the table's dictionary
            # grows by megabytes at a time.)
            raise SearchLimit(f"memory limit ({budget / 1e6:g} MB)")
        self._next_tick = self._tick_after(self.nodes)
        if self.max_entries is not None:
            entries = len(self.table)
            # From five eighths of the budget on (a collection's own lists
            # come on top), a new high by a sixteenth of it makes the table's
            # size its limit.  Only a new high: after a collection the table
            # refills the memory it freed and the size does not come down.
            # (Not while the table is small: then the growth is not its own.)
            if (self._rss_base and self.max_entries // 2 < entries <= self.max_entries
                    and grown > budget * 5 // 8 and grown > self._rss_seen + budget // 16):
                self.max_entries = max(entries - 1, _MIN_ENTRIES)
            if entries > self.max_entries:
                self.table.collect(self.max_entries // 2)
                self.gc_runs += 1
                # Their answers carry the epoch they were found in, and a
                # collection starts one that no older answer is used in again.
                self.useless_cache.clear()
                self.r_cache.clear()
                if self._rss_base:
                    # (After it: the collection's own temporaries count in the size.)
                    self._rss_seen = resident_bytes() - self._rss_base
        if self.progress is not None and now >= self._next_progress:
            self._next_progress = now + self.progress_interval
            self.progress(self.stats())
        if self.nodes >= self._budget_end:
            raise OverBudget("node budget")  # this question only: later ones go on

    # --- the search --------------------------------------------------------------

    def _mid(self, b: int, th_pn: int, th_dn: int) -> tuple[int, int]:
        pos = self.pos
        h = pos.hash
        # Checked before the node is counted: a stopped engine counts no more
        # nodes, however many questions follow (verify asks many).
        if self.nodes >= self._next_tick:
            self._tick()
        self.nodes += 1
        start_nodes = self.nodes
        table = self.table
        ops = table.ops
        attacker = self.attacker
        or_node = pos.turn == attacker
        handz = pos.hand_hash
        bkey = h ^ handz
        hand_a = ops.hand_of(pos, attacker)
        hand_d = ops.hand_of(pos, attacker ^ 1)
        if or_node and b < 1:
            table.store_disproof(h, bkey, 0, 0, ops.full, 0, False)
            return INF, 0
        cached = self._kids.get(h)
        if cached is not None:
            filtered, kids = cached
        else:
            if or_node:
                moves = pos.checks()
                filtered = pos.filtered
                if not moves:
                    dh = self._pin_drop_checks(ops.full, hand_a)
                    table.store_disproof(h, bkey, INF, 0, dh, 0, filtered > 0)
                    return INF, 0
            else:
                moves = pos.evasions()
                filtered = pos.filtered
                if not moves:
                    du = hand_d if pos.interposition_squares() else ops.full
                    table.store_proof(h, bkey, 0, 0, 0, du, filtered > 0, table.on_anchor_board(bkey))
                    return 0, INF
            kids = self._children(pos, moves, or_node, hand_a, hand_d)
            if len(self._kids) >= self._kids_cap:
                self._kids.clear()
            self._kids[h] = (filtered, kids)

        path = self.path
        if len(path) >= self.options.max_depth:
            raise SearchLimit(f"depth limit ({self.options.max_depth} plies on the search path)")
        path[h] = 1
        if or_node and self.options.one_ply_mate:
            # One-ply mate check: a check the defender has no king-safe answer
            # to is mate (stopping at the first answer keeps it cheap).
            for kid in kids:
                if not table.known(kid.h):
                    pos.push(kid.m)
                    if not pos.has_safe_move():
                        table.store_proof(kid.h, kid.bkey, 0, 0, 0, ops.full, True, True)
                    pos.pop()

        cb = b - 1
        variant = pos.t.variant
        eps = self.options.one_plus_epsilon

        # Children only ever get stronger in the table (a proof stays a proof,
        # and a repetition disproof rests on this unchanging line), so each
        # child is looked up once and again only after it has been searched.
        for kid in kids:
            self._value(kid, b, path)
        last = -1
        gc_runs = self.gc_runs
        result: tuple[int, int]
        try:
            while True:
                if gc_runs != self.gc_runs:
                    # A collection distrusts older proofs (tsume.hands): look again.
                    gc_runs = self.gc_runs
                    for kid in kids:
                        self._value(kid, b, path)
                elif last >= 0:
                    self._value(kids[last], b, path)
                if or_node:
                    best = -1
                    pn1 = pn2 = INF
                    dn_sum = 0
                    best_dn = 0
                    proof_len = NOT_PROVEN
                    proof_entry = None
                    proof_kid = -1
                    proof_rep: tuple | None = None
                    dis_b = INF
                    rep: set[int] | None = None
                    dh = ops.full
                    dl = 0
                    d_exact = filtered > 0
                    run = 0  # the drop group being summed (tsume.dfpn.Options.drop_groups), and its largest number
                    run_max = 0
                    for i, kid in enumerate(kids):
                        cpn = kid.pn
                        cdn = kid.dn
                        cx = kid.x
                        crep = kid.rep
                        ce = kid.entry
                        if cpn < pn1:
                            pn2 = pn1
                            pn1 = cpn
                            best = i
                            best_dn = cdn
                        elif cpn < pn2:
                            pn2 = cpn
                        g = kid.group
                        if g > 0:
                            if g != run:
                                if run_max:
                                    dn_sum += run_max - 1
                                run = g
                                run_max = 0
                            if cdn:
                                dn_sum += 1
                                if cdn > run_max:
                                    run_max = cdn
                        else:
                            dn_sum += cdn
                        if cpn == 0 and (cx < proof_len or cx == proof_len and proof_rep is not None):
                            proof_len = cx
                            proof_entry = ce
                            proof_kid = i
                            proof_rep = crep
                        if cdn == 0 and pn1 == INF:
                            # A repetition disproof has a bound too (its rep_b):
                            # once the repetition of this very node is dropped
                            # below, the plain disproof left holds only up to it.
                            if cx + 1 < dis_b:
                                dis_b = cx + 1
                            if crep is not None:
                                rep = set(crep) if rep is None else rep | set(crep)
                                d_exact = True
                            else:
                                if ce is None or ce.d_exact:
                                    d_exact = True
                                else:
                                    kdh = self._before_attacker_move(ce.dh, kid, ops)
                                    if kdh is None:
                                        d_exact = True
                                    else:
                                        dh = ops.fmin(dh, kdh)
                                        dl = ops.fmax(dl, ce.dl)
                    if run_max:
                        dn_sum += run_max - 1
                    n_pn = pn1
                    n_dn = dn_sum if dn_sum < INF else INF
                    if n_pn == 0:
                        if self._store_line_proof(h, proof_len + 1, proof_rep, start_nodes):
                            result = (0, INF)
                            break
                        kid = kids[proof_kid]
                        ph: int | None
                        if proof_entry is None or proof_entry.p_exact:
                            ph, du, p_exact = 0, 0, True
                        else:
                            ph = self._before_attacker_move(proof_entry.ph, kid, ops, need=True)
                            du = proof_entry.du
                            # A drop is legal under a drop-mate ban only while
                            # the defender can answer it: that needs its hand.
                            p_exact = ph is None or (not variant.drop_mate and not kid.m & 127)
                        # Does the proof's tree meet an anchor's board (tsume.hands)?
                        pa = (proof_entry is None or proof_rep is not None or proof_entry.pa
                              or table.on_anchor_board(bkey))
                        table.store_proof(h, bkey, proof_len + 1, self.nodes - start_nodes, ph or 0, du, p_exact, pa)
                        result = (0, INF)
                        break
                    if n_dn == 0:
                        if rep is not None:
                            rep.discard(h)
                        if rep:
                            table.store_rep_disproof(h, b, frozenset(rep), self.nodes - start_nodes)
                        else:
                            dh = self._pin_drop_checks(dh, hand_a)
                            table.store_disproof(h, bkey, dis_b, self.nodes - start_nodes, dh, dl, d_exact)
                        result = (INF, 0)
                        break
                    if n_pn >= th_pn or n_dn >= th_dn:
                        table.store_unknown(h, b, n_pn, n_dn, self.nodes - start_nodes)
                        result = (n_pn, n_dn)
                        break
                    child_th_pn = min(th_pn, pn2 + (pn2 // eps if eps else 0) + 1)
                    g = kids[best].group
                    if g > 0:
                        # The best child's own number counts only as its group's largest.
                        for kid in kids:
                            if kid.group == g and kid.dn > best_dn:
                                best_dn = kid.dn
                    child_th_dn = th_dn - n_dn + best_dn
                else:
                    groups: dict[int, int] = {}
                    best = -1
                    dn1 = dn2 = INF
                    best_pn = 0
                    best_group = 0
                    max_len = -1
                    p_exact = filtered > 0
                    used_useless = False
                    ph = 0
                    du = ops.full
                    disproved = None
                    line_rep: set[int] | None = None
                    kids_pa = False
                    for i, kid in enumerate(kids):
                        cpn = kid.pn
                        cdn = kid.dn
                        cx = kid.x
                        crep = kid.rep
                        ce = kid.entry
                        if cx == -1:
                            used_useless = True
                        if cdn == 0:
                            disproved = (i, cx, crep, ce)
                            break
                        g = kid.group
                        if cpn > groups.get(g, 0):
                            groups[g] = cpn
                        if cdn < dn1:
                            dn2 = dn1
                            dn1 = cdn
                            best = i
                            best_pn = cpn
                            best_group = g
                        elif cdn < dn2:
                            dn2 = cdn
                        if cpn == 0:
                            if crep is not None:
                                line_rep = set(crep) if line_rep is None else line_rep | set(crep)
                            if cx > max_len:
                                max_len = cx
                            if ce is None or crep is not None or ce.pa:
                                kids_pa = True
                            if ce is None or ce.p_exact:
                                p_exact = True  # a useless interposition lands here too
                            elif not p_exact:
                                ph = ops.fmax(ph, ce.ph)
                                kdu = self._before_defender_move(ce.du, kid, ops, upper=True)
                                if kdu is None:
                                    p_exact = True
                                else:
                                    du = ops.fmin(du, kdu)
                    if disproved is not None:
                        i, cx, crep, ce = disproved
                        kid = kids[i]
                        if crep is not None:
                            rep = set(crep)
                            rep.discard(h)
                        else:
                            rep = None
                        if rep:
                            table.store_rep_disproof(h, b, frozenset(rep), self.nodes - start_nodes)
                        else:
                            # A repetition disproof keeps no hands: the entry's
                            # dh/dl belong to another disproof of it.
                            exact = crep is not None or ce is None or ce.d_exact or (
                                # An interposition found effective (not useless):
                                # with other hands R and the test positions change,
                                # and it may be useless there.
                                kid.checker != 0
                            ) or (
                                # With fewer pieces in hand the attacker could be
                                # stalemated, or mated by a drop: the defence may
                                # then be illegal (unless it is legal whatever the
                                # hands hold).  Last: it makes the move.
                                bool(pos.king_square(attacker)) and not self._legal_for_any_hands(kid.m)
                            )
                            dh = ce.dh if ce is not None else 0
                            kdl = self._before_defender_move(ce.dl, kid, ops, upper=False) if ce is not None else 0
                            table.store_disproof(h, bkey, cx + 1, self.nodes - start_nodes, dh, kdl or 0, exact)
                        result = (INF, 0)
                        break
                    pn_sum = 0
                    for v in groups.values():
                        pn_sum += v
                    n_pn = pn_sum if pn_sum < INF else INF
                    n_dn = dn1
                    if n_pn == 0:
                        plen = max_len + 1 if max_len >= 0 else 0
                        if self._store_line_proof(h, b if used_useless else plen, line_rep, start_nodes):
                            result = (0, INF)
                            break
                        if not p_exact and pos.interposition_squares():
                            # KomoringHeights' correction: a kind the defender
                            # lacks could have been interposed.
                            for ki in range(ops.nkinds):
                                if not ops.get(hand_d, ki):
                                    du = ops.put(du, ki, 0)
                        table.store_proof(
                            h, bkey, b if used_useless else plen, self.nodes - start_nodes, ph, du,
                            p_exact or used_useless, kids_pa or table.on_anchor_board(bkey),
                        )
                        result = (0, INF)
                        break
                    if n_pn >= th_pn or n_dn >= th_dn:
                        table.store_unknown(h, b, n_pn, n_dn, self.nodes - start_nodes)
                        result = (n_pn, n_dn)
                        break
                    child_th_dn = min(th_dn, dn2 + (dn2 // eps if eps else 0) + 1)
                    child_th_pn = th_pn - n_pn + max(groups[best_group], best_pn)
                pos.push(kids[best].m)
                try:
                    self._mid(cb, child_th_pn, child_th_dn)
                finally:
                    # A search limit unwinds through here: the position must be
                    # restored for the caller (the verifier goes on after one).
                    pos.pop()
                last = best
        finally:
            del path[h]
        return result

    def _value(self, kid: _Kid, b: int, path: dict[int, int]) -> None:
        """Fill ``kid``'s value (its :class:`Probe` fields) as a child of a
        node searched to ``b``, from the table and the useless-interposition
        rule.  A method, and the table called directly, not a closure over
        bound methods: in compiled code those are generic Python calls that
        box every argument (docs/performance.md, "Verify")."""
        kh = kid.h
        if kh in path:
            kid.set(INF, 0, INF, (kh,), None)
            return
        cb = b - 1
        self.table.lookup_into(kid, kh, kid.bkey, kid.a, kid.d, cb, path)
        # A disproof without a real bound means no mate at all, which a
        # useless interposition needs; skipping the test there also keeps
        # unbounded searches from nesting unbounded useless tests.
        if kid.dn == 0 and kid.checker and cb < UNBOUNDED:
            useless, on_line, bounded = self.useless(kid.m, kid.checker, b)
            # A verdict that rested on repetitions of the line (in R or
            # the test positions) holds only on this line, and so does
            # what follows from it: the proof or the disproof.
            if useless:
                kid.set(0, INF, -1, tuple(path) if on_line else None, None)
                return
            if on_line:
                kid.set(INF, 0, kid.x, tuple(path), None)
                return
            if bounded and kid.x > cb:
                # "Not useless" only because another defence escapes
                # within this bound: at a larger one the interposition
                # may be useless, and its own disproof then no defence,
                # so what follows from it holds up to this bound only.
                kid.x = cb
                return
        if (self.options.heuristic_init and kid.entry is None and kid.pn == 1 and kid.dn == 1
                and not self.table.known(kh)):
            kid.set(kid.ipn, kid.idn, 0, None, None)

    def _store_line_proof(self, h: int, length: int, rep: "tuple | set | None", start_nodes: int) -> bool:
        """Store a proof that rests on the line, if it does (``rep``, this
        node's own position aside: it is on the line wherever the node is
        searched).  False if the proof holds on any line."""
        if not rep:
            return False
        rest = set(rep)
        rest.discard(h)
        if not rest:
            return False
        self.table.store_line_proof(h, length, frozenset(rest), self.nodes - start_nodes)
        return True

    # --- children and hands --------------------------------------------------------

    def _children(self, pos: Position, moves: list[int], or_node: bool, hand_a: int, hand_d: int) -> list[_Kid]:
        """The children of the current position, one :class:`_Kid` per move."""
        c = pos.turn
        shifts = self.table.ops.shifts
        mover_is_attacker = c == self.attacker
        ranged = 0 if or_node or not self.options.useless_interpositions else pos.ride_checkers()
        same_square = self.options.same_square_max and not or_node
        drop_groups = self.options.drop_groups and or_node
        ek = pos.king_square(c ^ 1)
        king = pos.king_square(c)
        kids: list[_Kid] = []
        # One engine call for every child's hashes and hand change.
        keys = pos.child_keys(moves)
        for i, m in enumerate(moves):
            ch, chz, ki, sign = keys[i]
            frm = m & 127
            to = m >> 7 & 127
            ca, cd = hand_a, hand_d
            if sign:
                delta = sign << shifts[ki]
                if mover_is_attacker:
                    ca += delta
                else:
                    cd += delta
            checker = interposition_square(pos, m, ranged) if ranged else 0
            # Drops onto one square form a group whose numbers count once:
            # they mostly share their fate.
            group = to if same_square and not frm else -1 - i
            if drop_groups and not frm:
                # 1 + 2 * face + side: positive, and the same for the drops of one
                # face on one side of the king, which checks() lists in a row.
                group = 1 + 2 * (m >> 14) + (1 if to > ek else 0)
            # Initial numbers of an unseen child: a check from a distance leaves
            # the king more room (harder to prove); a defence other than a king
            # move is more often refuted (harder to disprove).
            if or_node:
                init_pn, init_dn = (1 if abs(to - ek) <= 1 else 2), 1
            else:
                init_pn, init_dn = 1, (1 if frm == king else 2)
            kids.append(_Kid(m, ch, checker, group, ch ^ chz, ca, cd, ki, sign, init_pn, init_dn))
        return kids

    @staticmethod
    def _before_attacker_move(hand: int, kid: _Kid, ops: HandOps, need: bool = False) -> int | None:
        """An attacker-hand bound of the child, carried back over the attacker's move.

        ``need`` (a proof's least hand): a drop needed the piece, a capture
        brought one.  Otherwise (a disproof's most hand) the same shifts apply
        in the same direction.  None when impossible.
        """
        ki, sign = kid.ki, kid.sign
        if not sign:
            return hand
        if sign < 0:
            return ops.plus(hand, ki)
        return ops.minus_clamp(hand, ki) if need else ops.minus(hand, ki)

    @staticmethod
    def _before_defender_move(hand: int, kid: _Kid, ops: HandOps, upper: bool) -> int | None:
        """A defender-hand bound of the child carried back over the defender's move."""
        ki, sign = kid.ki, kid.sign
        if not sign:
            return hand
        if sign < 0:
            return ops.plus(hand, ki)
        return ops.minus(hand, ki) if upper else ops.minus_clamp(hand, ki)

    def _legal_for_any_hands(self, m: int) -> bool:
        """Is the defence ``m`` legal whatever the hands hold?

        The stalemate rule and the drop-mate ban make a defence illegal when
        the attacker has no king-safe answer, and with fewer pieces in hand
        it may have none.  A king-safe move of a piece on the board needs no
        hand; without one, the defence is safe from the stalemate rule only
        when it checks (or the rule is off), and from the drop-mate ban only
        when it does not check or is not a drop (or drops may mate)."""
        pos = self.pos
        variant = pos.t.variant
        pos.push(m)
        try:
            if pos.is_check():
                if variant.drop_mate or m & 127:
                    return True
            elif variant.stalemate != "illegal":
                return True
            return pos.has_safe_board_move()
        finally:
            pos.pop()

    def _pin_drop_checks(self, dh: int, hand_a: int) -> int:
        """KomoringHeights' correction: kinds the attacker lacks that would give a
        drop check may not be added to a disproof hand."""
        ops = self.table.ops
        kinds = self.pos.drop_check_kinds()
        if not kinds:
            return dh
        for ki in range(ops.nkinds):
            if kinds >> ki & 1 and not ops.get(hand_a, ki):
                dh = ops.put(dh, ki, 0)
        return dh

    def useless(self, d: int, checker: int, b: int) -> tuple[bool, bool, bool]:
        """Is the interposition ``d`` (defender to move here) useless?  Does
        that answer rest on the current line?  And is a "not useless" only
        this bound's (third item)?

        Useless: the checker's capture with the piece handed back leaves a
        position mated within R, the value of the defender's best defence that
        is not an interposition (0 if none), and the real position after ``d``
        is mated within R + 1.  ``b`` only bounds the search for R (not useless
        when a defence escapes within it: at a larger bound the verdict may
        differ, so the third item says so).  Repetitions of the line count in
        these searches, so the verdict may hold only on this line (second
        item): it is then not cached.
        """
        pos = self.pos
        h = pos.hash
        key = (h, d)
        table = self.table
        cached = self.useless_cache.get(key)
        if cached is not None and cached[1] >= table.floor:
            return cached[0], False, False
        epoch = table.epoch
        strict = h in self.exact_anchors
        hb = h ^ pos.hand_hash  # (the board key of h, for an anchor at it below)
        r, dependent = self._best_other(b)
        if r is None:
            # A defence that is not an interposition escapes within b: the
            # verdict does not matter here (and would need a larger b).
            return False, dependent, True
        to = d >> 7 & 127
        verdict = False
        pos.push(d)
        try:
            for back in recaptures(pos, checker, to):
                status, dep = self._nested(back, r)
                dependent |= dep
                if status == PROVEN:
                    # The one question above an exact anchor's value: asked
                    # here, at it, a proof passing through it could be found
                    # (anchor()), so proofs found off the line are not used.
                    if strict:
                        table.push_anchor(hb)
                    try:
                        status2, dep2 = self._nested(None, r + 1)
                    finally:
                        if strict:
                            table.pop_anchor()
                    dependent |= dep2
                    verdict = status2 == PROVEN
                    break
        finally:
            pos.pop()
        if not dependent:
            self.useless_cache[key] = (verdict, epoch)
        return verdict, dependent, False

    def _best_other(self, b: int) -> tuple[int | None, bool]:
        """R for the defender to move here: the longest value of its defences that
        are not interpositions (0 if none); None if one is not mated within b - 1."""
        pos = self.pos
        h = pos.hash
        table = self.table
        cached = self.r_cache.get(h)
        if cached is not None and cached[1] >= table.floor:
            return cached[0], False
        ranged = pos.ride_checkers()
        best = 0
        dependent = False
        added = h not in self.path
        if added:
            self.anchor(h)
        epoch = table.epoch
        try:
            for d in pos.evasions():
                if interposition_square(pos, d, ranged):
                    continue
                pos.push(d)
                try:
                    v, dep = self.shortest(b - 1)
                    dependent |= dep
                    if v is None:
                        return None, dependent
                    best = max(best, 1 + v)
                finally:
                    pos.pop()
        finally:
            if added:
                self.release(h)
        if not dependent:
            self.r_cache[h] = (best, epoch)
        return best, dependent

    def _nested(self, other: Position | None, b: int) -> tuple[str, bool]:
        """Search ``other`` (or the current position) to a result; (status, rests on the line)."""
        saved = self.pos
        if other is not None:
            self.pos = other
        try:
            status = self.prove(b)
            return status, self.table.rests_on_line(self.pos.hash, b, self.path, status == PROVEN)
        finally:
            self.pos = saved
