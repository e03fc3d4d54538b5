"""Rated and friendly tournaments (README, "Trust"): anyone may run a tournament, but only
staff and the organisers staff trusted with the permission "tournaments.run_rated_tournament"
run rated ones, whose matches count for the ratings."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from games.models import Match, RatingHistory
from tests.tournaments.conftest import Api
from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import play_all, tournament_running

pytestmark = pytest.mark.django_db


def trusted_organiser() -> Any:
    """A club organiser given the permission through a group, as staff would in the admin."""
    group = Group.objects.create(name="Rated organisers")
    group.permissions.add(Permission.objects.get(codename="run_rated_tournament"))
    user = UserFactory(username="club-organiser")
    user.groups.add(group)
    return user


def create(api: Api, status: int = 201, **body: Any) -> Any:
    body = {"name": "Cup", "format": "swiss", **body}
    return api.post("tournaments:tournament-list", body, status=status)


def test_a_plain_users_tournament_is_friendly_and_cannot_be_made_rated(api_as):
    api = api_as(UserFactory(username="anyone"))
    tournament = create(api)
    assert tournament["rated"] is False

    refused = create(api, status=403, rated=True)
    assert "rated" in refused["detail"]
    path = f"/api/v1/tournaments/{tournament['id']}/"
    assert api.client.patch(path, {"rated": True}, format="json").status_code == 403
    assert api.get("tournaments:tournament-detail", pk=tournament["id"])["rated"] is False


def test_trusted_organisers_and_staff_run_rated_tournaments(api_as):
    organiser = api_as(trusted_organiser())
    assert create(organiser)["rated"] is True
    assert create(organiser, rated=False)["rated"] is False, "a friendly event is their choice"
    assert create(api_as(UserFactory(username="boss", is_staff=True)))["rated"] is True


@pytest.mark.parametrize("trusted", [True, False])
def test_only_a_rated_tournaments_matches_count_for_ratings(api_as, players, trusted):
    api = api_as(trusted_organiser() if trusted else UserFactory(username="friend"))
    tournament = tournament_running(api, players[:4], format="single_elimination")
    assert play_all(api, tournament["id"]) == 3

    matches = Match.objects.filter(tournament_slot=f"tournament-{tournament['id']}")
    assert matches.count() == 3
    assert {m.rated for m in matches} == {trusted}
    assert RatingHistory.objects.filter(match__in=matches).exists() is trusted


def test_the_tournament_page_says_whether_it_is_rated(api_as):
    friend, trusted = api_as(UserFactory(username="friend")), api_as(trusted_organiser())
    friendly, rated = create(friend), create(trusted)
    friend.post("tournaments:registration-open", pk=friendly["id"])
    trusted.post("tournaments:registration-open", pk=rated["id"])
    client = Client()
    for tournament, badge in ((friendly, 'data-rated="false"'), (rated, 'data-rated="true"')):
        path = reverse("tournaments_web:tournament", kwargs={"pk": tournament["id"]})
        response = client.get(path)
        assert response.status_code == 200 and badge in response.content.decode()
