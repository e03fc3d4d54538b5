"""What one new turn costs the chances endpoint and the match page's fragment, early and late in a
game (docs/decisions.md D158, D160).

Issue 23 §4 wants the chance on a spectator's page within 1 s of the move, late in a long game as
early in it. For each ply of ``--plies`` the script plays an unrated match's first game (Tabla,
random legal plays through the services, the first seed whose game lasts past that ply) over a
throw-away SQLite database and file cache with the networks of ``--weights``, reads the
endpoint once (the series cached), then ``--repeat`` times plays one more turn and measures, in
CPU time of the process (the machine is shared):

- ``request``: ``GET /api/v1/matches/{id}/chances/`` as a spectator (Django's test client: the
  middleware, authentication, the match, the games, the series, the match table, rendering);
- ``request, after``: the same after one more turn, with ``?after=`` the cursor of the read
  before it (only the new points: docs/decisions.md D160);
- ``fragment`` / ``fragment, held``: the match page's live fragment (``/matches/{id}/live/``),
  whole, and with ``X-Replay-Held`` naming the turns of the fragment read one turn before
  (only the new replay frames and log rows: D160);
- ``points, new turn`` / ``points, cached``: ``chances.game_points`` after another new turn,
  then again (the cache's hit);
- ``match table``, ``to_json``: ``chances.match_chances`` and the answer's JSON over the points;
- what replaying the game from nothing costs, for comparison (what every new turn cost before
  D158): ``read turns`` (the game's Turn rows), ``replay`` (``games.replay.replay_log``, every
  play checked by the engine), ``evaluate`` (every position in batches of ``chances.CHUNK``).

Prints the median and the smallest of each, in ms, the endpoint's queries after a new turn, and
the size of the last whole fragment and chances answer, as sent and gzipped (as nginx sends them:
deploy/nginx/tabla.conf).

    .venv/bin/python bench/chances_turn.py [--plies 10,50,100,150] [--repeat 8] [--weights weights]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def setup(scratch: str, weights: Path) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=f"sqlite:///{scratch}/db.sqlite3",
        CACHE_URL=f"file://{scratch}/cache",
        TABLA_WEIGHTS_DIR=str(weights),
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="ERROR",
        DJANGO_LOG_LEVEL="ERROR",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class Cpu:
    """The process's CPU time over a ``with`` block, in ms (``.ms``)."""

    ms = 0.0

    def __enter__(self) -> Cpu:
        self.start = time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.ms = (time.process_time() - self.start) * 1000


def client_data(response: Any) -> dict[str, Any]:
    """The live fragment's client data (its ``client-data`` JSON), as match.js reads it."""
    html = response.content.decode()
    start = html.index(">", html.index('id="client-data"')) + 1
    data: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return data


def measure(ply: int, repeat: int) -> tuple[int, int, dict[str, list[float]]]:
    """The figures of ``repeat`` new turns after ``ply`` (fewer if the game ends first): the
    game's turns at the first read, the endpoint's queries after a new turn, the figures."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.models import Max
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games import chances, replay, services
    from games.demo import game_play_random
    from games.models import Turn
    from games.state import match_options
    from players.models import Player

    user = get_user_model()
    organiser = user.objects.create_user(username=f"organiser{ply}")
    spectator = user.objects.create_user(username=f"spectator{ply}")
    one, two = (
        Player.objects.create(user=user.objects.create_user(username=f"{n}{ply}"), display_name=n)
        for n in ("one", "two")
    )
    for seed in range(1000):  # the first seed whose game is still on at ``ply``
        match = services.match_create(
            creator=organiser, player_one=one, player_two=two, rated=False
        )
        game = game_play_random(game=match.games.get(), rng=random.Random(seed), max_decisions=ply)
        if not game.is_over:
            break
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(spectator)
    url = reverse("games:match-chances", kwargs={"pk": match.pk})
    assert client.get(url).status_code == 200  # the evaluator loaded, the series cached
    turns_at_start = Turn.objects.filter(game=game).count()
    rng = random.Random(seed + 1)
    figures: dict[str, list[float]] = {}
    sizes: dict[str, tuple[int, int]] = {}
    queries = 0

    def add(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    live = reverse("web:match-live", kwargs={"pk": match.pk})
    held = client_data(client.get(live))["replay_key"]
    for _ in range(repeat):
        game = game_play_random(game=game, rng=rng, max_decisions=1)
        if game.is_over:
            break
        with CaptureQueriesContext(connection) as captured, Cpu() as cpu:
            answer = client.get(url)
        assert answer.status_code == 200
        queries = len(captured.captured_queries)
        add("request", cpu.ms)
        sizes["chances"] = (len(answer.content), len(gzip.compress(answer.content)))
        cursor = answer.json()["cursor"]
        game = game_play_random(game=game, rng=rng, max_decisions=1)
        if game.is_over:
            break
        with Cpu() as cpu:
            answer = client.get(f"{url}?after={cursor}")
        assert answer.json()["incremental"]
        add("request, after", cpu.ms)
        with Cpu() as cpu:
            page = client.get(live)
        add("fragment", cpu.ms)
        sizes["fragment"] = (len(page.content), len(gzip.compress(page.content)))
        with Cpu() as cpu:
            part = client.get(live, headers={"X-Replay-Held": held})
        assert client_data(part)["replay_from"]
        add("fragment, held", cpu.ms)
        held = client_data(page)["replay_key"]
        game = game_play_random(game=game, rng=rng, max_decisions=1)
        if game.is_over:
            break
        read = match.games.annotate(
            last_turn=Max("turns__pk"), last_made=Max("turns__created_at")
        ).get(pk=game.pk)
        with Cpu() as cpu:
            points = chances.game_points(match, read, read.last_turn, read.last_made)
        add("points, new turn", cpu.ms)
        with Cpu() as cpu:
            chances.game_points(match, read, read.last_turn, read.last_made)
        add("points, cached", cpu.ms)
        with Cpu() as cpu:
            shown = chances.match_chances(match, [read], points)
        add("match table", cpu.ms)
        with Cpu() as cpu:
            chances.MatchChances(match, shown, 0, False).to_json()
        add("to_json", cpu.ms)
        # What a new turn cost before D158: the whole log read, replayed and evaluated.
        network = chances.evaluator(game.variant)
        assert network is not None
        options = match_options(match)
        with Cpu() as cpu:
            turns = list(Turn.objects.filter(game=game).order_by("ply"))
        add("read turns", cpu.ms)
        with Cpu() as cpu:
            positions = [s.position_after for s in replay.replay_log(game.variant, options, turns)]
        add("replay", cpu.ms)
        with Cpu() as cpu:
            for first in range(0, len(positions), chances.CHUNK):
                batch = positions[first : first + chances.CHUNK]
                chances.position_chances(network, game.variant, batch, options)
        add("evaluate", cpu.ms)
    return turns_at_start, queries, figures, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", default="10,50,100,150", help="the game's plies measured at")
    parser.add_argument("--repeat", type=int, default=8, help="new turns measured at each")
    parser.add_argument(
        "--weights", type=Path, default=ROOT / "weights", help="the networks (TABLA_WEIGHTS_DIR)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chances-turn-") as scratch:
        setup(scratch, args.weights.resolve())
        print(f"weights: {args.weights}; load average {os.getloadavg()}")
        print("CPU ms a figure: median (smallest)")
        for ply in (int(p) for p in args.plies.split(",")):
            turns, queries, figures, sizes = measure(ply, args.repeat)
            print(f"at ~{turns} turns: {len(figures.get('request', []))} reads, {queries} queries")
            for name, values in figures.items():
                print(f"  {name:18s} {statistics.median(values):7.2f} ({min(values):.2f})")
            for name, (size, packed) in sizes.items():
                print(f"  {name} whole: {size / 1000:.1f} KB, {packed / 1000:.1f} KB gzipped")


if __name__ == "__main__":
    main()
