"""The thorough line reader's alpha-beta on the leftover (tsume.lines.LineReader).

Pruned and full readings must give the same line, move for move, on every
position; the pruned one must read far fewer lines where many equal mates
exist (the reason it is there: reading the lines of mating alternatives was
most of verify's time on the slow bench problems, docs/performance.md).
"""

from __future__ import annotations

import random

import pytest

from tsume.conventions import interposition_square, ranged_checkers, tsume_position
from tsume.dfpn import INF, PROVEN, DfPn, Options, SearchLimit
from tsume.generate import random_tsume
from tsume.limits import Limits
from tsume.lines import LineReader
from tsume.position import Position


def _read(pos, prune: bool, monkeypatch, node_limit: int = 400_000) -> tuple[list[int], int, int]:
    """(line, leftover, attacker nodes read) of the best line from ``pos``, on a fresh engine."""
    engine = DfPn(pos, limits=Limits(nodes=node_limit), options=Options(leftover_pruning=prune))
    assert engine.prove(INF) == PROVEN
    v = engine.shortest(INF)[0]
    calls = [0]
    original = LineReader._attacker_line

    def counted(self, *args):
        calls[0] += 1
        return original(self, *args)

    monkeypatch.setattr(LineReader, "_attacker_line", counted)
    moves, left = LineReader(engine).attacker_line(v)
    monkeypatch.setattr(LineReader, "_attacker_line", original)
    return moves, left, calls[0]


# Bench problems with many mates of equal length (the full reading reads 5 to
# 20 times as many attacker nodes as the pruned one).
MANY_EQUAL_MATES = [
    ("rutherford", "2k+BP6+S1l5 b BL2NPS 1", None),
    ("rutherford", "1s2kn1PSB4 b 2LP 1", None),
    ("ito", "kf+pT+PGh+CtF21 b G 1", None),
    ("ito", "1Pt1k5K2HP16 b 2FT 1", None),
]


@pytest.mark.parametrize("variant,text,defender", MANY_EQUAL_MATES)
def test_pruned_reading_is_the_full_reading_for_less(variant, text, defender, monkeypatch):
    pos = tsume_position(text, variant, defender_hand=defender)
    pruned = _read(pos, True, monkeypatch)
    full = _read(pos, False, monkeypatch)
    assert pruned[:2] == full[:2]
    # The full reading reads every line of the best length; alpha-beta stops
    # a line as soon as its caller cannot take it.
    assert pruned[2] * 4 < full[2], (pruned[2], full[2])


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_pruned_and_full_readings_agree_on_random_mates(variant, monkeypatch):
    rng = random.Random(4242)
    compared = 0
    for _ in range(80):
        pos = random_tsume(rng, variant, attacker_men=(2, 4), defender_men=(0, 2), attacker_hand=(1, 3), spread=4)
        engine = DfPn(pos, limits=Limits(nodes=5_000))
        if engine.search(INF) != PROVEN:
            continue
        try:
            pruned = _read(pos, True, monkeypatch, 20_000)
            full = _read(pos, False, monkeypatch, 20_000)
        except SearchLimit:  # a line too costly for a unit test
            continue
        assert pruned[:2] == full[:2], pos.fen()
        compared += 1
    assert compared >= 25, compared


def test_uselessness_is_asked_only_of_defences_that_could_be_longest(monkeypatch):
    """At a defender node of value b, a defence mated within b - 3 is not a
    longest defence, useless interposition or not, so the reader does not ask
    (the test is dear when it fails: docs/performance.md, "Verify").  The main
    line of ruth-L07-0011 has such an interposition."""
    pos = tsume_position("2P1ks1L6 b LPS 1", "rutherford", defender_hand="none")
    engine = DfPn(pos, limits=Limits(nodes=400_000))
    assert engine.prove(INF) == PROVEN
    v = engine.shortest(INF)[0]
    read: list[tuple[str, int]] = []  # (defender node, its value) as read
    asked: set[tuple[str, int]] = set()  # (defender node, defence) asked "useless?"
    original_read, original_useless = LineReader._defender_line, LineReader.useless

    def reading(self, b, lo, hi):
        read.append((self.pos.fen(), b))
        return original_read(self, b, lo, hi)

    def asking(self, d, b, ranged=None):
        asked.add((self.pos.fen(), d))
        return original_useless(self, d, b, ranged)

    monkeypatch.setattr(LineReader, "_defender_line", reading)
    monkeypatch.setattr(LineReader, "useless", asking)
    moves, _left = LineReader(engine).attacker_line(v)
    monkeypatch.undo()
    assert len(moves) == 7
    skipped = 0
    for fen, b in read:
        node = Position(fen, "rutherford")
        ranged = ranged_checkers(node)
        for d in node.evasions():
            after = node.copy()
            after.push(d)
            sooner = b >= 4 and DfPn(after).search(b - 3) == PROVEN
            # (The reading may stop before the last defences, when the
            # leftover tie-break is decided: those are not asked either.)
            assert not (sooner and (fen, d) in asked), (fen, node.move_str(d), b)
            skipped += sooner and bool(interposition_square(node, d, ranged))
    assert skipped >= 1  # the interposition the reading no longer tests
