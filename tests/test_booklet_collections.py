"""Every bundled collection's booklet shows a solution for every problem the
verifier calls sound, of the length the verifier proved.

The booklet's prepared entries are checked (``booklet.prepare``, what
``tsume booklet`` renders), not the HTML; soundness comes from
``sound_report()``, which gives verify()'s report for a sound problem and
stops early on any other.  About 40 s of CPU for the eight collections.
"""

from __future__ import annotations

import pytest

from tsume import Limits, Status
from tsume.booklet import DEFAULT_LIMITS, prepare
from tsume.collection import bundled_names, load, locate
from tsume.verify import sound_report

# A problem sound_report() cannot settle within this is left out (none is).
VERIFY_LIMITS = Limits(nodes=5_000_000)


@pytest.mark.slow
def test_every_sound_problem_has_its_solution_in_its_collections_booklet():
    names = bundled_names()
    assert {"examples", "seed-ito", "seed-rutherford", "long-ito", "records"} <= set(names)
    missing, checked = [], 0
    for name in names:
        for number, record in enumerate(load(locate(name)), 1):
            report, _ = sound_report(record.problem(), limits=VERIFY_LIMITS)
            if report is None:
                continue
            entry = prepare(record, number, limits=DEFAULT_LIMITS)
            checked += 1
            if entry.status != Status.MATE or entry.length != report.length:
                missing.append(f"{name} {record.id}: booklet {entry.status} {entry.length}, "
                               f"verify sound in {report.length}")
    assert checked > 500
    assert not missing, "\n".join(missing)
