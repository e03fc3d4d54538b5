"""Cost as the club's history grows: the same requests over a database holding 1,000 and 100,000
finished games (issue 20's goal: at the large size every figure within 1.2x of the small one).

For each size the script makes a fresh database (a throw-away SQLite file, or, when
DATABASE_URL names a PostgreSQL server, a new database ``<name>_scale`` on it, dropped at the
end; with ``--keep`` ``<name>_scale_<size>``, kept and reused by the next run once its fill has
finished), migrates it, fills it with finished rated matches of three games each (every game with
its turn log: ``--turns`` turns a game) between ``--players`` players by bulk inserts, rates them
all (``ratings_recompute``: the rating history a club of that size has). Each size then has its
own process, and the sizes are measured interleaved, ``--repeat`` rounds of one request of each
line at each size in turn (small, large, large, small, ...), so a load on a shared machine weighs
on both alike. A request goes in process through Django's test client with token authentication
(the middleware included, no HTTP server):

- a play: ``POST /api/v1/games/{id}/plays/`` of an online match in progress;
- a match-ending play: the play that ends a one-point online match (the match's end, its
  rating and the push hooks run in the request, as they do without a broker);
- a tournament result: the organiser's ``POST /api/v1/matches/{id}/results/`` ending a match of
  a 16-player single elimination (the bracket, the standings and the rating follow);
- the home page ``/``, ``GET /api/v1/matches/``, the page of a player whose own history is the
  same at both sizes (the measured matches), and (*) the page of the player with the most
  matches, whose own history grows with the database: it shows 50 matches and a chart of the
  last 200 rated ones once the player has that many, so its cost grows up to there and no
  further.

Each line prints the number of queries, the median and the fastest time of the ``--repeat``
requests at each size, and the ratios of the largest size's median and fastest to the
smallest's (the goal is read on the medians, with the same number of queries). Run:

    .venv/bin/python bench/scale.py [--sizes 1000,100000] [--turns 40] [--repeat 7] [--slowest]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabla .venv/bin/python bench/scale.py --keep
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

UNLIMITED = "1000000/second"
CHUNK = 5000


@dataclass
class Figure:
    queries: int
    seconds: float
    slowest: list[tuple[float, str]]


@contextmanager
def scratch_database(base_url: str, size: int, keep: bool) -> Iterator[str]:
    """A URL of the database for ``size`` games: a SQLite file, or ``<name>_scale`` on the
    PostgreSQL server of ``base_url``; new and dropped afterwards, or with ``keep``
    ``<name>_scale_<size>`` (a file of that name in the temporary directory on SQLite), kept and
    reused by the next run when its fill finished (see ``FILLED``)."""
    if not base_url.startswith(("postgres://", "postgresql://")):
        if keep:
            yield f"sqlite:///{tempfile.gettempdir()}/tabla_scale_{size}.sqlite3"
            return
        with tempfile.TemporaryDirectory() as directory:
            yield f"sqlite:///{directory}/scale.sqlite3"
        return
    import psycopg

    head, _, name = base_url.rpartition("/")
    name = name.split("?")[0]
    scratch = f"{name}_scale_{size}" if keep else f"{name}_scale"
    with psycopg.connect(base_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [scratch]).fetchone()
        if not (keep and exists):
            conn.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
            conn.execute(f'CREATE DATABASE "{scratch}"')
    try:
        yield f"{head}/{scratch}"
    finally:
        if not keep:  # its worker has stopped
            with psycopg.connect(base_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{scratch}"')


# A kept database's mark of a finished fill and rating: the fill's parameters (a database
# without it, or with others, is emptied and filled again).
FILLED = "bench_scale_filled"


def filled(games: int, players: int, turns: int) -> bool:
    from django.db import connection

    if FILLED not in connection.introspection.table_names():
        return False
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT games, players, turns FROM {FILLED}")
        return cursor.fetchall() == [(games, players, turns)]


def mark_filled(games: int, players: int, turns: int) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {FILLED} (games integer, players integer, turns integer)")
        cursor.execute(f"INSERT INTO {FILLED} VALUES (%s, %s, %s)", [games, players, turns])


def empty() -> None:
    """Drop every table of a kept database whose fill did not finish."""
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    else:
        call_command("flush", interactive=False, verbosity=0)
        with connection.cursor() as cursor:
            for table in connection.introspection.table_names():
                cursor.execute(f'DROP TABLE IF EXISTS "{table}"')


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT", "0")  # the fill's and recompute's inserts
    for scope in ("ANON", "USER", "WRITES"):
        os.environ[f"THROTTLE_RATE_{scope}"] = UNLIMITED
    import django
    from django.conf import settings

    if not settings.configured or not hasattr(setup_django, "done"):
        django.setup()
        from django.test.utils import setup_test_environment

        setup_test_environment()  # the test client's host, locmem e-mail
        logging.getLogger("celery").setLevel(logging.WARNING)  # a line a task otherwise
        setup_django.done = True  # type: ignore[attr-defined]
    from django.db import connections

    connections.close_all()
    settings.DATABASES["default"].update(_database(url))
    connections["default"].settings_dict.update(_database(url))


def _database(url: str) -> dict[str, Any]:
    import dj_database_url

    parsed = dj_database_url.parse(url)
    keys = ("NAME", "HOST", "PORT", "USER", "PASSWORD")
    return {key: parsed[key] for key in keys if key in parsed}


def fill(games: int, players: int, turns: int, rng: random.Random) -> None:
    """``games`` finished games (a third as many rated three-game matches) with their turns."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.engine import Options
    from games.models import VARIANTS, Game, Match, Turn
    from players.models import Player

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"scale-{i}") for i in range(players)
    )
    people = Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
    organiser = users[0]
    options = Options().to_json()
    start = timezone.now() - datetime.timedelta(days=3 * 365)
    made = 0
    minute = 0
    while made < games:
        count = min(CHUNK // 3, (games - made + 2) // 3)
        matches = []
        for _ in range(count):
            one, two = rng.sample(people[: max(2, players)], 2)
            matches.append(
                Match(player_one=one, player_two=two, organiser=organiser, created_by=organiser,
                      winner=rng.choice((one, two)), target_score=3, options=options,
                      status=Match.Status.FINISHED, mode=Match.Mode.ONLINE, rated=True,
                      ended_by=Match.EndedBy.SCORE, score_one=2, score_two=1)
            )  # fmt: skip
        matches = Match.objects.bulk_create(matches)
        rows = []
        for match in matches:
            for number, (variant, _) in enumerate(VARIANTS, start=1):
                minute += 1
                rows.append(
                    Game(match=match, number=number, variant=variant, white=match.player_one,
                         black=match.player_two, position={}, status=Game.Status.FINISHED,
                         result_winner=rng.choice((match.player_one, match.player_two)),
                         result_kind="single", result_points=1, ended_by=Game.EndedBy.PLAY,
                         finished_at=start + datetime.timedelta(minutes=minute))
                )  # fmt: skip
        rows = Game.objects.bulk_create(rows)
        turn_rows = [
            Turn(game=game, ply=ply, side="wb"[ply % 2], kind="roll", dice=[3, 1],
                 moves=["8/5", "6/5"], position_after={})
            for game in rows
            for ply in range(1, turns + 1)
        ]  # fmt: skip
        for first in range(0, len(turn_rows), CHUNK):
            Turn.objects.bulk_create(turn_rows[first : first + CHUNK])
        made += len(rows)


class Scene:
    """What the measurements act on: players with tokens, a busy player, a cup."""

    def __init__(self, rng: random.Random) -> None:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from players.models import Player

        self.rng = rng
        run = f"{time.time():.0f}-{os.getpid()}"  # a kept database is measured again
        self.users = [
            get_user_model().objects.create_user(f"scale-live-{side}-{run}", password="x")
            for side in "ab"
        ]
        self.players = [
            Player.objects.create(user=user, display_name=user.username) for user in self.users
        ]
        self.tokens = {u.pk: Token.objects.create(user=u).key for u in self.users}
        self.organiser = get_user_model().objects.create_user(
            f"scale-organiser-{run}", password="x"
        )
        self.organiser.is_staff = True
        self.organiser.save()
        self.tokens[self.organiser.pk] = Token.objects.create(user=self.organiser).key
        self.busiest = (
            Player.objects.filter(display_name__startswith="scale-").order_by("pk").first()
        )

    def client(self, user: Any) -> Any:
        from django.test import Client

        return Client(HTTP_AUTHORIZATION=f"Token {self.tokens[user.pk]}")

    def online_match(self, target: int) -> Any:
        from games import services

        one, two = self.players
        return services.match_create(
            creator=self.organiser, player_one=one, player_two=two, target_score=target
        )


def measure(action: Callable[[], Any]) -> Figure:
    """The queries and the time of one call of ``action`` (which asserts its own answer)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        began = time.perf_counter()
        action()
        elapsed = time.perf_counter() - began
    timed = sorted(((float(q["time"]), q["sql"]) for q in queries.captured_queries), reverse=True)
    return Figure(len(queries), elapsed, timed[:3])


def median(figures: list[Figure]) -> Figure:
    middle = sorted(figures, key=lambda f: f.seconds)[len(figures) // 2]
    return Figure(max(f.queries for f in figures), middle.seconds, middle.slowest)


def play_request(scene: Scene, game: Any, outcome: Any) -> Callable[[], Any]:
    from games import selectors

    player = selectors.player_to_move(game)
    client = scene.client(player.user)
    url = f"/api/v1/games/{game.pk}/plays/"
    body = {"ply": game.ply, "moves": outcome.play.to_json()}

    def send() -> None:
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 200, response.content

    return send


def roll(game: Any) -> Any:
    from games import selectors, services

    while selectors.is_roll_due(game):
        game = services.dice_roll(game=game, player=selectors.player_to_move(game)).game
    return game


def plays(scene: Scene) -> Iterator[Figure]:
    """Plays of a five-point online match in progress (a new match when one would end it)."""
    from games import selectors

    match = scene.online_match(5)
    while True:
        game = roll(selectors.current_game(match))
        options = [o for o in selectors.game_legal_plays(game) if o.result is None]
        if not options:
            match = scene.online_match(5)
            continue
        yield measure(play_request(scene, game, scene.rng.choice(options)))


def match_ending_plays(scene: Scene) -> Iterator[Figure]:
    from games import selectors, services

    while True:
        match = scene.online_match(1)
        game = selectors.current_game(match)
        while True:
            game = roll(game)
            options = selectors.game_legal_plays(game)
            ending = [o for o in options if o.result is not None]
            if ending:
                yield measure(play_request(scene, game, ending[0]))
                break
            outcome = scene.rng.choice(options)
            player = selectors.player_to_move(game)
            game = services.play_submit(
                game=game, player=player, ply=game.ply, moves=outcome.play.to_json()
            ).game


def tournament_results(scene: Scene) -> Iterator[Figure]:
    """The first round's results of 16-player single eliminations (a new cup every eight)."""
    from players.models import Player
    from tournaments import services
    from tournaments.models import TournamentMatch

    client = scene.client(scene.organiser)
    while True:
        cup = services.tournament_create(
            user=scene.organiser, name="Scale cup", match_length=1,
            match_mode="over_the_board", format="single_elimination",
        )  # fmt: skip
        services.registration_open(tournament=cup, user=scene.organiser)
        field = Player.objects.filter(display_name__startswith="scale-").order_by("pk")[:16]
        for player in field:
            services.entry_register(tournament=cup, user=scene.organiser, player=player)
        services.tournament_start(tournament=cup, user=scene.organiser)
        rows = list(
            TournamentMatch.objects.filter(tournament=cup, match__isnull=False)
            .select_related("entry_one__player")
            .order_by("key")
        )
        for row in rows:
            url = f"/api/v1/matches/{row.match_id}/results/"
            body = {"winner": row.entry_one.player_id, "points": 1}

            def send(url: str = url, body: dict[str, int] = body) -> None:
                response = client.post(url, body, content_type="application/json")
                assert response.status_code == 201, response.content

            yield measure(send)


def reads(url: str) -> Iterator[Figure]:
    from django.test import Client

    client = Client()

    def get() -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    get()  # warm
    while True:
        yield measure(get)


def prepare(url: str, games: int, args: argparse.Namespace) -> dict[str, Iterator[Figure]]:
    """Database ``url`` holding ``games`` finished games (filled here, or a kept one), and the
    measurements on it, each an iterator of one request's figures."""
    setup_django(url)
    from django.core.management import call_command

    from games.services import ratings

    rng = random.Random(args.seed)
    if args.keep and filled(games, args.players, args.turns):
        call_command("migrate", verbosity=0)  # a migration added since the fill
        print(f"  {games:,} games: the kept database", file=sys.stderr, flush=True)
    else:
        if args.keep:
            empty()
        call_command("migrate", verbosity=0)
        began = time.perf_counter()
        fill(games, args.players, args.turns, rng)
        seconds = time.perf_counter() - began
        began = time.perf_counter()
        ratings.ratings_recompute()
        rated = time.perf_counter() - began
        if args.keep:
            mark_filled(games, args.players, args.turns)
        print(
            f"  {games:,} games: filled in {seconds:.0f} s, rated in {rated:.0f} s",
            file=sys.stderr, flush=True,
        )  # fmt: skip
    scene = Scene(rng)
    lines = {
        "a play": plays(scene),
        "a match-ending play": match_ending_plays(scene),
        "a tournament result": tournament_results(scene),
        "home page": reads("/"),
        "GET /api/v1/matches/": reads("/api/v1/matches/"),
        "a player's page": reads(f"/players/{scene.players[0].pk}/"),
        "busiest player's page*": reads(f"/players/{scene.busiest.pk}/"),
    }
    for line in lines.values():
        next(line)  # a first request of each kind, not counted: the connection and caches warm
    return lines


def worker(args: argparse.Namespace) -> None:
    """One size's process: prepares its database, then measures one request of each line each
    time the parent writes a line, answering with a JSON line of the figures. Anything else
    printed goes to stderr."""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    lines = prepare(args.worker_url, args.worker_size, args)
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    for _ in sys.stdin:
        figures = {label: asdict(next(line)) for label, line in lines.items()}
        answers.write(json.dumps(figures) + "\n")
        answers.flush()


class Worker:
    """The parent's handle on a size's worker process."""

    def __init__(self, url: str, size: int) -> None:
        command = [sys.executable, __file__, *sys.argv[1:], "--worker-url", url,
                   "--worker-size", str(size)]  # fmt: skip
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)  # fmt: skip
        self.answer()  # ready

    def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"a worker stopped (exit code {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def round(self) -> dict[str, Figure]:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        return {label: Figure(**figure) for label, figure in self.answer().items()}

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000", help="finished games, comma-separated")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--turns", type=int, default=40, help="turns a finished game")
    parser.add_argument("--repeat", type=int, default=7, help="rounds: requests a line and size")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--slowest", action="store_true", help="print each one's slowest queries")
    parser.add_argument(
        "--keep", action="store_true",
        help="keep each size's database (<name>_scale_<size>) and reuse it when filled",
    )  # fmt: skip
    parser.add_argument("--worker-url", help=argparse.SUPPRESS)
    parser.add_argument("--worker-size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker_url:
        worker(args)
        return
    sizes = [int(size) for size in args.sizes.split(",")]
    base = os.environ.get("DATABASE_URL", "")
    print(f"database: {'PostgreSQL' if base.startswith('postgres') else 'SQLite'}", flush=True)
    results: dict[int, list[dict[str, Figure]]] = {size: [] for size in sizes}
    with ExitStack() as stack:
        workers = {}
        for size in sizes:  # one after the other: a fill uses the whole machine
            url = stack.enter_context(scratch_database(base, size, args.keep))
            workers[size] = Worker(url, size)
            stack.callback(workers[size].close)
        for number in range(args.repeat):  # the sizes interleaved: a load on the machine
            for size in sizes if number % 2 == 0 else sizes[::-1]:  # touches both alike
                results[size].append(workers[size].round())
    report(results, sizes, args.slowest)


def report(results: dict[int, list[dict[str, Figure]]], sizes: list[int], slowest: bool) -> None:
    """Each line's queries, median and fastest request at each size, and the ratios of the
    largest size's to the smallest's."""
    small, large = sizes[0], sizes[-1]
    labels = list(results[small][0])
    middle = {s: {k: median([r[k] for r in results[s]]) for k in labels} for s in sizes}
    fastest = {s: {k: min(r[k].seconds for r in results[s]) for k in labels} for s in sizes}
    width = max(len(label) for label in labels)
    head = "".join(f" {f'{size:,} games':>23}" for size in sizes)
    print(f"\n{'':{width}}{head}    ratio median, min  goal 1.2x")
    print(f"{'':{width}}{'  queries median ms min' * len(sizes)}")
    for label in labels:
        cells = "".join(
            f" {middle[s][label].queries:7d} {middle[s][label].seconds * 1000:9.1f}"
            f" {fastest[s][label] * 1000:5.1f}"
            for s in sizes
        )
        ratio = middle[large][label].seconds / middle[small][label].seconds
        low = fastest[large][label] / fastest[small][label]
        same = middle[large][label].queries == middle[small][label].queries
        verdict = "ok" if ratio <= 1.2 and same else "OVER"
        print(f"{label:{width}}{cells}    {ratio:6.2f} {low:5.2f}   {verdict}")
    if slowest:
        for label in labels:
            print(f"\n{label}: the slowest queries of the median request at {large:,} games")
            for seconds, sql in middle[large][label].slowest:
                print(f"  {seconds * 1000:7.1f} ms  {sql[:400]}")


if __name__ == "__main__":
    main()
