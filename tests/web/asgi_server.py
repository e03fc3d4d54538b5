"""uvicorn serving the project's ASGI application (pages, API and sockets) from a thread of the
test process, as ``live_server`` serves WSGI: it shares the test database, and a test can patch
what the server runs. One for the test session, started on first use."""

from __future__ import annotations

import threading
import time

_url: str | None = None
_lock = threading.Lock()


def asgi_url() -> str:
    """The base URL of the session's uvicorn on a free local port."""
    global _url
    with _lock:
        if _url is None:
            _url = _start()
        return _url


def _start() -> str:
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),  # static files from the finders, as in tests
        host="127.0.0.1",
        port=0,
        lifespan="off",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, name="uvicorn", daemon=True).start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    host, port = server.servers[0].sockets[0].getsockname()[:2]
    return f"http://{host}:{port}"
