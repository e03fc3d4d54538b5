"""Start buttons for online matches that are scheduled but not started: on the match page and in
the tournament's bracket and round cards, shown to exactly those the API lets start the match
(its two players, its organiser, staff: README "Trust"), nobody else; in Debian's chromium,
clicking one starts the match and shows it being played."""

import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect
from rest_framework.test import APIClient

from games.models import Match
from tests.tournaments.conftest import Api
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import tournament_running
from tests.web.helpers import log_in
from tournaments.models import Tournament, TournamentMatch


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


@pytest.fixture
def four(db):
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 5)]


def online_cup(organiser, four, capture, **fields) -> int:
    """A 4-player online single elimination, just started: P1 v P4 (W1-1), P2 v P3 (W1-2)."""
    api = Api(organiser, capture)
    return tournament_running(api, four, format="single_elimination", match_mode="online",
                              **fields)["id"]  # fmt: skip


@pytest.fixture
def cup(organiser, four, django_capture_on_commit_callbacks) -> int:
    return online_cup(organiser, four, django_capture_on_commit_callbacks)


def match_of(key: str) -> Match:
    return TournamentMatch.objects.get(key=key).match


def start_url(match: Match) -> str:
    return reverse("games:match-start", kwargs={"pk": match.pk})


def buttons(html: str) -> set[str]:
    """The start URLs of the Start buttons on a page."""
    return set(re.findall(r'data-action="start" data-url="([^"]+)"', html))


def tournament_page(pk: int, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("tournaments_web:tournament", kwargs={"pk": pk})).content.decode()


def match_page(match: Match, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("web:match", kwargs={"pk": match.pk})).content.decode()


def api_would_start(user, match: Match) -> bool:
    """Whether POST .../start/ by ``user`` starts ``match`` (rolled back afterwards)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    with transaction.atomic():
        response = client.post(start_url(match), {}, format="json")
        transaction.set_rollback(True)
    return response.status_code == 200


@pytest.mark.django_db
def test_each_player_sees_the_start_button_of_their_own_match(cup, four):
    first, second = match_of("W1-1"), match_of("W1-2")
    assert buttons(tournament_page(cup, four[0].user)) == {start_url(first)}
    assert buttons(tournament_page(cup, four[3].user)) == {start_url(first)}
    assert buttons(tournament_page(cup, four[1].user)) == {start_url(second)}
    assert "Start the match" in match_page(first, four[3].user)
    assert "Start the match" not in match_page(first, four[1].user)


@pytest.mark.django_db
def test_the_organiser_and_staff_see_every_start_button(cup, organiser):
    everything = {start_url(match_of("W1-1")), start_url(match_of("W1-2"))}
    staff = UserFactory(is_staff=True)
    assert buttons(tournament_page(cup, organiser)) == everything
    assert buttons(tournament_page(cup, staff)) == everything
    assert "Start the match" in match_page(match_of("W1-2"), organiser)


@pytest.mark.django_db
def test_nobody_else_sees_a_start_button(cup):
    stranger = PlayerFactory(display_name="Stranger").user
    for user in (None, stranger, UserFactory(username="no-player")):
        assert buttons(tournament_page(cup, user)) == set()
        assert "Start the match" not in match_page(match_of("W1-1"), user)


@pytest.mark.django_db
def test_the_button_shows_exactly_when_the_api_would_start_the_match(cup, four, organiser):
    """Against the API itself, for everyone including a co-organiser who did not create the
    tournament (a tournament's organisers organise its matches, docs/decisions.md D38)."""
    tournament = Tournament.objects.get(pk=cup)
    co_organiser = UserFactory(username="co-organiser")
    tournament.organisers.add(co_organiser)
    users = [None, organiser, co_organiser, UserFactory(is_staff=True), PlayerFactory().user]
    users += [player.user for player in four]
    for user in users:
        shown = buttons(tournament_page(cup, user))
        for key in ("W1-1", "W1-2"):
            match = match_of(key)
            assert (start_url(match) in shown) == api_would_start(user, match), (user, key)


@pytest.mark.django_db
def test_no_button_once_started_or_over_the_board(
    cup, four, organiser, django_capture_on_commit_callbacks
):
    first = match_of("W1-1")
    client = APIClient()
    client.force_authenticate(user=four[0].user)
    assert client.post(start_url(first), {}, format="json").status_code == 200
    html = tournament_page(cup, four[0].user)
    assert buttons(html) == set()
    card = html[html.index('data-key="W1-1"') :].split("</div>")[0]
    assert 'class="live-dot"' in card
    assert "Start the match" not in match_page(first, four[0].user)

    over_the_board = tournament_running(
        Api(organiser, django_capture_on_commit_callbacks), [PlayerFactory() for _ in range(4)],
        format="single_elimination", match_mode="over_the_board",
    )["id"]  # fmt: skip
    assert buttons(tournament_page(over_the_board, organiser)) == set()


@pytest.mark.django_db
def test_a_start_changes_the_live_version(cup, four):
    state = reverse("tournaments_web:tournament-state", kwargs={"pk": cup})
    before = Client().get(state)["ETag"]
    client = APIClient()
    client.force_authenticate(user=four[0].user)
    client.post(start_url(match_of("W1-1")), {}, format="json")
    assert Client().get(state, headers={"If-None-Match": before}).status_code == 200


@pytest.mark.django_db
def test_a_swiss_round_card_has_the_start_buttons(
    organiser, four, django_capture_on_commit_callbacks
):
    api = Api(organiser, django_capture_on_commit_callbacks)
    pk = tournament_running(api, four, format="swiss", swiss_rounds=2, match_mode="online")["id"]
    rounds = tournament_page(pk, four[0].user).split('id="rounds"')[1]
    mine = [row.match for row in TournamentMatch.objects.filter(tournament_id=pk)
            if four[0].pk in (row.match.player_one_id, row.match.player_two_id)]  # fmt: skip
    assert buttons(rounds) == {start_url(mine[0])}


@pytest.mark.django_db(transaction=True)
def test_clicking_start_in_the_bracket_starts_the_match_and_shows_it(
    live_server, new_page, organiser, four, django_capture_on_commit_callbacks, artifacts
):
    pk = online_cup(organiser, four, django_capture_on_commit_callbacks)
    first = match_of("W1-1")
    page, console = new_page()
    log_in(page, live_server.url, four[3].user.username, f"/tournaments/{pk}/")
    page.screenshot(path=str(artifacts / "tournament-start-button.png"), full_page=True)
    expect(page.locator("[data-action=start]")).to_have_count(1)

    page.click('.bracket-match[data-key="W1-1"] [data-action=start]')

    page.wait_for_url(f"{live_server.url}/matches/{first.pk}/")
    page.wait_for_selector('[data-match-status="in_progress"]')
    expect(page.locator(".board")).to_have_count(1)
    expect(page.locator("[data-start]")).to_have_count(0)
    assert console.errors == []
    first.refresh_from_db()
    assert first.status == Match.Status.IN_PROGRESS and first.games.count() == 1


@pytest.mark.django_db(transaction=True)
def test_clicking_start_on_the_match_page_starts_the_match(
    live_server, new_page, organiser, four, django_capture_on_commit_callbacks
):
    online_cup(organiser, four, django_capture_on_commit_callbacks)
    second = match_of("W1-2")
    page, console = new_page(390, 844)
    log_in(page, live_server.url, four[1].user.username, f"/matches/{second.pk}/")

    page.click("[data-start] [data-action=start]")

    page.wait_for_selector('[data-match-status="in_progress"]')
    expect(page.locator(".board")).to_have_count(1)
    assert console.errors == []
    second.refresh_from_db()
    assert second.status == Match.Status.IN_PROGRESS
