"""Every page is served with a Content-Security-Policy that runs only our own static scripts, and
no page carries an inline script or event handler the policy would block. In the browser, the
API docs (Swagger UI) and the admin work under the policy; the other browser tests catch a
violation on the match and tournament pages, as each fails on any console error."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.games.factories import MatchFactory
from tests.tournaments.conftest import Api
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import tournament_running

TIMEOUT = 10_000


class InlineCode(HTMLParser):
    """Collects what a strict policy blocks: inline scripts, on*= handlers, inline styles."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self.styles: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        self.handlers += [f"<{tag} {name}>" for name in names if name.startswith("on")]
        if "style" in names:
            self.styles.append(f"<{tag} style={names['style']!r}>")
        if tag == "style":
            self.styles.append("<style> element")
        if tag == "script":
            kind = (names.get("type") or "").lower()
            self._in_script = "src" not in names and kind != "application/json"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data.strip()[:80])


def inline_code(html: str) -> InlineCode:
    parser = InlineCode()
    parser.feed(html)
    return parser


def test_the_parser_finds_inline_script_handlers_and_styles():
    found = inline_code(
        '<script>alert(1)</script><script src="/s.js"></script>'
        '<script type="application/json">{"a": 1}</script>'
        '<button onclick="go()" style="color: red">x</button><style>p {}</style>'
    )
    assert found.scripts == ["alert(1)"]
    assert found.handlers == ["<button onclick>"]
    assert len(found.styles) == 2


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = [part.split() for part in header.split(";") if part.strip()]
    return {part[0]: part[1:] for part in parts}


@pytest.fixture
def pages(db, django_capture_on_commit_callbacks, django_user_model) -> tuple[Client, dict]:
    """A superuser's client (also a player of a running match) and a URL of each kind of page."""
    root = django_user_model.objects.create_superuser("root", "root@example.com", "password")
    me = PlayerFactory(user=root, display_name="Root")
    api = Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)
    players = [PlayerFactory(display_name=f"P{i}", rating=1800.0 - i) for i in range(4)]
    cup = tournament_running(api, players, format="single_elimination")["id"]
    online = Match.objects.filter(tournament_match__tournament_id=cup).first()
    mine = services.match_create(creator=root, player_one=me, player_two=players[0])
    board = MatchFactory(player_one=me, player_two=players[1])
    game = mine.games.get()
    client = Client()
    client.force_login(root)
    urls = {
        "home": reverse("web:home"),
        "match (my turn)": reverse("web:match", args=[mine.pk]),
        "match live fragment": reverse("web:match-live", args=[mine.pk]),
        "tournament match": reverse("web:match", args=[online.pk]),
        "over-the-board match": reverse("web:match", args=[board.pk]),
        "player": reverse("web:player", args=[me.pk]),
        "tournaments": reverse("tournaments_web:index"),
        "tournament": reverse("tournaments_web:tournament", args=[cup]),
        "tournament live fragment": reverse("tournaments_web:tournament-live", args=[cup]),
        "new tournament": reverse("tournaments_web:new"),
        "desk registration": reverse("tournaments_web:desk", args=[cup]) + "?tab=registration",
        "desk settings": reverse("tournaments_web:desk", args=[cup]) + "?tab=settings",
        "claim a player": reverse("players_web:claim"),
        "desk rounds": reverse("tournaments_web:desk", args=[cup]) + "?tab=rounds",
        "desk results": reverse("tournaments_web:desk", args=[cup]) + "?tab=results",
        "desk round print": reverse("tournaments_web:desk-print-round", args=[cup, 1]),
        "404": "/no/such/page/",
        "admin index": reverse("admin:index"),
        "admin changelist": reverse("admin:games_game_changelist"),
        "admin change form": reverse("admin:games_game_change", args=[game.pk]),
    }
    return client, urls


def test_every_page_has_the_policy_and_no_inline_code(pages):
    client, urls = pages
    for kind, url in urls.items():
        response = client.get(url)
        assert response.status_code in (200, 404), (kind, response.status_code)
        assert response["Content-Type"].startswith("text/html"), kind
        policy = directives(response)
        assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"], kind
        assert policy["default-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"]
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'self'"]
        found = inline_code(response.content.decode())
        assert (found.scripts, found.handlers, found.styles) == ([], [], []), kind


def test_the_login_page_has_the_policy_and_no_inline_code(client):
    for url in (reverse("login"), reverse("admin:login")):
        response = client.get(url)
        assert "script-src 'self'" in response["Content-Security-Policy"]
        found = inline_code(response.content.decode())
        assert (found.scripts, found.handlers, found.styles) == ([], [], []), url


@pytest.mark.django_db
def test_the_api_docs_load_their_script_from_a_url_and_relax_only_style_src(client):
    response = client.get(reverse("docs"))
    policy = directives(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"]  # Swagger UI styles inline
    found = inline_code(response.content.decode())
    assert found.scripts == [] and found.handlers == []
    script = client.get(reverse("docs"), {"script": ""})
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content


@pytest.mark.django_db
def test_api_json_responses_carry_the_policy_too(client):
    response = client.get("/api/v1/no-such-thing/")
    assert "default-src 'self'" in response["Content-Security-Policy"]


@pytest.mark.django_db(transaction=True)
def test_swagger_ui_and_the_admin_work_under_the_policy(live_server, browser, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", "password")
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{live_server.url}/api/docs/")
        page.wait_for_selector(".swagger-ui .opblock")
        expect(page.locator(".swagger-ui .opblock").nth(10)).to_be_attached()  # more than 10

        page.goto(f"{live_server.url}/admin/login/?next=/admin/games/game/")
        page.fill("input[name=username]", "root")
        page.fill("input[name=password]", "password")
        page.click("input[type=submit]")
        page.wait_for_url(f"{live_server.url}/admin/games/game/")
        page.goto(f"{live_server.url}/admin/games/game/add/")
        page.wait_for_selector("#game_form")
    finally:
        context.close()
    assert errors == []
