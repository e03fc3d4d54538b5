"""The production layout on one machine: two uvicorn processes on one PostgreSQL and one Redis
(channel layer, cache and broker), as docs/deploy.md lays it out. A play sent to process A
reaches a spectator whose socket is on process B; ``kill -9`` of process A under load loses no
write it accepted, and every game still replays. (A clock's time-out ended by the Celery worker
with no request: tests/tournaments/test_worker_integration.py.) PostgreSQL pass only, like the
worker tests: the processes must share the test database."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from games import selectors
from games import services as games_services
from games.models import Match, Turn
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.worker import (
    WORKER_MARKS,
    database_url,
    free_port,
    redis_server,
    stop,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [*WORKER_MARKS, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_url(tmp_path):
    with redis_server(tmp_path) as url:
        yield url


class Web:
    """One uvicorn process of the project, as production runs it (several of them)."""

    def __init__(self, redis: str, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DEBUG": "0",
            "DATABASE_URL": database_url(),
            "CHANNEL_LAYER_URL": f"{redis}/3",
            "CACHE_URL": f"{redis}/2",
            "CELERY_BROKER_URL": f"{redis}/0",
            "THROTTLE_RATE_ANON": "100000/second",
            "THROTTLE_RATE_USER": "100000/second",
            "THROTTLE_RATE_WRITES": "100000/second",
        }
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host",
                 "127.0.0.1", "--port", str(self.port), "--lifespan", "off"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            wait_until(self.healthy, 30, f"uvicorn on {self.port}")
        except AssertionError:
            stop(self.process)
            print(log.read_text())
            raise

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as answer:
                return answer.status == 200
        except OSError:
            return False

    def post(self, path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body or {}).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())  # type: ignore[no-any-return]


@pytest.fixture
def web_pair(redis_url, tmp_path):
    one = Web(redis_url, tmp_path / "web-a.log")
    try:
        two = Web(redis_url, tmp_path / "web-b.log")
    except BaseException:
        stop(one.process)
        raise
    try:
        yield one, two
    finally:
        stop(one.process)
        stop(two.process)


def online_match() -> tuple[Match, dict[int, str]]:
    """An online public match between two players with accounts; their tokens by player pk."""
    staff = UserFactory(is_staff=True)
    one, two = PlayerFactory(), PlayerFactory()
    match = games_services.match_create(creator=staff, player_one=one, player_two=two)
    tokens = {p.pk: Token.objects.create(user=p.user).key for p in (one, two)}
    return match, tokens


def decide_over_http(web: Web, match: Match, tokens: dict[int, str]) -> tuple[int, int]:
    """The player to move in the match's current game rolls or plays the first legal play
    through ``web``: (game, ply) of a play, (game, 0) of a roll, (0, 0) when the match is over."""
    game = selectors.current_game(match)
    if game is None:
        return 0, 0
    player = selectors.player_to_move(game)
    token = tokens[player.pk]
    if selectors.is_roll_due(game):
        web.post(f"/api/v1/games/{game.pk}/roll/", token)
        return game.pk, 0
    play = selectors.game_legal_plays(game)[0].play
    web.post(f"/api/v1/games/{game.pk}/plays/", token, {"ply": game.ply, "moves": play.to_json()})
    return game.pk, game.ply


def test_a_play_sent_to_one_process_reaches_a_spectator_on_the_other(web_pair):
    a, b = web_pair
    match, tokens = online_match()

    async def spectate() -> tuple[dict[str, Any], dict[str, Any]]:
        url = f"ws://127.0.0.1:{b.port}/ws/matches/{match.pk}/"
        async with websockets.connect(url, origin=b.url, open_timeout=10) as socket:
            first = json.loads(await asyncio.wait_for(socket.recv(), 10))  # the current version
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, decide_over_http, a, match, tokens)
            news = json.loads(await asyncio.wait_for(socket.recv(), 10))
            return first, news

    first, news = asyncio.run(spectate())
    assert news != first  # B told its spectator of A's write, with no poll
    assert selectors.current_game(match).dice is not None  # the roll A answered is stored


def test_kill_9_of_a_web_process_under_load_loses_no_accepted_write(web_pair):
    a, b = web_pair
    matches = [online_match() for _ in range(4)]
    accepted: list[tuple[int, int]] = []  # (game, ply) of every play answered 200
    errors: list[BaseException] = []
    stop_at = time.monotonic() + 30

    def load(match: Match, tokens: dict[int, str]) -> None:
        while time.monotonic() < stop_at:
            try:
                game, ply = decide_over_http(a, match, tokens)
            except OSError:  # A was killed (URLError is an OSError): the load stops
                return
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)
                return
            if not game:
                return
            if ply:
                accepted.append((game, ply))

    threads = [threading.Thread(target=load, args=pair) for pair in matches]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(accepted) >= 12, 30, "plays to be accepted")
    a.process.send_signal(signal.SIGKILL)
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert b.healthy()  # the other process serves on
    logged = set(Turn.objects.values_list("game_id", "ply"))
    assert set(accepted) <= logged, "an accepted play is missing from the turn log"
    games = sorted({str(game) for game, _ in accepted})
    call_command("verify_games", *games)  # every game still replays from its turns
    match, tokens = matches[0]
    decide_over_http(b, match, tokens)  # and the match goes on through process B
