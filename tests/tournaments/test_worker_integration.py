"""Real Celery on Redis: a result reported through the API reaches a worker process, which
updates the stored standings. Needs redis-server and PostgreSQL (CI's second pass), because the
worker must see the test database; elsewhere it is skipped with the reason."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery_app import app as celery_app
from tests.tournaments.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Standing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the worker must share the test database: runs in the PostgreSQL pass only",
    ),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds}s waiting for {what}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def database_url() -> str:
    db = settings.DATABASES["default"]  # NAME is pytest-django's test_ database by now
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


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


def forget_connections() -> None:
    """Drop pooled broker connections made under the eager settings (they point at localhost)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


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
