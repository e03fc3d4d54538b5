"""The clock and the claim through the API: the create body's clock (bad settings 400), the
clock in the game and match JSON, a time-out found by a read, claims (409 before the time with
the time left, 403 for the player to move), and every new field in the OpenAPI schema."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from games import selectors, services
from games.models import Game, Match
from tests.games.helpers import game_url

pytestmark = pytest.mark.django_db


def match_url(name: str, pk: int) -> str:
    return reverse(f"games:{name}", kwargs={"pk": pk})


@pytest.fixture
def staff_client(staff, client_for):
    return client_for(staff)


def create(client, alice, bob, status=201, **body):
    answer = client.post(
        reverse("games:match-list"),
        {"player_one": alice.pk, "player_two": bob.pk, **body},
        format="json",
    )
    assert answer.status_code == status, answer.json()
    return answer.json()


def test_a_match_created_with_a_clock_shows_it_running(fake_clock, staff_client, alice, bob):
    match = create(staff_client, alice, bob, target_score=3, clock={"preset": "relaxed"})
    clock = match["clock"]
    assert clock["enabled"] is True
    assert (clock["bank_seconds"], clock["delay_seconds"]) == (540, 15)
    assert clock["remaining"] == {"player_one": 540.0, "player_two": 540.0}
    assert clock["running"] in ("player_one", "player_two")
    assert clock["delay_left"] == 15.0 and clock["flagged"] is None
    assert clock["turn_started_at"] == clock["server_time"]
    assert match["ended_by"] == "" and match["claim_after_hours"] == 72


def test_the_game_json_and_a_plays_answer_carry_the_clock(fake_clock, staff_client, alice, bob):
    match = create(staff_client, alice, bob, clock={"per_point_seconds": 60, "delay_seconds": 0})
    game = Game.objects.get(pk=match["current_game"])
    mover = selectors.player_to_move(game)
    side = "player_one" if mover.pk == alice.pk else "player_two"
    fake_clock.advance(7)
    detail = staff_client.get(game_url("game-detail", game.pk)).json()
    assert detail["clock"]["running"] == side
    assert detail["clock"]["remaining"][side] == 293.0  # 5 points x 60 s, 7 s gone

    rolled = staff_client.post(game_url("dice-roll", game.pk))  # staff may not play: 403
    assert rolled.status_code == 403
    answer = staff_client.get(match_url("match-detail", match["id"])).json()
    assert answer["clock"]["remaining"][side] == 293.0


def test_the_clock_of_a_match_without_one_is_off(client_for, alice, online_match):
    game = online_match.games.get()
    clock = client_for(alice).get(game_url("game-detail", game.pk)).json()["clock"]
    assert clock["enabled"] is False and clock["running"] is None and clock["remaining"] is None


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"preset": "blitz"}, "preset"),
        ({"per_point_seconds": 9}, "per_point_seconds"),
        ({"per_point_seconds": 120, "delay_seconds": 121}, "delay_seconds"),
        ({"preset": "standard", "bonus": 3}, "bonus"),
        ("standard", "non_field_errors"),
    ],
)
def test_bad_clock_settings_are_a_400_naming_them(staff_client, alice, bob, clock, field):
    answer = create(staff_client, alice, bob, status=400, clock=clock)
    assert field in answer["clock"]


def test_a_clock_without_its_numbers_or_over_the_board_is_a_400(staff_client, alice, bob):
    answer = create(staff_client, alice, bob, status=400, clock={"delay_seconds": 10})
    assert "per_point_seconds is missing" in answer["detail"]
    answer = create(
        staff_client, alice, bob, status=400, mode="over_the_board", clock={"preset": "standard"}
    )
    assert "needs an online match" in answer["detail"]
    answer = create(staff_client, alice, bob, status=400, claim_after_hours=0)
    assert "claim_after_hours" in answer


def test_a_read_after_the_deadline_ends_the_match_on_time(fake_clock, client_for, alice, bob):
    match = create(client_for(alice), alice, bob, clock={"preset": "standard"})
    create_accept = client_for(bob).post(match_url("match-accept", match["id"]))
    assert create_accept.status_code == 200
    game_id = create_accept.json()["current_game"]
    fake_clock.advance(12 + 600)
    detail = client_for(alice).get(game_url("game-detail", game_id)).json()
    assert detail["status"] == "abandoned" and detail["player_to_move"] is None
    assert detail["clock"]["running"] is None and detail["clock"]["flagged"] is not None
    loser_side = detail["clock"]["flagged"]
    assert detail["clock"]["remaining"][loser_side] == 0
    answer = client_for(bob).get(match_url("match-detail", match["id"])).json()
    assert answer["status"] == "finished" and answer["ended_by"] == "time"
    assert answer["winner"] == (bob.pk if loser_side == "player_one" else alice.pk)


def test_a_write_after_the_deadline_is_a_409_and_ends_the_match(
    fake_clock, client_for, staff, alice, bob
):
    match = services.match_create(
        creator=staff, player_one=alice, player_two=bob, clock={"preset": "standard"}
    )
    game = selectors.current_game(match)
    mover = selectors.player_to_move(game)
    fake_clock.advance(3600)
    answer = client_for(mover).post(game_url("dice-roll", game.pk))
    assert answer.status_code == 409
    assert answer.json()["detail"] == (f"the match is over: {mover.display_name} ran out of time")
    assert Match.objects.get(pk=match.pk).ended_by == Match.EndedBy.TIME


# --- claims ------------------------------------------------------------------------------------


@pytest.fixture
def waiting(online_match):
    """(the player waiting, the player to move) in Alice and Bob's match without a clock."""
    to_move = selectors.player_to_move(online_match.games.get())
    one, two = online_match.players
    return (two if to_move == one else one), to_move


def claim(client, match):
    return client.post(match_url("match-claim", match.pk))


def test_a_claim_before_the_time_is_a_409_with_the_time_left(
    fake_clock, client_for, online_match, waiting
):
    claimer, _to_move = waiting
    fake_clock.advance(71 * 3600)
    answer = claim(client_for(claimer), online_match)
    assert answer.status_code == 409
    body = answer.json()
    assert "too early to claim" in body["detail"]
    assert 3600 <= body["seconds_left"] <= 3602  # the game started just after the clock was set
    claim_at = datetime.datetime.fromisoformat(body["claim_at"])
    assert 0 <= body["seconds_left"] - (claim_at - fake_clock.at).total_seconds() < 1
    assert Match.objects.get(pk=online_match.pk).status == Match.Status.IN_PROGRESS


def test_the_waiting_player_claims_the_match_after_the_inactivity(
    fake_clock, client_for, online_match, waiting
):
    claimer, _to_move = waiting
    fake_clock.advance(72 * 3600 + 1)
    answer = claim(client_for(claimer), online_match)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "forfeited" and body["ended_by"] == "claim"
    assert body["winner"] == claimer.pk
    assert online_match.games.get().status == Game.Status.ABANDONED
    assert claim(client_for(claimer), online_match).status_code == 409  # over already


def test_the_player_to_move_cannot_claim(fake_clock, client_for, online_match, waiting):
    _claimer, to_move = waiting
    fake_clock.advance(1000 * 3600)
    answer = claim(client_for(to_move), online_match)
    assert answer.status_code == 403
    assert "it is your turn" in answer.json()["detail"]


def test_the_inactivity_counts_from_the_opponents_last_turn(
    fake_clock, client_for, online_match, waiting
):
    _claimer, to_move = waiting
    game = online_match.games.get()
    Game.objects.filter(pk=game.pk).update(  # a game that started long ago
        started_at=fake_clock.at - datetime.timedelta(hours=100)
    )
    services.dice_roll(game=game, player=to_move)
    game.refresh_from_db()
    outcome = selectors.game_legal_plays(game)[0]
    services.play_submit(game=game, player=to_move, ply=game.ply, moves=outcome.play.to_json())
    # the turn went over: the first mover now waits, 72 hours from their play, not the start
    fake_clock.advance(3600)
    answer = claim(client_for(to_move), online_match)
    assert answer.status_code == 409 and "too early" in answer.json()["detail"]
    fake_clock.advance(72 * 3600)
    assert claim(client_for(to_move), online_match).status_code == 200


def test_only_a_player_may_claim(fake_clock, api_client, client_for, staff, online_match):
    fake_clock.advance(1000 * 3600)
    assert claim(api_client, online_match).status_code == 401
    assert claim(client_for(staff), online_match).status_code == 403


def test_a_match_with_a_clock_cannot_be_claimed(fake_clock, client_for, staff, alice, bob):
    match = services.match_create(
        creator=staff, player_one=alice, player_two=bob, clock={"preset": "standard"}
    )
    game = selectors.current_game(match)
    to_move = selectors.player_to_move(game)
    other = bob if to_move == alice else alice
    answer = claim(client_for(other), match)
    assert answer.status_code == 409 and "has a clock" in answer.json()["detail"]


def test_a_claim_follows_the_matchs_own_claim_after_hours(
    fake_clock, client_for, alice, bob, accepted
):
    created = client_for(alice).post(
        reverse("games:match-list"),
        {"player_one": alice.pk, "player_two": bob.pk, "claim_after_hours": 2},
        format="json",
    )
    match = Match.objects.get(pk=accepted(created, client_for(bob))["id"])
    to_move = selectors.player_to_move(selectors.current_game(match))
    other = bob if to_move == alice else alice
    fake_clock.advance(2 * 3600 + 1)
    assert claim(client_for(other), match).status_code == 200


def test_a_claimed_match_is_not_rated(fake_clock, client_for, online_match, waiting):
    from games.models import RatingHistory
    from games.services.ratings import ratings_recompute

    claimer, _to_move = waiting
    fake_clock.advance(73 * 3600)
    assert claim(client_for(claimer), online_match).status_code == 200
    ratings_recompute()
    assert not RatingHistory.objects.filter(match=online_match).exists()


# --- the schema --------------------------------------------------------------------------------


def test_the_schema_describes_the_clock_and_the_claim():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    for name in ("GameDetail", "GameChange", "Match"):
        clock = components[name]["properties"]["clock"]
        assert clock["allOf"][0]["$ref"].endswith("/ClockState")
    state = components["ClockState"]["properties"]
    assert set(state) == {
        "enabled", "bank_seconds", "delay_seconds", "remaining", "running", "delay_left",
        "turn_started_at", "deadline", "server_time", "flagged",
    }  # fmt: skip
    assert set(components["ClockRemaining"]["properties"]) == {"player_one", "player_two"}
    assert components["ClockSideEnum"]["enum"] == ["player_one", "player_two"]
    match = components["Match"]["properties"]
    assert {"ended_by", "claim_after_hours"} <= set(match)
    create = components["MatchCreate"]["properties"]
    assert {"clock", "claim_after_hours"} <= set(create)
    settings = components["ClockSettings"]["properties"]
    assert settings["preset"]["allOf"][0]["$ref"].endswith("/ClockPresetEnum")
    assert components["ClockPresetEnum"]["enum"] == ["standard", "relaxed"]
    assert settings["per_point_seconds"]["minimum"] == 10
    claim_path = schema["paths"]["/api/v1/matches/{id}/claim/"]["post"]
    assert {"200", "401", "403", "404", "409"} <= set(claim_path["responses"])
    refused = claim_path["responses"]["409"]["content"]["application/json"]["schema"]["$ref"]
    assert refused.endswith("/ClaimRefused")
    tournament = components["Tournament"]["properties"]
    assert {"clock", "claim_after_hours"} <= set(tournament)
    tournament_in = components["TournamentInput"]["properties"]
    assert {"clock", "claim_after_hours"} <= set(tournament_in)
