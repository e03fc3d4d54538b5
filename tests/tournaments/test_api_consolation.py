"""A consolation flight as a director runs it: whoever loses their first match played enters it,
and the flight's own placings show beside the main draw's (API, CSV and page)."""

import csv
import io

import pytest
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory
from tests.tournaments.helpers import higher_seed, play_all, tournament_running

pytestmark = pytest.mark.django_db


@pytest.fixture
def eleven(db):
    """Eleven players rated from 1800 down: seed i is P{i}; seeds 1-5 get round-1 byes."""
    return [PlayerFactory(display_name=f"P{i}", rating=1800.0 - 20 * i) for i in range(1, 12)]


def by_key(bracket):
    return {m["key"]: m for s in bracket["sections"] for r in s["rounds"] for m in r["matches"]}


def seed_one_loses_first(match):
    """Higher seeds win, except seed 1, who loses their first real match (round 2)."""
    seeds = [p["seed"] for p in match["players"]]
    if 1 in seeds and match["key"].startswith("W"):
        return match["players"][1 - seeds.index(1)]["player"]
    return higher_seed(match)


def test_a_seed_with_a_bye_who_loses_their_first_match_plays_the_consolation(org_api, eleven):
    pk = tournament_running(org_api, eleven, format="consolation", consolation_rounds=1)["id"]
    play_all(org_api, pk, seed_one_loses_first)
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"

    matches = by_key(org_api.get("tournaments:bracket", pk=pk))
    consolation = [m for key, m in matches.items() if key.startswith("C")]
    entrants = {p["seed"] for m in consolation for p in m["players"] if p}
    # Round-1 losers 9, 10, 11 and the first-match losers among the seeds with byes: seed 1
    # (lost to 8) and seed 5 (lost to 4, both from byes).
    assert entrants == {1, 5, 9, 10, 11}
    played = [m for m in consolation if m["status"] == "done"]
    assert any(1 in {p["seed"] for p in m["players"]} for m in played)


def test_the_consolation_winner_is_placed_in_the_flight_in_api_csv_and_page(
    org_api, eleven, client
):
    pk = tournament_running(org_api, eleven, format="consolation", consolation_rounds=1)["id"]
    play_all(org_api, pk, seed_one_loses_first)

    flight = org_api.get("tournaments:standing-list", pk=pk, params={"section": "consolation"})
    assert [(row["rank"], row["seed"]) for row in flight[:2]] == [(1, 1), (2, 10)]
    every = org_api.get("tournaments:standing-list", pk=pk)
    assert [row["section"] for row in every] == ["main"] * 11 + ["consolation"] * len(flight)

    response = org_api.get("tournaments:standing-csv", pk=pk, params={"header": "keys"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    side = [row for row in rows if row["section"] == "consolation"]
    assert rows[-len(side) :] == side and (side[0]["rank"], side[0]["player"]) == ("1", "P1")

    page = client.get(reverse("tournaments_web:tournament", args=[pk])).content.decode()
    standings = page[page.index('id="standings"') :]  # the bracket names the flight too
    assert "Main draw" in standings and "Consolation flight" in standings
    assert standings.index("Main draw") < standings.index("Consolation flight")


def test_a_two_player_consolation_has_no_flight_and_finishes(org_api, eleven):
    pk = tournament_running(org_api, eleven[:2], format="consolation", consolation_rounds=1)["id"]
    assert play_all(org_api, pk) == 1
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    bracket = org_api.get("tournaments:bracket", pk=pk)
    assert {s["name"] for s in bracket["sections"]} == {"main"}
