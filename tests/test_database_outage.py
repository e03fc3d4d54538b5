"""The database down: every kind of request answers 503 with Retry-After and a generic message;
the driver's message, which names the database host and port, goes to the log only."""

import logging
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from config.views import server_error
from tests.tournaments.factories import PlayerFactory

DRIVER_MESSAGE = (
    'connection to server at "127.0.0.1", port 32983 failed: Connection refused\n'
    "\tIs the server running on that host and accepting TCP/IP connections?"
)


@contextmanager
def database_down():
    """Every query of this thread fails as psycopg fails when the server is unreachable."""

    def refuse(execute, sql, params, many, context):
        raise OperationalError(DRIVER_MESSAGE)

    with connection.execute_wrapper(refuse):
        yield


def assert_generic_503(response) -> None:
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "1"
    body = response.content.decode()
    assert "127.0.0.1" not in body and "32983" not in body and "connection to server" not in body


@pytest.fixture
def player(db):
    return PlayerFactory()


def test_an_api_read_answers_a_generic_503_and_logs_the_error(api_client, player, caplog):
    with database_down(), caplog.at_level(logging.WARNING):
        response = api_client.get(reverse("games:match-list"))

    assert_generic_503(response)
    assert response.json() == {"detail": "the database could not complete the request; retry"}
    assert "port 32983 failed" in caplog.text  # the real error is in the log


def test_an_api_write_answers_a_generic_503(api_client, player):
    api_client.force_authenticate(user=player.user)
    with database_down():
        response = api_client.post(
            reverse("games:match-list"), {"player_two": player.pk}, format="json"
        )

    assert_generic_503(response)
    assert response.json()["detail"].endswith("; retry")


@pytest.mark.parametrize("path", ["/", "/tournaments/"])
def test_a_web_page_answers_the_503_page_not_the_500_page(db, path, caplog):
    with database_down(), caplog.at_level(logging.WARNING):
        response = Client(raise_request_exception=False).get(path)

    assert_generic_503(response)
    assert response["Content-Type"].startswith("text/html")
    assert "Temporarily unavailable" in response.content.decode()
    assert "port 32983 failed" in caplog.text


def test_a_web_page_in_macedonian_answers_the_translated_503_page(db):
    with database_down():
        response = Client(raise_request_exception=False).get("/", HTTP_ACCEPT_LANGUAGE="mk")

    assert_generic_503(response)
    assert "Привремено недостапно" in response.content.decode()


def test_healthz_answers_503_with_retry_after(db):
    with database_down():
        response = Client().get("/healthz")

    assert_generic_503(response)
    assert response.json() == {"status": "error", "detail": "database unavailable"}


def test_a_database_error_outside_a_view_also_answers_503(rf):
    """Say the session middleware fails to save: Django calls handler500 inside its except."""
    for path, kind in (("/tournaments/", "text/html"), ("/api/v1/matches/", "application/json")):
        try:
            raise OperationalError(DRIVER_MESSAGE)
        except OperationalError:
            response = server_error(rf.get(path))
        assert_generic_503(response)
        assert response["Content-Type"].startswith(kind)
    assert server_error(rf.get("/tournaments/")).status_code == 500  # any other error: 500
