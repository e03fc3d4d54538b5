"""The live tournament page: a cheap state endpoint with an ETag (304 while nothing changed), the
bracket and standings fragment, and a spectator's page showing the advanced player without a
reload, with the highlighted path and the sort order kept."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.tournaments.conftest import Api
from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.helpers import tournament_running
from tournaments import services as tournament_services
from tournaments.models import Standing, Tournament, TournamentMatch

TIMEOUT = 10_000


@pytest.fixture
def four_players(db):
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 5)]


@pytest.fixture
def running_cup(django_capture_on_commit_callbacks, four_players):
    """A 4-player single elimination just started, with its (empty) standings stored."""
    api = Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)
    pk = tournament_running(api, four_players, format="single_elimination")["id"]
    tournament_services.standings_recompute(tournament=Tournament.objects.get(pk=pk))
    return pk


def upset_in_first_match(four_players, capture) -> None:
    """P4 beats P1 in W1-1: P4 reports, P1 confirms (on-commit work runs as on a real commit)."""
    p1, p4 = four_players[0], four_players[3]
    match = Match.objects.get(tournament_match__key="W1-1")
    report = services.result_report(match=match, user=p4.user, winner=p4, points=1)
    with capture(execute=True):
        services.result_confirm(report=report, user=p1.user)


def state(client: Client, pk: int, etag: str | None = None):
    headers = {"If-None-Match": etag} if etag else {}
    url = reverse("tournaments_web:tournament-state", kwargs={"pk": pk})
    return client.get(url, headers=headers)


@pytest.mark.django_db
def test_state_answers_304_until_a_result_changes_it(
    running_cup, four_players, django_capture_on_commit_callbacks
):
    client = Client()
    first = state(client, running_cup)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    assert first.json()["matches"] == 3 and first.json()["decided"] == 0
    assert state(client, running_cup, first["ETag"]).status_code == 304

    upset_in_first_match(four_players, django_capture_on_commit_callbacks)

    second = state(client, running_cup, first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert second.json()["decided"] == 1
    assert state(client, running_cup, second["ETag"]).status_code == 304


@pytest.mark.django_db
def test_page_carries_the_etag_the_state_endpoint_answers(running_cup):
    client = Client()
    page = client.get(reverse("tournaments_web:tournament", kwargs={"pk": running_cup}))
    assert page.context["etag"] == state(client, running_cup)["ETag"]
    assert 'id="tournament-live"' in page.content.decode()


@pytest.mark.django_db
def test_recomputed_standings_change_the_etag(running_cup):
    # Standings out of date (a recompute that changes nothing writes nothing: D74).
    Standing.objects.filter(tournament_id=running_cup).delete()
    before = state(Client(), running_cup)["ETag"]
    tournament_services.standings_recompute(tournament=Tournament.objects.get(pk=running_cup))
    assert state(Client(), running_cup, before).status_code == 200


@pytest.mark.django_db
def test_live_fragment_shows_the_advanced_player(
    running_cup, four_players, django_capture_on_commit_callbacks
):
    upset_in_first_match(four_players, django_capture_on_commit_callbacks)
    response = Client().get(reverse("tournaments_web:tournament-live", kwargs={"pk": running_cup}))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and 'data-key="W2-1"' in html and "data-sortable" in html
    final = response.context["brackets"][0]["sections"][0]["rounds"][1]["matches"][0]
    assert final["players"][0]["name"] == "P4"


@pytest.mark.django_db
def test_draft_tournament_has_no_live_endpoints():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    client = Client()
    assert state(client, draft.pk).status_code == 404
    live = reverse("tournaments_web:tournament-live", kwargs={"pk": draft.pk})
    assert client.get(live).status_code == 404


SECOND_WORD_P4 = re.compile(r"^\s*\S+\s+P4(\s|$)")  # a standings row whose second word is P4


@pytest.mark.django_db(transaction=True)
def test_spectator_sees_the_advanced_player_without_reload(
    live_server, browser, running_cup, four_players, django_capture_on_commit_callbacks, artifacts
):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/tournaments/{running_cup}/")
    page.evaluate("window.__notReloaded = true")
    final = page.locator('.bracket-match[data-key="W2-1"]')
    expect(final).not_to_contain_text("P4", use_inner_text=True)
    page.locator(".bracket-player", has_text="P4").first.click()
    expect(page.locator(".bracket-match.on-path")).to_have_count(1)
    page.click("#standings th:nth-child(2)")
    page.click("#standings th:nth-child(2)")  # by player name, descending
    top = page.locator("#standings tbody tr").first
    expect(top).to_have_text(SECOND_WORD_P4, use_inner_text=True)  # .split()[1] == "P4"

    upset_in_first_match(four_players, django_capture_on_commit_callbacks)
    assert TournamentMatch.objects.get(key="W2-1").entry_one.player == four_players[3]

    page.wait_for_selector('.bracket-match[data-key="W2-1"] .bracket-player:has-text("P4")')
    assert page.evaluate("window.__notReloaded") is True
    expect(page.locator(".bracket-match.on-path")).to_have_count(2)  # W1-1 and now the final
    expect(page.locator('#standings th[data-order="desc"]')).to_have_count(1)
    expect(top).to_have_text(SECOND_WORD_P4, use_inner_text=True)
    page.screenshot(path=str(artifacts / "tournament-live-after-result.png"), full_page=True)
    context.close()
    assert errors == []
