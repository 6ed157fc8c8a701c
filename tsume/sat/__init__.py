"""The SAT engine: the rules encoded in CNF, mates within n plies by refinement.

* :mod:`tsume.sat.rules` -- the variant's piece data as reach tables;
* :mod:`tsume.sat.circuit` -- gates with constant folding, Tseitin clauses, pysat.card;
* :mod:`tsume.sat.encode` -- positions (one-hot squares, order-encoded hands) and moves;
* :mod:`tsume.sat.oracle` -- the same circuits evaluated on concrete positions;
* :mod:`tsume.sat.cegar` -- the strategy-tree abstraction and the refinement loop;
* :mod:`tsume.sat.engine` -- the queries and :func:`sat_solve`.

See docs/sat.md.
"""

from .cegar import SatTimeout
from .engine import SatEngine, SatError, sat_solve

__all__ = ["SatEngine", "SatError", "SatTimeout", "sat_solve"]
