"""One client floods uvicorn with idle WebSockets (issue 19): how many it gets, what they cost,
and whether another client and uvicorn's own HTTP still get in.

Starts one uvicorn process on a free 127.0.0.1 port (local settings, the in-memory channel layer,
a throw-away SQLite file with one public match) under an open-files limit (``--nofile``, 1,024 as
on most machines), then:

1. client A (127.0.0.1) opens ``--sockets`` sockets to the match, ``--concurrency`` at a time,
   and keeps the admitted ones open, sending nothing;
2. client B (127.0.0.2, another loopback address) opens 10, and asks uvicorn for /healthz;
3. a socket to an unknown path; with ``--idle`` seconds, A's sockets are then left until the
   server closes them as idle.

Prints what each step got and uvicorn's resident memory before and after A's sockets.
``--no-limits`` runs with SOCKETS_PER_ADDRESS=0 and SOCKETS_PER_USER=0, as before the limits.

    .venv/bin/python bench/socket_flood.py [--sockets 1000] [--nofile 1024] [--no-limits]
                                           [--idle 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import websockets
from servers import BIN, Servers, free_port, manage, server_env

SETUP = """
from django.contrib.auth import get_user_model
from games import services
from players.models import Player
users = [get_user_model().objects.create(username=name) for name in ("flood-a", "flood-b")]
one, two = (Player.objects.create(user=user, display_name=user.username) for user in users)
print(services.match_create(creator=users[0], player_one=one, player_two=two).pk)
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def open_one(url: str, source: str, keep: list[Any]) -> str:
    try:
        ws = await asyncio.wait_for(
            websockets.connect(url, origin="http://127.0.0.1", local_addr=(source, 0)), 10
        )
    except websockets.InvalidStatus as error:
        return f"refused {error.response.status_code}"
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        return f"failed ({type(error).__name__})"
    try:
        await asyncio.wait_for(ws.recv(), 10)  # the hello
    except Exception as error:  # closed at once (1013) or no hello
        return f"no hello ({type(error).__name__})"
    keep.append(ws)
    return "open"


async def open_many(
    url: str, source: str, count: int, concurrency: int, keep: list[Any]
) -> Counter:
    results: Counter = Counter()
    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate:
            results[await open_one(url, source, keep)] += 1

    await asyncio.gather(*(one() for _ in range(count)))
    return results


def healthz(port: int) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return str(response.status)
    except Exception as error:
        return f"failed ({type(error).__name__}: {error})"


async def scenario(args: argparse.Namespace, port: int, pid: int, match: int) -> None:
    url = f"ws://127.0.0.1:{port}/ws/matches/{match}/"
    a_sockets: list[Any] = []
    b_sockets: list[Any] = []
    before = rss_mb(pid)
    started = time.monotonic()
    a = await open_many(url, "127.0.0.1", args.sockets, args.concurrency, a_sockets)
    print(f"A (127.0.0.1): {dict(a)} in {time.monotonic() - started:.1f} s")
    print(f"uvicorn RSS: {before:.0f} MB before, {rss_mb(pid):.0f} MB with A's sockets open")
    b = await open_many(url, "127.0.0.2", 10, 10, b_sockets)
    print(f"B (127.0.0.2): {dict(b)}; uvicorn /healthz: {healthz(port)}")
    unknown = await open_one(f"ws://127.0.0.1:{port}/ws/nothing/", "127.0.0.2", b_sockets)
    print(f"unknown path /ws/nothing/: {unknown}")
    if args.idle:
        await asyncio.sleep(args.idle + 2)
        codes = Counter(ws.close_code for ws in a_sockets)
        print(f"after {args.idle + 2} s without a word: A's sockets by close code {dict(codes)}")
    for ws in a_sockets + b_sockets:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--nofile", type=int, default=1024, help="uvicorn's open-files limit")
    parser.add_argument("--no-limits", action="store_true")
    parser.add_argument("--idle", type=int, default=0, help="SOCKET_IDLE_SECONDS (0: default)")
    args = parser.parse_args()
    # This client needs more files than the server's limit.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(args.sockets + 200, args.nofile)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    with tempfile.TemporaryDirectory() as scratch:
        env = server_env(
            database_url=f"sqlite:///{scratch}/flood.sqlite3",
            layer_url="",
            throttle_rate=None,
            log_level=os.environ.get("FLOOD_LOG_LEVEL", "ERROR"),
            django_log_level="ERROR",
        )
        if args.no_limits:
            env.update(SOCKETS_PER_ADDRESS="0", SOCKETS_PER_USER="0")
        if args.idle:
            env["SOCKET_IDLE_SECONDS"] = str(args.idle)
        manage(env, "migrate", "--noinput")
        match = int(manage(env, "shell", "--no-imports", "-c", SETUP).strip().splitlines()[-1])
        port = free_port()

        def limit_files() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, args.nofile))

        uvicorn = [
            str(BIN / "uvicorn"), "config.asgi:application", "--host=127.0.0.1", f"--port={port}",
            "--log-level=critical", "--no-access-log", "--backlog=4096",
        ]  # fmt: skip
        with Servers() as servers:
            server = servers.start("uvicorn", uvicorn, port=port, env=env, preexec_fn=limit_files)
            servers.wait_healthy("uvicorn")
            limits = "off" if args.no_limits else "on (defaults unless set in the environment)"
            print(f"uvicorn pid {server.pid}, open files limit {args.nofile}, limits {limits}")
            asyncio.run(scenario(args, port, server.pid, match))


if __name__ == "__main__":
    main()
