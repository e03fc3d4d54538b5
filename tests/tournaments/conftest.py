"""Fixtures for the tournament tests: an organiser, rated players, and an API driver that runs
the on-commit tasks (standings, ratings) after every request, as a real commit would."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import PlayerFactory, UserFactory


class Api:
    """Calls the real routes as one user; each call runs the callbacks its commit enqueued."""

    def __init__(self, user: Any, capture: Any) -> None:
        self.client = APIClient()
        if user is not None:
            self.client.force_authenticate(user=user)
        self.capture = capture

    def get(self, name: str, **kwargs: Any) -> Any:
        params = kwargs.pop("params", None)
        response = self.client.get(reverse(name, kwargs=kwargs or None), params)
        assert response.status_code == 200, response.content
        return (
            response.json() if response["Content-Type"].startswith("application/json") else response
        )

    def post(self, name: str, data: Any = None, status: int = 200, **kwargs: Any) -> Any:
        with self.capture(execute=True):
            response = self.client.post(reverse(name, kwargs=kwargs or None), data, format="json")
        assert response.status_code == status, response.content
        return response.json()


@pytest.fixture
def organiser(db):
    """A club organiser whom staff trusted to run rated tournaments (README, "Trust")."""
    user = UserFactory(username="organiser")
    user.user_permissions.add(Permission.objects.get(codename="run_rated_tournament"))
    return user


@pytest.fixture
def players(db):
    """Eight players, rated from 1800 down: seeding by rating gives seed i to players[i-1]."""
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 9)]


@pytest.fixture
def api_as(django_capture_on_commit_callbacks):
    def make(user: Any = None) -> Api:
        return Api(getattr(user, "user", user), django_capture_on_commit_callbacks)

    return make


@pytest.fixture
def org_api(api_as, organiser) -> Api:
    return api_as(organiser)
