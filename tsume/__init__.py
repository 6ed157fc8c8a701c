"""tsume: solve, verify and compose mating problems for one-dimensional shogi."""
from types import ModuleType as _ModuleType

from .errors import ArgumentError, IllegalMoveError, MoveError, PositionError, TsumeError, VariantError
from .limits import Limits
from .outcome import Status, Verdict
from .position import BLACK, WHITE, Colour, Move, Outcome, Piece, Position, SquareSet, Termination
from .problem import DefenderHand, Problem
from .variant import ITO, RUTHERFORD, VARIANTS, Variant, get_variant
from . import solve, verify  # noqa: E402  (after the core: they build on it)

__version__ = "0.1.0"


class _CallableModule(_ModuleType):
    """A module that is also its main function, so that ``tsume.solve(...)`` and
    ``tsume.verify(...)`` work while ``tsume.verify.Report`` and
    ``from tsume.solve import Result`` still name the modules' contents."""

    def __call__(self, *args, **kwargs):
        return getattr(self, self.__name__.rpartition(".")[2])(*args, **kwargs)


for _module in (solve, verify):
    _module.__class__ = _CallableModule
del _module
