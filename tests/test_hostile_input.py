"""Text no one types gives a 4xx, never a 500 (issue 19): a lone surrogate or a NUL anywhere in a
JSON body (the 400 that echoed one could not be encoded; PostgreSQL cannot store a NUL), a NUL in
the path or a query parameter (a filter on it was a DataError), and digits that are not ASCII
("²".isdigit() is true, int("²") fails).

The routes are collected from the URLconf and the OpenAPI schema, so a new one is covered
without editing this file: every query parameter the schema names (and the ones the views read
themselves) and every string field of every JSON body gets each hostile value.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from django.urls import URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games import services
from games.models import Notification, ResultReport
from tests.games.factories import MatchFactory, PlayerFactory, UserFactory
from tests.tournaments.conftest import Api
from tests.tournaments.helpers import tournament_running
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

# Values as they come over the wire, percent-encoded: a NUL; a lone surrogate in the UTF-8 a
# client may send anyway (Django decodes it as U+FFFD); superscript two; Arabic-Indic three.
QUERY_VALUES = {"nul": "%00", "surrogate": "%ED%A0%80", "superscript": "%C2%B2", "arabic": "%D9%A3"}
# The same as decoded JSON strings (the JSON text carries them as \u escapes).
JSON_VALUES = {"nul": "\x00", "surrogate": "\ud800", "superscript": "²", "arabic": "٣"}
REFUSED_IN_JSON = {"nul": "NUL character (\\u0000)", "surrogate": "lone surrogate (\\ud800)"}
# Query parameters the views read from request.GET / query_params, beside the schema's.
READ_BY_VIEWS = ["stage", "section", "status", "positions", "game", "round", "tab", "page"]
WRITE_METHODS = ("post", "put", "patch")
SCHEMA = SchemaGenerator().get_schema(request=None, public=True)


def _routes(patterns: list[Any], prefix: str = "") -> list[tuple[str, Any]]:
    routes = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            routes += _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            routes.append((prefix + str(pattern.pattern), pattern.callback))
    return routes


ROUTES = [(r, cb) for r, cb in _routes(get_resolver().url_patterns) if not r.startswith("admin")]


def _schema_path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route.replace("<int:pk>", "{id}"))


def _operation(route: str, method: str) -> dict[str, Any]:
    return SCHEMA["paths"].get(_schema_path(route), {}).get(method, {})


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref:
        return SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return schema


def string_fields(route: str, method: str) -> list[str]:
    """The string properties of the operation's JSON body (the top level of the object)."""
    content = _operation(route, method).get("requestBody", {}).get("content", {})
    body = _resolve(content.get("application/json", {}).get("schema", {}))
    return [
        name
        for name, field in body.get("properties", {}).items()
        if _resolve(field).get("type") == "string" or "enum" in _resolve(field)
    ]


def query_names(route: str) -> list[str]:
    named = [
        p["name"] for p in _operation(route, "get").get("parameters", []) if p["in"] == "query"
    ]
    return sorted({*named, *READ_BY_VIEWS})


GETS = [route for route, _ in ROUTES if not route.endswith(("logout/", "setlang/"))]
WRITES = [
    (route, method)
    for route, callback in ROUTES
    if route.startswith("api/")
    for method in WRITE_METHODS
    if hasattr(getattr(callback, "cls", None), method)
    and "requestBody" in _operation(route, method)
]


@pytest.fixture
def world(django_capture_on_commit_callbacks) -> dict[str, Any]:
    """A staff member who may see and run everything, a running Swiss tournament and matches,
    so every path parameter names an object and the views reach their queries."""
    staff = UserFactory(username="staff", is_staff=True)
    players = [PlayerFactory() for _ in range(4)]
    online = services.match_create(creator=staff, player_one=players[0], player_two=players[1])
    otb = MatchFactory(player_one=players[0], player_two=players[1], organiser=staff)
    report = ResultReport.objects.create(
        match=otb, reporter=players[0].user, game_number=1, winner=players[0], kind="single",
        points=1,
    )  # fmt: skip
    api = Api(staff, django_capture_on_commit_callbacks)
    tournament = tournament_running(api, players, format="swiss")
    challenge = services.open_challenge_post(user=players[2].user)
    told = Notification.objects.create(recipient=staff, kind="match_ready", match=online)
    client = APIClient()
    client.force_login(staff)
    ids = {
        "api/v1/players": players[0].pk,
        "players": players[0].pk,
        "api/v1/matches": otb.pk,
        "matches": online.pk,
        "api/v1/games": online.games.get(number=1).pk,
        "api/v1/tournaments": tournament["id"],
        "tournaments": tournament["id"],
        "rid": report.pk,
        "eid": Entry.objects.filter(tournament_id=tournament["id"]).first().pk,
        "number": 1,
        "mid": 1,
        "api/v1/challenges": challenge.pk,
        "lobby/challenges": challenge.pk,
        "lobby/matches": online.pk,
        "notifications": told.pk,
    }
    return {"client": client, "ids": ids}


def url(route: str, ids: dict[str, Any]) -> str:
    if "<int:pk>" in route:
        route = route.replace("<int:pk>", str(ids[route.split("/<int:pk>")[0]]))
    return "/" + re.sub(r"<int:(\w+)>", lambda m: str(ids[m.group(1)]), route)


def test_the_routes_are_collected() -> None:
    assert "api/v1/tournaments/<int:pk>/bracket/" in GETS and "matches/<int:pk>/live/" in GETS
    assert ("api/v1/matches/", "post") in WRITES and len(WRITES) >= 18
    assert "tournament_slot" in string_fields("api/v1/matches/", "post")
    assert "stage" in query_names("api/v1/tournaments/<int:pk>/bracket/")


def test_hostile_query_parameters_are_never_a_500(world) -> None:
    """Every route (API and pages), each value in every query parameter at once: one world for
    all, so the test stays fast; the failures are listed together."""
    failures = []
    for route in GETS:
        for kind, value in QUERY_VALUES.items():
            query = "&".join(f"{name}={value}" for name in query_names(route))
            response = world["client"].get(f"{url(route, world['ids'])}?{query}")
            expected = response.status_code == 400 if kind == "nul" else response.status_code < 500
            if route.startswith("api/") and kind == "nul" and expected:
                expected = "holds a NUL character (%00)" in response.json()["detail"]
            if not expected:
                failures.append((route, kind, response.status_code, response.content[:200]))
    assert not failures, failures


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/tournaments/{t}/bracket/?stage=%00",
        "/api/v1/tournaments/{t}/rounds/1/tables/?stage=%00",
        "/api/v1/tournaments/{t}/standings/?section=%00",
        "/api/v1/tournaments/{t}/standings/?%00=1",
        "/api/v1/tournaments/{t}/%00/",
        "/tournaments/{t}/desk/?tab=rounds&stage=%00",
    ],
)
def test_a_nul_in_the_path_or_a_query_parameter_is_a_400(world, path: str) -> None:
    response = world["client"].get(path.format(t=world["ids"]["tournaments"]))
    assert response.status_code == 400, response.content[:300]


def test_hostile_json_strings_are_never_a_500(world) -> None:
    """Every write with a JSON body: each value in all its string fields, and as a key. The
    body is written as a hostile client would, a lone surrogate as its \\u escape."""
    failures = []
    for route, method in WRITES:
        for kind, value in JSON_VALUES.items():
            fields = string_fields(route, method)
            for body in ([{name: value for name in fields}] if fields else []) + [{value: 1}]:
                response = getattr(world["client"], method)(
                    url(route, world["ids"]), json.dumps(body), content_type="application/json"
                )
                response.content.decode()  # the answer is valid UTF-8
                expected = response.status_code < 500
                if kind in REFUSED_IN_JSON:
                    detail = response.json().get("detail", "")
                    expected = response.status_code == 400 and REFUSED_IN_JSON[kind] in detail
                if not expected or response["Content-Type"] != "application/json":
                    failures.append((method, route, body, response.content[:200]))
    assert not failures, failures


def test_a_lone_surrogate_in_a_key_is_a_400_naming_it(world) -> None:
    response = world["client"].post(
        "/api/v1/matches/", '{"\\ud800": 1}', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "detail": "JSON parse error - the JSON holds a lone surrogate (\\ud800), "
        "which is not valid text"
    }


@pytest.mark.parametrize("digit", ["²", "٣", "１"])
def test_digits_that_are_not_ascii_are_ignored_not_a_500(world, digit: str) -> None:
    ids, client = world["ids"], world["client"]
    pages = [
        f"/matches/{ids['matches']}/?game={quote(digit)}",
        f"/matches/{ids['matches']}/live/?game={quote(digit)}",
        f"/tournaments/{ids['tournaments']}/desk/?tab=rounds&round={quote(digit)}",
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, (page, response.content[:300])
    one, two = PlayerFactory(), PlayerFactory()
    body = {"player_one": one.pk, "player_two": two.pk, "tournament_slot": f"tournament-{digit}"}
    response = client.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.content[:300]


def test_numbers_examples() -> None:
    import doctest

    from common import numbers
    from config import middleware

    assert doctest.testmod(numbers).failed == 0
    assert doctest.testmod(middleware).failed == 0
