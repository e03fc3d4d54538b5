"""Fixtures for the games tests: staff, clients logged in as players, deterministic dice.
Alice, Bob, the organiser and their online match come from tests/fixtures.py."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.games.factories import UserFactory


@pytest.fixture(autouse=True)
def _dice(seeded_dice: None) -> None:
    """Every game of these tests gets deterministic dice (seeds "test-0", "test-1", ...)."""


@pytest.fixture
def staff(db):
    return UserFactory(username="staff", is_staff=True)


@pytest.fixture
def spectator(db):
    """A logged-in user who plays in none of the matches."""
    return UserFactory(username="spectator")


@pytest.fixture
def accepted():
    """Accept a challenge (a match a player created through the API) as the challenged player:
    ``accepted(response, client_of_the_opponent)`` gives the started match's JSON."""

    def accept(response, opponent_client) -> dict:
        assert response.status_code == 201, response.json()
        created = response.json()
        assert created["status"] == "invited"
        url = reverse("games:match-accept", kwargs={"pk": created["id"]})
        answer = opponent_client.post(url)
        assert answer.status_code == 200, answer.json()
        return answer.json()

    return accept


@pytest.fixture
def client_for():
    def make(user_or_player) -> APIClient:
        user = getattr(user_or_player, "user", user_or_player)
        client = APIClient()
        client.force_authenticate(user=user)
        return client

    return make


@pytest.fixture
def game(online_match):
    return online_match.games.get(number=1)
