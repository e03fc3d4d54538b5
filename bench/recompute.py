"""The full ratings recompute as the club's history grows (docs/decisions.md D77): how long it
takes, how long its longest transaction holds the runs' mutex (the first player row, which every
match's rating update waits for), and what a tournament correction costs its request.

For each size the script makes a fresh database as bench/scale.py does (``fill``: finished rated
matches of three games), then measures:

- ``rate all``: the first recompute, which writes the whole history;
- ``run again``: a recompute with nothing changed;
- ``after a correction``: a recompute after the winner of a match half-way through the history
  changed (what a correction of an old result costs the worker);
- ``near the end, whole`` / ``near the end, from its point``: the same for a match at
  ``--near-end`` of the history, by the whole recompute then (the change made back) by the
  recompute from that match's point that a correction runs (docs/decisions.md D137);
- ``correction request, eager``: ``POST /api/v1/tournaments/{id}/matches/{mid}/correct/`` with
  tasks run in process (no broker: ``make run``), the recompute at its commit included;
- ``correction request, broker``: the same request with a broker, the recompute published.

Each figure is the total time and the longest transaction (of the ratings service; a request's
figure is the median of ``--repeat``). Run:

    .venv/bin/python bench/recompute.py [--sizes 2000,20000] [--players 100]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tabla .venv/bin/python bench/recompute.py
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale import fill, scratch_database, setup_django  # noqa: E402


class Transactions:
    """Times the outermost transactions the ratings service opens."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.count = 0

    @contextmanager
    def atomic(self) -> Iterator[None]:
        from django.db import connection, transaction

        if connection.in_atomic_block:  # a nested block: counted with its outer one
            with transaction.atomic():
                yield
            return
        started = time.perf_counter()
        with transaction.atomic():
            yield
        self.longest = max(self.longest, time.perf_counter() - started)
        self.count += 1


def timed(action: Callable[[], Any]) -> tuple[float, float, int]:
    """(total seconds, longest transaction, transactions) of ``action``."""
    from games.services import ratings

    spy = Transactions()
    saved = ratings.transaction
    ratings.transaction = spy  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        action()
        total = time.perf_counter() - started
    finally:
        ratings.transaction = saved
    return total, spy.longest, spy.count


def median(action: Callable[[], Any], repeat: int) -> tuple[float, float, int]:
    """The run of ``action`` with the median total time of ``repeat``."""
    runs = sorted((timed(action) for _ in range(repeat)), key=lambda run: run[0])
    return runs[len(runs) // 2]


def cup_final(organiser: Any, client: Any) -> Any:
    """A two-player over-the-board cup whose final was reported: its TournamentMatch row."""
    from players.models import Player
    from tournaments import services
    from tournaments.models import TournamentMatch

    cup = services.tournament_create(
        user=organiser, name="Recompute cup", match_length=1, match_mode="over_the_board",
        format="single_elimination",
    )  # fmt: skip
    services.registration_open(tournament=cup, user=organiser)
    for player in Player.objects.filter(display_name__startswith="scale-").order_by("pk")[:2]:
        services.entry_register(tournament=cup, user=organiser, player=player)
    services.tournament_start(tournament=cup, user=organiser)
    row = TournamentMatch.objects.select_related("entry_one").get(tournament=cup)
    body = {"winner": row.entry_one.player_id, "points": 1}
    url = f"/api/v1/matches/{row.match_id}/results/"
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 201, response.content
    row.refresh_from_db()
    return row


def correction(client: Any, row: Any) -> Callable[[], None]:
    def send() -> None:
        row.refresh_from_db()
        loser = row.entry_two_id if row.winner_id == row.entry_one_id else row.entry_one_id
        url = f"/api/v1/tournaments/{row.tournament_id}/matches/{row.pk}/correct/"
        response = client.post(url, {"winner": loser}, content_type="application/json")
        assert response.status_code == 200, response.content

    return send


def run(url: str, games: int, args: argparse.Namespace) -> dict[str, tuple[float, float, int]]:
    setup_django(url)
    from celery.app.task import Task
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from config.celery_app import app as celery_app
    from games.models import Match
    from games.services import ratings

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    fill(games, args.players, 1, rng)
    figures = {"rate all": timed(ratings.ratings_recompute)}
    figures["run again"] = timed(ratings.ratings_recompute)
    matches = Match.objects.filter(status=Match.Status.FINISHED).order_by("pk")
    middle = matches[matches.count() // 2]
    other = middle.player_two if middle.winner_id == middle.player_one_id else middle.player_one
    Match.objects.filter(pk=middle.pk).update(winner=other)
    figures["after a correction"] = timed(ratings.ratings_recompute)
    # A correction near the end (at ``--near-end`` of the overall history): the whole recompute,
    # then the same change made back and recomputed from the match's point (D137).
    late = matches[int(matches.count() * args.near_end)]
    winner = late.winner
    other = late.player_two if late.winner_id == late.player_one_id else late.player_one
    Match.objects.filter(pk=late.pk).update(winner=other)
    figures["near the end, whole"] = timed(ratings.ratings_recompute)
    Match.objects.filter(pk=late.pk).update(winner=winner)
    figures["near the end, from its point"] = timed(
        lambda: ratings.ratings_recompute(from_match=late.pk)
    )

    organiser = get_user_model().objects.create_user("recompute-organiser", password="x")
    organiser.is_staff = True
    organiser.save()
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    row = cup_final(organiser, client)
    ratings.ratings_recompute()
    correction(client, row)()  # warm-up
    figures["correction request, eager"] = median(correction(client, row), args.repeat)
    eager, publish = celery_app.conf.task_always_eager, Task.apply_async
    celery_app.conf.update(task_always_eager=False)
    Task.apply_async = lambda self, *a, **kw: None  # type: ignore[method-assign]
    try:
        figures["correction request, broker"] = median(correction(client, row), args.repeat)
    finally:
        celery_app.conf.update(task_always_eager=eager)
        Task.apply_async = publish  # type: ignore[method-assign]
    from django.db import connections

    connections.close_all()  # so that the scratch database can be dropped
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="2000,20000", help="finished games, comma-separated")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5, help="requests a median")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument(
        "--near-end", type=float, default=0.95, help="where the late correction is (0 to 1)"
    )
    args = parser.parse_args()
    os.environ.setdefault("CELERY_BROKER_URL", "")  # tasks run in process unless patched
    base = os.environ.get("DATABASE_URL", "")
    print(f"database: {'PostgreSQL' if base.startswith('postgres') else 'SQLite'}")
    for size in [int(size) for size in args.sizes.split(",")]:
        with scratch_database(base, size, False) as url:
            figures = run(url, size, args)
        print(f"{size:,} finished games")
        for label, (total, longest, count) in figures.items():
            print(
                f"  {label:28} {total * 1000:9.0f} ms   longest transaction "
                f"{longest * 1000:7.0f} ms of {count}"
            )


if __name__ == "__main__":
    main()
