"""Serving the studio: ``tsume serve`` (docs/studio.md).

The server binds 127.0.0.1 unless told otherwise, prints its address once
it is ready, and stops on Ctrl-C (SIGINT) or SIGTERM: uvicorn finishes the
requests in flight, the application's shutdown ends every job
(:meth:`tsume.studio.jobs.JobRunner.shutdown`), and the signal is then
raised again, so that the command exits as Ctrl-C makes it exit (130).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from ..errors import ArgumentError

__all__ = ["serve", "is_loopback", "open_browser_at"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address or ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise ArgumentError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    return sock


def _to_stderr(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:  # no terminal any more: nobody to tell
        pass


def open_browser_at(url: str, warn: Callable[[str], None] = _to_stderr) -> bool:
    """Open ``url`` in the default web browser; if none can be opened (no
    browser known, or its launcher failed), say so through ``warn``."""
    try:
        opened = bool(webbrowser.open(url))
    except Exception:  # noqa: BLE001 - webbrowser.Error, or a launcher that cannot start: the same to the user
        opened = False
    if not opened:
        warn(f"tsume: warning: no web browser could be opened (--open): open {url} in one yourself")
    return opened


def serve(root: str | Path, *, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False,
          parallel: int = 2, max_jobs: int = 8, say: Callable[[str], None] = print,
          warn: Callable[[str], None] = _to_stderr) -> None:
    """Serve the studio until interrupted.  ``port`` 0 takes a free port;
    ``say`` receives the one line that gives the address, ``warn`` a
    warning (no browser could be opened)."""
    try:
        import uvicorn
        from .app import create_app
    except ImportError:
        raise ArgumentError("the studio needs FastAPI and uvicorn: pip install 'tsume[studio]'") from None
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    name = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{name}:{bound}/"
    hosts = None if is_loopback(host) else ["*"]

    def ready() -> None:
        say(f"tsume: the studio is at {url} (files under {Path(root).resolve()}); Ctrl-C stops it")
        if open_browser:
            threading.Thread(target=open_browser_at, args=(url, warn), daemon=True).start()

    app = create_app(root, parallel=parallel, max_jobs=max_jobs, hosts=hosts, on_ready=ready)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=3, server_header=False)
    uvicorn.Server(config).run(sockets=[sock])
