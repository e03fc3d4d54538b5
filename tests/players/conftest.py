"""Fixtures for the players tests: an organiser who may enter players, staff, a stranger, club
players without accounts, and API clients logged in as any of them."""

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from tests.games.factories import ClubFactory, PlayerFactory, UserFactory


@pytest.fixture
def organiser(db):
    """A club organiser staff allowed to enter players (``players.add_player``)."""
    user = UserFactory(username="organiser")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="players", codename="add_player")
    )
    return user


@pytest.fixture
def staff(db):
    return UserFactory(username="staff", is_staff=True)


@pytest.fixture
def stranger(db):
    """A logged-in user with no player record and no permissions."""
    return UserFactory(username="stranger")


@pytest.fixture
def club(db):
    return ClubFactory(name="Skopje Tabla Club")


@pytest.fixture
def club_players(club, organiser):
    """Two players of the club who never log in, entered by the organiser."""
    return [
        PlayerFactory(user=None, club=club, display_name="Ilija Stojanov", created_by=organiser),
        PlayerFactory(user=None, club=club, display_name="Marija Dimitrova", created_by=organiser),
    ]


@pytest.fixture
def client_for():
    """An API client logged in as a user (or a player's user); None: anonymous."""

    def make(user_or_player) -> APIClient:
        client = APIClient()
        user = getattr(user_or_player, "user", user_or_player)
        if user is not None:
            client.force_authenticate(user=user)
        return client

    return make
