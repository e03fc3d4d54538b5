"""Real Celery workers on a real Redis through outages: the broker going away and coming back
(owed recomputes are caught up when the worker reconnects), a worker killed with SIGKILL in the
middle of a task, and a pool process killed mid-task (late acks: the task runs to completion on
the next delivery). PostgreSQL pass only, like test_worker_integration.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery_app import app as celery_app
from games.models import OwedTask
from games.services import owed
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.worker import (
    WORKER_MARKS,
    database_url,
    forget_connections,
    free_port,
    stop,
    wait_until,
)
from tournaments import services, tasks
from tournaments.models import Standing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = WORKER_MARKS
VISIBILITY_TIMEOUT = 2  # seconds, for these workers only: a lost task is handed out again soon


class Redis:
    """A redis-server on a fixed loopback port that can be stopped and started again."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = tmp_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until(self.answers, 10, "redis-server")

    def answers(self) -> bool:
        import socket

        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", self.port)) == 0

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


@pytest.fixture
def redis(tmp_path):
    server = Redis(tmp_path)
    server.start()
    saved = {k: celery_app.conf[k] for k in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url=server.url)
    forget_connections()
    owed._broker_down_until = 0.0
    try:
        yield server
    finally:
        celery_app.conf.update(saved)
        forget_connections()
        owed._broker_down_until = 0.0
        server.stop()


@pytest.fixture
def workers(redis, transactional_db, tmp_path):
    """Starts workers on ``redis``; each with the test-only slow-once hook; all stopped after."""
    started: list[subprocess.Popen] = []
    marker = tmp_path / "slow-once.pid"

    def start(name: str, *, pool: str = "solo", slow_once: bool = False) -> Path:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "CELERY_TEST_REAL_BROKER": "1",
            "CELERY_BROKER_URL": redis.url,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "DATABASE_URL": database_url(),
        }
        if slow_once:
            env["TABLA_TEST_SLOW_ONCE"] = str(marker)
        log = tmp_path / f"{name}.log"
        with log.open("w") as out:
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", pool,
                     "--concurrency", "1", "--include", "tests.tournaments.worker_hooks",
                     "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
                     "-n", f"{name}@%h"],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        wait_until(lambda: "ready" in log.read_text(), 30, f"the Celery worker {name}")
        return log

    start.marker = marker  # type: ignore[attr-defined]
    start.processes = started  # type: ignore[attr-defined]
    try:
        yield start
    finally:
        for process in started:
            stop(process)


def cup_started(organiser):
    """A running round robin of four; its standings computed at once (tasks run eagerly)."""
    celery_app.conf.task_always_eager = True
    try:
        return _cup(organiser)
    finally:
        celery_app.conf.task_always_eager = False


def _cup(organiser):
    tournament = services.tournament_create(
        user=organiser, name="Outage cup", format="round_robin", match_length=1
    )
    services.registration_open(tournament=tournament, user=organiser)
    for _ in range(4):
        services.entry_register(tournament=tournament, user=organiser, player=PlayerFactory())
    services.tournament_start(tournament=tournament, user=organiser)
    return tournament


def show_logs_on_failure(logs: list[Path], check, seconds: float, what: str) -> None:
    try:
        wait_until(check, seconds, what)
    except AssertionError:
        for log in logs:
            print(f"==== {log.name}\n{log.read_text()}")
        raise


def test_owed_recomputes_run_when_the_broker_comes_back(redis, workers):
    organiser = UserFactory(username="organiser")
    tournament = cup_started(organiser)
    log = workers("w1")
    row = tournament.matches.order_by("round", "index").first()
    winner = row.entry_one

    redis.stop()  # the broker goes away; the worker keeps trying to reconnect
    client = APIClient()
    client.force_authenticate(user=organiser)
    url = reverse("games:result-list", kwargs={"pk": row.match_id})
    started = time.monotonic()
    response = client.post(url, {"winner": winner.player_id, "points": 1}, format="json")
    assert response.status_code == 201, response.content
    assert time.monotonic() - started < 2  # the write did not wait on the broker
    assert OwedTask.objects.count() == 2  # standings and ratings are owed

    redis.start()  # back on the same port: the worker reconnects and runs what is owed

    def caught_up() -> bool:
        stored = Standing.objects.filter(tournament=tournament, entry=winner).first()
        return stored is not None and stored.match_wins == 1 and not OwedTask.objects.exists()

    show_logs_on_failure([log], caught_up, 40, "the owed recomputes after the broker's return")
    assert "games.tasks.owed_tasks_run" in log.read_text()


def test_a_task_survives_its_worker_killed_mid_task(redis, workers):
    """SIGKILL of the whole worker (its main process and the pool process running the task):
    the task, acknowledged only after it has run, stays in Redis and is handed to the next
    worker once the visibility timeout has passed."""
    tournament = cup_started(UserFactory(username="organiser"))
    Standing.objects.filter(tournament=tournament).delete()
    first = workers("w1", pool="prefork", slow_once=True)

    tasks.standings_recompute.delay(tournament.pk)
    wait_until(workers.marker.exists, 20, "the task to start")  # it now sleeps, mid-task
    time.sleep(0.5)  # time for the worker to have acknowledged it, were acks early
    main = workers.processes[0]
    os.kill(main.pid, signal.SIGKILL)
    os.kill(int(workers.marker.read_text()), signal.SIGKILL)
    main.wait(timeout=10)
    time.sleep(VISIBILITY_TIMEOUT + 0.5)

    second = workers("w2")
    show_logs_on_failure(
        [first, second],
        lambda: Standing.objects.filter(tournament=tournament).count() == 4,
        30,
        "the killed task to run on the next worker",
    )
    assert "tournaments.tasks.standings_recompute" in second.read_text()


def test_a_task_survives_its_pool_process_killed_mid_task(redis, workers):
    """SIGKILL of the pool process running the task: the worker requeues it at once
    (reject on worker lost) and runs it again."""
    tournament = cup_started(UserFactory(username="organiser"))
    Standing.objects.filter(tournament=tournament).delete()
    log = workers("w1", pool="prefork", slow_once=True)

    tasks.standings_recompute.delay(tournament.pk)
    wait_until(workers.marker.exists, 20, "the task to start")
    pid = int(workers.marker.read_text())
    assert pid != workers.processes[0].pid  # a pool process, not the worker
    os.kill(pid, signal.SIGKILL)

    show_logs_on_failure(
        [log],
        lambda: Standing.objects.filter(tournament=tournament).count() == 4,
        30,
        "the requeued task to run again",
    )
