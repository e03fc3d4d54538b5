"""Players without accounts: most club players never log in. Such a player is entered, plays
over-the-board matches an organiser reports, is rated, has pages and admin rows, and cannot be
mistaken for an anonymous user or a match's creator."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games import selectors
from games.models import Match
from players.models import Player
from tests.games.factories import MatchFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_player_needs_no_account(club):
    player = Player.objects.create(display_name="Goce Delchev", club=club)
    assert player.user is None and not player.has_account
    assert not player.belongs_to(AnonymousUser())
    assert not player.belongs_to(UserFactory())


def test_a_player_belongs_to_their_own_account_only(alice, bob):
    assert alice.belongs_to(alice.user) and not alice.belongs_to(bob.user)
    assert not alice.belongs_to(None)


def test_deleting_an_account_keeps_the_player_and_their_results(alice):
    alice.user.delete()
    alice.refresh_from_db()
    assert alice.user is None and alice.display_name == "Alice"


def test_an_over_the_board_match_of_club_players_is_reported_by_staff_and_rated(
    club_players, staff, client_for, django_capture_on_commit_callbacks
):
    ilija, marija = club_players
    client = client_for(staff)
    created = client.post(
        reverse("games:match-list"),
        {"player_one": ilija.pk, "player_two": marija.pk, "mode": "over_the_board",
         "target_score": 3},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.json()
    assert created.json()["awaiting"] is None and created.json()["rated"] is True
    url = reverse("games:result-list", kwargs={"pk": created.json()["id"]})
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            response = client.post(url, {"winner": ilija.pk, "points": 1}, format="json")
            assert response.status_code == 201, response.json()
            assert response.json()["status"] == "confirmed"
    match = Match.objects.get(pk=created.json()["id"])
    assert match.status == Match.Status.FINISHED and match.winner == ilija
    ilija.refresh_from_db()
    marija.refresh_from_db()
    assert ilija.rating > 1500 > marija.rating and ilija.rating_games == 3


def test_pages_show_a_match_and_a_player_without_accounts(club_players, staff):
    ilija, marija = club_players
    match = MatchFactory(player_one=ilija, player_two=marija, organiser=staff)
    assert Client().get(reverse("web:match", kwargs={"pk": match.pk})).status_code == 200
    page = Client().get(reverse("web:player", kwargs={"pk": ilija.pk}))
    assert page.status_code == 200 and b"Ilija Stojanov" in page.content
    viewer = Client()
    viewer.force_login(UserFactory())  # a user without a player is no one's opponent
    assert viewer.get(reverse("web:match", kwargs={"pk": match.pk})).status_code == 200


def test_a_challenge_to_a_player_without_an_account_is_refused(alice, club_players, client_for):
    """Nobody could ever accept it: an organiser enters such matches instead."""
    body = {"player_one": alice.pk, "player_two": club_players[0].pk}
    response = client_for(alice).post(reverse("games:match-list"), body, format="json")
    assert response.status_code == 409
    assert f"player {club_players[0].pk} has no account" in response.json()["detail"]
    assert not Match.objects.exists()


def test_a_match_nobody_created_challenges_no_one(club_players):
    """A match without a creator (an import by the operator) is nobody's challenge, even
    though its players have no user id either."""
    ilija, marija = club_players
    match = MatchFactory(
        player_one=ilija, player_two=marija, organiser=None, created_by=None,
        status=Match.Status.INVITED,
    )  # fmt: skip
    assert selectors.challenged_player(match) is None


def test_the_admin_lists_players_without_accounts_and_records_who_added_one(club_players, club):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(root)
    with_account = PlayerFactory(display_name="Has Account")
    listed = admin.get(reverse("admin:players_player_changelist"), {"user__isempty": "1"})
    assert listed.status_code == 200
    assert set(listed.context["cl"].result_list) == set(club_players)
    assert with_account not in listed.context["cl"].result_list
    added = admin.post(
        reverse("admin:players_player_add"),
        {"display_name": "Nikola Jovanov", "club": club.pk, "country": "RS", "user": "",
         "variant_ratings-TOTAL_FORMS": "0", "variant_ratings-INITIAL_FORMS": "0"},
    )  # fmt: skip
    assert added.status_code == 302, added.content[:2000]
    player = Player.objects.get(display_name="Nikola Jovanov")
    assert player.user is None and player.created_by == root
    change = admin.get(reverse("admin:players_player_change", args=[player.pk]))
    assert change.status_code == 200
