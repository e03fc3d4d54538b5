"""Property-based API testing with schemathesis against /api/schema/: for generated requests,
no 5xx and every response matches the published schema (status code, content type, body)."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from games import services
from tests.games.factories import PlayerFactory

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def keep_connection():
    """Like Django's test client: the WSGI app must not close the test's database connection
    (and its open transaction) at the end of each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(db, keep_connection) -> str:
    """A logged-in player with a started match (ids 1, 2 are then likely to exist)."""
    one, two = PlayerFactory(), PlayerFactory()
    services.match_create(creator=one.user, player_one=one, player_two=two)
    return Token.objects.create(user=one.user).key


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_conforms_to_its_schema(case, token):
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
