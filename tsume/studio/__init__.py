"""The studio: ``tsume serve``, a local web application to set up, solve,
verify, compose and play problems (docs/studio.md).

* :mod:`tsume.studio.app` -- the ASGI application (FastAPI): the JSON API and the page;
* :mod:`tsume.studio.server` -- serving it (uvicorn) on a local port;
* :mod:`tsume.studio.jobs` -- long work in processes of its own, bounded and cancellable;
* :mod:`tsume.studio.calls` -- the one module that calls the library;
* :mod:`tsume.studio.positions` -- what the editor asks of a position;
* :mod:`tsume.studio.store` -- the collections it reads and writes, under its root;
* :mod:`tsume.studio.models` -- the API's request bodies;
* ``static/`` -- the page: HTML, CSS and plain JavaScript modules, no build step.

Nothing here is imported by the rest of the package; FastAPI and uvicorn are
the optional ``studio`` extra (``pip install 'tsume[studio]'``).
"""
