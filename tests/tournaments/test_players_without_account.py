"""Tournaments of club players without accounts: the organiser registers them, reports their
results and gets standings and pages; nobody else acts for them, least of all an anonymous
user (whose missing id once matched their missing account)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from common.errors import NotAllowedError
from tests.tournaments.factories import EntryFactory, PlayerFactory, TournamentFactory
from tests.tournaments.helpers import play_all, tournament_running
from tournaments import services
from tournaments.models import Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_players(db):
    return [
        PlayerFactory(user=None, display_name=f"Club {i}", rating=1700.0 - 10 * i)
        for i in range(1, 5)
    ]


def test_a_tournament_of_players_without_accounts_runs_to_its_standings(org_api, club_players):
    pk = tournament_running(org_api, club_players, format="round_robin")["id"]
    assert play_all(org_api, pk) == 6
    standings = org_api.get("tournaments:standing-list", pk=pk)
    assert [row["player"] for row in standings] == [p.pk for p in club_players]
    assert Standing.objects.filter(entry__tournament_id=pk).count() == 4
    page = Client().get(reverse("tournaments_web:tournament", kwargs={"pk": pk}))
    assert page.status_code == 200 and b"Club 1" in page.content


def test_an_anonymous_user_cannot_register_a_player_without_an_account(club_players):
    tournament = TournamentFactory()
    with pytest.raises(NotAllowedError):
        services.entry_register(tournament=tournament, user=AnonymousUser(), player=club_players[0])


def test_an_anonymous_user_cannot_withdraw_or_check_in_a_player_without_an_account(
    club_players,
):
    entry = EntryFactory(player=club_players[0])
    with pytest.raises(NotAllowedError):
        services.entry_withdraw(entry=entry, user=AnonymousUser())
    with pytest.raises(NotAllowedError):
        services.entry_check_in(entry=entry, user=AnonymousUser())


def test_a_player_without_an_account_is_registered_by_an_organiser_only(
    api_as, org_api, club_players
):
    tournament = org_api.post(
        "tournaments:tournament-list", {"name": "Open", "format": "swiss"}, status=201
    )
    org_api.post("tournaments:registration-open", pk=tournament["id"])
    someone = PlayerFactory()
    api_as(someone.user).post(
        "tournaments:entry-list", {"player": club_players[0].pk}, status=403,
        pk=tournament["id"],
    )  # fmt: skip
    org_api.post(
        "tournaments:entry-list", {"player": club_players[0].pk}, status=201,
        pk=tournament["id"],
    )  # fmt: skip
