"""Certificates of soundness (docs/certificates.md).

:mod:`tsume.certificate.check` and :mod:`tsume.certificate.rules` are the
checker: standard library only, no engine.  :mod:`tsume.certificate.write`
writes certificates with the engine.  This package file imports neither, so
the checker's two modules can be loaded on their own.
"""

import re

__all__ = ["file_name"]


def file_name(problem_id: str | None) -> str:
    """The name a problem's certificate is offered under (a download, a
    booklet's link): its id, every character but letters, digits, ``.``,
    ``_`` and ``-`` replaced by ``_``, at most 80 of them, and ``.cert``;
    ``position.cert`` for a problem without an id."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", problem_id or "position")[:80] + ".cert"
