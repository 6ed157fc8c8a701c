"""The reference solver: a plain exhaustive search over check sequences.

Slow by design and short enough to check by eye; the tests trust it.  It
implements the conventions of docs/solver.md directly:

* ``mate(P, b)`` -- attacker to move mates within ``b`` counted plies;
* ``defended(D, b)`` -- defender to move (in check) is mated within ``b``;
* a repeated position on the current line fails for the attacker;
* an interposition on the line of a ride checker is *useless* when the
  checker can capture it with a check and the position after that capture,
  with the piece handed back to the defender, is mated within R counted
  plies -- R being the value of the defender's best defence that is not an
  interposition (0 if it has none) -- while the real position after the
  interposition is still mated within R + 1; useless interpositions must be
  refuted but are not counted;
* the value of a line is (length, pieces left in the attacker's hand): the
  attacker takes the shortest then the most pieces left, the defender the
  longest then the fewest.

Results are memoised only when they did not depend on the current line, and
per position across bounds: a mate within ``b`` is a mate within any larger
bound, and no mate within ``b`` means none within any smaller one (the
attacker keeps the same strategy; the useless-interposition test only gets
more room to find R), so the memo keeps, per position, the smallest bound
known to mate and the largest known not to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .conventions import hand_count, interposition_square, ranged_checkers, recaptures
from .position import Move, Position, SquareSet
from .render import canonical_order

__all__ = ["ReferenceSolver", "RefLine", "reference_solve"]


@dataclass
class RefLine:
    """A solved line: length (plies), attacker pieces left at the end, moves."""

    length: int
    leftover: int
    moves: list[Move] = field(default_factory=list)


class ReferenceSolver:
    """Exhaustive tsume search for one position (attacker to move)."""

    def __init__(self, pos: Position, *, useless_interpositions: bool = True) -> None:
        # False counts every interposition as a defence: the raw length.
        self.useless_interpositions = useless_interpositions
        self.pos = pos.copy()
        self.attacker = self.pos.turn
        self.path: set[tuple] = set()
        # position key -> smallest bound it is known to mate within / largest it is known not to
        self.mates_within: dict[tuple, int] = {}
        self.no_mate_within: dict[tuple, int] = {}
        self.nodes = 0

    def _memo(self, key: tuple, b: int) -> bool | None:
        if self.mates_within.get(key, b + 1) <= b:
            return True
        if self.no_mate_within.get(key, -1) >= b:
            return False
        return None

    def _remember(self, key: tuple, b: int, result: bool) -> None:
        if result:
            self.mates_within[key] = min(b, self.mates_within.get(key, b))
        else:
            self.no_mate_within[key] = max(b, self.no_mate_within.get(key, b))

    # --- mate within b ---------------------------------------------------

    def mate(self, b: int) -> tuple[bool, bool]:
        """Attacker to move: (mates within b, result depends on the line)."""
        pos = self.pos
        key = pos.key()
        if key in self.path:
            return False, True
        if b < 1:
            return False, False
        known = self._memo(key, b)
        if known is not None:
            return known, False
        self.nodes += 1
        self.path.add(key)
        dependent = False
        result = False
        for m in pos.checks():
            pos.push(m)
            ok, dep = self.defended(b - 1)
            pos.pop()
            if ok:
                result, dependent = True, dep
                break
            dependent |= dep
        self.path.discard(key)
        if not dependent:
            self._remember(key, b, result)
        return result, dependent

    def defended(self, b: int) -> tuple[bool, bool]:
        """Defender to move: (mated within b, result depends on the line)."""
        pos = self.pos
        key = pos.key()
        if key in self.path:
            return False, True
        known = self._memo(key, b)
        if known is not None:
            return known, False
        self.nodes += 1
        moves = pos.evasions()
        if not moves:
            return True, False
        self.path.add(key)
        ranged = ranged_checkers(pos) if self.useless_interpositions else SquareSet()
        dependent = False
        result = True
        interpositions = []
        # Every defence must be mated within b - 1 ...
        for d in moves:
            pos.push(d)
            ok, dep = self.mate(b - 1)
            pos.pop()
            dependent |= dep
            if ok:
                continue
            checker = interposition_square(pos, d, ranged)
            if not checker:
                result, dependent = False, dep
                break
            interpositions.append((d, checker))
        # ... unless it is a useless interposition.
        if result:
            for d, checker in interpositions:
                useless, dep = self.useless(d, checker, b)
                dependent |= dep
                if not useless:
                    result = False
                    break
        self.path.discard(key)
        if not dependent:
            self._remember(key, b, result)
        return result, dependent

    def best_other(self, b: int) -> tuple[int | None, bool]:
        """R: the longest counted value of the defender's defences that are not
        interpositions (0 if there are none); None if one is not mated within b - 1."""
        pos = self.pos
        ranged = ranged_checkers(pos) if self.useless_interpositions else SquareSet()
        best = 0
        dependent = False
        for d in pos.evasions():
            if interposition_square(pos, d, ranged):
                continue
            pos.push(d)
            try:
                for v in range(1, b, 2):
                    ok, dep = self.mate(v)
                    dependent |= dep
                    if ok:
                        best = max(best, 1 + v)
                        break
                else:
                    return None, dependent
            finally:
                pos.pop()
        return best, dependent

    def useless(self, d: Move, checker: int, b: int) -> tuple[bool, bool]:
        """Is the interposition ``d`` useless (see module doc)?  ``b``, the defender's
        bound here, only limits the search for the other defences' value R."""
        pos = self.pos
        key = pos.key()
        added = key not in self.path
        if added:
            self.path.add(key)
        try:
            r, dependent = self.best_other(b)
            if r is None:
                return False, dependent
            to = d.to_square
            pos.push(d)
            try:
                captured = False
                for back in recaptures(pos, checker, to):
                    saved = self.pos
                    self.pos = back
                    try:
                        ok, dep = self.defended(r)
                    finally:
                        self.pos = saved
                    dependent |= dep
                    if ok:
                        captured = True
                        break
                if not captured:
                    return False, dependent
                ok, dep = self.mate(r + 1)
                return ok, dependent or dep
            finally:
                pos.pop()
        finally:
            if added:
                self.path.discard(key)

    # --- values and lines ------------------------------------------------

    def length(self, max_length: int) -> int | None:
        """The shortest counted mate length (odd), or None within ``max_length``."""
        for b in range(1, max_length + 1, 2):
            if self.mate(b)[0]:
                return b
        return None

    def attacker_line(self, b: int) -> RefLine:
        """Best line from an attacker node whose shortest mate is exactly ``b``."""
        pos = self.pos
        key = pos.key()
        self.path.add(key)
        best: RefLine | None = None
        for m in sorted(pos.checks(), key=canonical_order(pos)):
            pos.push(m)
            if self.defended(b - 1)[0]:
                line = self.defender_line(b - 1)
                if best is None or line.leftover > best.leftover:
                    best = RefLine(b, line.leftover, [m] + line.moves)
            pos.pop()
        self.path.discard(key)
        assert best is not None, "attacker_line called on a node that does not mate in b"
        return best

    def defender_line(self, b: int) -> RefLine:
        """Best (longest, then fewest pieces left) line from a defender node mated within ``b``."""
        pos = self.pos
        key = pos.key()
        moves = pos.evasions()
        ranged = ranged_checkers(pos) if self.useless_interpositions else SquareSet()
        self.path.add(key)
        best: RefLine | None = None
        for d in sorted(moves, key=canonical_order(pos)):
            checker = interposition_square(pos, d, ranged)
            if checker and self.useless(d, checker, b)[0]:
                continue
            pos.push(d)
            v = next(v for v in range(1, b, 2) if self.mate(v)[0])
            line = self.attacker_line(v)
            pos.pop()
            cand = RefLine(1 + v, line.leftover, [d] + line.moves)
            if best is None or (cand.length, -cand.leftover) > (best.length, -best.leftover):
                best = cand
        self.path.discard(key)
        if best is None:
            return RefLine(0, hand_count(pos, self.attacker))
        return best


def reference_solve(
    pos: Position, max_length: int, *, useless_interpositions: bool = True
) -> tuple[RefLine | None, dict[Move, int | None]]:
    """Solve by exhaustive search: the main line (or None) and, for every legal
    checking first move, the shortest counted mate length after it (None if
    none within ``max_length``)."""
    solver = ReferenceSolver(pos, useless_interpositions=useless_interpositions)
    b = solver.length(max_length)
    line = solver.attacker_line(b) if b is not None else None
    firsts: dict[Move, int | None] = {}
    root = solver.pos
    root_key = root.key()
    for m in sorted(root.checks(), key=canonical_order(root)):
        root.push(m)
        solver.path.add(root_key)
        firsts[m] = next((1 + v for v in range(0, max_length, 2) if solver.defended(v)[0]), None)
        solver.path.discard(root_key)
        root.pop()
    return line, firsts
