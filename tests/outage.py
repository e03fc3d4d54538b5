"""A redis-server of a test's own that can be frozen (SIGSTOP: its kernel still accepts and
acknowledges, but nothing answers, as a hung Redis) and is always thawed and stopped after."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def require_redis_server() -> None:
    """Skip where redis-server is missing, except in CI (.ci/run installs it)."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing: .ci/run installs the redis-server package")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")


class FreezableRedis:
    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError("redis-server did not start")
            time.sleep(0.05)

    def freeze(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.thaw()
            self.process.kill()
            self.process.wait(timeout=10)


@contextmanager
def freezable_redis(directory: Path) -> Iterator[FreezableRedis]:
    require_redis_server()
    server = FreezableRedis(directory)
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def timed() -> Iterator[list[float]]:
    """``with timed() as took:`` ... ``took[0]`` is the seconds the block took."""
    took: list[float] = []
    started = time.monotonic()
    try:
        yield took
    finally:
        took.append(time.monotonic() - started)
