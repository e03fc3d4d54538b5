"""The server plumbing the HTTP and WebSocket benches share (bench/api_plays.py, bench/fanout.py,
bench/spectator.py, bench/socket_flood.py): free ports, the environment and ``manage.py`` of a
child server, the server processes themselves (gunicorn, uvicorn, a redis-server of the bench's
own) stopped in order, and CPU time read from /proc.

Not a bench itself (`make bench` skips it): the scripts import it as a sibling module, since
Python puts a script's own folder first on ``sys.path`` (``.venv/bin/python bench/fanout.py``
from any current directory).
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
UNLIMITED = "1000000/second"


# --- ports ------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    """Until ``process`` listens on ``port`` (30 s at most); exits if it ends or never listens."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit(f"{what} did not listen on port {port}")


def wait_for_healthz(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    """Until ``GET /healthz`` on 127.0.0.1:``port`` answers 200 (30 s at most): the server has
    loaded Django, not only bound its port. Exits if the process ends or never answers."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} exited with {process.returncode}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        try:
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.05)
    raise SystemExit(f"{what} did not answer /healthz")


# --- CPU time from /proc ----------------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    """The process ids of the children of ``pid`` (of its main thread), none once it is gone."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(child) for child in children.split()]


def own_cpu_seconds(pid: int) -> float:
    """User and system CPU time of one process, 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children (gunicorn's or uvicorn's workers),
    from /proc: a figure that does not depend on what else the machine is running."""
    return sum(own_cpu_seconds(each) for each in [pid, *children_of(pid)])


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and all its descendants (chromium's renderer, GPU, ... processes)."""
    total, pending = 0.0, [pid]
    while pending:
        each = pending.pop()
        total += own_cpu_seconds(each)
        pending += children_of(each)
    return total


# --- the server's environment and manage.py ----------------------------------------------------


def server_env(
    *,
    database_url: str,
    settings: str = "config.settings.local",
    debug: str | None = "0",
    layer_url: str | None = None,
    cache_url: str | None = None,
    weights: Path | None = None,
    throttle_rate: str | None = UNLIMITED,
    log_level: str = "WARNING",
    django_log_level: str | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """This process's environment with what a bench's server (and its ``manage.py``) is given.

    ``debug``, ``layer_url`` (CHANNEL_LAYER_URL; "" for the in-memory layer), ``cache_url``
    (CACHE_URL), ``weights`` (TABLA_WEIGHTS_DIR) and ``throttle_rate`` (the anonymous, user and
    write throttles; unlimited by default) are set only when not None; otherwise the child
    inherits this process's value, if any. ``django_log_level`` is ``log_level`` unless given;
    ``extra`` comes last, the bench's own settings.
    """
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings}
    if debug is not None:
        env["DEBUG"] = debug
    env["DATABASE_URL"] = database_url
    if cache_url is not None:
        env["CACHE_URL"] = cache_url
    if layer_url is not None:
        env["CHANNEL_LAYER_URL"] = layer_url
    if weights is not None:
        env["TABLA_WEIGHTS_DIR"] = str(weights)
    if throttle_rate is not None:
        for scope in ("ANON", "USER", "WRITES"):
            env[f"THROTTLE_RATE_{scope}"] = throttle_rate
    env["LOG_LEVEL"] = log_level
    env["DJANGO_LOG_LEVEL"] = log_level if django_log_level is None else django_log_level
    env.update(extra or {})
    return env


def manage(env: dict[str, str], *args: str) -> str:
    """Runs ``manage.py args`` in a child with ``env``; its output, or exits with it on failure."""
    command = [str(BIN / "python"), "manage.py", *args]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"manage.py {args[0]} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


# --- the server processes ---------------------------------------------------------------------


@dataclass
class Servers:
    """The server processes a bench started, by name ("redis", "gunicorn", "uvicorn"; a name's
    kind is what comes before a "-"), and the port each listens on. As a context manager it stops
    them all on the way out, whatever happened."""

    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    ports: dict[str, int] = field(default_factory=dict)

    def __enter__(self) -> Servers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def start(
        self, name: str, command: list[str], *, port: int, env: dict[str, str], **popen: Any
    ) -> subprocess.Popen[bytes]:
        """Starts a web server (``command``, listening on ``port``) in the project's folder."""
        process: subprocess.Popen[bytes] = subprocess.Popen(command, cwd=ROOT, env=env, **popen)
        self.processes[name] = process
        self.ports[name] = port
        return process

    def start_redis(self, port: int, scratch: str) -> None:
        """A redis-server of the bench's own on 127.0.0.1:``port`` (no persistence, files in
        ``scratch``), once it listens."""
        redis = [
            "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", scratch,
        ]  # fmt: skip
        self.processes["redis"] = subprocess.Popen(redis, stdout=subprocess.DEVNULL)
        self.ports["redis"] = port
        wait_for_port(port, self.processes["redis"], "redis-server")

    def wait_listening(self, *names: str) -> None:
        """Until each named server listens on its port (30 s at most each)."""
        for name in names:
            wait_for_port(self.ports[name], self.processes[name], name)

    def wait_healthy(self, *names: str) -> None:
        """Until each named server answers its ``/healthz`` (30 s at most each)."""
        for name in names:
            wait_for_healthz(self.ports[name], self.processes[name], name)

    def stop(self, timeout: float = 20) -> None:
        """The web servers first (SIGTERM to all, then ``timeout`` seconds each before a
        SIGKILL), then Redis, which their last unsubscribes still need."""
        web = [name for name in self.processes if name != "redis"]
        for names in (web, ["redis"]):
            running = [self.processes[name] for name in names if name in self.processes]
            for process in running:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            for process in running:
                try:
                    process.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=5)

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far by each kind of server process (with its children)."""
        totals: dict[str, float] = defaultdict(float)
        for name, process in self.processes.items():
            totals[name.split("-")[0]] += cpu_seconds(process.pid)
        return totals
