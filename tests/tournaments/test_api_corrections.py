"""An organiser's correction of a result, as a director expects it: the score is checked like a
reported final score, and a refusal names only the later matches it would change (issue 14,
docs/decisions.md D25)."""

import pytest

from tests.tournaments.helpers import play_all, tournament_running
from tournaments.models import Entry, TournamentMatch

pytestmark = pytest.mark.django_db


def row(pk, key):
    return TournamentMatch.objects.select_related("match").get(tournament_id=pk, key=key)


def correct(api, pk, key, body):
    """POST a correction of match ``key``; the raw response (its status is the test's)."""
    url = f"/api/v1/tournaments/{pk}/matches/{row(pk, key).pk}/correct/"
    return api.client.post(url, body, format="json")


def stored(pk, key):
    match = row(pk, key)
    return (match.winner_id, match.score_one, match.score_two), (
        match.match.winner_id,
        match.match.score_one,
        match.match.score_two,
    )


def test_a_corrected_score_must_be_one_the_match_could_end_with(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination", match_length=5)["id"]
    first = row(pk, "W1-1")
    body = {"scope": "match", "score_one": 5, "score_two": 2}
    org_api.post("games:result-list", body, status=201, pk=first.match_id)
    before = stored(pk, "W1-1")

    one, two = first.entry_one_id, first.entry_two_id
    two_five = correct(org_api, pk, "W1-1", {"winner": one, "score_one": 2, "score_two": 5})
    assert two_five.status_code == 400
    assert two_five.json()["detail"] == (
        f"cannot correct W1-1: the score 2-5 makes {first.entry_two.player.display_name} the "
        f"winner, not {first.entry_one.player.display_name}"
    )
    # Without a winner, the two scores decide it.
    by_scores = correct(org_api, pk, "W1-1", {"score_one": 5})
    assert by_scores.status_code == 400
    assert by_scores.json()["detail"] == "give both final scores of W1-1"
    fifty = correct(org_api, pk, "W1-1", {"winner": one, "score_one": 50, "score_two": 0})
    assert fifty.status_code == 400
    detail = fifty.json()["detail"]
    assert detail.startswith("cannot correct W1-1 to 50-0: 50 points is more than a 5-point")
    level = correct(org_api, pk, "W1-1", {"winner": one, "score_two": 5})  # 5-5
    assert level.status_code == 400 and "exactly one player at 5 points" in level.json()["detail"]
    assert stored(pk, "W1-1") == before  # nothing written on a 400

    fixed = {"winner": two, "score_one": 3, "score_two": 5}
    body = org_api.post("tournaments:result-correct", fixed, pk=pk, mid=first.pk)
    assert body["winner"] == first.entry_two_id
    assert [p["score"] for p in body["players"]] == [3, 5]
    assert stored(pk, "W1-1") == (
        (first.entry_two_id, 3, 5),
        (first.entry_two.player_id, 3, 5),
    )
    final = row(pk, "W2-1")
    assert final.entry_one_id == first.entry_two_id


def test_a_forfeit_is_corrected_to_a_match_played_with_its_final_score(org_api, players):
    pk = tournament_running(org_api, players[:4], format="round_robin", match_length=5)["id"]
    quitter = Entry.objects.get(tournament_id=pk, seed=4)
    org_api.post("tournaments:entry-withdraw", pk=pk, eid=quitter.pk)
    forfeit = TournamentMatch.objects.filter(tournament_id=pk, entry_two=quitter).first()
    assert forfeit.is_forfeit and forfeit.score_one == forfeit.score_two == 0

    swapped = correct(org_api, pk, forfeit.key, {"winner": quitter.pk})  # 0-0 the other way
    assert swapped.status_code == 400
    assert swapped.json()["detail"] == (
        f"match {forfeit.key} was decided by forfeit at 0-0: give the final score it ended "
        "with (score_one and score_two)"
    )
    played = {"winner": quitter.pk, "score_one": 2, "score_two": 5}
    org_api.post("tournaments:result-correct", played, pk=pk, mid=forfeit.pk)
    forfeit.refresh_from_db()
    assert (forfeit.is_forfeit, forfeit.winner_id, forfeit.score_one) == (False, quitter.pk, 2)


def test_a_refused_correction_names_only_the_later_matches(org_api, players):
    pk = tournament_running(org_api, players, format="single_elimination", third_place=True)["id"]
    play_all(org_api, pk)  # the final and the third-place match are played too
    semi = row(pk, "W2-1")
    loser = semi.entry_two_id if semi.winner_id == semi.entry_one_id else semi.entry_one_id

    response = correct(org_api, pk, "W2-1", {"winner": loser})
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "cannot correct W2-1: later matches W3-1, 3P have already started with the present "
        "result; correct those first"
    )
    # The final has nothing after it: it can be corrected, and the third-place match stays.
    final = row(pk, "W3-1")
    runner_up = final.entry_two_id if final.winner_id == final.entry_one_id else final.entry_one_id
    org_api.post("tournaments:result-correct", {"winner": runner_up}, pk=pk, mid=final.pk)
    assert row(pk, "W3-1").winner_id == runner_up and row(pk, "3P").status == "done"


def test_a_double_elimination_refusal_names_no_earlier_match(org_api, players):
    pk = tournament_running(org_api, players, format="double_elimination")["id"]
    play_all(org_api, pk)
    semi = row(pk, "W2-1")
    loser = semi.entry_two_id if semi.winner_id == semi.entry_one_id else semi.entry_one_id

    response = correct(org_api, pk, "W2-1", {"winner": loser})
    assert response.status_code == 409
    named = response.json()["detail"].split("later matches ")[1].split(" have")[0].split(", ")
    # W2-1's winner goes on to W3-1, its loser to L2-2; everything after those follows.
    assert named == ["W3-1", "L2-2", "L3-1", "L4-1", "GF"]
