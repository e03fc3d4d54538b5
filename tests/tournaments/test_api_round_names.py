"""The bracket and round JSON name their rounds (Quarter-final, Losers' final, Round 2:
docs/decisions.md D34), and a bracket's standings give the places a player shares
(rank 5, rank_last 8: D33)."""

import pytest

from tests.tournaments.helpers import higher_seed, play_all, tournament_running

pytestmark = pytest.mark.django_db


def round_names(bracket):
    return {s["name"]: [r["name"] for r in s["rounds"]] for s in bracket["sections"]}


def test_a_single_elimination_names_its_rounds_and_shares_places(org_api, players):
    pk = tournament_running(org_api, players, format="single_elimination", third_place=True)["id"]
    play_all(org_api, pk)
    bracket = org_api.get("tournaments:bracket", pk=pk)
    assert round_names(bracket) == {
        "main": ["Quarter-final", "Semi-final", "Final"],
        "third_place": ["Third-place match"],
    }
    rounds = org_api.get("tournaments:round-list", pk=pk)
    assert [r["name"] for r in rounds] == ["Quarter-final", "Semi-final", "Final"]
    third = [m for m in rounds[0]["pairings"] if m["key"] == "3P"][0]
    assert third["round_name"] == "Third-place match"
    assert {m["round_name"] for m in rounds[0]["pairings"]} == {
        "Quarter-final",
        "Third-place match",
    }
    table = org_api.get("tournaments:standing-list", pk=pk)
    places = [(row["seed"], row["rank"], row["rank_last"]) for row in table]
    assert places == [
        (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, 8), (6, 5, 8), (7, 5, 8), (8, 5, 8),
    ]  # fmt: skip


def test_double_elimination_names_the_flights_and_the_grand_final(org_api, players):
    pk = tournament_running(org_api, players[:6], format="double_elimination")["id"]

    def choose(match):  # the losers-bracket finalist wins the first grand final
        return match["players"][1]["player"] if match["key"] == "GF" else higher_seed(match)

    play_all(org_api, pk, choose)
    assert round_names(org_api.get("tournaments:bracket", pk=pk)) == {
        "main": ["Winners' quarter-final", "Winners' semi-final", "Winners' final"],
        "losers": ["Losers' round 1", "Losers' round 2", "Losers' round 3", "Losers' final"],
        "grand_final": ["Grand final"],
        "reset": ["Grand final reset"],
    }
    table = org_api.get("tournaments:standing-list", pk=pk)
    assert [(row["rank"], row["rank_last"]) for row in table] == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (5, 6),
    ]  # fmt: skip


def test_league_rounds_keep_their_numbers(org_api, players):
    pk = tournament_running(org_api, players[:4], format="round_robin")["id"]
    play_all(org_api, pk)
    rounds = org_api.get("tournaments:round-list", pk=pk)
    assert [r["name"] for r in rounds] == ["Round 1", "Round 2", "Round 3"]
    assert rounds[1]["pairings"][0]["round_name"] == "Round 2"
    table = org_api.get("tournaments:standing-list", pk=pk)
    assert all(row["rank_last"] is None for row in table)


def test_a_knockout_after_groups_names_its_rounds(org_api, players):
    fields = {"format": "round_robin", "groups": 2, "knockout_per_group": 2}
    pk = tournament_running(org_api, players, **fields)["id"]
    play_all(org_api, pk)
    knockout = org_api.get("tournaments:bracket", pk=pk, params={"stage": "knockout"})
    assert round_names(knockout) == {"main": ["Semi-final", "Final"]}
    rounds = org_api.get("tournaments:round-list", pk=pk)
    assert [r["name"] for r in rounds if r["stage"] == "knockout"] == ["Semi-final", "Final"]
    assert [r["name"] for r in rounds if r["stage"] == "main"][0] == "Round 1"
