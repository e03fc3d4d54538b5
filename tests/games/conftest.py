"""Fixtures for the games tests: players, clients logged in as them, deterministic dice."""

import hashlib
import itertools

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import dice, services
from tests.games.factories import PlayerFactory, UserFactory


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new game gets a deterministic seed, so the dice of a test are the same each run."""
    counter = itertools.count()
    monkeypatch.setattr(
        dice, "new_seed", lambda: hashlib.sha256(f"test-{next(counter)}".encode()).hexdigest()
    )


@pytest.fixture
def alice(db):
    return PlayerFactory(user=UserFactory(username="alice"), display_name="Alice")


@pytest.fixture
def bob(db):
    return PlayerFactory(user=UserFactory(username="bob"), display_name="Bob")


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


@pytest.fixture
def staff(db):
    return UserFactory(username="staff", is_staff=True)


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
def online_match(alice, bob, organiser):
    return services.match_create(creator=organiser, player_one=alice, player_two=bob)


@pytest.fixture
def game(online_match):
    return online_match.games.get(number=1)
