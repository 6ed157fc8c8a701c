"""The composer and the census hold positions: no position string they made
is read back.  Every ``Position(text)`` the package makes is counted while a
few composing shards and census shards run in this process; the only strings
read are the ones that came in (the parents) and the empty board each
position is built on, once per board length."""

from __future__ import annotations

import re
import sys
from collections import Counter
from typing import Any

import pytest

import tsume.position
from tsume import _engine
from tsume.census.run import run_shard as census_shard
from tsume.compose.run import run_shard as compose_shard
from tsume.compose.run import settings_from

REAL = _engine.Position
EMPTY_BOARD = re.compile(r"[0-9]+ b - 1")


class _Counted(type):
    # The stand-in is the engine's class for isinstance() and its class
    # attributes (Position.start): only making one from a string is counted.
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, REAL)

    def __getattr__(cls, name: str) -> Any:
        return getattr(REAL, name)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The texts every ``Position(...)`` of the package reads, in order."""
    texts: list[object] = []

    class Position(metaclass=_Counted):
        def __new__(cls, text: object = None, variant: object = None, **kwargs: Any) -> Any:
            texts.append(text)
            return REAL(text, variant, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("tsume") and getattr(module, "Position", None) is REAL:
            monkeypatch.setattr(module, "Position", Position)
    # Empty boards read afresh, so that they are counted too.
    monkeypatch.setattr(tsume.position, "_EMPTY", {})
    return texts


def _boards(texts: list[object]) -> tuple[list[str], list[object]]:
    """(the empty boards read, every other text read)."""
    empty = [t for t in texts if isinstance(t, str) and EMPTY_BOARD.fullmatch(t)]
    return empty, [t for t in texts if t not in empty]


@pytest.mark.parametrize("variant", ["ito", "rutherford"])
def test_a_composing_shard_reads_its_parents_and_nothing_it_made(reads, variant):
    settings = settings_from(variant, shard_size=40)
    first = compose_shard(settings, 0)  # random: no parent
    assert first.parents and first.accepted  # mates, economy and rating were reached
    empty, others = _boards(reads)
    assert others == [] and len(empty) == len(set(empty))
    pool = first.parents
    for index in (1, 2):  # mutate and reverse, from the first shard's parents
        del reads[:]
        r = compose_shard(settings, index, pool)
        assert r.candidates == settings.shard_size
        empty, others = _boards(reads)
        # Each parent is read once, as it comes in; nothing else but empty boards.
        assert Counter(others) == Counter(fen for _, _, fen, _, _ in pool)
        assert len(empty) == len(set(empty))


def test_a_census_shard_reads_no_position_it_made(reads):
    # Ito GT + G in hand, the king on 30: the longest sound problem of the
    # family and its economy probes are in this shard.
    out = census_shard("attacker=GT, hand=G, defender-hand=none", "ito", 30, 15)
    classified = [r for r in out["records"] if r["verdict"] == "sound"]
    assert classified and any(r["length"] == 7 for r in classified)
    assert reads == ["31 b - 1"]
    del reads[:]
    out = census_shard("attacker=S, defender=p, hand=S, length=9", "rutherford", 3, 21)
    assert any(r["verdict"] == "sound" for r in out["records"])
    assert reads == ["9 b - 1"]
