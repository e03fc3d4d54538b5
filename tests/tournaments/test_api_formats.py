"""One organiser runs each format through the API, from registration to final standings."""

import csv
import io

import pytest

from tests.tournaments.helpers import higher_seed, open_matches, play_all, tournament_running

pytestmark = pytest.mark.django_db


def standings(api, pk, section=None):
    params = {"section": section} if section else None
    return api.get("tournaments:standing-list", pk=pk, params=params)


def test_single_elimination_runs_to_final_placings(org_api, players):
    tournament = tournament_running(org_api, players, format="single_elimination", third_place=True)
    pk = tournament["id"]
    bracket = org_api.get("tournaments:bracket", pk=pk)
    first_round = bracket["sections"][0]["rounds"][0]
    assert bracket["format"] == "single_elimination" and len(first_round["matches"]) == 4
    top = first_round["matches"][0]
    assert [p["seed"] for p in top["players"]] == [1, 8] and top["match_id"]
    assert top["winner_to"] == "W2-1"

    assert play_all(org_api, pk) == 8  # 4 + 2 + final + third place
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    ranks = {row["seed"]: row["rank"] for row in standings(org_api, pk)}
    assert ranks[1] == 1 and ranks[2] == 2 and ranks[3] == 3 and ranks[4] == 4

    response = org_api.get("tournaments:standing-csv", pk=pk, params={"header": "keys"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 8 and rows[0]["rank"] == "1" and rows[0]["player"] == "P1"
    log = org_api.get("tournaments:audit-log", pk=pk)
    last_page = org_api.client.get(log["next"]).json() if log["next"] else log
    actions = {e["action"] for e in log["results"] + last_page["results"]}
    assert {"create", "registration_open", "register", "seed", "start"} <= actions
    assert all(e["actor"] == "organiser" for e in last_page["results"])


def test_double_elimination_plays_the_reset_grand_final(org_api, players):
    six = players[:6]
    pk = tournament_running(org_api, six, format="double_elimination")["id"]

    def choose(match):  # the losers-bracket finalist wins the first grand final
        return match["players"][1]["player"] if match["key"] == "GF" else higher_seed(match)

    play_all(org_api, pk, choose)
    bracket = org_api.get("tournaments:bracket", pk=pk)
    by_key = {m["key"]: m for s in bracket["sections"] for r in s["rounds"] for m in r["matches"]}
    assert by_key["GF2"]["status"] == "done"
    assert {s["name"] for s in bracket["sections"]} >= {"main", "losers"}
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    first = standings(org_api, pk)[0]
    assert first["rank"] == 1 and first["seed"] == 1


def test_consolation_flight_plays_shorter_matches(org_api, players):
    pk = tournament_running(
        org_api, players, format="consolation", match_length=2, consolation_match_length=1
    )["id"]
    bracket = org_api.get("tournaments:bracket", pk=pk)
    consolation = [s for s in bracket["sections"] if s["name"] == "consolation"][0]
    assert consolation["rounds"][0]["matches"][0]["match_length"] == 1
    play_all(org_api, pk)
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    ranked = [row for row in standings(org_api, pk) if row["rank"] is not None]
    assert ranked[0]["seed"] == 1


def test_round_robin_groups_then_knockout(org_api, players):
    pk = tournament_running(org_api, players, format="round_robin", groups=2, knockout_per_group=2)[
        "id"
    ]
    groups = {e["group"] for e in org_api.get("tournaments:entry-list", pk=pk)}
    assert groups == {1, 2}
    assert play_all(org_api, pk) == 12 + 3  # 2 groups of 4 (6 each), then semis and final
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    group_one = standings(org_api, pk, "group-1")
    assert [row["rank"] for row in group_one] == [1, 2, 3, 4]
    assert group_one[0]["match_wins"] == 3
    knockout = standings(org_api, pk, "knockout")
    assert knockout[0]["rank"] == 1 and knockout[0]["seed"] == 1


def test_round_robin_rotates_the_opening_game_each_round(org_api, players):
    pk = tournament_running(org_api, players[:4], format="round_robin", rotate_cycle=True)["id"]
    rounds = org_api.get("tournaments:round-list", pk=pk)
    assert [r["opening_variant"] for r in rounds] == ["tabla", "gul_bara", "tapa"]
    match_id = rounds[1]["pairings"][0]["match_id"]
    assert org_api.get("games:match-detail", pk=match_id)["options"]["cycle"][0] == "gul_bara"
    play_all(org_api, pk)
    entries = org_api.get("tournaments:entry-list", pk=pk)
    assert all(sum(e["games_per_variant"].values()) == 3 for e in entries)
    assert set(entries[0]["games_per_variant"]) == {"tabla", "gul_bara", "tapa"}
    assert [row["rank"] for row in standings(org_api, pk)] == [1, 2, 3, 4]


def test_a_round_robin_tied_on_every_tie_break_has_one_winner_the_best_seed(org_api, players):
    pk = tournament_running(org_api, players[:3], format="round_robin")["id"]

    def cycle(match):  # 1 beats 2, 2 beats 3, 3 beats 1: equal on everything
        seeds = {p["seed"]: p["player"] for p in match["players"]}
        return seeds[min(seeds)] if set(seeds) != {1, 3} else seeds[3]

    assert play_all(org_api, pk, cycle) == 3
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    table = standings(org_api, pk)
    assert [(row["rank"], row["seed"]) for row in table] == [(1, 1), (2, 2), (2, 3)]


def test_swiss_pairs_rounds_on_demand_with_a_late_entry(org_api, players):
    pk = tournament_running(
        org_api, players[:5], format="swiss", swiss_rounds=3, late_entry_until_round=2
    )["id"]
    first = org_api.get("tournaments:round-list", pk=pk)[0]["pairings"]
    assert len([m for m in first if m["status"] == "ready"]) == 2
    assert [m for m in first if m["status"] == "bye"][0]["players"][1] is None
    org_api.post("tournaments:round-pair", {}, status=409, pk=pk)  # round 1 not finished
    late = org_api.post(
        "tournaments:entry-list",
        {"player": players[5].pk, "late_bye_points": 0.5},
        status=201,
        pk=pk,
    )
    assert late["joined_round"] == 2
    for _ in range(2):
        play_all(org_api, pk)
        org_api.post("tournaments:round-pair", {}, status=201, pk=pk)
    play_all(org_api, pk)
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    refused = org_api.post("tournaments:round-pair", {}, status=409, pk=pk)
    assert refused["detail"] == "all 3 rounds are paired and played: the tournament is finished"
    table = standings(org_api, pk)
    assert len(table) == 6 and [row["rank"] for row in table] == sorted(r["rank"] for r in table)
    late_row = [row for row in table if row["entry"] == late["id"]][0]
    # The round missed before entry is not a bye (6 players: no bye in rounds 2 and 3); it
    # is worth the late_bye_points the organiser gave (issue 14, docs/decisions.md D24).
    assert late_row["byes"] == 0 and late_row["played"] == 2
    assert late_row["match_points"] == late_row["match_wins"] + 0.5
    assert len(open_matches(org_api, pk)) == 0


def test_a_swiss_that_withdrawals_leave_unpairable_ends_after_the_rounds_played(org_api, players):
    pk = tournament_running(org_api, players[:4], format="swiss", swiss_rounds=2)["id"]
    play_all(org_api, pk)  # round 1: seeds 1 v 3 and 2 v 4
    entries = {e["seed"]: e["id"] for e in org_api.get("tournaments:entry-list", pk=pk)}
    org_api.post("tournaments:entry-withdraw", pk=pk, eid=entries[2])
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "running"
    org_api.post("tournaments:entry-withdraw", pk=pk, eid=entries[4])
    # Seeds 1 and 3 are left and have met: round 2 can never be paired (D29).
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    org_api.post("tournaments:round-pair", {}, status=409, pk=pk)
    assert [row["rank"] for row in standings(org_api, pk)].count(1) == 1


def test_a_swiss_ends_when_the_last_result_of_a_round_leaves_it_unpairable(org_api, players):
    pk = tournament_running(org_api, players[:4], format="swiss", swiss_rounds=2)["id"]
    first, second = open_matches(org_api, pk)
    entries = {e["player"]: e["id"] for e in org_api.get("tournaments:entry-list", pk=pk)}
    for player in second["players"]:  # the first forfeits the match, the second has none
        org_api.post("tournaments:entry-withdraw", pk=pk, eid=entries[player["player"]])
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "running"
    play_all(org_api, pk)
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"
    assert len(open_matches(org_api, pk)) == 0


def test_a_reported_match_score_advances_the_bracket_and_counts_in_standings(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination", match_length=5)["id"]
    semi = open_matches(org_api, pk)[0]
    loser = [p["player"] for p in semi["players"] if p["player"] != higher_seed(semi)][0]
    one, two = (p["player"] for p in semi["players"])
    score = {"score_one": 5, "score_two": 2} if one != loser else {"score_one": 3, "score_two": 6}
    org_api.post("games:result-list", {"scope": "match", **score}, status=201, pk=semi["match_id"])
    final = [m for m in open_matches(org_api, pk) if m["match_id"] != semi["match_id"]]
    bracket = org_api.get("tournaments:bracket", pk=pk)
    drawn = [m for r in bracket["sections"][0]["rounds"] for m in r["matches"]]
    final_row = drawn[-1]
    assert higher_seed(semi) in [p["player"] for p in final_row["players"] if p]
    assert final  # the other semi-final is still to play
    play_all(org_api, pk)
    rows = {row["seed"]: row for row in standings(org_api, pk)}
    assert rows[1]["rank"] == 1
