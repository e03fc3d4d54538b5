"""The broker down: a result write commits and answers at once, its follow-up recomputes are
recorded as owed, and running the owed tasks (what a worker does when it reconnects) catches the
standings up. The real worker's part is in test_worker_outages.py (PostgreSQL pass)."""

from __future__ import annotations

import socket
import time

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery_app import app as celery_app
from games import tasks
from games.models import OwedTask
from games.services import owed
from games.services import ratings as ratings_service
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.worker import forget_connections, free_port
from tournaments import services
from tournaments.models import Standing


@pytest.fixture(autouse=True)
def broker_trusted_again():
    owed._broker_down_until = 0.0
    yield
    owed._broker_down_until = 0.0


@pytest.fixture
def publish_times(monkeypatch):
    """The seconds each on-commit publish took (the time a request spends on the broker)."""
    times: list[float] = []
    publish = owed.task_publish

    def timed(*args):
        started = time.monotonic()
        publish(*args)
        times.append(time.monotonic() - started)

    monkeypatch.setattr(owed, "task_publish", timed)
    return times


def use_broker(url: str):
    import kombu.transport.redis  # noqa: F401  (imported once per process; not what is timed)

    saved = {k: celery_app.conf[k] for k in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url=url)
    forget_connections()
    return saved


@pytest.fixture
def dead_broker():
    """A broker URL on a loopback port where nothing listens: every connection is refused."""
    saved = use_broker(f"redis://127.0.0.1:{free_port()}/0")
    yield
    celery_app.conf.update(saved)
    forget_connections()


@pytest.fixture
def silent_broker():
    """A port that accepts connections (the kernel's backlog) but never answers: the broker
    host that swallows packets, where only a timeout ends the wait."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        saved = use_broker(f"redis://127.0.0.1:{listener.getsockname()[1]}/0")
        yield
        celery_app.conf.update(saved)
        forget_connections()


@pytest.fixture
def cup(db):
    """A running round robin of four (standings stored) and its first match to report."""
    organiser = UserFactory(username="organiser")
    tournament = services.tournament_create(
        user=organiser, name="Outage cup", format="round_robin", match_length=1
    )
    services.registration_open(tournament=tournament, user=organiser)
    for _ in range(4):
        services.entry_register(tournament=tournament, user=organiser, player=PlayerFactory())
    services.tournament_start(tournament=tournament, user=organiser)
    return tournament, organiser, tournament.matches.order_by("round", "index").first()


def report_win(cup, capture, row=None) -> tuple[float, object]:
    tournament, organiser, first = cup
    row = row or first
    client = APIClient()
    client.force_authenticate(user=organiser)
    url = reverse("games:result-list", kwargs={"pk": row.match_id})
    started = time.monotonic()
    with capture(execute=True):
        response = client.post(url, {"winner": row.entry_one.player_id, "points": 1}, format="json")
    elapsed = time.monotonic() - started
    assert response.status_code == 201, response.content
    return elapsed, row.entry_one


def wins(tournament, entry) -> int:
    row = Standing.objects.filter(tournament=tournament, entry=entry).first()
    return row.match_wins if row else 0


def owed_rows() -> list[tuple[str, list]]:
    return sorted((row.task, row.args) for row in OwedTask.objects.all())


def test_publishing_is_configured_to_fail_fast_and_tasks_to_survive_a_killed_worker():
    conf = celery_app.conf
    assert conf.task_publish_retry is False
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert conf.broker_transport_options == options
    assert options["max_retries"] == 0
    assert options["socket_connect_timeout"] <= 1 and options["socket_timeout"] <= 1
    assert 60 <= options["visibility_timeout"] <= 15 * 60
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    assert conf.beat_schedule["owed-tasks-run"]["task"] == "games.tasks.owed_tasks_run"


def test_a_result_write_does_not_wait_on_a_refusing_broker_and_owes_its_recomputes(
    cup, dead_broker, publish_times, django_capture_on_commit_callbacks
):
    tournament, first = cup[0], cup[2]
    _, winner = report_win(cup, django_capture_on_commit_callbacks)

    assert len(publish_times) == 2 and sum(publish_times) < 0.3  # was 1.5 s of publish retries
    assert owed_rows() == [
        ("games.tasks.ratings_update", [first.match_id]),  # rate that match (D63)
        ("tournaments.tasks.standings_recompute", [tournament.pk]),
    ]
    assert wins(tournament, winner) == 0  # committed, but not yet recomputed


def test_a_broker_that_never_answers_costs_one_timeout_then_none(
    cup, silent_broker, publish_times, django_capture_on_commit_callbacks
):
    tournament, _, first = cup
    report_win(cup, django_capture_on_commit_callbacks)
    assert 0.4 < publish_times[0] < 1  # the socket timeout (0.5 s) ends the wait
    assert publish_times[1] < 0.1  # then no more tries for BROKER_PAUSE_SECONDS: just owed

    second = tournament.matches.exclude(pk=first.pk).order_by("round", "index").first()
    report_win(cup, django_capture_on_commit_callbacks, row=second)
    assert len(publish_times) == 4 and sum(publish_times[2:]) < 0.1
    assert len(owed_rows()) == 4


def test_owed_tasks_catch_the_standings_up_once_each(
    cup, dead_broker, django_capture_on_commit_callbacks, monkeypatch
):
    tournament = cup[0]
    _, winner = report_win(cup, django_capture_on_commit_callbacks)
    owed.owed_task_record("tournaments.tasks.standings_recompute", [tournament.pk])  # again
    calls = []
    recompute = services.standings_recompute
    monkeypatch.setattr(
        services, "standings_recompute", lambda **kw: calls.append(kw) or recompute(**kw)
    )

    assert owed.owed_tasks_run() == 2  # what the worker's owed_tasks_run does

    assert len(calls) == 1  # owed twice, run once
    assert wins(tournament, winner) == 1
    assert OwedTask.objects.count() == 0
    assert owed.owed_tasks_run() == 0


def test_an_owed_task_that_fails_is_kept_and_an_unknown_one_dropped(db, monkeypatch):
    owed.owed_task_record("games.tasks.ratings_recompute", [])
    owed.owed_task_record("tournaments.tasks.renamed_meanwhile", [1])

    def broken() -> int:
        raise RuntimeError("still broken")

    monkeypatch.setattr(ratings_service, "ratings_recompute", broken)
    assert owed.owed_tasks_run() == 0
    assert owed_rows() == [("games.tasks.ratings_recompute", [])]

    monkeypatch.undo()
    assert tasks.owed_tasks_run.delay().get() == 1  # eager here, as without a broker
    assert owed_rows() == []


def test_a_failed_eager_recompute_is_owed_and_the_write_still_answers(
    cup, django_capture_on_commit_callbacks, monkeypatch
):
    def deadlocked(**kwargs):
        raise RuntimeError("deadlock")

    monkeypatch.setattr(services, "standings_recompute", deadlocked)
    report_win(cup, django_capture_on_commit_callbacks)
    assert owed_rows() == [("tournaments.tasks.standings_recompute", [cup[0].pk])]
