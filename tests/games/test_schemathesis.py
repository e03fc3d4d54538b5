"""Property-based API testing with schemathesis against /api/schema/: for generated requests,
no 5xx and every response matches the published schema (status code, content type, body).

Some generated cases have every string of their query or body replaced by text no one types
(issue 19): a NUL, superscript or Arabic-Indic digits. Not a lone surrogate: a body may be sent
as a form, which cannot carry one (tests/test_hostile_input.py sends them as JSON escapes)."""

from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
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

HOSTILE = ["\x00", "²", "٣"]


def with_text(value: Any, bad: str) -> Any:
    """``value`` with every string (keys included) replaced by ``bad``."""
    if isinstance(value, str):
        return bad
    if isinstance(value, dict):
        return {with_text(key, bad): with_text(item, bad) for key, item in value.items()}
    if isinstance(value, list):
        return [with_text(item, bad) for item in value]
    return value


@schema.hook
def flatmap_query(context: Any, query: Any) -> Any:
    if not query:
        return st.just(query)
    return st.just(query) | st.sampled_from(HOSTILE).map(lambda bad: with_text(query, bad))


@schema.hook
def flatmap_body(context: Any, body: Any) -> Any:
    return st.just(body) | st.sampled_from(HOSTILE).map(lambda bad: with_text(body, bad))


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
