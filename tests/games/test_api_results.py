"""Over-the-board results: report, confirm, dispute, organiser override, move records."""

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine import legal_plays, start_position
from games.models import Game, Match, ResultReport
from tests.games.factories import MatchFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def otb_match(alice, bob, organiser):
    return MatchFactory(player_one=alice, player_two=bob, organiser=organiser)


def results_url(match: Match) -> str:
    return reverse("games:result-list", kwargs={"pk": match.pk})


def report_url(name: str, report_id: int, match: Match) -> str:
    return reverse(f"games:result-{name}", kwargs={"pk": match.pk, "rid": report_id})


def report(client, match, **body) -> dict:
    response = client.post(results_url(match), body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_confirmed_report_counts_and_a_pending_one_does_not(otb_match, alice, bob, client_for):
    created = report(client_for(alice), otb_match, winner=alice.pk, points=2)
    assert created["status"] == "pending" and created["kind"] == "mars"
    otb_match.refresh_from_db()
    assert (otb_match.score_one, otb_match.score_two) == (0, 0)

    response = client_for(bob).post(report_url("confirm", created["id"], otb_match))

    assert response.status_code == 200 and response.json()["status"] == "confirmed"
    otb_match.refresh_from_db()
    assert (otb_match.score_one, otb_match.score_two) == (2, 0)
    game = Game.objects.get(match=otb_match, number=1)
    assert game.variant == "tabla" and game.ended_by == "report" and game.result_winner == alice


def test_the_reporter_cannot_confirm_their_own_report(otb_match, alice, client_for):
    created = report(client_for(alice), otb_match, winner=alice.pk, points=1)
    response = client_for(alice).post(report_url("confirm", created["id"], otb_match))
    assert response.status_code == 403


def test_a_second_report_waits_for_the_first(otb_match, alice, bob, client_for):
    report(client_for(alice), otb_match, winner=alice.pk, points=1)
    response = client_for(bob).post(
        results_url(otb_match), {"winner": bob.pk, "points": 1}, format="json"
    )
    assert response.status_code == 409


def test_dispute_then_organiser_override(otb_match, alice, bob, organiser, client_for):
    created = report(client_for(alice), otb_match, winner=alice.pk, points=2)
    disputed = client_for(bob).post(
        report_url("dispute", created["id"], otb_match), {"reason": "it was single"}, format="json"
    )
    assert disputed.json()["status"] == "disputed"
    assert client_for(bob).post(report_url("confirm", created["id"], otb_match)).status_code == 409
    override = report_url("override", created["id"], otb_match)
    body = {"winner": alice.pk, "points": 1}
    assert client_for(alice).post(override, body, format="json").status_code == 403

    response = client_for(organiser).post(override, body, format="json")

    assert response.status_code == 200 and response.json()["status"] == "overridden"
    otb_match.refresh_from_db()
    assert (otb_match.score_one, otb_match.score_two) == (1, 0)


def test_the_organiser_accepts_a_pending_or_disputed_report_as_reported(
    otb_match, alice, bob, organiser, client_for
):
    """docs/decisions.md D39: the organiser's confirm counts the result as it was reported."""
    created = report(client_for(alice), otb_match, winner=alice.pk, points=2)
    response = client_for(organiser).post(report_url("confirm", created["id"], otb_match))
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["responded_by"]) == (
        "confirmed",
        organiser.pk,
    )
    again = client_for(organiser).post(report_url("confirm", created["id"], otb_match))
    assert again.status_code == 409 and again.json()["detail"] == "the report is already confirmed"

    second = report(client_for(bob), otb_match, winner=bob.pk, points=1)
    client_for(alice).post(
        report_url("dispute", second["id"], otb_match), {"reason": "I won"}, format="json"
    )
    response = client_for(organiser).post(report_url("confirm", second["id"], otb_match))
    assert response.json()["status"] == "confirmed" and response.json()["dispute_reason"] == "I won"
    otb_match.refresh_from_db()
    assert (otb_match.score_one, otb_match.score_two) == (2, 1)


def test_an_organiser_who_plays_does_not_confirm_their_own_report(alice, bob, client_for):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=alice.user)
    created = report(client_for(alice), match, winner=alice.pk, points=1)
    assert created["status"] == "pending", "a player's report, though they organise"
    response = client_for(alice).post(report_url("confirm", created["id"], match))
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "you play in this match: a co-organiser or staff decides it"
    ), "the refusal says why (docs/decisions.md D39)"


def test_an_organisers_report_counts_at_once(otb_match, alice, organiser, client_for):
    created = report(client_for(organiser), otb_match, winner=alice.pk, points=1)
    assert created["status"] == "confirmed"


def test_a_report_names_its_reporter_by_player_id_and_username(otb_match, alice, bob, client_for):
    created = report(client_for(alice), otb_match, winner=bob.pk, points=1)
    assert (created["reporter"], created["reporter_username"]) == (alice.pk, "alice")
    assert (created["winner"], created["responded_by"]) == (bob.pk, None)
    confirmed = client_for(bob).post(report_url("confirm", created["id"], otb_match)).json()
    assert confirmed["reporter"] == alice.pk and confirmed["responded_by"] == bob.user.pk


def test_an_organiser_without_a_player_reports_with_a_null_reporter(
    otb_match, alice, organiser, client_for
):
    created = report(client_for(organiser), otb_match, winner=alice.pk, points=1)
    assert (created["reporter"], created["reporter_username"]) == (None, "organiser")


def test_the_report_list_names_reporters_in_one_query(
    otb_match, alice, bob, organiser, client_for, django_assert_max_num_queries
):
    first = report(client_for(organiser), otb_match, winner=alice.pk, points=1)
    second = report(client_for(bob), otb_match, winner=bob.pk, points=1)
    client = client_for(alice)
    with django_assert_max_num_queries(3):  # the match, the reports with their reporters
        listed = client.get(results_url(otb_match)).json()
    assert [(r["id"], r["reporter"], r["reporter_username"]) for r in listed] == [
        (first["id"], None, "organiser"),
        (second["id"], bob.pk, "bob"),
    ]


def test_strangers_may_not_report_or_confirm(otb_match, alice, client_for):
    stranger = client_for(UserFactory())
    response = stranger.post(results_url(otb_match), {"winner": alice.pk, "points": 1})
    assert response.status_code == 403
    created = report(client_for(alice), otb_match, winner=alice.pk, points=1)
    assert stranger.post(report_url("confirm", created["id"], otb_match)).status_code == 403
    assert stranger.post(report_url("dispute", created["id"], otb_match)).status_code == 403
    assert APIClient().post(report_url("confirm", created["id"], otb_match)).status_code == 401


@pytest.mark.parametrize(
    "body, message",
    [
        ({"winner": "ALICE", "points": 1}, "winner"),
        ({"points": 4, "winner": None}, "points"),
        ({"winner": "me", "points": 2, "kind": "single"}, "worth 1 point, not 2"),
    ],
)
def test_bad_reports_are_400(otb_match, alice, client_for, body, message):
    body = {k: (alice.pk if v == "me" else v) for k, v in body.items()}
    response = client_for(alice).post(results_url(otb_match), body, format="json")
    assert response.status_code == 400
    assert message in str(response.json())


def test_a_tie_outside_tapa_is_400(otb_match, alice, client_for):
    response = client_for(alice).post(
        results_url(otb_match), {"winner": None, "points": 0}, format="json"
    )
    assert response.status_code == 400 and "tapa" in response.json()["detail"]


def random_record(variant: str, rng: random.Random) -> tuple[list[dict], str, int]:
    """A finished game's record from random play: turns, winner colour, points."""
    position, record = start_position(variant, "w"), []
    while True:
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcome = rng.choice(legal_plays(variant, position, dice))
        record.append({"dice": dice, "moves": " ".join(outcome.play.to_json())})
        position = outcome.position
        if outcome.result is not None:
            return record, outcome.result.winner, outcome.result.points


def test_a_report_with_a_move_record_is_replayed_by_the_engine(otb_match, alice, bob, client_for):
    record, winner_colour, points = random_record("tabla", random.Random(3))
    winner = alice if winner_colour == "w" else bob
    body = {"winner": winner.pk, "points": points, "starter": alice.pk, "record": record}
    created = report(client_for(alice), otb_match, **body)
    client_for(bob).post(report_url("confirm", created["id"], otb_match))

    game = ResultReport.objects.get(pk=created["id"]).game
    assert game.turns.count() == len(record) and game.white == alice
    assert game.turns.last().position_after == game.position


def test_a_record_that_contradicts_the_result_or_the_rules_is_rejected(
    otb_match, alice, bob, client_for
):
    record, winner_colour, points = random_record("tabla", random.Random(3))
    loser = bob if winner_colour == "w" else alice
    body = {"winner": loser.pk, "points": points, "starter": alice.pk, "record": record}
    response = client_for(alice).post(results_url(otb_match), body, format="json")
    assert response.status_code == 400 and "record" in response.json()["detail"]

    record[0] = {"dice": [6, 5], "moves": "24/13 24/13"}
    body["winner"] = alice.pk if winner_colour == "w" else bob.pk
    response = client_for(alice).post(results_url(otb_match), body, format="json")
    assert response.status_code == 400 and response.json()["detail"].startswith("turn 1:")


def test_results_are_only_for_over_the_board_matches(online_match, alice, client_for):
    response = client_for(alice).post(
        results_url(online_match), {"winner": alice.pk, "points": 1}, format="json"
    )
    assert response.status_code == 409


def test_confirmed_reports_finish_the_match(otb_match, alice, bob, organiser, client_for):
    for _ in range(3):
        report(client_for(organiser), otb_match, winner=alice.pk, points=2)
    otb_match.refresh_from_db()
    assert otb_match.status == "finished" and otb_match.winner == alice
    assert [g.variant for g in otb_match.games.all()] == ["tabla", "gul_bara", "tapa"]
    response = client_for(alice).post(results_url(otb_match), {"winner": alice.pk, "points": 1})
    assert response.status_code == 409


def test_anyone_may_list_a_public_matchs_reports(otb_match, alice, client_for):
    report(client_for(alice), otb_match, winner=alice.pk, points=1)
    response = APIClient().get(results_url(otb_match))
    assert response.status_code == 200 and len(response.json()) == 1


# --- a whole match's final score ------------------------------------------------------------


def test_a_confirmed_match_score_finishes_the_match(otb_match, alice, bob, client_for):
    created = report(client_for(bob), otb_match, scope="match", score_one=3, score_two=5)
    assert created["scope"] == "match" and created["winner"] == bob.pk
    assert created["game_number"] is None and created["points"] is None
    otb_match.refresh_from_db()
    assert otb_match.status == "in_progress"

    response = client_for(alice).post(report_url("confirm", created["id"], otb_match))

    assert response.status_code == 200
    otb_match.refresh_from_db()
    assert otb_match.status == "finished" and otb_match.winner == bob
    assert (otb_match.score_one, otb_match.score_two) == (3, 5)
    assert not otb_match.games.exists()  # no games are made up for a match score


def test_a_match_score_builds_on_the_games_already_counted(otb_match, alice, organiser, client_for):
    report(client_for(organiser), otb_match, winner=alice.pk, points=2)  # counted: 2-0
    response = client_for(alice).post(
        results_url(otb_match), {"scope": "match", "score_one": 1, "score_two": 5}, format="json"
    )
    assert response.status_code == 400 and "cannot be lower" in response.json()["detail"]
    report(client_for(organiser), otb_match, scope="match", score_one=5, score_two=4)
    otb_match.refresh_from_db()
    assert otb_match.winner == alice and [g.number for g in otb_match.games.all()] == [1]


@pytest.mark.parametrize(
    "body, message",
    [
        ({"score_one": 5, "score_two": 5}, "exactly one player"),
        ({"score_one": 4, "score_two": 3}, "exactly one player"),
        ({"score_one": 8, "score_two": 0}, "at most 7"),
        ({"score_one": 5}, "both score_one and score_two"),
        ({"score_one": 5, "score_two": 1, "winner": "bob"}, "not player"),
        ({"score_one": 5, "score_two": 1, "points": 1}, "belong to a game result"),
        ({"score_one": -1, "score_two": 5}, "score_one"),
    ],
)
def test_impossible_match_scores_are_400(otb_match, alice, bob, client_for, body, message):
    body = {"scope": "match", **body}
    if body.get("winner") == "bob":
        body["winner"] = bob.pk
    response = client_for(alice).post(results_url(otb_match), body, format="json")
    assert response.status_code == 400
    assert message in str(response.json())


@pytest.mark.parametrize(
    "options, score, status",
    [
        # A tie worth a point each can take both players past the target: 4-4, a tie, 5-5,
        # then a win: 6-5 is a real final score; level scores are not.
        ({"tapa_tie": "one_each"}, (6, 5), 201),
        ({"tapa_tie": "one_each"}, (5, 5), 400),
        ({"tapa_tie": "one_each"}, (9, 5), 400),
        ({}, (6, 5), 400),
        # With the cube a doubled triple (or a higher cube) can end a match far past the target.
        ({"cube": "all_games"}, (4 + 3 * 4, 2), 201),
        ({}, (4 + 3 * 4, 2), 400),
    ],
)
def test_the_match_options_decide_which_final_scores_are_possible(
    alice, bob, organiser, client_for, options, score, status
):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser, options=options)
    body = {"scope": "match", "score_one": score[0], "score_two": score[1]}
    response = client_for(organiser).post(results_url(match), body, format="json")
    assert response.status_code == status, response.json()


def test_game_fields_and_scores_do_not_mix(otb_match, alice, client_for):
    body = {"winner": alice.pk, "points": 1, "score_one": 1, "score_two": 0}
    response = client_for(alice).post(results_url(otb_match), body, format="json")
    assert response.status_code == 400 and "match" in response.json()["detail"]
    response = client_for(alice).post(results_url(otb_match), {"winner": alice.pk}, format="json")
    assert response.status_code == 400 and "points" in response.json()["detail"]


def test_an_organiser_overrides_a_disputed_match_score(
    otb_match, alice, bob, organiser, client_for
):
    created = report(client_for(alice), otb_match, scope="match", score_one=5, score_two=2)
    client_for(bob).post(report_url("dispute", created["id"], otb_match), {"reason": "5-4"})
    response = client_for(organiser).post(
        report_url("override", created["id"], otb_match),
        {"scope": "match", "score_one": 5, "score_two": 4},
        format="json",
    )
    assert response.status_code == 200 and response.json()["status"] == "overridden"
    otb_match.refresh_from_db()
    assert (otb_match.score_one, otb_match.score_two, otb_match.winner) == (5, 4, alice)
