"""tsume: solve, verify and compose mating problems for one-dimensional shogi."""
from .errors import ArgumentError, IllegalMoveError, MoveError, PositionError, TsumeError, VariantError
from .limits import Limits
from .outcome import Status, Verdict
from .position import BLACK, WHITE, Colour, Move, Outcome, Piece, Position, SquareSet, Termination
from .problem import DefenderHand, Problem
from .variant import ITO, RUTHERFORD, VARIANTS, Variant, get_variant
# The functions, not their modules, are the package's ``solve`` and ``verify``
# (``from tsume.solve import Result`` still reads the module).
from .solve import solve
from .verify import verify

__version__ = "0.1.0"
