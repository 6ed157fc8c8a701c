"""A varied collection: problems of many ideas, no theme label on more than
a share of them.

A climb's long problems come in families: one line lengthened at the
front, whose problems all carry the same labels (the labels last:
:data:`tsume.compose.themes.LASTING`).  :func:`balanced` takes the
problems of several runs (each run avoiding some labels: ``tsume compose
--avoid-theme``) and keeps as many as it can with no label, except the
``exempt`` ones, on more than ``share`` of those kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ..collection import Record
from ..errors import ArgumentError
from .idea import Ideas, problem_keys
from .themes import THEMES

__all__ = ["labels_of", "label_counts", "distinct", "balanced"]


def labels_of(problem: Record) -> list[str]:
    """The theme labels among a composed problem's tags."""
    return [t for t in problem.tags if t in THEMES]


def label_counts(problems: Iterable[Record]) -> dict[str, int]:
    """How many of ``problems`` carry each label, in the order of THEMES (labels on none left out)."""
    counts = dict.fromkeys(THEMES, 0)
    for p in problems:
        for t in labels_of(p):
            counts[t] += 1
    return {t: n for t, n in counts.items() if n}


def distinct(problems: Iterable[Record]) -> list[Record]:
    """``problems`` without any that is the same idea as one before it (tsume.compose.idea)."""
    ideas = Ideas()
    out = []
    for p in problems:
        keys = problem_keys(p)
        if ideas.match(keys) is None:
            ideas.add(keys, p.id)
            out.append(p)
    return out


def balanced(problems: Sequence[Record], share: float = 0.5, exempt: Iterable[str] = ()) -> list[Record]:
    """The most of ``problems`` this greedy choice keeps with no label (but
    the ``exempt`` ones) on more than ``share`` of them, in their order.

    While a label is over its share, one problem goes: the one with the
    most labels over their share, then the fewest labels under it (those it
    would push towards their share), then of the length most held (the
    lengths stay spread), the last of those.  Raises ArgumentError (one
    line) for a share outside (0, 1] or an unknown label."""
    if not 0 < share <= 1:
        raise ArgumentError(f"share must be more than 0 and at most 1, not {share!r}")
    free = set(exempt)
    if not free <= set(THEMES):
        raise ArgumentError(f"exempt labels must be some of {', '.join(THEMES)}, not {', '.join(sorted(free))}")
    kept = list(problems)
    labels = [set(labels_of(p)) - free for p in kept]
    while kept:
        counts = label_counts(kept)
        limit = math.floor(share * len(kept))
        over = {t for t, n in counts.items() if t not in free and n > limit}
        if not over:
            break
        lengths: dict[int, int] = {}
        for p in kept:
            lengths[p.length or 0] = lengths.get(p.length or 0, 0) + 1
        worst = max(range(len(kept)), key=lambda i: (len(labels[i] & over), -len(labels[i] - over),
                                                      lengths[kept[i].length or 0], i))
        del kept[worst], labels[worst]
    return kept
