"""A hung PostgreSQL (its processes stopped with SIGSTOP: the kernel accepts connections and
acknowledges what is sent, nothing answers) answers the same clean 503 as a stopped one, within a
few seconds, and loses nothing: the interrupted write was not committed, and once the server
answers again the retry succeeds (config/postgresql_bounded). PostgreSQL pass only: the test's
own connection is to CI's server, whose backend and postmaster it freezes and always thaws."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from config.database import postgresql_bounded, query_deadline
from config.postgresql_bounded.base import HEALTH_CHECK_SECONDS
from games.models import Match
from tests.outage import timed

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="freezes a PostgreSQL server: PostgreSQL pass only"
)


def backend_pids() -> tuple[int, int]:
    """The server process of this test's connection, and the postmaster (its parent)."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = int(cursor.fetchone()[0])
    with open(f"/proc/{pid}/stat") as stat:
        parent = int(stat.read().rsplit(")", 1)[1].split()[1])
    return pid, parent


@contextmanager
def frozen(*pids: int) -> Iterator[None]:
    stopped = []
    try:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGSTOP)
            except PermissionError:
                if os.environ.get("CI"):
                    raise
                pytest.skip("cannot signal the PostgreSQL server (run as its user or root)")
            stopped.append(pid)
        yield
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
        connection.close()  # the cut-off connection; the next query opens a new one


@pytest.fixture
def deadline(settings):
    """A one-second client deadline, so the test is quick (the default is 6 s)."""
    settings.DATABASE_QUERY_DEADLINE = 1.0
    return 1.0


@postgresql_only
def test_a_hung_query_answers_a_clean_503_and_loses_nothing(transactional_db, alice, bob, deadline):
    client = APIClient()
    client.force_authenticate(user=alice.user)
    body = {"player_one": alice.pk, "player_two": bob.pk, "start": False}
    backend, _ = backend_pids()
    with frozen(backend), timed() as took:
        response = client.post(reverse("games:match-list"), body, format="json")

    assert response.status_code == 503, response.content
    assert response.json() == {"detail": "the database could not complete the request; retry"}
    assert response["Retry-After"] == "1"
    assert deadline <= took[0] < deadline + 1.5  # before: no answer until the server woke
    assert not Match.objects.exists()  # nothing half-written
    assert client.post(reverse("games:match-list"), body, format="json").status_code == 201


@postgresql_only
def test_a_hung_page_answers_the_503_page(transactional_db, deadline):
    backend, _ = backend_pids()
    with frozen(backend), timed() as took:
        response = Client(raise_request_exception=False).get("/tournaments/")
    assert response.status_code == 503
    assert "Temporarily unavailable" in response.content.decode()
    assert took[0] < deadline + 1.5


@postgresql_only
def test_a_hung_server_refuses_a_new_connection_within_the_connect_timeout(transactional_db):
    """The whole server frozen, the connection to be opened: libpq's connect_timeout."""
    backend, postmaster = backend_pids()
    connection.close()
    seconds = connection.settings_dict["OPTIONS"]["connect_timeout"]
    with frozen(postmaster, backend), timed() as took:
        response = APIClient().get(reverse("games:match-list"))
    assert response.status_code == 503, response.content
    assert seconds <= took[0] < seconds + 1.5


@postgresql_only
def test_the_health_check_of_a_kept_connection_gives_up_within_a_second(transactional_db):
    backend, _ = backend_pids()
    with frozen(backend), timed() as took:
        usable = connection.is_usable()
    assert usable is False  # Django then closes it and connects anew
    assert took[0] < HEALTH_CHECK_SECONDS + 0.5


@postgresql_only
def test_the_server_bounds_its_statements_and_lock_waits_too(transactional_db):
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        statement = cursor.fetchone()[0]
        cursor.execute("SHOW lock_timeout")
        lock = cursor.fetchone()[0]
    assert (statement, lock) == ("5s", "3s")


def test_postgresql_gets_bounded_waits_and_sqlite_is_left_alone():
    url = {"ENGINE": "django.db.backends.postgresql", "NAME": "tabla", "OPTIONS": {}}
    bounded = postgresql_bounded(url, 3, 5, 2)
    assert bounded["ENGINE"] == "config.postgresql_bounded"
    assert bounded["OPTIONS"] == {
        "connect_timeout": 3,
        "options": "-c statement_timeout=5000 -c lock_timeout=2000",
    }
    assert postgresql_bounded(url, 0, 0, 0)["OPTIONS"] == {}  # 0: unbounded
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": "x"}
    assert postgresql_bounded(sqlite, 3, 5, 2) is sqlite
    assert query_deadline(5, None) == 6.0 and query_deadline(0, None) == 0.0
    assert query_deadline(5, 2.5) == 2.5


def test_the_production_settings_bound_postgresql():
    from tests.test_login_limits import run_settings

    show = (
        "import json\n"
        "from config.settings import production as p\n"
        "print(json.dumps([p.DATABASES['default'], p.DATABASE_QUERY_DEADLINE]))\n"
    )
    env = {
        "SECRET_KEY": "a-strong-test-key-" + "0123456789abcdefghijklmnopqrstuvwxyz",
        "DATABASE_URL": "postgres://tabla:secret@db.example.org:5432/tabla",
        "ALLOWED_HOSTS": "tabla.example.org",
        "DATABASE_STATEMENT_TIMEOUT": "8",
    }
    database, deadline = json.loads(run_settings(show, **env))
    assert database["ENGINE"] == "config.postgresql_bounded"
    assert database["OPTIONS"] == {
        "connect_timeout": 3,
        "options": "-c statement_timeout=8000 -c lock_timeout=3000",
    }
    assert database["CONN_HEALTH_CHECKS"] is True and deadline == 9.0
