"""The SAT engine: the rules encoded in CNF, mates within n plies by refinement.

* :mod:`tsume.sat.rules` -- the variant's piece data as reach tables;
* :mod:`tsume.sat.circuit` -- gates with constant folding, Tseitin clauses, pysat.card;
* :mod:`tsume.sat.encode` -- positions (one-hot squares, order-encoded hands) and moves;
* :mod:`tsume.sat.oracle` -- the same circuits evaluated on concrete positions;
* :mod:`tsume.sat.cegar` -- the strategy-tree abstraction and the refinement loop;
* :mod:`tsume.sat.budget` -- the time limit and the memory budget of a run;
* :mod:`tsume.sat.engine` -- the queries and :func:`sat_solve`.

See docs/sat.md.
"""

from .budget import DEFAULT_LIMITS, DEFAULT_MEMORY_MB, SatLimit, SatMemoryLimit, SatTimeout
from .engine import SatEngine, SatError, sat_solve

__all__ = ["SatEngine", "SatError", "SatLimit", "SatTimeout", "SatMemoryLimit", "DEFAULT_MEMORY_MB", "DEFAULT_LIMITS", "sat_solve"]
