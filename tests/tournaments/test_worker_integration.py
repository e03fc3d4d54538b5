"""Real Celery on Redis: a result reported through the API reaches a worker process, which
updates the stored standings. Needs redis-server and PostgreSQL (CI's second pass), because the
worker must see the test database; elsewhere it is skipped with the reason."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery_app import app as celery_app
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.worker import (
    WORKER_MARKS,
    database_url,
    forget_connections,
    free_port,
    stop,
    wait_until,
)
from tournaments import services
from tournaments.models import Standing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = WORKER_MARKS


@pytest.fixture
def broker(tmp_path):
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"

    def answers() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    try:
        wait_until(answers, 10, "redis-server")
        yield url
    finally:
        stop(redis)


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
