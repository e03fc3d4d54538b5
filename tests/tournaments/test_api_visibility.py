"""What the tournaments API shows to whom (docs/decisions.md D56): a draft only to its
organisers and staff, as the pages, and a player's rating history without the private matches
the reader may not see, as the matches list."""

import random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from rest_framework.test import APIClient

from games import services as games_services
from games.demo import match_play_random
from games.services.ratings import ratings_recompute
from games.web_selectors import player_rating_history
from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def test_a_draft_and_its_audit_log_are_read_only_by_its_organisers_and_staff():
    """Issue 19: ``?status=draft`` listed every draft, and its audit log was readable."""
    creator, co = UserFactory(username="creator"), UserFactory(username="co")
    draft = TournamentFactory(
        name="Secret Cup", created_by=creator, organisers=[co], status=Tournament.Status.DRAFT
    )
    public = TournamentFactory(name="Open Cup")
    listing = reverse("tournaments:tournament-list")
    reads = [
        reverse(name, kwargs={"pk": draft.pk})
        for name in (
            "tournaments:tournament-detail",
            "tournaments:entry-list",
            "tournaments:round-list",
            "tournaments:report-list",
            "tournaments:audit-log",
            "tournaments:standing-list",
        )
    ]
    other_organiser = UserFactory(username="other")
    TournamentFactory(created_by=other_organiser, status=Tournament.Status.DRAFT)
    for user in (None, UserFactory(username="someone"), other_organiser):
        client = client_of(user)
        names = [t["name"] for t in client.get(listing, {"status": "draft"}).json()["results"]]
        assert "Secret Cup" not in names
        assert [t["name"] for t in client.get(listing).json()["results"]].count("Open Cup") == 1
        for url in reads:
            assert client.get(url).status_code == 404, (user, url)
        patch = client.patch(reads[0], {"name": "Mine"}, format="json")
        assert patch.status_code in (401, 403), "a write is refused by its service"
    for user in (creator, co, UserFactory(username="staff", is_staff=True)):
        client = client_of(user)
        names = [t["name"] for t in client.get(listing, {"status": "draft"}).json()["results"]]
        assert "Secret Cup" in names
        for url in reads:
            assert client.get(url).status_code == 200, (user, url)
    row = client_of(co).get(listing, {"status": "draft"}).json()["results"]
    assert [t["entry_count"] for t in row if t["name"] == "Secret Cup"] == [0]
    assert public.pk != draft.pk


def test_a_private_match_is_left_out_of_a_players_public_rating_history():
    """Issue 19: the id and rating change of a private match showed in the public
    /players/{id}/ratings/. Its players and staff see it; anyone else does not."""
    staff = UserFactory(username="staff", is_staff=True)
    one, two = PlayerFactory(display_name="One"), PlayerFactory(display_name="Two")
    shown = games_services.match_create(creator=staff, player_one=one, player_two=two)
    hidden = games_services.match_create(
        creator=staff, player_one=one, player_two=two, is_public=False
    )
    for number, match in enumerate((shown, hidden)):
        match_play_random(match=match, rng=random.Random(number))
    ratings_recompute()
    url = reverse("tournaments:player-ratings", kwargs={"pk": one.pk})

    def matches_seen(user) -> set[int]:
        body = client_of(user).get(url).json()
        return {row["match"] for row in body["history"]}

    for user in (None, UserFactory(username="someone")):
        assert matches_seen(user) == {shown.pk}
    for user in (one.user, two.user, staff):
        assert matches_seen(user) == {shown.pk, hidden.pk}
    # The player page's chart follows the same rule: a start point and one per match seen.
    assert len(player_rating_history(one, user=AnonymousUser())) == 2
    assert len(player_rating_history(one, user=two.user)) == 3
