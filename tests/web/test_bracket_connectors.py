"""Connector lines between bracket matches in the browser: a double elimination (winners and
losers brackets, grand final and reset) and a consolation flight, both of 6 players so the first
round has byes, part played. Each drawn section has one line per match whose winner goes on
within it, joining the boxes' edges; the lines follow a highlighted player and survive a resize
and a live update. Screenshots: tournament-double-elimination.png, tournament-consolation.png."""

import pytest

from tests.tournaments.conftest import Api
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import higher_seed, match_win, open_matches, tournament_running
from tests.web.bracket_lines import assert_connectors
from tournaments import services as tournament_services
from tournaments.models import Tournament

TIMEOUT = 10_000


@pytest.fixture
def six_players(db):
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 7)]


def play(api: Api, pk: int, count: int) -> None:
    """Play ``count`` matches one at a time, the higher seed winning."""
    for _ in range(count):
        ready = open_matches(api, pk)
        if not ready:
            return
        match_win(api, ready[0]["match_id"], higher_seed(ready[0]))


def part_played(capture, players, count: int, **fields) -> tuple[Api, int]:
    api = Api(UserFactory(username="organiser"), capture)
    pk = tournament_running(api, players, **fields)["id"]
    play(api, pk, count)
    tournament_services.standings_recompute(tournament=Tournament.objects.get(pk=pk))
    return api, pk


def open_page(browser, url: str, errors: list, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return context, page


@pytest.mark.django_db(transaction=True)
def test_double_elimination_connectors(
    live_server, browser, six_players, django_capture_on_commit_callbacks, artifacts
):
    api, pk = part_played(
        django_capture_on_commit_callbacks, six_players, 5, format="double_elimination"
    )
    errors: list = []
    context, page = open_page(browser, f"{live_server.url}/tournaments/{pk}/", errors)
    drawn = assert_connectors(page, pk)
    sections = {s["section"]: s["paths"] for s in drawn}
    # 8-draw: winners 4 + 2 feed on, losers 2 + 2 + 1 feed on; GF and GF2 stand alone.
    assert sections == {"main": 6, "losers": 5, "grand_final": 0, "reset": 0}

    page.locator(".bracket-player", has_text="P1").first.click()
    assert sum(s["onPath"] for s in assert_connectors(page, pk)) >= 1
    page.screenshot(path=str(artifacts / "tournament-double-elimination.png"), full_page=True)

    page.set_viewport_size({"width": 700, "height": 900})  # the brackets scroll sideways
    assert_connectors(page, pk)  # waits for the lines drawn again for the narrow layout
    page.evaluate("document.querySelectorAll('.bracket').forEach(b => { b.scrollLeft = 200; })")
    assert_connectors(page, pk)
    page.screenshot(path=str(artifacts / "tournament-double-elimination-narrow.png"))

    # A live update swaps in a new fragment: the lines are drawn again, the path kept.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.evaluate("document.querySelectorAll('.bracket-lines').forEach(s => s.dataset.old = 1)")
    play(api, pk, 2)
    page.wait_for_function(  # a function, not an expression: the page's CSP forbids eval
        "() => document.querySelector('.bracket-lines') && !document.querySelector('[data-old]')"
    )
    after = assert_connectors(page, pk)
    assert sum(s["onPath"] for s in after) >= 1
    context.close()
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_consolation_connectors(
    live_server, browser, six_players, django_capture_on_commit_callbacks, artifacts
):
    _, pk = part_played(
        django_capture_on_commit_callbacks,
        six_players,
        4,
        format="consolation",
        consolation_rounds=2,
    )
    errors: list = []
    context, page = open_page(browser, f"{live_server.url}/tournaments/{pk}/", errors)
    drawn = assert_connectors(page, pk)
    # 8-draw: main 4 + 2 feed on; consolation (losers of rounds 1 and 2) C1 2 + C2 2 feed on.
    assert {s["section"]: s["paths"] for s in drawn} == {"main": 6, "consolation": 4}
    page.locator(".bracket-player", has_text="P1").first.click()
    assert sum(s["onPath"] for s in assert_connectors(page, pk)) >= 1
    page.screenshot(path=str(artifacts / "tournament-consolation.png"), full_page=True)
    context.close()
    assert errors == []
