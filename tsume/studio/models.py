"""The JSON the studio's API takes, as pydantic models: FastAPI checks every
request against them (a malformed one gets a 422 with one line) and writes
them into the OpenAPI schema (``/openapi.json``, docs/studio.md).

The bounds below are the documented limits of a request; what the library
checks itself (a position, a variant, a defender's hand) it still checks,
with its own one-line messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "TIME_LIMITS", "MEMORY_LIMITS", "MAX_NODES", "LimitsIn", "ProblemIn", "PositionIn", "SolveIn", "VerifyIn", "ComposeIn", "PlayIn", "BookletIn",
    "SaveProblemIn", "SaveRunIn", "explain",
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

_LINE = r"^[^\r\n]*$"
_WORD = r"^[^\r\n,]*$"
_ID = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"
#: What each pattern asks for, in words (for the error messages).
_PATTERNS = {_LINE: "must be one line", _WORD: "must be one line without commas",
             _ID: "must be letters, digits, '_', '.' and '-', beginning with a letter or a digit"}

Line = Annotated[str, Field(max_length=500, pattern=_LINE)]
Word = Annotated[str, Field(min_length=1, max_length=40, pattern=_WORD)]
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
    id: str | None = Field(default=None, min_length=1, max_length=100, pattern=_ID)
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
    #: With verify: certify every sound problem (docs/certificates.md).
    certify: bool = False
    kanji: bool = False
    play: bool = False
    limits: LimitsIn = Field(default_factory=LimitsIn)


class SaveProblemIn(_Strict):
    problem: ProblemIn
    replace: bool = False


class SaveRunIn(_Strict):
    file: str = Field(min_length=1, max_length=1000, description="a path under the root, ending in .tsume")
    replace: bool = False


# --- what is wrong with a request, in words ----------------------------------------------------------

#: pydantic's error types, as what the value must be.
_MUST = {
    "string_type": "must be a string", "int_type": "must be a whole number", "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number", "float_type": "must be a number", "float_parsing": "must be a number",
    "finite_number": "must be a finite number", "bool_type": "must be true or false",
    "bool_parsing": "must be true or false", "list_type": "must be a list", "dict_type": "must be a JSON object",
    "model_type": "must be a JSON object", "model_attributes_type": "must be a JSON object",
}


def explain(errors: Sequence[Any], model: type[BaseModel] | None = None, body: Any = None,
            content_type: str | None = None) -> str:
    """What is wrong with a request body, in one sentence: the first of the
    errors FastAPI and pydantic found (``model``: the body's model, which
    names the fields a misspelt one could be; ``body``: the text that is not
    JSON; ``content_type``: the request's)."""
    if not errors:
        return "the request is malformed"
    text = _explain(errors[0], model, body, content_type)
    more = len(errors) - 1
    return text + (f" (and {more} more error{'s' if more > 1 else ''})" if more else "")


def _explain(error: Any, model: type[BaseModel] | None, body: Any, content_type: str | None) -> str:
    kind = str(error.get("type", ""))
    loc = tuple(error.get("loc", ()))
    if loc[:1] == ("body",):
        loc = loc[1:]
    ctx = error.get("ctx") or {}
    value = error.get("input")
    if kind == "json_invalid":
        return _not_json(body, loc[0] if loc and isinstance(loc[0], int) else None, str(ctx.get("error") or ""))
    if not loc:  # the body as a whole
        if kind == "missing":
            return "the request has no body: it must be a JSON object"
        if isinstance(value, (bytes, bytearray)):  # not read as JSON: its Content-Type said otherwise
            sent = f"not as {content_type.split(';')[0].strip()}" if content_type else "and this one names no Content-Type"
            return f"the request body must be sent as JSON (Content-Type: application/json), {sent}"
        return f"the request body must be a JSON object, not {_a(value)}"
    if loc[-1] == "[key]":  # a key of a mapping, such as the hands'
        where, subject = _where(loc[:-2]), f"the key {_shown(loc[-2])}"
    else:
        where, subject = _where(loc), ""
    if kind == "missing":
        return f"{where} is missing: it is required"
    if kind == "extra_forbidden":
        parent = _where(loc[:-1]) if len(loc) > 1 else "the request"
        fields = _fields(model, loc[:-1])
        known = f" (its fields: {', '.join(fields)})" if fields else ""
        return f"{parent} has no field {_shown(loc[-1])}{known}"
    # (What the value was, unless the subject names it already.)
    was = "" if subject else f", not {_shown(value)}"
    if kind in _MUST:
        phrase = f"{_MUST[kind]}{was}"
    elif kind in ("literal_error", "enum"):
        phrase = f"must be {ctx.get('expected', 'one of the values allowed')}{was}"
    elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        bound = {"greater_than": ("more than", "gt"), "greater_than_equal": ("at least", "ge"),
                 "less_than": ("less than", "lt"), "less_than_equal": ("at most", "le")}[kind]
        limit = ctx.get(bound[1])
        limit = int(limit) if isinstance(limit, float) and limit.is_integer() else limit
        phrase = f"must be {bound[0]} {limit}{was}"
    elif kind in ("string_too_short", "string_too_long"):
        n = ctx.get("min_length" if kind == "string_too_short" else "max_length")
        size = len(value) if isinstance(value, str) else "?"
        phrase = (f"must be {'at least' if kind == 'string_too_short' else 'at most'} {n} "
                  f"character{'s' if n != 1 else ''} long, not {size}")
    elif kind in ("too_short", "too_long"):
        n = ctx.get("min_length" if kind == "too_short" else "max_length")
        size = ctx.get("actual_length", len(value) if isinstance(value, (list, dict)) else "?")
        phrase = f"must hold {'at least' if kind == 'too_short' else 'at most'} {n} item{'s' if n != 1 else ''}, not {size}"
    elif kind == "string_pattern_mismatch":
        phrase = f"{_PATTERNS.get(str(ctx.get('pattern')), 'is not written as it must be')}{was}"
    else:
        msg = str(error.get("msg") or "is not valid").replace("Input should be", "must be")
        phrase = msg[:1].lower() + msg[1:]
    return f"{where}: {subject + ' ' if subject else ''}{phrase}"


def _not_json(body: Any, pos: int | None, what: str) -> str:
    """JSON's complaint, with its line and column in the body (FastAPI keeps only the offset)."""
    what = what.strip() or "malformed"
    what = what[:1].lower() + what[1:]
    if isinstance(body, (bytes, bytearray)):
        body = bytes(body).decode("utf-8", errors="replace")
    if not isinstance(body, str) or pos is None or not 0 <= pos <= len(body):
        return f"the request body is not JSON: {what}"
    line = body.count("\n", 0, pos) + 1
    column = pos - body.rfind("\n", 0, pos)
    return f"the request body is not JSON: {what} at line {line} column {column}"


def _where(loc: Sequence[Any]) -> str:
    """A place in the body as JavaScript writes it: ``problem.tags[2]``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the request body"


def _shown(value: Any) -> str:
    """A value as the JSON the request held, cut short; a list or an object by its kind."""
    if isinstance(value, (list, tuple, dict)) or value is None or isinstance(value, (bytes, bytearray)):
        return _a(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _a(value: Any) -> str:
    """The kind of a JSON value, with its article."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "something else"


def _fields(model: type[BaseModel] | None, loc: Sequence[Any]) -> list[str]:
    """The fields of the object at ``loc`` in a body of ``model`` ([] if not known)."""
    for part in loc:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        model = _model_in(field.annotation) if field is not None else None
    return list(model.model_fields) if model is not None else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds, through Optional, list and Annotated."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) is not None:
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None
