"""daphne serving the project's ASGI application (pages, API and sockets) from a thread of the
test process, as ``live_server`` serves WSGI: it shares the test database, and a test can patch
what the server runs. Twisted's reactor runs once per process, so there is one per session."""

from __future__ import annotations

import threading
import time

_server_url: str | None = None
_lock = threading.Lock()


def daphne_url() -> str:
    """The base URL of the session's daphne, started on first use on a free local port."""
    global _server_url
    with _lock:
        if _server_url is None:
            _server_url = _start()
        return _server_url


def _start() -> str:
    from daphne.server import Server  # installs Twisted's asyncio reactor: imported here only
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    server = Server(
        ASGIStaticFilesHandler(application),  # static files from the finders, as runserver
        endpoints=["tcp:port=0:interface=127.0.0.1"],
        signal_handlers=False,  # not the main thread
        verbosity=0,
    )
    threading.Thread(target=server.run, name="daphne", daemon=True).start()
    deadline = time.monotonic() + 10
    while not server.listening_addresses:
        assert time.monotonic() < deadline, "daphne did not start"
        time.sleep(0.02)
    host, port = server.listening_addresses[0]
    return f"http://{host}:{port}"
