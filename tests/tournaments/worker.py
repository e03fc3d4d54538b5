"""Helpers for the tests that run a real Celery worker on redis-server (PostgreSQL pass only):
ports, waiting, stopping processes, the test database's URL and the broker connection pool."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery_app import app as celery_app

WORKER_MARKS = [
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the worker must share the test database: runs in the PostgreSQL pass only",
    ),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], object], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds}s waiting for {what}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A throw-away redis-server on a free port of 127.0.0.1 (no persistence): its base URL,
    ``redis://127.0.0.1:PORT``; stopped on the way out."""
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(directory)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def answers() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    try:
        wait_until(answers, 10, "redis-server")
        yield f"redis://127.0.0.1:{port}"
    finally:
        stop(redis)


def database_url() -> str:
    db = settings.DATABASES["default"]  # NAME is pytest-django's test_ database by now
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def forget_connections() -> None:
    """Drop pooled broker connections made under the eager settings (they point at localhost)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
