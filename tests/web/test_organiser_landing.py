"""Issue 22 §2: the organiser lands on "Your tournaments" after logging in (an organiser with a
turn waiting as a player lands on "Your matches", D117); an organiser who has a player is not
offered "Claim your player" anywhere. Through Django's test client."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from games import selectors
from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")
HOME = reverse("web:home")
TOURNAMENTS = reverse("tournaments_web:index")
CLAIM = reverse("players_web:claim")


def log_in(username: str, next_path: str = "") -> tuple[Client, str]:
    """Logs in through the form, as the browser posts it; the client and where it lands."""
    client = Client()
    data = {"username": username, "password": "password"}
    if next_path:
        data["next"] = next_path
    response = client.post(LOGIN, data)
    assert response.status_code == 302
    return client, response["Location"]


def test_an_organiser_lands_on_your_tournaments_unless_next_says_otherwise():
    organiser = UserFactory(username="club-organiser")
    TournamentFactory(created_by=organiser, name="Friday Cup")
    client, landed = log_in("club-organiser")
    assert landed == TOURNAMENTS
    page = client.get(landed).content.decode()
    assert 'id="run-by-me"' in page and "Your tournaments" in page and "Friday Cup" in page
    assert log_in("club-organiser", "/lobby/")[1] == "/lobby/"
    # The header's "Log in" on the home page names the home page: the landing still applies.
    home = Client().get(HOME).content.decode()
    assert f'href="{LOGIN}?next=/"' in home
    assert log_in("club-organiser", HOME)[1] == TOURNAMENTS


def test_a_co_organiser_and_a_trusted_organiser_without_a_tournament_land_there_too():
    helper = UserFactory(username="helper")
    TournamentFactory(organisers=[helper])
    assert log_in("helper")[1] == TOURNAMENTS
    trusted = UserFactory(username="trusted")
    trusted.user_permissions.add(Permission.objects.get(codename="run_rated_tournament"))
    assert log_in("trusted")[1] == TOURNAMENTS


def test_a_player_and_a_past_organiser_land_on_the_home_page(alice):
    assert log_in("alice")[1] == HOME
    assert log_in("alice", HOME)[1] == HOME
    retired = UserFactory(username="retired")
    TournamentFactory(created_by=retired, status=Tournament.Status.FINISHED)
    assert log_in("retired")[1] == HOME


def test_an_organiser_whose_turn_it_is_as_a_player_lands_on_your_matches(online_match):
    mover = selectors.player_to_move(online_match.games.get())
    TournamentFactory(created_by=mover.user)
    assert log_in(mover.user.username)[1] == HOME
    other = online_match.player_two if mover == online_match.player_one else online_match.player_one
    TournamentFactory(created_by=other.user)
    assert log_in(other.user.username)[1] == TOURNAMENTS  # waiting for the opponent


def test_an_organiser_with_a_player_is_never_offered_to_claim_one():
    player = PlayerFactory(display_name="Vesna T")
    tournament = TournamentFactory(created_by=player.user)
    client, _ = log_in(player.user.username)
    desk = reverse("tournaments_web:desk", kwargs={"pk": tournament.pk})
    for url in (HOME, TOURNAMENTS, reverse("account"), reverse("web:lobby"), desk, CLAIM):
        page = client.get(url).content.decode()
        assert "Claim your player" not in page and 'name="code"' not in page, url
    claim = client.get(CLAIM).content.decode()
    assert "<h1>Your player</h1>" in claim and "Vesna T" in claim
    # A user without a player still finds the offer (header, account page, claim page).
    UserFactory(username="newcomer")
    newcomer, _ = log_in("newcomer")
    for url in (HOME, reverse("account"), CLAIM):
        assert "Claim your player" in newcomer.get(url).content.decode(), url
