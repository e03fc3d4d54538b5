"""The tournament page: a 4-player single elimination played through the API (one result
reported by a player and confirmed by the opponent, the others by the organiser), then the
bracket and standings show the winner; in the browser, clicking a player highlights their path."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.tournaments.conftest import Api
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import lower_seed, open_matches, play_all, tournament_running
from tests.web.bracket_lines import assert_connectors


@pytest.fixture
def four_players(db):
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 5)]


@pytest.fixture
def finished_cup(django_capture_on_commit_callbacks, four_players):
    api = Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)
    pk = tournament_running(api, four_players, format="single_elimination")["id"]
    first = open_matches(api, pk)[0]
    match = Match.objects.get(pk=first["match_id"])
    one, two = match.player_one, match.player_two
    report = services.result_report(match=match, user=one.user, winner=one, points=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_confirm(report=report, user=two.user)
    play_all(api, pk)
    return pk


@pytest.mark.django_db
def test_bracket_and_standings_show_the_winner(finished_cup, four_players):
    response = Client().get(reverse("tournaments_web:tournament", kwargs={"pk": finished_cup}))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="bracket-match ') == 3
    first = response.context["standings"][0]["rows"][0]
    assert first["rank"] == 1 and first["player"] == four_players[0]
    assert "standings.csv" in html and "data-sortable" in html
    home = Client().get(reverse("web:home")).content.decode()
    assert "Cup" in home and 'data-group="finished"' in home


@pytest.mark.django_db
def test_a_knockout_from_groups_shows_its_own_seeds(django_capture_on_commit_callbacks):
    """Every group match is an upset: the group winners, seeds 8 and 7, are knock-out seeds 1
    and 2 (docs/decisions.md D26), and the page's knock-out bracket says so."""
    api = Api(UserFactory(username="organiser"), django_capture_on_commit_callbacks)
    eight = [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 9)]
    fields = {"format": "round_robin", "groups": 2, "knockout_per_group": 2}
    pk = tournament_running(api, eight, **fields)["id"]
    play_all(api, pk, lower_seed, limit=12)  # the group stage only
    html = Client().get(reverse("tournaments_web:tournament", kwargs={"pk": pk})).content.decode()
    start = html.index('id="bracket"')  # the knock-out: a round robin has no other bracket
    bracket = html[start : html.index("</section>", start)]
    assert re.findall(r'<span class="seed">(\d*)</span>', bracket) == ["1", "4", "2", "3"]
    assert "P8</span>" in bracket.split('class="seed">1</span>')[1][:40]


@pytest.mark.django_db(transaction=True)
def test_clicking_a_player_highlights_their_path(live_server, browser, finished_cup, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/tournaments/{finished_cup}/")
    page.locator(".bracket-player", has_text="P1").first.click()
    expect(page.locator(".bracket-match.on-path")).to_have_count(2)  # semi-final and final
    drawn = assert_connectors(page, finished_cup)  # W1-1 → W2-1 and W1-2 → W2-1
    assert [s["paths"] for s in drawn] == [2] and drawn[0]["onPath"] == 1
    accent = page.evaluate(
        "getComputedStyle(document.querySelector('.bracket-lines path.on-path')).stroke"
    )
    assert accent == "rgb(138, 59, 18)"  # --accent
    page.click("#standings th:nth-child(2)")  # sort by player name
    top = page.locator("#standings tbody tr").first  # its second word is P1: .split()[1]
    expect(top).to_have_text(re.compile(r"^\s*\S+\s+P1(\s|$)"), use_inner_text=True)
    page.screenshot(path=str(artifacts / "tournament-single-elimination.png"), full_page=True)
    page.locator(".open-match").first.click()
    page.wait_for_selector("[data-unrecorded]")  # its games were reported without their moves
    context.close()
    assert errors == []
