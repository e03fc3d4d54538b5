"""A hung Redis (a real redis-server stopped with SIGSTOP: its kernel accepts and acknowledges,
nothing answers) as the cache, the Celery broker and the channel layer: every request still
answers within a bounded time and nothing it wrote is lost. A Redis that refuses connections is
tested beside each (tests/test_login_limits.py, tests/tournaments/test_owed_tasks.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from common import push
from config import cache as cache_module
from config.cache import cache_from_url
from config.celery_app import app as celery_app
from config.layers import channel_layer_from_url
from games.models import Match, OwedTask
from games.services import owed
from tests.outage import freezable_redis, timed
from tests.tournaments.worker import forget_connections

TOKEN = "/api/v1/auth/token/"


@pytest.fixture
def redis(tmp_path):
    with freezable_redis(tmp_path) as server:
        yield server


@pytest.fixture
def redis_cache(redis, settings, monkeypatch):
    """The shared cache on ``redis``, trusted afresh."""
    settings.CACHES = {"default": cache_from_url(redis.url, Path("/unused"))}
    monkeypatch.setattr(cache_module, "_down_until", 0.0)
    return redis


def test_a_frozen_cache_costs_one_short_timeout_then_nothing(alice, bob, redis_cache):
    """Before: redis-py's 5 s socket timeout on every throttle read and write, and no back-off:
    a GET took 10 s, a write 20 s, a token login 45 s."""
    token = Token.objects.create(user=alice.user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(reverse("games:match-list")).status_code == 200  # connected, counted

    redis_cache.freeze()
    with timed() as first:
        assert client.get(reverse("games:match-list")).status_code == 200
    body = {"player_one": alice.pk, "player_two": bob.pk, "start": False}
    with timed() as write:
        response = client.post(reverse("games:match-list"), body, format="json")
    assert response.status_code == 201
    written = response.json()["id"]
    with timed() as login:
        response = APIClient().post(
            TOKEN, {"username": "alice", "password": "password"}, format="json"
        )
    assert response.status_code == 200 and response.json()["token"] == token.key

    assert first[0] < 1.5  # one socket timeout (0.25 s), then Redis is skipped
    assert write[0] < 1.0 and login[0] < 1.0  # before: 20 s and 25 s
    assert Match.objects.filter(pk=written).exists()  # the write stands


def test_the_cache_is_asked_again_after_the_pause(alice, redis_cache, monkeypatch):
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    client = APIClient()
    redis_cache.freeze()
    for _ in range(4):  # unthrottled while Redis hangs (the throttle fails open)
        assert client.get(reverse("games:match-list")).status_code == 200
    redis_cache.thaw()
    assert cache_module._down_until > time.monotonic()
    monkeypatch.setattr(cache_module, "_down_until", 0.0)  # the pause has passed
    for _ in range(2):
        assert client.get(reverse("games:match-list")).status_code == 200
    assert client.get(reverse("games:match-list")).status_code == 429  # counting again


@pytest.fixture
def redis_broker(redis):
    import kombu.transport.redis  # noqa: F401  (imported once per process; not what is timed)

    saved = {k: celery_app.conf[k] for k in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url=redis.url)
    forget_connections()
    owed._broker_down_until = 0.0
    try:
        yield redis
    finally:
        celery_app.conf.update(saved)
        forget_connections()
        owed._broker_down_until = 0.0


def test_a_frozen_broker_costs_one_short_timeout_and_the_tasks_are_owed(
    db, redis_broker, django_capture_on_commit_callbacks
):
    from games import tasks

    with django_capture_on_commit_callbacks(execute=True):
        owed.task_enqueue_on_commit(tasks.ratings_update)  # connects while Redis answers
    assert OwedTask.objects.count() == 0

    redis_broker.freeze()
    times = []
    for _ in range(3):
        with timed() as took, django_capture_on_commit_callbacks(execute=True):
            owed.task_enqueue_on_commit(tasks.ratings_update)
        times.extend(took)

    assert times[0] < 0.95  # the socket timeout (0.5 s; before 1 s), then the broker is skipped
    assert times[1] < 0.1 and times[2] < 0.1
    assert OwedTask.objects.count() == 3  # nothing lost: all owed


def test_a_frozen_channel_layer_never_holds_a_write(alice, bob, redis, settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(redis.url)}
    monkeypatch.setattr(push, "_down_until", 0.0)
    monkeypatch.setattr("channels.layers.channel_layers.backends", {})
    push.send_to_group("match.1", "{}")
    push.pushes_wait_until_sent(2)  # the sender thread's connection is open
    assert push._down_until == 0.0

    client = APIClient()
    client.force_authenticate(user=alice.user)
    body = {"player_one": alice.pk, "player_two": bob.pk, "start": False}
    assert client.post(reverse("games:match-list"), body, format="json").status_code == 201
    push.pushes_wait_until_sent(2)  # a first write, pushed while Redis answers

    redis.freeze()
    with timed() as write:
        response = client.post(reverse("games:match-list"), body, format="json")
    assert response.status_code == 201 and write[0] < 1.0
    push.send_to_group("match.1", "{}")
    with timed() as waited:
        push.pushes_wait_until_sent(3)
    assert waited[0] < 1.5  # the send gave up after SEND_TIMEOUT_SECONDS
    assert push._down_until > time.monotonic()  # and pushes pause
