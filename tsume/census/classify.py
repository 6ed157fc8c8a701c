"""Classification of a census mate: sound or not (and why), and its economy.

:func:`classify` takes one mating position of a family, as the retrograde
pass settled it (:class:`tsume.census.retro.Solved`), and returns a plain
dict (picklable, JSON-ready)::

    {"verdict": "sound" | "flawed" | "unsound" | "unknown",
     "findings": [finding kinds, sorted],
     "redundant": [attacker pieces that can go, e.g. "G12" or "hand G"],
     "solution": [the main line's moves] (a sound problem only),
     "nodes": df-pn nodes spent}

* **More than one optimal first move** (the retrograde pass gives them all at
  once) and a mate longer than one ply: the problem cannot be sound -- the
  second move is *yozume* for ``verify()`` (unsound), or, when its line comes
  back into the main line, a *detour* (flawed).  The census records it as
  ``unsound`` with the finding ``alternative-first-move`` without searching:
  the count of sound problems is exact, only the unsound/flawed split of these
  few is the census's own.  A mate in one ply with several mating moves goes
  to ``verify()`` like any other (a final-move alternative is a blemish).
* Otherwise ``verify()`` decides (default switches, within ``limits``):
  its verdict and the kinds of its findings.  A limit gives ``unknown``.
* **Economy** of a sound problem: each attacker piece in turn -- every man on
  the board, then one piece of each kind in hand -- is taken away (a piece
  taken from the hand goes to the defender's hand under the family's rule
  ``rest``, and nowhere under ``none``).  The piece is *redundant* when the
  problem without it is still **sound with the same length** (the composers'
  rule, as ``tsume compose``'s economy filter: a piece that only stops a
  second solution is doing its work).  ``solve()`` bounded by the length
  screens first; ``verify()`` (``sound_report()``, which stops as soon as a problem cannot be sound) settles what it lets through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import TsumeError
from ..limits import Limits
from ..outcome import Status, Verdict
from ..position import Piece, Position
from ..problem import Problem
from ..solve import solve
from ..verify import sound_report, verify

if TYPE_CHECKING:  # pragma: no cover
    from .family import Family
    from .retro import Solved

__all__ = ["classify", "remove_piece", "attacker_pieces", "ALTERNATIVE_FIRST_MOVE", "NODE_LIMIT", "LIMITS"]

#: The finding of a mate with several optimal first moves (no search made).
ALTERNATIVE_FIRST_MOVE = "alternative-first-move"
#: Nodes for one verify() (and for each economy probe): far above what a
#: problem of a small family needs; a limit hit is reported ``unknown``.
NODE_LIMIT = 2_000_000
#: The limits of each of those searches.
LIMITS = Limits(nodes=NODE_LIMIT)


def attacker_pieces(pos: Position) -> list[tuple[str, int | str]]:
    """The attacker's pieces one can take away: ``(label, where)`` with
    ``where`` a square (a man on the board) or a kind letter (one piece of
    that kind in hand).  Labels: ``G12`` (the token and its square), ``hand G``."""
    attacker = pos.turn
    out: list[tuple[str, int | str]] = []
    for s in range(1, pos.n + 1):
        piece = pos.piece_at(s)
        if piece is None or piece.royal:
            continue
        if piece.colour == attacker:
            out.append((f"{piece.symbol()}{s}", s))
    letters = pos.t.kind_letters
    for ki, c in enumerate(pos.hand_counts(attacker)):
        if c:
            out.append((f"hand {letters[ki]}", letters[ki]))
    return out


def remove_piece(pos: Position, where: int | str) -> Position:
    """``pos`` (attacker to move) with one attacker piece taken away: the man
    on square ``where``, or one piece of kind ``where`` from the hand; move
    number 1.  The defender's hand is emptied: the caller's rule fills it in
    again (:class:`tsume.problem.Problem`).  Not validated."""
    attacker = pos.turn
    hands = [[0] * pos.t.nkinds, [0] * pos.t.nkinds]
    hands[attacker] = pos.hand_counts(attacker)
    changes: list[tuple[int, Piece | None]] = []
    if isinstance(where, int):
        changes.append((where, None))
    else:
        hands[attacker][pos.t.kind_letters.index(where)] -= 1
    return pos.with_changes(changes, hands, attacker, 1)


def _sound_without(pos: Position, family: "Family", length: int, limits: Limits) -> tuple[bool, int]:
    """Is the problem of ``pos`` (the family's rules) sound with exactly
    ``length`` plies?  And the nodes spent.  An invalid position (the piece
    taken away uncovered a check, say) is not."""
    try:
        problem = Problem(pos, defender=family.defender_hand, length=length)
    except TsumeError:
        return False, 0
    if problem.position().is_check():
        return False, 0
    r = solve(problem, max_length=length, limits=limits, variations=False)
    nodes = int(r.stats.get("nodes", 0))
    if r.status != Status.MATE or r.length != length:
        return False, nodes
    rep, spent = sound_report(problem, limits=limits)
    nodes += spent
    return rep is not None and rep.length == length, nodes


def classify(solved: "Solved", family: "Family", limits: Limits = LIMITS) -> dict[str, Any]:
    """The verdict, findings and economy of one mating position (module
    docstring); each search within ``limits``."""
    if solved.status != Status.MATE or solved.length is None:
        raise ValueError(f"classify() takes a mate, not {solved.status!r}")
    length = solved.length
    if len(solved.first_moves) > 1 and length > 1:
        return {"verdict": Verdict.UNSOUND, "findings": [ALTERNATIVE_FIRST_MOVE], "redundant": [], "nodes": 0}
    # The position the retrograde pass held; its string only when it held none
    # (a Solved read back from a shard's file).
    source = solved.pos if solved.pos is not None else solved.position
    problem = Problem(source, variant=family.variant, defender=family.defender_hand)
    rep = verify(problem, limits=limits)
    nodes = int(rep.stats.get("nodes", 0))
    out: dict[str, Any] = {"verdict": rep.verdict, "findings": sorted(rep.kinds), "redundant": [], "nodes": nodes}
    if rep.verdict == Verdict.SOUND and rep.length != length:
        # verify() and the retrograde pass disagree on the length: a bug in
        # one of them; say so rather than count a problem of the wrong length.
        out["verdict"] = Verdict.UNKNOWN
        out["findings"] = sorted(set(out["findings"]) | {f"length-mismatch:{rep.length}"})
        return out
    if rep.verdict != Verdict.SOUND:
        return out
    out["solution"] = list(rep.mainline)
    pos = problem.position()
    for label, where in attacker_pieces(pos):
        ok, spent = _sound_without(remove_piece(pos, where), family, length, limits)
        out["nodes"] += spent
        if ok:
            out["redundant"].append(label)
    return out
