"""Standings when some results are whole-match scores: games won are known only from game
records, so a player with such a match has games won unknown (null, blank, "—"), their points
for and against still count, and games won breaks no tie it cannot see (issue 14,
docs/decisions.md D27)."""

import csv
import io

import pytest
from django.urls import reverse

from tests.tournaments.helpers import match_win, tournament_running

pytestmark = pytest.mark.django_db


def pairing(api, pk, one, two):
    """The round-robin match of players ``one`` and ``two`` (Player rows)."""
    for round_ in api.get("tournaments:round-list", pk=pk):
        for match in round_["pairings"]:
            if {p["player"] for p in match["players"]} == {one.pk, two.pk}:
                return match
    raise AssertionError(f"{one} and {two} do not meet")


def whole_match(api, pk, winner, loser, score):
    """The organiser enters the final score ``score`` (winner's, loser's) and no games."""
    match = pairing(api, pk, winner, loser)
    first = match["players"][0]["player"] == winner.pk
    score_one, score_two = score if first else score[::-1]
    body = {"scope": "match", "score_one": score_one, "score_two": score_two}
    api.post("games:result-list", body, status=201, pk=match["match_id"])


def by_games(api, pk, winner, loser):
    """Five single games, all won by ``winner``: a 5-0 match with its game record."""
    match_win(api, pairing(api, pk, winner, loser)["match_id"], winner.pk)


def test_games_won_is_unknown_after_a_whole_match_score_and_breaks_no_tie(org_api, players):
    p1, p2, p3, p4 = players[:4]
    order = ["match_points", "games_won", "points_for"]
    pk = tournament_running(
        org_api, [p1, p2, p3, p4], format="round_robin", match_length=5, tiebreak_order=order
    )["id"]
    # One game is reported game by game before the final score is entered: still no full record.
    one_two = pairing(org_api, pk, p1, p2)["match_id"]
    org_api.post("games:result-list", {"winner": p2.pk, "points": 1}, status=201, pk=one_two)
    whole_match(org_api, pk, p1, p2, (5, 4))
    whole_match(org_api, pk, p1, p3, (5, 4))
    whole_match(org_api, pk, p2, p3, (5, 3))
    by_games(org_api, pk, p1, p4)
    by_games(org_api, pk, p4, p2)
    by_games(org_api, pk, p3, p4)

    rows = {row["player"]: row for row in org_api.get("tournaments:standing-list", pk=pk)}
    assert [rows[p.pk]["games_won"] for p in (p1, p2, p3, p4)] == [None, None, None, 5]
    assert [rows[p.pk]["points_for"] for p in (p1, p2, p3, p4)] == [15, 9, 12, 5]
    assert [rows[p.pk]["points_against"] for p in (p1, p2, p3, p4)] == [8, 13, 10, 10]
    # P2, P3 and P4 won a match each. Games won would put P4 (5 known) first among them: it
    # is unknown for P2 and P3, so it decides nothing there, and points for ranks them.
    assert [rows[p.pk]["rank"] for p in (p1, p3, p2, p4)] == [1, 2, 3, 4]

    response = org_api.get("tournaments:standing-csv", pk=pk, params={"header": "keys"})
    table = {r["player"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert table["P1"]["games_won"] == "" and table["P4"]["games_won"] == "5"
    assert table["P1"]["points_for"] == "15"

    page = org_api.client.get(reverse("tournaments_web:tournament", args=[pk])).content.decode()
    row_p1 = page.split(f'<tr data-entry="{rows[p1.pk]["entry"]}">')[1].split("</tr>")[0]
    cells = row_p1.split("<td")[3:]  # after the rank and the player: played, W, L, MP, GW, ...
    assert ">—</td>" in cells[4] and ">15</td>" in cells[5]
