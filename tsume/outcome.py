"""What the answers say, as enums: :class:`Status` for a solve, :class:`Verdict` for a verification.

Both are string enums (:class:`enum.StrEnum`): a member is equal to its
value (``Status.MATE == "mate"``), prints as it (``f"{Status.MATE}"`` is
``mate``) and is written to JSON as it, so the text and JSON output read
the same words as ever, while code names the outcome it means.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status", "Verdict"]


class Status(StrEnum):
    """The outcome of solving a position (``Result.status``), and of each
    first move or alternative a solver or verifier looks at."""

    #: A forced mate (within the length bound, when one was given).
    MATE = "mate"
    #: No forced mate (or none within the length bound).
    NOMATE = "nomate"
    #: A limit stopped the search before the answer was known.
    UNKNOWN = "unknown"


class Verdict(StrEnum):
    """The verifier's verdict on a problem (``Report.verdict``; docs/verify.md)."""

    #: No finding but information (unused material, an excused longer variation).
    SOUND = "sound"
    #: Blemishes only: tolerated flaws such as a final-move alternative or a detour.
    FLAWED = "flawed"
    #: At least one defect: no mate, yozume, te-amari, a longer variation, a mismatch.
    UNSOUND = "unsound"
    #: A limit stopped a proof, and no defect was proven anyway.
    UNKNOWN = "unknown"
