"""Certificates of soundness (docs/certificates.md).

:mod:`tsume.certificate.check` and :mod:`tsume.certificate.rules` are the
checker: standard library only, no engine.  :mod:`tsume.certificate.write`
writes certificates with the engine.  This package file imports neither, so
the checker's two modules can be loaded on their own.
"""
