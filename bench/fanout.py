"""Spectators at scale: pushed updates over WebSockets against polling, on localhost.

Starts the service on free 127.0.0.1 ports as production runs it: gunicorn for HTTP (the API the
matches are played through, the state endpoint pollers ask), uvicorn for the sockets, and a
redis-server of its own as the channel layer (CHANNEL_LAYER_URL), over a throw-away SQLite
file, or the database named by DATABASE_URL (migrated first). It creates the matches (auto_roll,
long enough not to end), then runs two phases, each with the same number of watchers:

1. Push: the spectators open WebSockets (``/ws/matches/{id}/``, spread over the matches) and
   wait for their hello; then every match plays one move a second through
   the API, staggered. Each message carries ``at``, the server's time of the commit; its latency
   is its arrival here minus ``at``. Expected: every commit in the counted window (those that any
   spectator of the match heard) times the spectators of its match.
2. Polling: as many pollers ask their match's state endpoint as the match page does without a
   socket (every 1.5 s after the last answer, ``If-None-Match``). One listening socket per match
   gives each version's commit time; a commit's latency for a poller is the answer that first
   shows it (or a later version) minus the commit time.

Neither kind of watcher then fetches the page's fragment, as a page would once per new version
(after a message or a poll's 200): both phases leave that same cost out.

Everything is bounded: connections open with limited concurrency and a deadline, each phase
runs ``--seconds`` plus a short grace for the last deliveries, and every process it started is
stopped. Prints p50/p95/p99/max and delivered/expected for both, side by side, and the CPU the
servers and this client used.

    .venv/bin/python bench/fanout.py [--matches 20] [--watchers 2000] [--seconds 20]
                                     [--socket-workers 1] [--workers 2] [--skip-polling]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field

import websockets
from servers import BIN, Servers, free_port, manage, server_env

POLL_SECONDS = 1.5  # static/js/match.js POLL_MS
GRACE_SECONDS = 3.0  # after the last move: late deliveries still count
CONNECT_AT_ONCE = 100  # sockets opening at the same time
TARGET_SCORE = 49  # far more moves than a run plays: the matches never end

SETUP = """
import json
from rest_framework.authtoken.models import Token
from django.contrib.auth import get_user_model
from players.models import Player
pairs = []
for index in range({matches}):
    pair = []
    for side in "ab":
        user, _ = get_user_model().objects.get_or_create(username=f"fanout-{{index}}-{{side}}")
        names = {{"display_name": user.username}}
        player, _ = Player.objects.get_or_create(user=user, defaults=names)
        pair.append([player.pk, Token.objects.get_or_create(user=user)[0].key])
    pairs.append(pair)
print(json.dumps(pairs))
"""


# --- processes --------------------------------------------------------------------------------


def start_servers(args: argparse.Namespace, env: dict[str, str], scratch: str) -> Servers:
    """The redis-server of CHANNEL_LAYER_URL, gunicorn ("gunicorn") and uvicorn ("uvicorn") on
    free ports, once they listen."""
    servers = Servers()
    try:
        redis_port = int(env["CHANNEL_LAYER_URL"].rsplit(":", 1)[1].split("/")[0])
        servers.start_redis(redis_port, scratch)
        http_port, socket_port = free_port(), free_port()
        gunicorn = [
            str(BIN / "gunicorn"), "config.wsgi", f"--bind=127.0.0.1:{http_port}",
            f"--workers={args.workers}", "--worker-class=sync", "--log-level=warning",
            "--backlog=4096",
        ]  # fmt: skip
        servers.start("gunicorn", gunicorn, port=http_port, env=env)
        uvicorn = [
            str(BIN / "uvicorn"), "config.asgi:application", "--host=127.0.0.1",
            f"--port={socket_port}", f"--workers={args.socket_workers}",
            "--log-level=warning", "--no-access-log", "--backlog=4096",
        ]  # fmt: skip
        servers.start("uvicorn", uvicorn, port=socket_port, env=env)
        servers.wait_listening("gunicorn", "uvicorn")
    except BaseException:
        servers.stop()
        raise
    return servers


# --- HTTP: a minimal asyncio client (one connection a request, as gunicorn's sync workers) ----


async def http(
    port: int, method: str, path: str, headers: dict[str, str], body: dict | None = None
) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    try:
        writer.write("\r\n".join(lines).encode() + b"\r\n\r\n" + data)
        raw = await reader.read()
    finally:
        writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer_headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        answer_headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), answer_headers, payload


async def api(port: int, token: str, method: str, path: str, body: dict | None = None) -> dict:
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    status, _headers, payload = await http(port, method, path, headers, body)
    if status not in (200, 201):
        raise RuntimeError(f"{method} {path}: {status} {payload[:300]!r}")
    return json.loads(payload)


# --- the matches --------------------------------------------------------------------------


@dataclass
class Match:
    id: int
    game: dict
    tokens: dict[int, str]
    plays: int = 0
    errors: int = 0


async def matches_create(port: int, pairs: list[list]) -> list[Match]:
    created = []
    for (one, one_token), (two, two_token) in pairs:
        body = {"player_one": one, "player_two": two, "auto_roll": True}
        body["target_score"] = TARGET_SCORE
        challenge = await api(port, one_token, "POST", "/api/v1/matches/", body)
        match = await api(port, two_token, "POST", f"/api/v1/matches/{challenge['id']}/accept/")
        game = await api(port, one_token, "GET", f"/api/v1/games/{match['current_game']}/")
        created.append(Match(match["id"], game, {one: one_token, two: two_token}))
    return created


async def match_play(port: int, match: Match, start: float, end: float, every: float) -> None:
    """A move every ``every`` seconds from ``start`` (a late one is not made up): a play (the
    server rolls next), or a roll when one is due; a finished game's next game is fetched first.
    A refused request is counted, and the game read again."""
    rng = random.Random(match.id)
    moment = start
    while moment < end:
        await asyncio.sleep(max(0.0, moment - time.time()))
        try:
            await match_move(port, match, rng)
            match.plays += start <= time.time() < end
        except (OSError, RuntimeError):
            match.errors += 1
            path = f"/api/v1/games/{match.game['id']}/"
            match.game = await api(port, next(iter(match.tokens.values())), "GET", path)
        moment = max(moment + every, time.time())


async def match_move(port: int, match: Match, rng: random.Random) -> None:
    game = match.game
    if game["status"] != "in_progress":
        path = f"/api/v1/games/{game['next_game']}/"
        game = match.game = await api(port, next(iter(match.tokens.values())), "GET", path)
    token = match.tokens[game["player_to_move"]["id"]]
    if game["roll_due"]:
        match.game = await api(port, token, "POST", f"/api/v1/games/{game['id']}/roll/")
    else:
        body = {"ply": game["ply"], "moves": rng.choice(game["legal_plays"])["moves"]}
        match.game = await api(port, token, "POST", f"/api/v1/games/{game['id']}/plays/", body)


# --- watchers -------------------------------------------------------------------------------


@dataclass
class Heard:
    """What the sockets of a phase received: (match, commit time, arrival) per message."""

    messages: list[tuple[int, float, float]] = field(default_factory=list)
    versions: dict[tuple[int, str], float] = field(default_factory=dict)  # -> commit time
    failed: int = 0


async def socket_open(port: int, match_id: int, limit: asyncio.Semaphore):
    origin = f"http://127.0.0.1:{port}"
    async with limit:
        connection = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/matches/{match_id}/",
            origin=origin,
            compression=None,
            ping_interval=None,
            max_queue=None,
            open_timeout=30,
        )
        hello = json.loads(await asyncio.wait_for(connection.recv(), 30))
    return connection, hello


async def socket_listen(connection, match_id: int, heard: Heard) -> None:
    try:
        async for text in connection:
            arrival = time.time()
            message = json.loads(text)
            heard.messages.append((match_id, message["at"], arrival))
            heard.versions.setdefault((match_id, message["version"]), message["at"])
    except websockets.ConnectionClosed:
        pass


async def sockets_open(port: int, match_ids: list[int], count: int, deadline: float) -> list:
    """``count`` sockets, socket i on match i mod M; those not open by the deadline are given
    up."""
    limit = asyncio.Semaphore(CONNECT_AT_ONCE)
    tasks = [
        asyncio.ensure_future(socket_open(port, match_ids[i % len(match_ids)], limit))
        for i in range(count)
    ]
    done, pending = await asyncio.wait(tasks, timeout=max(1.0, deadline - time.monotonic()))
    for task in pending:
        task.cancel()
    opened = []
    for index, task in enumerate(tasks):
        if task in done and task.exception() is None:
            opened.append((match_ids[index % len(match_ids)], *task.result()))
    return opened


async def sockets_close(opened: list, listeners: list) -> None:
    for task in listeners:
        task.cancel()
    closing = [connection.close() for _match_id, connection, _hello in opened]
    await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 30)


async def poller(port: int, match_id: int, stop: float, seen: list, counts: dict) -> None:
    """Polls as the match page does without a socket; records (answer time, version) of
    every 200, and counts the answers by status (0: no connection)."""
    etag = None
    await asyncio.sleep(random.random() * POLL_SECONDS)
    while time.time() < stop:
        headers = {"If-None-Match": etag} if etag else {}
        try:
            path = f"/matches/{match_id}/state.json"
            status, answer, payload = await http(port, "GET", path, headers)
        except OSError:
            status = 0
        counts[status] += 1
        if status == 200:
            etag = answer.get("etag")
            seen.append((time.time(), json.loads(payload)["version"]))
        await asyncio.sleep(POLL_SECONDS)


# --- the phases ---------------------------------------------------------------------------


@dataclass
class Result:
    latencies: list[float]
    delivered: int
    expected: int
    watchers: int
    plays: int
    commits: int
    traffic: str  # what the watchers asked of the servers
    play_errors: int
    cpu: dict[str, float]


@dataclass
class Window:
    """The counted time of a phase: its moves start at ``start`` and stop at ``end``; commits
    in between are counted, heard until ``end`` plus the grace."""

    start: float
    end: float
    cpu_before: dict[str, float]
    client_before: float

    @classmethod
    def open(cls, servers: Servers, seconds: float, delay: float) -> Window:
        start = time.time() + delay
        return cls(start, start + seconds, servers.cpu(), time.process_time())

    def cpu(self, servers: Servers) -> dict[str, float]:
        cpu = {name: used - self.cpu_before.get(name, 0) for name, used in servers.cpu().items()}
        cpu["client"] = time.process_time() - self.client_before
        return cpu


def players(args, servers: Servers, matches: list[Match], window: Window) -> list:
    for match in matches:
        match.plays = match.errors = 0
    port = servers.ports["gunicorn"]
    return [  # staggered over the first interval
        match_play(port, match, window.start + i * args.move_seconds / len(matches),
                   window.end, args.move_seconds)
        for i, match in enumerate(matches)
    ]  # fmt: skip


def listen(opened: list, heard: Heard) -> list:
    return [
        asyncio.ensure_future(socket_listen(connection, match_id, heard))
        for match_id, connection, _hello in opened
    ]


async def phase_push(args, servers: Servers, matches: list[Match]) -> Result:
    ids = [match.id for match in matches]
    deadline = time.monotonic() + args.connect_timeout
    opened = await sockets_open(servers.ports["uvicorn"], ids, args.watchers, deadline)
    per_match: dict[int, int] = defaultdict(int)
    for match_id, _connection, _hello in opened:
        per_match[match_id] += 1
    heard = Heard()
    listeners = listen(opened, heard)
    window = Window.open(servers, args.seconds, delay=1.0)
    await asyncio.gather(*players(args, servers, matches, window))
    await asyncio.sleep(GRACE_SECONDS)
    cpu = window.cpu(servers)
    await sockets_close(opened, listeners)
    counted = [(m, at, arrival) for m, at, arrival in heard.messages if window.start <= at]
    counted = [(m, at, arrival) for m, at, arrival in counted if at < window.end]
    commits = {(m, at) for m, at, _arrival in counted}
    return Result(
        latencies=[arrival - at for _m, at, arrival in counted],
        delivered=len(counted),
        expected=sum(per_match[m] for m, _at in commits),
        watchers=len(opened),
        plays=sum(match.plays for match in matches),
        commits=len(commits),
        traffic=f"{len(opened)} sockets, no HTTP",
        play_errors=sum(match.errors for match in matches),
        cpu=cpu,
    )


async def phase_poll(args, servers: Servers, matches: list[Match]) -> Result:
    ids = [match.id for match in matches]
    deadline = time.monotonic() + args.connect_timeout
    opened = await sockets_open(servers.ports["uvicorn"], ids, len(ids), deadline)  # commit times
    heard = Heard()
    listeners = listen(opened, heard)
    # The pollers' first answers (their starting versions) come in before the moves start.
    window = Window.open(servers, args.seconds, delay=1.0 + POLL_SECONDS)
    seen: list[list] = [[] for _ in range(args.watchers)]
    counts: dict[int, int] = defaultdict(int)
    port = servers.ports["gunicorn"]
    pollers = [
        poller(port, ids[i % len(ids)], window.end + GRACE_SECONDS, seen[i], counts)
        for i in range(args.watchers)
    ]
    await asyncio.gather(*players(args, servers, matches, window), *pollers)
    cpu = window.cpu(servers)
    await sockets_close(opened, listeners)
    commits = [(m, at) for m, at, _arrival in heard.messages if window.start <= at < window.end]
    latencies = poll_latencies(ids, commits, seen, heard.versions)
    others = sum(n for status, n in counts.items() if status not in (200, 304))
    traffic = f"{sum(counts.values())} polls: {counts[304]} 304, {counts[200]} 200, {others} else"
    return Result(
        latencies=latencies,
        delivered=len(latencies),
        expected=sum(
            1 for i in range(args.watchers) for m, _at in commits if m == ids[i % len(ids)]
        ),
        watchers=args.watchers,
        plays=sum(match.plays for match in matches),
        commits=len(commits),
        traffic=traffic,
        play_errors=sum(match.errors for match in matches),
        cpu=cpu,
    )


def poll_latencies(ids: list[int], commits: list, seen: list[list], versions: dict) -> list[float]:
    """For each poller and each commit of its match: the first answer showing that version or a
    later one, minus the commit time. (A version no listener heard counts as of its answer.)"""
    latencies = []
    for index, answers in enumerate(seen):
        match_id = ids[index % len(ids)]
        shown = [(answered, versions.get((match_id, v), answered)) for answered, v in answers]
        for m, at in commits:
            if m == match_id:
                first = next((answered for answered, since in shown if since >= at), None)
                if first is not None:
                    latencies.append(first - at)
    return latencies


# --- report ---------------------------------------------------------------------------------


ROWS = [
    "watchers",
    "moves (commits heard)",
    "latency p50",
    "latency p95",
    "latency p99",
    "latency max",
    "delivered/expected",
    "watcher traffic",
    "play errors",
    "CPU s cli/gun/red/uvi",
]


def figures(result: Result | None) -> list[str]:
    if result is None:
        return ["skipped"] + [""] * (len(ROWS) - 1)
    values = sorted(result.latencies)
    if len(values) >= 2:
        cuts = statistics.quantiles(values, n=100, method="inclusive")
        p50, p95, p99 = (f"{cuts[q - 1] * 1000:.0f} ms" for q in (50, 95, 99))
        top = f"{values[-1] * 1000:.0f} ms"
    else:
        p50 = p95 = p99 = top = "n/a"
    cpu = " ".join(f"{seconds:.1f}" for _name, seconds in sorted(result.cpu.items()))
    return [
        str(result.watchers),
        f"{result.plays} ({result.commits})",
        p50,
        p95,
        p99,
        top,
        f"{result.delivered}/{result.expected}",
        result.traffic,
        str(result.play_errors),
        cpu,
    ]


def report(push: Result | None, poll: Result | None, args: argparse.Namespace) -> None:
    print()
    print(f"{'':24}{'push (WebSocket)':34}polling (every {POLL_SECONDS:g} s)")
    for label, one, two in zip(ROWS, figures(push), figures(poll), strict=True):
        print(f"{label:24}{one:34}{two}")
    if push is not None and len(push.latencies) >= 2:
        p99 = statistics.quantiles(sorted(push.latencies), n=100, method="inclusive")[98]
        met = p99 < 0.5 and push.delivered == push.expected
        print(f"goal (push: every move delivered, p99 under 500 ms): {'met' if met else 'NOT met'}")


async def run(args: argparse.Namespace, servers: Servers, pairs: list[list]) -> None:
    matches = await matches_create(servers.ports["gunicorn"], pairs)
    push = None if args.skip_push else await phase_push(args, servers, matches)
    poll = None if args.skip_polling else await phase_poll(args, servers, matches)
    report(push, poll, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=2000, help="spectators, then pollers")
    parser.add_argument("--seconds", type=float, default=20, help="counted time per phase")
    parser.add_argument("--move-seconds", type=float, default=1.0, help="a move per match every")
    parser.add_argument("--socket-workers", type=int, default=1, help="uvicorn processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (HTTP)")
    parser.add_argument("--connect-timeout", type=float, default=90, help="to open the sockets")
    parser.add_argument("--skip-push", action="store_true")
    parser.add_argument("--skip-polling", action="store_true")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        raise SystemExit("bench/fanout.py needs redis-server (apt-get install redis-server)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 2 * args.watchers + 1024))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))  # the servers inherit it

    with tempfile.TemporaryDirectory(prefix="tabla-fanout-") as scratch:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{scratch}/bench.sqlite3"
        env = server_env(
            database_url=database_url,
            layer_url=f"redis://127.0.0.1:{free_port()}/0",
            # Every watcher comes from 127.0.0.1 and none sends a heartbeat: no socket limits.
            extra={"SOCKETS_PER_ADDRESS": "0", "SOCKETS_PER_USER": "0", "SOCKET_IDLE_SECONDS": "0"},
        )
        print(
            f"database: {database_url.split('@')[-1]}; {args.matches} matches, a move every "
            f"{args.move_seconds:g} s each; {args.watchers} watchers; uvicorn "
            f"x{args.socket_workers}, gunicorn x{args.workers}; {args.seconds:g} s a phase"
        )
        manage(env, "migrate", "--noinput")
        setup = manage(env, "shell", "--no-imports", "-c", SETUP.format(matches=args.matches))
        pairs = json.loads(setup.strip().splitlines()[-1])
        servers = start_servers(args, env, scratch)
        try:
            asyncio.run(run(args, servers, pairs))
        finally:
            servers.stop()


if __name__ == "__main__":
    main()
