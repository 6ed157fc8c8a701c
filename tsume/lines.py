"""Reading lines of play off a df-pn search: :class:`LineReader` and its helpers.

Once a :class:`~tsume.dfpn.DfPn` engine has proven a mate, the line a
solver prints is read off it with bounded searches, under the conventions of
docs/solver.md ("the answer"): the shortest mate against the longest defence,
then the fewest pieces left to the attacker by the defender and the most by
the attacker.  ``solve()`` reads the main line and the variations this way;
``verify()`` reads the main line and the lines of every alternative it finds.
"""

from __future__ import annotations

from collections.abc import Callable

from .conventions import hand_count, interposition_square, ranged_checkers
from .dfpn import PROVEN, DfPn
from .position import Position

__all__ = ["LineReader", "main_line", "proof_length", "hand_after", "move_strings"]

# An open upper end of a leftover window (more pieces than any hand holds).
_OPEN = 1 << 30


class LineReader:
    """Reads lines off bounded df-pn searches on ``engine`` (docs/solver.md, "the answer").

    Its position is the engine's (``engine.pos``), which the reader walks
    with push and pop and leaves as it found it.  The lines are lists of
    move ints from the current position: :meth:`attacker_line` and
    :meth:`defender_line` read the best line of a known value,
    :meth:`defender_choices` every defence with its line, :meth:`proof_line`
    a mating line read off the table's proofs alone.

    ``thorough`` (the default) reads the best line as the conventions order
    lines: the shortest mate, the longest defence, then the fewest pieces left
    to the attacker (the defender) and the most (the attacker), which means
    disproving every other check at every attacker turn of the lines it
    reads; alpha-beta on the leftover (below; ``Options.leftover_pruning``)
    reads only the lines that can still change the answer.  Without
    ``thorough`` the first check (in move order) that mates in time is
    played and the first longest defence is taken: a line of the right length
    against the longest defence, without the leftover tie-break, for a
    fraction of the work.
    """

    def __init__(self, engine: DfPn, thorough: bool = True) -> None:
        self.engine = engine
        self.thorough = thorough
        # Alpha-beta on the leftover (below), unless Options says otherwise.
        self.prune = thorough and engine.options.leftover_pruning
        self.pos = engine.pos
        self.attacker = engine.attacker
        # Lines already read off, by (position hash, value): random problems
        # have many equal mates, whose subtrees transpose.  An entry is kept
        # only if no search under it rested on a repetition of the line; it
        # was read with the proofs of one table epoch, and is used under the
        # same rule as they are (tsume.hands).
        self.memo: dict[tuple[int, int, bool], tuple[list[int], int, frozenset[int], int]] = {}
        self.gc_runs = engine.gc_runs
        self.path_dependent = False

    def _search(self, b: int) -> bool:
        status, on_line = self.engine.prove_on_line(b)
        if on_line:
            self.path_dependent = True
        return status == PROVEN

    def _memoised(self, b: int, attacker: bool, read: "Callable[[int, int, int], tuple[list[int], int]]",
                  lo: int, hi: int) -> tuple[list[int], int]:
        """``read(b, lo, hi)`` through the memo; a stored line is reused only
        while none of its positions is on the current line.  Only an exact
        answer (a leftover strictly inside the window) is stored."""
        key = (self.pos.hash, b, attacker)
        table = self.engine.table
        if self.gc_runs != self.engine.gc_runs:
            # A garbage collection started an epoch no older line is used in:
            # let the memory go with the table's.
            self.gc_runs = self.engine.gc_runs
            self.memo.clear()
        hit = self.memo.get(key)
        if hit is not None and hit[3] >= table.floor and hit[2].isdisjoint(self.engine.path):
            return hit[0], hit[1]
        outer = self.path_dependent
        self.path_dependent = False
        epoch = table.epoch
        moves, left = read(b, lo, hi)
        if not self.path_dependent and lo < left < hi:
            p = self.pos
            seen = []
            for m in moves:
                p.push(m)
                seen.append(p.hash)
            for _ in moves:
                p.pop()
            self.memo[key] = (moves, left, frozenset(seen), epoch)
        self.path_dependent |= outer
        return moves, left

    def _enter(self) -> int:
        # Every line is read off a node whose value on this line is known
        # exactly, with bounds below it taken from that value.
        h = self.pos.hash
        self.engine.anchor(h, exact=True)
        return h

    def _leave(self, h: int) -> None:
        self.engine.release(h)

    def shortest(self, upto: int, descend: bool = False) -> int | None:
        """Smallest odd b <= upto the current (attacker) position mates within
        (``descend``: see :meth:`DfPn.shortest`)."""
        v, on_line = self.engine.shortest(upto, descend)
        if on_line:
            self.path_dependent = True
        return v

    # The leftover tie-break is a minimax (the attacker keeps the most, the
    # defender leaves the fewest), read with alpha-beta: a call with the
    # window (lo, hi) may stop as soon as its answer is known to be at most lo
    # or at least hi, which its caller would not take anyway (a move replaces
    # the best one only when strictly better, so the first best move in order
    # is kept, as a full reading keeps it).  The leftover also has bounds
    # that need no search: each attacker move drops or captures at most one
    # piece.  Only the thorough reading uses either; from the outside
    # (lo, hi) = (-1, _OPEN) reads the exact best line.

    def attacker_line(self, b: int, lo: int = -1, hi: int = _OPEN) -> tuple[list[int], int]:
        """Moves and leftover count of the best line from an attacker node of
        value b; with a window (lo, hi), a leftover at most ``lo`` or at least
        ``hi`` is only a bound, and its line is not the best one."""
        return self._memoised(b, True, self._attacker_line, lo, hi)

    def _attacker_line(self, b: int, lo: int, hi: int) -> tuple[list[int], int]:
        pos = self.pos
        h = self._enter()
        best: tuple[list[int], int] | None = None
        floor = lo  # the leftover a move must beat
        checks = sorted(pos.checks())
        thorough, prune = self.thorough, self.prune
        if not thorough:
            # Any mating check will do: the ones the table already proves come
            # first, so the line follows the proof just found instead of
            # disproving the checks before it in move order.
            checks.sort(key=lambda m: not self._known(m, b - 1, proven=True))
        later_moves = (b - 1) // 2  # attacker moves after this one
        mating = skipped = False
        try:
            for m in checks:
                pos.push(m)
                try:
                    if prune and hand_count(pos, self.attacker) + later_moves <= floor:
                        skipped = True  # cannot keep more than the best so far
                        continue
                    if self._search(b - 1):
                        mating = True
                        moves, left = self.defender_line(b - 1, floor, hi)
                        if best is None or left > best[1]:
                            best = ([m] + moves, left)
                        if not thorough:
                            break
                        if prune and left > floor:
                            floor = left
                            if floor >= hi:
                                break  # the caller has a line that leaves less
                finally:
                    pos.pop()
        finally:
            self._leave(h)
        if not mating and not skipped:
            raise RuntimeError("internal error: no mating move at the proven length")
        if best is None or best[1] <= lo:
            return [], lo  # no line keeps more than lo: the caller keeps its own
        return best

    def useless(self, d: int, b: int, ranged: int | None = None) -> bool:
        """Is the defence ``d`` here (defender to move, mated within ``b``) a useless
        interposition?  ``ranged``: the ride checkers, if already known."""
        engine = self.engine
        if not engine.options.useless_interpositions:
            return False
        pos = self.pos
        checker = interposition_square(pos, d, ranged_checkers(pos) if ranged is None else ranged)
        if not checker:
            return False
        useless, on_line, _bounded = engine.useless(d, checker, b)
        if on_line:
            self.path_dependent = True
        return useless

    def _valued_defences(self, b: int) -> list[tuple[int, int | None]]:
        """Every defence here (the node already entered) with its shortest value,
        None for a useless interposition."""
        pos = self.pos
        ranged = ranged_checkers(pos)
        out: list[tuple[int, int | None]] = []
        for d in sorted(pos.evasions()):
            if self.useless(d, b, ranged):
                out.append((d, None))
                continue
            pos.push(d)
            try:
                v = self.shortest(b - 1)
            finally:
                pos.pop()
            if v is None:
                raise RuntimeError("internal error: a counted defence escapes the proven bound")
            out.append((d, v))
        return out

    def _line_after(self, d: int, v: int) -> tuple[list[int], int]:
        pos = self.pos
        pos.push(d)
        try:
            return self.attacker_line(v)
        finally:
            pos.pop()

    def defender_choices(self, b: int) -> list[tuple[int, bool, int | None, list[int], int]]:
        """Every defence at a defender node mated within b: (move, useless, value, line, leftover)."""
        out: list[tuple[int, bool, int | None, list[int], int]] = []
        h = self._enter()
        try:
            for d, v in self._valued_defences(b):
                if v is None:
                    out.append((d, True, None, [], 0))
                else:
                    moves, left = self._line_after(d, v)
                    out.append((d, False, 1 + v, moves, left))
        finally:
            self._leave(h)
        return out

    def defender_line(self, b: int, lo: int = -1, hi: int = _OPEN) -> tuple[list[int], int]:
        """The best line from a defender node of value b (mated within b and
        not sooner), and the pieces left; the window (lo, hi) as in
        :meth:`attacker_line`.

        Only the defences of the greatest value can be the longest line, so
        only their lines are read off (the leftover breaks ties between them).
        """
        return self._memoised(b, False, self._defender_line, lo, hi)

    def _defender_line(self, b: int, lo: int, hi: int) -> tuple[list[int], int]:
        # b is this node's exact value (its attacker parent's less one), so a
        # counted defence is a longest one exactly when it is not mated within
        # b - 3: one bounded search each, not each defence's own value.
        pos = self.pos
        thorough, prune = self.thorough, self.prune
        # Each of the b // 2 attacker moves left drops at most one piece.
        least = max(0, hand_count(pos, self.attacker) - b // 2)
        if prune and least >= hi:
            return [], hi  # every line leaves at least hi: the caller keeps its own
        h = self._enter()
        try:
            ranged = ranged_checkers(pos)
            defences = sorted(pos.evasions())
            if not thorough:
                # Any longest defence will do: those the table already
                # disproves within b - 3 first.
                defences.sort(key=lambda d: not self._known(d, b - 3, proven=False))
            best: tuple[list[int], int] | None = None
            ceiling = hi  # the leftover a defence must stay under
            longest = False
            sooner: list[int] = []
            for d in defences:
                # A defence mated sooner is not a longest one, whether or not
                # it is a useless interposition, so that test, dear when it
                # fails (docs/performance.md, "Verify"), is made only for the
                # others.
                pos.push(d)
                try:
                    shorter = b >= 4 and self._search(b - 3)
                finally:
                    pos.pop()
                if shorter:
                    sooner.append(d)
                    continue
                if self.useless(d, b, ranged):
                    continue
                longest = True
                pos.push(d)
                try:
                    moves, left = self.attacker_line(b - 1, lo, ceiling)
                finally:
                    pos.pop()
                if best is None or left < best[1]:
                    best = ([d] + moves, left)
                if not thorough:
                    break
                if prune and left < ceiling:
                    ceiling = left
                    if ceiling <= lo or ceiling <= least:
                        break  # the caller keeps more elsewhere, or none can leave less
            # Every defence a useless interposition: the line ends here.
            counted = longest or any(not self.useless(d, b, ranged) for d in sooner)
        finally:
            self._leave(h)
        if not counted:
            return [], hand_count(self.pos, self.attacker)
        if not longest:
            raise RuntimeError("internal error: every counted defence is mated before the proven bound")
        assert best is not None
        if best[1] >= hi:
            return [], hi  # every line leaves at least hi: the caller keeps its own
        return best

    def proof_line(self, b: int) -> list[int]:
        """A mating line within ``b`` from here, read off the table's proofs
        alone, for a mate whose length is known only as a bound (verify's
        length budget): each attacker move is the check with the shortest
        stored proof within what is left, each defence the one with the
        longest.  Not the best line, which costs the disproofs this one is
        read without.  Only probes: the positions it passes are not put on
        the line, so a move that would repeat one of them, or the line
        already, is passed over.  A defence the table does not prove is
        taken for a useless interposition, which is tested only where no
        defence is proven (the mate ends the line there); where that test
        fails, or no check is proven, the table cannot give a line and
        none is read (empty)."""
        pos, engine = self.pos, self.engine
        moves: list[int] = []
        seen = {pos.hash}
        try:
            while True:
                attacker = pos.turn == self.attacker
                if attacker and b < 1:
                    return []
                best, best_len = -1, -1
                unproven: list[int] = []
                for m in sorted(pos.checks() if attacker else pos.evasions()):
                    pos.push(m)
                    try:
                        n = -1  # repeats, or not known to be mated within b - 1
                        if pos.hash not in seen and engine.probe(b - 1)[0] == 0:  # (the probe fails the line's own)
                            n = min(engine.table.proof_length(pos.hash, engine.path), b - 1)
                    finally:
                        pos.pop()
                    if n < 0:
                        unproven.append(m)
                    elif best < 0 or (n < best_len if attacker else n > best_len):
                        best, best_len = m, n
                if best < 0:
                    if attacker:
                        return []
                    ranged = ranged_checkers(pos)
                    if all(self.useless(d, b, ranged) for d in unproven):
                        return list(moves)  # mated: no counted defence left
                    return []
                pos.push(best)
                moves.append(best)
                seen.add(pos.hash)
                b -= 1
        finally:
            for _ in moves:
                pos.pop()

    def _known(self, m: int, b: int, proven: bool) -> bool:
        """Does the table already prove (or with ``proven`` false, disprove)
        the move ``m``'s position within ``b``?  Only orders moves: the search
        that follows decides."""
        if b < 0:
            return False
        self.pos.push(m)
        try:
            pn, dn = self.engine.probe(b)
        finally:
            self.pos.pop()
        return pn == 0 if proven else dn == 0


def hand_after(pos: Position, moves: list[int], colour: int) -> tuple[str, int]:
    """A colour's hand after playing ``moves`` from ``pos`` (left as it is): as
    a hand string (``2PT``, ``-``) and as a count of pieces."""
    p = pos.copy()
    for m in moves:
        p.push(m)
    s = p.hand_string(colour)
    return s, hand_count(p, colour)


def move_strings(pos: Position, moves: list[int]) -> tuple[list[str], list[str]]:
    """The moves of a line from ``pos`` (left as it is) as move strings
    (``G*2``) and in the readable notation (``G*2``, ``k2-1``), each read
    in the position it is played in."""
    p = pos.copy()
    plain, readable = [], []
    for m in moves:
        plain.append(p.move_str(m))
        readable.append(p.move_readable(m))
        p.push(m)
    return plain, readable


def proof_length(engine: DfPn, bound: int) -> int:
    """A proven (maybe not shortest) length for the current position, after a proof within ``bound``."""
    return min(engine.table.proof_length(engine.pos.hash, engine.path), bound)


def main_line(engine: DfPn, bound: int) -> tuple[int, list[int]]:
    """The shortest counted length and the main line from ``engine.pos`` (attacker
    to move), once ``engine.prove(bound)`` has proved it.  Raises SearchLimit."""
    ex = LineReader(engine)
    # The full solve's proof is most often the shortest mate: climb down from it.
    length = ex.shortest(proof_length(engine, bound), descend=True)
    if length is None:
        raise RuntimeError("internal error: proven mate not found again within its proof length")
    moves, _left = ex.attacker_line(length)
    return length, moves
