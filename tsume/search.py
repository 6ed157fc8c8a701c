"""The df-pn search: one :class:`Search` per problem, with every question
``solve``, ``verify``, the booklet, the composer and the census ask of it.

:class:`Search` is the Rust engine's search (``tsume._engine``, the crate's
``search`` module; docs/solver.md describes it).  It is made from a tsume
position (attacker to move, the defender's hand filled in:
:meth:`tsume.problem.Problem.position`), its :class:`~tsume.limits.Limits`
and :class:`Options`, and answers at its *current*
position: the root, or where a walk along a line stands
(:meth:`Search.walk` puts the position on the line, so that a repetition of
it fails for the attacker, and plays a move; :meth:`Search.unwalk` takes it
back).  Bounds count plies; ``None`` is no bound.  Moves are ints
(:mod:`tsume.notation`).

Questions:

* ``mate(bound)``: mated within the bound?  ``proof_length(bound)``: a
  proven length after a proof;
* ``value(bound, descend=False)``: the exact mate length (None: no mate);
  ``mates_at_all(bound)``: whether there is one, without the climb to the
  exact length; ``value_within(bound, budget)``: the exact length with at
  most ``budget`` nodes past the first proof, as ``(upper, low)``;
* ``main_line(bound)``: ``(length, moves)`` after a proof;
  ``best_line(value, thorough=True)``: the best line of a known value from
  an attacker or defender node, with the pieces it leaves;
  ``line_within(value, thorough, budget)``; ``proof_line(bound)``: a mating
  line read off the table's proofs;
* ``defender_choices(bound)``: every defence at a defender node with its
  value and line; ``is_useless(move)``: the useless-interposition verdict;
  ``best_other_value(bound)``: R, the best defence that does not interpose;
* ``first_moves(bound)``: every checking move with its mate length;
* ``nodes``, ``climb_nodes``, ``stats()``, ``stopped``; ``cancel()`` from
  any thread; ``set_budget(nodes)`` for one question.

A limit (time, nodes) raises :class:`SearchLimit`, a question's own budget
:class:`OverBudget`; the search stays stopped after a limit.  Every
question releases the GIL: searches in two threads run in parallel.  A bug
raises ``RuntimeError`` ("internal error: ...").
"""

from __future__ import annotations

# SearchLimit: a time, node or depth limit stopped the search (str() says
# which).  OverBudget, one of them: one question's node budget
# (Search.set_budget) is spent, which stops that question only.  The engine
# creates and raises both.  Options, the search's switches (the defaults are
# the measured best; the benchmarks and tests turn them off to compare), is
# the engine's too: one definition.
from ._engine import Options, OverBudget, Search, SearchLimit
from .errors import ArgumentError

__all__ = ["Search", "Options", "SearchLimit", "OverBudget", "check_options"]


def check_options(value: object) -> Options | None:
    """None or an :class:`Options` (an entry point's ``options`` argument)."""
    if value is not None and not isinstance(value, Options):
        raise ArgumentError(f"options must be a tsume.search.Options or None, not {type(value).__name__}")
    return value
