"""Mate within n plies by counterexample-guided refinement of an attacker strategy.

The question "the attacker mates within n plies" alternates quantifiers: there
is a check such that for every reply there is a check ... such that the
defender has no legal move.  The attacker's choices are existential and go
into one incremental SAT solver as variables; the defender's are universal
and are *expanded*: the abstraction holds a tree whose defender branches are
concrete replies met so far.

* **Abstraction** (the incremental solver, MiniSat 2.2): a strategy tree.
  At every attacker node the move is a one-hot choice among the candidates of
  :func:`~tsume.sat.encode.candidates`, constrained to be legal, to give check,
  to keep the attacker's king safe and not to repeat a position of the line
  (a drop in a variant banning drop mate also picks a witness reply of the
  defender).  Each defender branch is a concrete move ``(from, to, face)``
  applied to the symbolic position: if it is legal there, the attacker must go
  on (and the reply must not repeat a position); if the defender node is the
  last one, it must be illegal.  The root's checks are expanded too, each
  with a choice literal, so that "which first moves mate" and "how many" are
  just assumptions and cardinality constraints on those literals.
* **Refutation search**: a model of the abstraction fixes every move of the
  tree, hence every position.  At each defender node the model reaches, the
  defender's legal replies are listed (:mod:`tsume.sat.oracle`); every reply
  the tree does not already answer is a counterexample and becomes a new
  branch.  When no active node has an unanswered reply, the model *is* a
  winning strategy: every legal reply everywhere is answered, and the last
  defender nodes have none (mate).  When the abstraction becomes
  unsatisfiable, no strategy exists, because every clause of it holds for
  every winning strategy.

Every branch is keyed by a concrete move, not by a position, so one
counterexample constrains every attacker strategy under which that reply is
legal (the usual strength of expansion-based QBF solving).
"""

from __future__ import annotations

from pysat.solvers import Minisat22

from ..limits import NO_LIMITS
from .budget import Budget
from .circuit import FALSE, TRUE, Circuit
from .encode import CPos, SPos, apply_moves, candidates, label_candidates, legal, move_of, positions_equal
from .oracle import Move, Oracle
from .rules import Rules

__all__ = ["Abstraction", "SOLVER"]

#: The incremental SAT solver (python-sat's MiniSat 2.2).  The time limit and
#: Ctrl-C need a solver that a watchdog thread can interrupt during one call, and
#: soon: python-sat cannot interrupt CaDiCaL (a single call ran 22 s past a
#: deadline), Glucose 4 looks at the flag only between restarts (0.4 s late),
#: MiniSat at every decision (under 30 ms).  docs/sat.md, "Limits".
SOLVER = Minisat22


class _Def:
    """A defender node: symbolic position, activity literal, expanded replies."""

    __slots__ = ("Q", "act", "ply", "edges", "hist_att", "hist_def", "keys")

    def __init__(self, Q: SPos, act: int, ply: int, hist_att: list[SPos], hist_def: list[SPos]) -> None:
        self.Q = Q
        self.act = act
        self.ply = ply
        self.edges: list[_Edge] = []
        self.hist_att = hist_att  # attacker-to-move positions of the line before this node
        self.hist_def = hist_def  # defender-to-move positions of the line before this node
        self.keys: set = set()


class _Att:
    """An attacker node: a one-hot choice among candidate moves."""

    __slots__ = ("P", "act", "moves", "sels", "D")

    def __init__(self, P: SPos, act: int, moves: list, sels: list[int], D: _Def) -> None:
        self.P = P
        self.act = act
        self.moves = moves
        self.sels = sels
        self.D = D


class _Edge:
    __slots__ = ("move", "witness", "cact", "child")

    def __init__(self, move: Move, witness: Move | None, cact: int, child: _Att | None) -> None:
        self.move = move
        self.witness = witness
        self.cact = cact
        self.child = child


class Abstraction:
    """The strategy-tree abstraction for "mate within ``n`` plies" from one concrete position.

    ``history``: concrete positions of the line before ``root`` (for the
    repetition rule).  The root moves are the attacker's legal checks; each has
    a choice literal in :attr:`choice`.
    """

    def __init__(self, rules: Rules, oracle: Oracle, root: CPos, n: int, history: tuple[CPos, ...] = (),
                 budget: Budget | None = None, *, expand_concrete: bool = True, per_node: int = 1) -> None:
        if n < 1 or n % 2 == 0:
            raise ValueError("the SAT abstraction needs an odd number of plies >= 1")
        self.r = rules
        self.oracle = oracle
        self.n = n
        self.budget = budget or Budget(NO_LIMITS)
        #: attacker nodes whose position is concrete are expanded over their legal checks
        self.expand_concrete = expand_concrete
        #: counterexamples added per defender node and iteration (0: all)
        self.per_node = per_node
        self.solver = SOLVER()
        self.c = Circuit(self.solver.add_clause, on_grow=self.budget.check)
        self.budget.track(self.c)
        self.attacker = root[2]
        self.defender = root[2] ^ 1
        c = self.c
        P0 = SPos.concrete(c, rules, root)
        hist = [SPos.concrete(c, rules, h) for h in history]
        hist_att = [h for h in hist if h.turn == self.attacker] + [P0]
        hist_def = [h for h in hist if h.turn == self.defender]
        self.choice: dict[Move, int] = {}
        self.roots: list[tuple[Move, _Def]] = []
        for move, after in oracle.checks(root):
            lit = c.var()
            Q = SPos.concrete(c, rules, after)
            for h in hist_def:
                c.clause([-lit, -positions_equal(Q, h)])
            self.choice[move] = lit
            self.roots.append((move, _Def(Q, lit, 1, hist_att, hist_def)))
        lits = list(self.choice.values())
        #: assumption: some first move mates
        self.any_lit = c.var()
        c.clause([-self.any_lit] + lits)
        #: assumption: at least two first moves mate (a pysat.card constraint behind an activation literal)
        self.two_lit = c.var()
        c.at_least(lits, 2, self.two_lit)
        # Prefer first moves off: a model then switches on only what the query asks for.
        if lits:
            self.solver.set_phases([-lit for lit in lits])

    # --- growing the tree -----------------------------------------------------------

    def _witness_ok(self, R: SPos, witness: Move | None, mover: int) -> int:
        """The (concrete) witness move is a basic legal move of ``mover`` in ``R``."""
        if witness is None:
            return FALSE
        c = self.c
        cands, sels = label_candidates(R, witness, mover)
        ok = c.OR([c.AND([s, legal(R, cand, mover)]) for cand, s in zip(cands, sels)])
        if ok == FALSE:
            return FALSE
        return c.AND([ok, -apply_moves(R, cands, sels, mover).in_check(mover)])

    def _edge(self, D: _Def, move: Move, witness: Move | None) -> None:
        c = self.c
        att, dfn = self.attacker, self.defender
        key = (move, witness)
        if key in D.keys:
            raise RuntimeError(f"internal error: reply {move} refuted twice at one node")
        D.keys.add(key)
        cands, sels = label_candidates(D.Q, move, dfn)
        ok = c.OR([c.AND([s, legal(D.Q, cand, dfn)]) for cand, s in zip(cands, sels)])
        R = apply_moves(D.Q, cands, sels, dfn)
        valid = c.AND([ok, -R.in_check(dfn)])
        # Legal only with a witness: the reply must not stalemate the attacker
        # (Ito) nor be a drop that mates it where drop mate is banned.
        need = []
        if self.r.variant.stalemate == "illegal":
            need.append(c.AND([R.king_somewhere(att), -R.in_check(att)]))
        if move[0] == 0 and not self.r.variant.drop_mate:
            need.append(R.in_check(att))
        need_lit = c.OR(need)
        if need_lit != FALSE and valid != FALSE:
            valid = c.AND([valid, c.OR([-need_lit, self._witness_ok(R, witness, att)])])
        cact = c.AND([D.act, valid])
        if cact == FALSE:
            D.edges.append(_Edge(move, witness, cact, None))
            return
        if D.ply >= self.n:
            c.clause([-cact])  # the last defender node must have no legal reply
            D.edges.append(_Edge(move, witness, cact, None))
            return
        for h in D.hist_att:  # a reply repeating a position of the line: the attacker fails
            c.clause([-cact, -positions_equal(R, h)])
        child = self._attacker_node(R, cact, D)
        D.edges.append(_Edge(move, witness, cact, child))

    def _attacker_node(self, P: SPos, act: int, parent: _Def) -> _Att:
        if self.expand_concrete and P.is_concrete():
            return self._concrete_attacker_node(P, act, parent)
        c = self.c
        att, dfn = self.attacker, self.defender
        cands = candidates(P, att)
        final = parent.ply + 2 >= self.n
        # Where drop mate is banned and a defender move is legal exactly when it is
        # basic-legal (no stalemate rule), a drop can never be the mating move.
        no_final_drops = final and not self.r.variant.drop_mate and self.r.variant.stalemate != "illegal"
        sels = []
        for cand in cands:
            if no_final_drops and cand[0] == 1:
                sels.append(FALSE)
                continue
            ok = legal(P, cand, att)
            if ok == FALSE:
                sels.append(FALSE)
                continue
            s = c.var()
            c.clause([-s, ok])
            sels.append(s)
        live = [s for s in sels if s != FALSE]
        c.clause([-act] + live)
        c.at_most_one(live)
        Q = apply_moves(P, cands, sels, att)
        c.clause([-act, Q.in_check(dfn)])  # every attacker move gives check
        if P.may_have_king(att):
            c.clause([-act, -Q.in_check(att)])
        hist_def = parent.hist_def + [parent.Q]
        for h in hist_def:
            c.clause([-act, -positions_equal(Q, h)])
        if not self.r.variant.drop_mate:
            drops = [s for cand, s in zip(cands, sels) if cand[0] == 1 and s != FALSE]
            if drops:
                # A drop must leave the defender a basic legal reply (the drop-mate ban):
                # the attacker also chooses that reply, as a witness.
                dropped = c.OR(drops)
                wc = candidates(Q, dfn)
                ws = []
                for cand in wc:
                    ok = legal(Q, cand, dfn)
                    if ok == FALSE:
                        ws.append(FALSE)
                        continue
                    s = c.var()
                    c.clause([-s, ok])
                    ws.append(s)
                wlive = [s for s in ws if s != FALSE]
                c.clause([-act, -dropped] + wlive)
                c.at_most_one(wlive)
                Qw = apply_moves(Q, wc, ws, dfn)
                c.clause([-act, -dropped, -Qw.in_check(dfn)])
        D = _Def(Q, act, parent.ply + 2, parent.hist_att + [P], hist_def)
        return _Att(P, act, [move_of(cand) for cand in cands], sels, D)

    def _concrete_attacker_node(self, P: SPos, act: int, parent: _Def) -> _Att:
        """Full expansion of a concrete attacker node: one selector per legal check
        (per mating check at the last ply), the next position a multiplexer of the
        concrete results."""
        c = self.c
        here = P.value(lambda lit: lit == TRUE)
        if parent.ply + 2 >= self.n:
            # At the last ply only whether some check mates matters (a mated
            # position cannot repeat an earlier, unmated one): keep the first.
            one = self.oracle.mate_in_one(here)
            checks = [one] if one is not None else []
        else:
            checks = self.oracle.checks(here)
        sels = [c.var() for _ in checks]
        c.clause([-act] + sels)
        c.at_most_one(sels)
        hist_def = parent.hist_def + [parent.Q]
        outs = []
        for s, (_m, q) in zip(sels, checks):
            Qi = SPos.concrete(c, self.r, q)
            for h in hist_def:
                c.clause([-s, -positions_equal(Qi, h)])
            outs.append(Qi)
        Q = SPos.multiplex(c, self.r, outs, sels, P.turn ^ 1)
        D = _Def(Q, act, parent.ply + 2, parent.hist_att + [P], hist_def)
        return _Att(P, act, [m for m, _q in checks], sels, D)

    # --- the refinement loop ------------------------------------------------------------

    def _refine(self, truth, need: int) -> int:
        """Add counterexamples under the first ``need`` first moves the model chooses."""
        added = 0
        active = [D for _m, D in self.roots if truth(D.act)]
        # First moves named by an assumption must be verified; then the rest, up to need.
        stack = [D for D in active if D.act in self._assumed] + [D for D in active if D.act not in self._assumed]
        stack = stack[:max(need, sum(1 for D in active if D.act in self._assumed))]
        while stack:
            D = stack.pop()
            Q = D.Q.value(truth)
            covered = set()
            for e in D.edges:
                if truth(e.cact):
                    covered.add(e.move)
                    if e.child is not None:
                        stack.append(e.child.D)
            budget = self.per_node or -1
            for move, _after, witness in self.oracle.replies_ordered(Q):
                if move not in covered:
                    self._edge(D, move, witness)
                    added += 1
                    budget -= 1
                    if budget == 0:
                        break
        return added

    def solve(self, assumptions: list[int], need: int = 1) -> bool:
        """Refine until the abstraction is unsatisfiable under ``assumptions`` (False) or
        a model's strategy wins from ``need`` of the first moves it chooses (True).
        Only those first moves are verified: the others a model happens to
        switch on prove nothing and cost refinements."""
        self._assumed = set(assumptions)
        while True:
            if not self.budget.solve(self.solver, assumptions):
                return False
            model = self.solver.get_model()
            size = len(model)

            def truth(lit: int, model=model, size=size) -> bool:
                v = lit if lit > 0 else -lit
                if v == 1:
                    return lit > 0
                return v <= size and (model[v - 1] > 0) == (lit > 0)

            if not self._refine(truth, need):
                return True

    def size(self) -> tuple[int, int]:
        """(variables, clauses) of the abstraction so far."""
        return self.c.nv, self.c.nclauses

    def close(self) -> None:
        self.budget.untrack(self.c)
        self.solver.delete()
