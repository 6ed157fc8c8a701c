"""The JSON the studio's API takes, as pydantic models: FastAPI checks every
request against them (a malformed one gets a 422 with one line) and writes
them into the OpenAPI schema (``/openapi.json``, docs/studio.md).

The bounds below are the documented limits of a request; what the library
checks itself (a position, a variant, a defender's hand) it still checks,
with its own one-line messages.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "TIME_LIMITS", "MEMORY_LIMITS", "MAX_NODES", "LimitsIn", "ProblemIn", "PositionIn", "SolveIn", "VerifyIn", "ComposeIn", "PlayIn", "BookletIn",
    "SaveProblemIn", "SaveRunIn",
]

#: The studio's defaults and caps (docs/studio.md lists them): seconds per job
#: kind (default, most), memory in MB (default, most), and the most nodes.
TIME_LIMITS: dict[str, tuple[float, float]] = {
    "solve": (60.0, 3600.0), "verify": (120.0, 3600.0), "play": (120.0, 3600.0),
    "compose": (60.0, 3600.0), "booklet": (600.0, 3600.0),
}
MEMORY_LIMITS: tuple[float, float] = (1024.0, 8192.0)
MAX_NODES = 10**10

Method = Literal["random", "mutate", "reverse"]
_METHODS: list[Method] = ["random", "mutate", "reverse"]

Line = Annotated[str, Field(max_length=500, pattern=r"^[^\r\n]*$")]
Word = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\r\n,]*$")]
MoveText = Annotated[str, Field(min_length=1, max_length=16)]
Token = Annotated[str, Field(max_length=3)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LimitsIn(_Strict):
    """A job's bounds; a missing one takes the studio's default for its kind."""

    time_limit: float | None = Field(default=None, gt=0, le=3600, description="seconds")
    nodes: int | None = Field(default=None, ge=1, le=MAX_NODES, description="df-pn nodes")
    memory: float | None = Field(default=None, gt=0, le=MEMORY_LIMITS[1], description="megabytes the search may add")


class ProblemIn(_Strict):
    """A problem as a collection holds it (docs/problems.md)."""

    position: str = Field(min_length=1, max_length=400, description="attacker to move (docs/notation.md)",
                          examples=["H1kf1P1c2K20 b PHG 1"])
    variant: str = Field(default="ito", min_length=1, max_length=80, examples=["ito", "rutherford"])
    defender: str | None = Field(default=None, max_length=40, description="rest, none or letters such as 2PT")
    length: int | None = Field(default=None, ge=1, le=999_999, description="the stated length in plies")
    solution: list[MoveText] | None = Field(default=None, max_length=2000)
    id: str | None = Field(default=None, min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
    title: Line | None = None
    author: Line | None = None
    tags: list[Word] = Field(default_factory=list, max_length=50)
    notes: Line | None = None


class PositionIn(_Strict):
    """A position to check and draw: a string, or the editor's fields."""

    position: str | None = Field(default=None, min_length=1, max_length=400, examples=["k1P2H25 b G"])
    board: list[Token | None] | None = Field(default=None, min_length=1, max_length=64)
    hands: dict[Literal["black", "white"], Annotated[str, Field(max_length=40)]] | None = None
    side_to_move: Literal["black", "white"] = "black"
    variant: str = Field(default="ito", min_length=1, max_length=80)
    defender: str | None = Field(default=None, max_length=40)
    moves: list[MoveText] = Field(default_factory=list, max_length=2000, examples=[["G*5"]])
    kanji: bool = False
    standalone: bool = Field(default=False, description="an SVG with its own style sheet, for a file of its own")


class SolveIn(_Strict):
    problem: ProblemIn
    limits: LimitsIn = Field(default_factory=LimitsIn)
    max_length: int | None = Field(default=None, ge=1, le=999_999)


class VerifyIn(_Strict):
    problem: ProblemIn
    limits: LimitsIn = Field(default_factory=LimitsIn)
    strict: bool = False
    longer_ok: bool = False
    length_budget: int | None = Field(default=None, ge=1, le=10**10)
    exact_lengths: bool = False


class ComposeIn(_Strict):
    variant: Literal["ito", "rutherford"] = "ito"
    min_length: int = Field(default=1, ge=1, le=99)
    max_length: int = Field(default=15, ge=1, le=99)
    methods: list[Method] = Field(default_factory=lambda: list(_METHODS), min_length=1, max_length=3)
    material: str | None = Field(default=None, max_length=300)
    count: int = Field(default=5, ge=1, le=200)
    time_limit: float | None = Field(default=None, gt=0, le=3600, description="seconds (default 60)")
    seed: int = Field(default=1, ge=0, le=2**63 - 1)
    strict: bool = False
    per_length: int | None = Field(default=None, ge=1, le=200)
    workers: int = Field(default=1, ge=1, le=64)


class PlayIn(_Strict):
    problem: ProblemIn
    limits: LimitsIn = Field(default_factory=LimitsIn)
    kanji: bool = False


class BookletIn(_Strict):
    collection: str = Field(min_length=1, max_length=1000)
    ids: list[Annotated[str, Field(min_length=1, max_length=100)]] | None = Field(default=None, max_length=2000)
    title: Line | None = None
    solutions: Literal["end", "hidden", "inline"] = "end"
    verify: bool = False
    kanji: bool = False
    play: bool = False
    limits: LimitsIn = Field(default_factory=LimitsIn)


class SaveProblemIn(_Strict):
    problem: ProblemIn
    replace: bool = False


class SaveRunIn(_Strict):
    file: str = Field(min_length=1, max_length=1000, description="a path under the root, ending in .tsume")
    replace: bool = False
