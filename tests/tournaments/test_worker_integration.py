"""Real Celery on Redis: a result reported through the API reaches a worker process, which
updates the stored standings; a match clock that runs out is ended by the worker with no
request, by its deadline task or, when that task was lost, by the sweep. Needs redis-server and
PostgreSQL (CI's second pass), because the worker must see the test database; elsewhere it is
skipped with the reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery_app import app as celery_app
from games import services as games_services
from games import tasks as games_tasks
from games.models import Match
from games.services import _steps as steps
from games.services import clock as clock_services
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.worker import (
    WORKER_MARKS,
    database_url,
    forget_connections,
    redis_server,
    stop,
    wait_until,
)
from tournaments import services
from tournaments.models import Standing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = WORKER_MARKS


@pytest.fixture
def broker(tmp_path):
    with redis_server(tmp_path) as url:
        yield f"{url}/0"


@pytest.fixture
def worker(broker, transactional_db, tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "CELERY_TEST_REAL_BROKER": "1",
        "CELERY_BROKER_URL": broker,
        "DATABASE_URL": database_url(),
    }
    log = tmp_path / "worker.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    saved = {k: celery_app.conf[k] for k in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url=broker)
    forget_connections()
    try:
        wait_until(lambda: "ready" in log.read_text(), 30, "the Celery worker")
        yield log
    finally:
        celery_app.conf.update(saved)
        forget_connections()
        stop(process)


def test_a_reported_result_updates_the_standings_on_the_worker(worker):
    organiser = UserFactory(username="organiser")
    players = [PlayerFactory() for _ in range(4)]
    tournament = services.tournament_create(
        user=organiser, name="Worker cup", format="round_robin", match_length=1
    )
    services.registration_open(tournament=tournament, user=organiser)
    for player in players:
        services.entry_register(tournament=tournament, user=organiser, player=player)
    services.tournament_start(tournament=tournament, user=organiser)
    row = tournament.matches.order_by("round", "index").first()
    winner = row.entry_one

    client = APIClient()
    client.force_authenticate(user=organiser)
    url = reverse("games:result-list", kwargs={"pk": row.match_id})
    response = client.post(url, {"winner": winner.player_id, "points": 1}, format="json")
    assert response.status_code == 201, response.content

    def standings_updated() -> bool:
        stored = Standing.objects.filter(tournament=tournament, entry=winner).first()
        return stored is not None and stored.match_wins == 1

    try:
        wait_until(standings_updated, 45, "the worker to store the standings")
    except AssertionError:
        print(worker.read_text())
        raise
    assert "tournaments.tasks.standings_recompute" in worker.read_text()


def clocked_match() -> Match:
    """An online 1-point match whose clock runs out 10 s after it starts (no delay)."""
    staff = UserFactory(username="staff", is_staff=True)
    return games_services.match_create(
        creator=staff,
        player_one=PlayerFactory(),
        player_two=PlayerFactory(),
        target_score=1,
        clock={"per_point_seconds": 10, "delay_seconds": 0},
    )


def lost_on_time(match: Match) -> bool:
    return Match.objects.get(pk=match.pk).ended_by == Match.EndedBy.TIME


def test_the_worker_ends_a_match_on_time_with_no_request(worker):
    match = clocked_match()  # its deadline task is published with the match's commit
    try:
        wait_until(lambda: lost_on_time(match), 40, "the worker to end the match on time")
    except AssertionError:
        print(worker.read_text())
        raise
    assert "games.tasks.match_time_out" in worker.read_text()


def test_the_sweep_ends_a_clock_whose_deadline_task_was_lost(worker, monkeypatch):
    monkeypatch.setattr(steps, "deadline_publish", lambda pk, deadline: None)
    match = clocked_match()
    wait_until(
        lambda: Match.objects.get(pk=match.pk).clock_deadline < clock_services.clock.now(),
        20,
        "the deadline to pass",
    )
    assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS
    games_tasks.clocks_sweep.delay()  # as beat publishes it every CLOCK_SWEEP_SECONDS
    try:
        wait_until(lambda: lost_on_time(match), 40, "the sweep to end the match on time")
    except AssertionError:
        print(worker.read_text())
        raise
