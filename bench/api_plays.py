"""API throughput: random matches played over HTTP against a real gunicorn on localhost.

Starts gunicorn on a free 127.0.0.1 port (DEBUG off, throttling out of the way) over a
throw-away SQLite file, or over the database named by DATABASE_URL when it is set (migrated
first). N client threads, each with its own pair of players, create matches (one player
challenges, the other accepts) and play them out:
roll when a roll is due, otherwise POST a random play from the listed legal plays, taking the
state from each answer. Matches are created with ``auto_roll`` (the server rolls for the next
player as part of each play, so a turn is one request) unless ``--manual-roll`` is given.
After a warm-up it counts accepted plays for a fixed time, stops the server, replays every
game played through `manage.py verify_games`, and prints plays per second and the p50/p95/p99
latency of the play and roll endpoints.

Before the plays, for as long, the same clients send a bare DRF write to the same server (unless
``--no-bare``): ``POST /bench/bare/<game>/`` of bench/bare/urls.py, token authentication and the
write views' throttles, 1 INSERT of a turn and 1 UPDATE of its game, through the same middleware
(the server runs bench/bare/settings.py: the local settings plus that one URL). It prints the
server CPU of each and their ratio, the yardstick of docs/decisions.md D68.

    .venv/bin/python bench/api_plays.py [--clients 8] [--seconds 20] [--workers 2] [--threads 1]
                                        [--manual-roll] [--no-bare]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field

from servers import BIN, Servers, cpu_seconds, free_port, manage, server_env

SETUP = """
import json
from rest_framework.authtoken.models import Token
from django.contrib.auth import get_user_model
from players.models import Player
pairs = []
for index in range({clients}):
    pair = []
    for side in "ab":
        user, _ = get_user_model().objects.get_or_create(username=f"bench-{{index}}-{{side}}")
        names = {{"display_name": user.username}}
        player, _ = Player.objects.get_or_create(user=user, defaults=names)
        pair.append([player.pk, Token.objects.get_or_create(user=user)[0].key])
    pairs.append(pair)
print(json.dumps(pairs))
"""


def start_server(servers: Servers, env: dict[str, str], workers: int, threads: int) -> int:
    """gunicorn on a free port, once it answers /healthz; its port."""
    port = free_port()
    command = [
        str(BIN / "gunicorn"),
        "config.wsgi",
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        f"--threads={threads}",
        # One thread: gunicorn's default sync worker, as the README runs it; it accepts a
        # connection only when idle, so the kernel hands each request to a free worker. gthread
        # accepts while busy and queues, so a kept-alive client stays on one worker.
        f"--worker-class={'sync' if threads == 1 else 'gthread'}",
        "--log-level=warning",
    ]
    servers.start("gunicorn", command, port=port, env=env)
    servers.wait_healthy("gunicorn")
    return port


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    plays: int = 0
    errors: list[str] = field(default_factory=list)
    server_cpu: float = 0.0
    client_cpu: float = 0.0  # this process: the load generator shares the machine's cores
    games: set[int] = field(default_factory=set)
    bare_writes: int = 0
    bare_cpu: float = 0.0
    bare_latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client:
    """A client playing matches between its two players: a new connection per request, or
    one kept-alive connection (``keep_alive``)."""

    def __init__(
        self,
        port: int,
        pair: list[list],
        seed: int,
        stats: Stats,
        window,
        auto_roll: bool,
        keep_alive: bool,
    ) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.keep_alive = keep_alive
        self.tokens = {player_id: token for player_id, token in pair}
        self.players = [player_id for player_id, _ in pair]
        self.rng = random.Random(seed)
        self.stats = stats
        self.window = window  # (start of counting, end)
        self.auto_roll = auto_roll

    def call(self, method: str, path: str, player: int, body: dict | None = None) -> dict:
        headers = {"Authorization": f"Token {self.tokens[player]}", "Accept": "application/json"}
        if not self.keep_alive:
            headers["Connection"] = "close"
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        if not self.keep_alive:
            self.connection.close()
        if response.status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {response.status} {payload[:300]!r}")
        kind = path.rstrip("/").rsplit("/", 1)[-1] if method == "POST" else "get"
        if self.window[0] <= time.monotonic() < self.window[1]:
            with self.stats.lock:
                self.stats.latencies[kind].append(elapsed)
                self.stats.plays += kind == "plays"
        return json.loads(payload)

    def run(self) -> None:
        try:
            while time.monotonic() < self.window[1]:
                self.play_match()
        except Exception as error:  # noqa: BLE001 - reported at the end
            with self.stats.lock:
                self.stats.errors.append(str(error))

    def play_match(self) -> None:
        one, two = self.players
        body = {"player_one": one, "player_two": two, "auto_roll": self.auto_roll}
        challenge = self.call("POST", "/api/v1/matches/", one, body)
        match = self.call("POST", f"/api/v1/matches/{challenge['id']}/accept/", two)
        game_id = match["current_game"]
        while game_id is not None and time.monotonic() < self.window[1]:
            with self.stats.lock:
                self.stats.games.add(game_id)
            game = self.call("GET", f"/api/v1/games/{game_id}/", one)
            while game["status"] == "in_progress" and time.monotonic() < self.window[1]:
                game = self.decide(game)
            game_id = game["next_game"]

    def run_bare(self, window) -> None:
        """Bare writes to a game of a new match of this client's pair until ``window`` ends."""
        try:
            one, two = self.players
            body = {"player_one": one, "player_two": two, "auto_roll": self.auto_roll}
            challenge = self.call("POST", "/api/v1/matches/", one, body)
            match = self.call("POST", f"/api/v1/matches/{challenge['id']}/accept/", two)
            game = self.call("GET", f"/api/v1/games/{match['current_game']}/", one)
            ply, position = game["ply"], game["position"]
            while time.monotonic() < window[1]:
                started = time.perf_counter()
                self.call(
                    "POST", f"/bench/bare/{game['id']}/", one, {"ply": ply, "position": position}
                )
                elapsed = time.perf_counter() - started
                ply += 1
                if window[0] <= time.monotonic() < window[1]:
                    with self.stats.lock:
                        self.stats.bare_writes += 1
                        self.stats.bare_latencies.append(elapsed)
        except Exception as error:  # noqa: BLE001 - reported at the end
            with self.stats.lock:
                self.stats.errors.append(f"bare: {error}")

    def decide(self, game: dict) -> dict:
        player = game["player_to_move"]["id"]
        if game["roll_due"]:
            return self.call("POST", f"/api/v1/games/{game['id']}/roll/", player)
        choice = self.rng.choice(game["legal_plays"])
        body = {"ply": game["ply"], "moves": choice["moves"]}
        return self.call("POST", f"/api/v1/games/{game['id']}/plays/", player, body)


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return " ".join(f"p{q}={cuts[q - 1] * 1000:.1f}ms" for q in (50, 95, 99))


def run(args: argparse.Namespace, database_url: str) -> Stats:
    env = server_env(database_url=database_url, settings="bench.bare.settings")
    manage(env, "migrate", "--noinput")
    setup = manage(env, "shell", "--no-imports", "-c", SETUP.format(clients=args.clients))
    pairs = json.loads(setup.strip().splitlines()[-1])
    servers = Servers()
    stats = Stats()
    try:
        port = start_server(servers, env, args.workers, args.threads)
        server = servers.processes["gunicorn"]
        if not args.no_bare:
            bare = Stats()
            start = time.monotonic() + args.warmup
            window = (start, start + args.seconds)
            clients = [
                Client(port, pair, seed, bare, (0.0, 0.0), False, args.keep_alive)
                for seed, pair in enumerate(pairs, start=1)
            ]
            threads = [
                threading.Thread(target=client.run_bare, args=(window,)) for client in clients
            ]
            for thread in threads:
                thread.start()
            time.sleep(max(0.0, window[0] - time.monotonic()))
            cpu_start = cpu_seconds(server.pid)
            time.sleep(max(0.0, window[1] - time.monotonic()))
            stats.bare_cpu = cpu_seconds(server.pid) - cpu_start
            for thread in threads:
                thread.join(timeout=args.warmup + args.seconds + 60)
            stats.bare_writes, stats.bare_latencies = bare.bare_writes, bare.bare_latencies
            stats.errors += bare.errors
        start = time.monotonic() + args.warmup
        window = (start, start + args.seconds)
        clients = [
            Client(port, pair, seed, stats, window, not args.manual_roll, args.keep_alive)
            for seed, pair in enumerate(pairs, start=1)
        ]
        threads = [threading.Thread(target=client.run) for client in clients]
        for thread in threads:
            thread.start()
        time.sleep(max(0.0, window[0] - time.monotonic()))
        cpu_start, client_start = cpu_seconds(server.pid), time.process_time()
        time.sleep(max(0.0, window[1] - time.monotonic()))
        stats.server_cpu = cpu_seconds(server.pid) - cpu_start
        stats.client_cpu = time.process_time() - client_start
        for thread in threads:
            thread.join(timeout=args.warmup + args.seconds + 60)
    finally:
        servers.stop(timeout=30)
    if stats.games and not args.no_verify:
        print(manage(env, "verify_games", *map(str, sorted(stats.games))).strip())
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="client threads")
    parser.add_argument("--seconds", type=float, default=20, help="counted time")
    parser.add_argument("--warmup", type=float, default=3, help="uncounted time first")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument(
        "--manual-roll", action="store_true", help="roll by request instead of auto_roll"
    )
    parser.add_argument(
        "--keep-alive",
        action="store_true",
        help="one kept-alive connection per client (it stays with the worker that accepted it)",
    )
    parser.add_argument(
        "--no-bare", action="store_true", help="skip the bare DRF writes measured first"
    )
    parser.add_argument("--no-verify", action="store_true", help="skip verify_games at the end")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tabla-bench-") as scratch:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{scratch}/bench.sqlite3"
        print(
            f"database: {database_url.split('@')[-1]}; {args.clients} clients; gunicorn "
            f"{args.workers} workers x {args.threads} threads; {args.seconds:g}s counted; "
            f"{'rolls by request' if args.manual_roll else 'auto_roll'}"
        )
        stats = run(args, database_url)

    print(
        f"plays accepted: {stats.plays} in {args.seconds:g}s = {stats.plays / args.seconds:.0f}/s"
    )
    requests = sum(len(values) for values in stats.latencies.values())
    if stats.plays and requests:
        print(
            f"server CPU: {stats.server_cpu * 1000 / stats.plays:.1f} ms per play, "
            f"{stats.server_cpu * 1000 / requests:.1f} ms per request "
            f"(so at most {stats.plays / stats.server_cpu:.0f} plays/s per core)"
        )
        print(f"client CPU: {stats.client_cpu * 1000 / stats.plays:.1f} ms per play (same machine)")
    if stats.bare_writes:
        bare_ms = stats.bare_cpu * 1000 / stats.bare_writes
        print(
            f"bare DRF writes: {stats.bare_writes} in {args.seconds:g}s = "
            f"{stats.bare_writes / args.seconds:.0f}/s, server CPU {bare_ms:.2f} ms each, "
            f"{percentiles(stats.bare_latencies)}"
        )
        if stats.plays:
            play_ms = stats.server_cpu * 1000 / stats.plays
            print(f"a play's server CPU / a bare write's: {play_ms / bare_ms:.2f}x")
    for kind in ("plays", "roll", "get", "matches"):
        values = stats.latencies.get(kind, [])
        print(f"  {kind:8} n={len(values):6d}  {percentiles(values)}")
    for error in stats.errors[:5]:
        print(f"error: {error}")
    if stats.errors:
        raise SystemExit(f"{len(stats.errors)} client(s) stopped on an error")


if __name__ == "__main__":
    main()
