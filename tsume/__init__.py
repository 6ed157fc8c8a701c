"""tsume: solve, verify and compose mating problems for one-dimensional shogi."""
from .errors import IllegalMoveError, MoveError, PositionError, TsumeError, VariantError
from .position import BLACK, WHITE, Position
from .variant import ITO, RUTHERFORD, VARIANTS, Variant, get_variant

__version__ = "0.1.0"
