"""The home page's "Live matches" lists matches being played, not every match a tournament has
opened: an over-the-board match counts once a game or a result is reported on it."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.helpers import open_matches, tournament_running


@pytest.mark.django_db
def test_an_unstarted_over_the_board_match_is_not_live(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination", match_length=3)["id"]
    ready = open_matches(org_api, pk)
    assert len(ready) == 2
    home = Client().get("/")
    assert home.status_code == 200 and home.context["live"] == []

    first = ready[0]["match_id"]
    winner = ready[0]["players"][0]["player"]
    org_api.post("games:result-list", {"winner": winner, "points": 1}, status=201, pk=first)
    live = Client().get("/").context["live"]
    assert [match.pk for match in live] == [first]
