"""Tournament bounds (issue 19, docs/decisions.md D57): the entries, the matches one start
creates and the open friendly tournaments of a user, each refusal naming its bound; rated
organisers have the higher bounds."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match
from tests.tournaments.factories import PlayerFactory, UserFactory
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def friendly(api_as):
    """A signed-in user with no permission: their tournaments are friendly ones."""
    user = UserFactory(username="friendly")
    return user, api_as(user)


def entered(api: Any, pk: int, players: list[Any]) -> None:
    api.post("tournaments:registration-open", pk=pk)
    api.post("tournaments:entry-bulk", {"players": [p.pk for p in players]}, status=201, pk=pk)


def test_a_start_creating_too_many_matches_is_refused_naming_the_limit(friendly, settings):
    settings.TOURNAMENT_MAX_START_MATCHES = 20
    _, api = friendly
    pk = api.post(
        "tournaments:tournament-list", {"name": "Big", "format": "round_robin"}, status=201
    )["id"]
    entered(api, pk, PlayerFactory.create_batch(8))
    body = api.post("tournaments:start", status=409, pk=pk)
    assert body["detail"] == (
        "cannot start: a round robin of 8 players would create 28 matches; at most 20 may be "
        "created by one start of a friendly tournament"
    )
    tournament = Tournament.objects.get(pk=pk)
    assert tournament.status == Tournament.Status.REGISTRATION
    assert not tournament.matches.exists() and not Match.objects.exists()


def test_a_double_round_robin_in_groups_is_counted_as_drawn(friendly, settings):
    settings.TOURNAMENT_MAX_START_MATCHES = 23
    _, api = friendly
    body = {"name": "Groups", "format": "round_robin", "groups": 2, "double_round_robin": True}
    pk = api.post("tournaments:tournament-list", body, status=201)["id"]
    entered(api, pk, PlayerFactory.create_batch(7))  # groups of 4 and 3: 2 * (6 + 3) = 18
    api.post("tournaments:start", pk=pk)
    assert TournamentMatch.objects.filter(tournament_id=pk).count() == 18


def test_a_rated_organiser_has_the_higher_bounds(org_api, settings):
    settings.TOURNAMENT_MAX_START_MATCHES = 20
    settings.TOURNAMENT_MAX_START_MATCHES_TRUSTED = 28
    pk = org_api.post(
        "tournaments:tournament-list", {"name": "Rated", "format": "round_robin"}, status=201
    )["id"]
    entered(org_api, pk, PlayerFactory.create_batch(8))
    org_api.post("tournaments:start", pk=pk)
    assert TournamentMatch.objects.filter(tournament_id=pk).count() == 28


def test_entries_beyond_the_bound_are_refused(friendly, settings):
    settings.TOURNAMENT_MAX_ENTRIES = 4
    _, api = friendly
    pk = api.post("tournaments:tournament-list", {"name": "Small", "format": "swiss"}, status=201)[
        "id"
    ]
    api.post("tournaments:registration-open", pk=pk)
    five = PlayerFactory.create_batch(5)
    body = api.post("tournaments:entry-bulk", {"players": [p.pk for p in five]}, status=409, pk=pk)
    assert body["detail"] == (
        "a friendly tournament may have at most 4 entries: 0 are entered, 5 more cannot be"
    )
    api.post("tournaments:entry-bulk", {"players": [p.pk for p in five[:4]]}, status=201, pk=pk)
    body = api.post("tournaments:entry-list", {"player": five[4].pk}, status=409, pk=pk)
    assert "at most 4 entries" in body["detail"]
    too_big = {"name": "Too big", "format": "swiss", "max_entries": 5}
    body = api.post("tournaments:tournament-list", too_big, status=400)
    assert "at most 4 entries" in str(body)


def test_a_user_may_have_only_so_many_friendly_tournaments_open(friendly, org_api, settings):
    settings.TOURNAMENT_MAX_OPEN_FRIENDLY = 2
    settings.TOURNAMENT_MAX_OPEN_FRIENDLY_TRUSTED = 3
    _, api = friendly
    made = [
        api.post("tournaments:tournament-list", {"name": f"F{i}", "format": "swiss"}, status=201)[
            "id"
        ]
        for i in range(2)
    ]
    body = api.post("tournaments:tournament-list", {"name": "F3", "format": "swiss"}, status=409)
    assert body["detail"] == (
        "you already have 2 friendly tournaments that are not finished; at most 2 may be open "
        "at once"
    )
    Tournament.objects.filter(pk=made[0]).update(status=Tournament.Status.FINISHED)
    api.post("tournaments:tournament-list", {"name": "F3", "format": "swiss"}, status=201)
    for i in range(3):  # a rated organiser's friendly ones have the higher bound
        org_api.post(
            "tournaments:tournament-list",
            {"name": f"O{i}", "format": "swiss", "rated": False},
            status=201,
        )
    org_api.post(
        "tournaments:tournament-list", {"name": "O4", "format": "swiss", "rated": False}, status=409
    )
    org_api.post("tournaments:tournament-list", {"name": "Rated", "format": "swiss"}, status=201)
