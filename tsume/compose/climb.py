"""The climb: a beam of partial problems, lengthened two plies at a time.

The reverse method walks back from one problem at a time and stops where
its walk finds no longer child.  The climb keeps a **beam** of up to
``width`` partial problems of the same length; every one is un-moved two
plies (:func:`~tsume.compose.sources.two_plies_back`) and a child stays
only if it mates in exactly two plies more, which a solve bounded at that
length finds cheaply.  The next beam is chosen here: sound children before
clean mates not verified yet (those below the run's lengths), the cheapest
to solve first (their children are cheaper again), and one per **material**
(the men and hand, wherever they stand) before a second of any, so that the
beam does not fill with one line's near copies.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .candidate import Candidate

__all__ = ["CLIMB_BUDGET", "POOL_PER_MATERIAL", "Rung", "fen_material", "next_beam", "rarity",
           "mates_by_drop"]

#: A climbing shard tries this many times the shard size of candidates: a
#: beam reads ``width * breadth`` children at every length.
CLIMB_BUDGET = 10

#: A climbing run's parent pool keeps at most this many parents of one
#: material (:func:`fen_material`): the longest of a run are near copies of
#: one line, and a pool of them sends every later shard up the same way.
POOL_PER_MATERIAL = 4

_MAN = re.compile(r"\+?[A-Za-z]")
_EMPTY = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Rung:
    """A partial problem of the beam: its exact length, itself, the solver
    nodes its mate took, and whether it was verified sound."""

    length: int
    candidate: Candidate
    nodes: int
    sound: bool
    ideas: tuple[str, ...] = ()  # its idea keys when sound (tsume.compose.idea)
    labels: tuple[str, ...] = ()  # its theme labels when verified (tsume.compose.themes)


def fen_material(fen: str, rule: str | None = None) -> str:
    """The material of a problem as the records and the pool store it (its
    position string and defender's hand rule): the men on the board by
    piece (not square), the attacker's hand, the board's length and the
    rule."""
    fields = fen.split()
    men = _MAN.findall(fields[0])
    n = len(men) + sum(int(e) for e in _EMPTY.findall(fields[0]))
    hand = fields[2] if len(fields) > 2 else "-"
    return f"{''.join(sorted(men))}/{hand}/{n}/{rule}"


def mates_by_drop(c: Candidate) -> bool:
    """Whether a mating move of ``c`` (a one-ply problem, a climb's start)
    is a drop: every problem climbed from it then ends in a drop mate
    (``drop-mate`` lasts: tsume.compose.themes.LASTING), or is unsound."""
    pos = c.position()
    if pos is None:
        return False
    for m in pos.checks():
        if "*" not in str(m):
            continue
        pos.push(m)
        mate = pos.is_checkmate()
        pos.pop()
        if mate:
            return True
    return False


def rarity(labels: tuple[str, ...], counts: dict[str, int]) -> int:
    """How common ``labels`` are among what was taken (``counts``: problems
    taken with each label): the sum of their counts.  A problem with few
    labels, and rare ones, scores low."""
    return sum(counts.get(t, 0) for t in labels)


def next_beam(children: list[Rung], width: int, rng: random.Random, seen: set[str] | None = None,
              counts: dict[str, int] | None = None) -> list[Rung]:
    """Up to ``width`` of ``children`` (module docstring: sound first, then
    the cheapest, one per material before a second of any).  A sound child
    whose idea is in ``seen`` (the ideas taken so far, updated here) comes
    after every other: the run would refuse it, and its children are
    mostly the same idea again.  With ``counts`` (the climb's novelty: the
    theme labels of the problems taken so far), the sound children whose
    labels are rarest (:func:`rarity`) come first, the cheapest among
    equals: the labels of a problem last as it is lengthened
    (tsume.compose.themes.LASTING), so the beam picks its lines' themes
    here.  Ties are broken by ``rng``, so a seeded run repeats."""
    seen = set() if seen is None else seen
    order = list(children)
    rng.shuffle(order)
    if counts is None:
        order.sort(key=lambda r: (not r.sound, r.nodes))
    else:
        order.sort(key=lambda r: (not r.sound, rarity(r.labels, counts) if r.sound else 0, r.nodes))
    first: list[Rung] = []
    rest: list[Rung] = []
    repeats: list[Rung] = []
    materials: set[str] = set()
    for r in order:
        key = fen_material(r.candidate.fen())
        if r.ideas and seen.intersection(r.ideas):
            repeats.append(r)
        else:
            (rest if key in materials else first).append(r)
            seen.update(r.ideas)
        materials.add(key)
    return (first + rest + repeats)[:width]
