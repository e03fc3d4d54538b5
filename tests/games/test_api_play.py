"""Playing online through the API: a whole match, rolls, plays, errors and permissions."""

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import selectors
from games.demo import game_play_random
from games.models import Game, Turn
from tests.games.helpers import game_url, only_pass

pytestmark = pytest.mark.django_db


def to_move_client(game_json: dict, clients: dict) -> APIClient:
    return clients[game_json["player_to_move"]["id"]]


def play_match_through_api(
    match_id: int, clients: dict, rng: random.Random, rolls_allowed: bool = True
) -> dict:
    """Roll and play random legal plays taken from GET game, until the match is over."""
    reader = APIClient()
    for _ in range(20_000):
        match = reader.get(reverse("games:match-detail", kwargs={"pk": match_id})).json()
        if match["status"] != "in_progress":
            return match
        game = reader.get(game_url("game-detail", match["current_game"])).json()
        client = to_move_client(game, clients)
        if game["roll_due"]:
            assert rolls_allowed, "a roll is due in an auto-roll match"
            response = client.post(game_url("dice-roll", game["id"]))
        else:
            choice = rng.choice(game["legal_plays"])
            body = {"ply": game["ply"], "moves": choice["notation"]}
            response = client.post(game_url("play-submit", game["id"]), body, format="json")
        assert response.status_code == 200, response.json()
    raise AssertionError("the match did not end")


def test_a_five_point_match_is_played_through_the_api_alone(alice, bob, client_for, accepted):
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    response = clients[alice.pk].post(
        reverse("games:match-list"), {"player_one": alice.pk, "player_two": bob.pk}, format="json"
    )
    created = accepted(response, clients[bob.pk])
    assert created["status"] == "in_progress" and created["target_score"] == 5

    match = play_match_through_api(created["id"], clients, random.Random(5))

    assert match["status"] == "finished"
    assert max(match["score_one"], match["score_two"]) >= 5
    assert match["winner"] in (alice.pk, bob.pk)
    decided = 0
    for game in match["games"]:  # the cycle advances on decided games; a tie is replayed
        assert game["variant"] == ("tabla", "gul_bara", "tapa")[decided % 3]
        decided += game["result"]["kind"] != "tie"
    for game in Game.objects.filter(match_id=match["id"]):
        assert selectors.game_replay_problems(game) == []
        assert selectors.game_dice_proof(game)["verified"] is True


def test_winner_of_a_game_starts_the_next_and_plays_white(online_match, game, alice, client_for):
    client = client_for(game.white)
    response = client.post(game_url("game-resign", game.pk), {"kind": "mars"}, format="json")

    assert response.status_code == 200
    assert response.json()["result"]["kind"] == "mars"
    online_match.refresh_from_db()
    second = online_match.games.get(number=2)
    assert second.variant == "gul_bara"
    assert second.white_id == game.black_id and second.opening_rolls == []
    scores = (online_match.score_one, online_match.score_two)
    assert sorted(scores) == [0, 2]


def test_game_detail_shows_position_turn_dice_legal_plays_and_log(game, client_for):
    response = APIClient().get(game_url("game-detail", game.pk))

    body = response.json()
    assert response.status_code == 200
    assert body["turn"] == "w" and body["player_to_move"]["id"] == game.white_id
    assert body["roll_due"] is True and body["legal_plays"] == [] and body["turns"] == []
    assert len(body["seed_commitment"]) == 64 and body["seed"] is None
    assert body["opening_rolls"][-1][0] != body["opening_rolls"][-1][1]

    client_for(game.white).post(game_url("dice-roll", game.pk))
    body = APIClient().get(game_url("game-detail", game.pk)).json()
    assert len(body["dice"]) == 2 and body["roll_due"] is False
    assert body["legal_plays"] and all("moves" in play for play in body["legal_plays"])


def rolled(game, client_for) -> dict:
    response = client_for(game.white).post(game_url("dice-roll", game.pk))
    assert response.status_code == 200
    return response.json()


def test_illegal_play_is_400_with_the_engines_reason_and_the_legal_plays(game, client_for):
    body = rolled(game, client_for)

    response = client_for(game.white).post(
        game_url("play-submit", game.pk),
        {"ply": body["ply"], "moves": "24/23 1/off"},
        format="json",
    )

    assert response.status_code == 400
    error = response.json()
    assert "illegal" in error["detail"] or "die" in error["detail"]
    assert error["step"] in (0, 1)
    assert error["legal_plays"] == body["legal_plays"]  # the same objects as a game's answer
    assert set(error["legal_plays"][0]) == {"moves", "notation", "ends_game", "position"}


def test_each_legal_play_carries_its_position_when_asked(game, client_for):
    rolled(game, client_for)
    plain = APIClient().get(game_url("game-detail", game.pk)).json()["legal_plays"]
    body = APIClient().get(game_url("game-detail", game.pk) + "?positions=1").json()

    game.refresh_from_db()
    outcomes = selectors.game_legal_plays(game)
    assert [play["moves"] for play in body["legal_plays"]] == [o.move_texts() for o in outcomes]
    assert [play["position"] for play in body["legal_plays"]] == [
        o.position.to_json() for o in outcomes
    ]
    assert all(play["position"]["turn"] == "b" for play in body["legal_plays"])
    assert [play["position"] for play in plain] == [None] * len(plain)
    assert [dict(play, position=None) for play in body["legal_plays"]] == plain


def test_a_played_position_is_the_games_next_position(game, client_for):
    body = client_for(game.white).post(game_url("dice-roll", game.pk) + "?positions=true").json()
    choice = body["legal_plays"][-1]

    response = client_for(game.white).post(
        game_url("play-submit", game.pk),
        {"ply": body["ply"], "moves": choice["moves"]},
        format="json",
    )

    assert response.status_code == 200
    assert response.json()["position"] == choice["position"]


def test_an_illegal_plays_400_lists_the_plays_with_positions_when_asked(game, client_for):
    body = rolled(game, client_for)
    url = game_url("play-submit", game.pk) + "?positions=1"

    response = client_for(game.white).post(
        url, {"ply": body["ply"], "moves": "24/23 1/off"}, format="json"
    )

    assert response.status_code == 400
    asked = APIClient().get(game_url("game-detail", game.pk) + "?positions=1").json()
    assert response.json()["legal_plays"] == asked["legal_plays"]
    assert all(play["position"]["points"] for play in response.json()["legal_plays"])


def test_bad_notation_is_400_with_the_legal_plays(game, client_for):
    body = rolled(game, client_for)
    response = client_for(game.white).post(
        game_url("play-submit", game.pk), {"ply": body["ply"], "moves": "13-8"}, format="json"
    )
    assert response.status_code == 400
    assert "13-8" in response.json()["detail"] and response.json()["legal_plays"]


def test_a_play_given_as_a_list_is_accepted(game, client_for):
    body = rolled(game, client_for)
    moves = body["legal_plays"][0]["moves"]

    response = client_for(game.white).post(
        game_url("play-submit", game.pk), {"ply": body["ply"], "moves": moves}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["turns"][0]["moves"] == moves
    assert Turn.objects.get(game=game, ply=1).dice == body["dice"]


def test_write_answers_carry_only_the_turns_they_appended(game, client_for):
    game_play_random(game=game, rng=random.Random(3), max_decisions=6)
    game.refresh_from_db()
    logged = game.turns.count()
    body = rolled(game, client_for) if selectors.is_roll_due(game) else None
    ply = (body or APIClient().get(game_url("game-detail", game.pk)).json())["ply"]
    to_move = selectors.player_to_move(Game.objects.get(pk=game.pk))
    choice = APIClient().get(game_url("game-detail", game.pk)).json()["legal_plays"][0]

    response = client_for(to_move).post(
        game_url("play-submit", game.pk), {"ply": ply, "moves": choice["moves"]}, format="json"
    )

    turns = response.json()["turns"]
    assert response.status_code == 200 and logged >= 6
    assert turns[0]["ply"] == ply and turns[0]["moves"] == choice["moves"]
    assert [turn["ply"] for turn in turns] == list(range(ply, response.json()["ply"]))
    full = APIClient().get(game_url("game-detail", game.pk)).json()["turns"]
    assert len(full) == response.json()["ply"] - 1


def test_stale_ply_is_409(game, client_for):
    body = rolled(game, client_for)
    response = client_for(game.white).post(
        game_url("play-submit", game.pk),
        {"ply": body["ply"] + 3, "moves": body["legal_plays"][0]["notation"]},
        format="json",
    )
    assert response.status_code == 409
    assert "stale" in response.json()["detail"]


def test_rolling_twice_is_409_with_a_message(game, client_for):
    rolled(game, client_for)
    response = client_for(game.white).post(game_url("dice-roll", game.pk))
    assert response.status_code == 409
    assert "already rolled" in response.json()["detail"]


def test_playing_before_rolling_is_409(game, client_for):
    response = client_for(game.white).post(
        game_url("play-submit", game.pk), {"ply": 1, "moves": "24/18"}, format="json"
    )
    assert response.status_code == 409
    assert "roll" in response.json()["detail"]


def test_the_player_not_to_move_gets_403_for_roll_and_play(game, client_for):
    other = client_for(game.black)
    assert other.post(game_url("dice-roll", game.pk)).status_code == 403
    response = other.post(game_url("play-submit", game.pk), {"ply": 1, "moves": ""}, format="json")
    assert response.status_code == 403
    assert "not your turn" in response.json()["detail"]


def test_someone_outside_the_match_gets_403(game, client_for, organiser):
    assert client_for(organiser).post(game_url("dice-roll", game.pk)).status_code == 403


@pytest.mark.parametrize(
    "name, body",
    [
        ("dice-roll", None),
        ("play-submit", {"ply": 1, "moves": "24/18"}),
        ("game-resign", {"kind": "single"}),
    ],
)
def test_unauthenticated_writes_are_401(game, name, body):
    response = APIClient().post(game_url(name, game.pk), body, format="json")
    assert response.status_code == 401


def test_unauthenticated_match_create_is_401(alice, bob):
    response = APIClient().post(
        reverse("games:match-list"), {"player_one": alice.pk, "player_two": bob.pk}, format="json"
    )
    assert response.status_code == 401


@pytest.mark.parametrize(
    "body, field",
    [
        ({"ply": "one", "moves": "24/18"}, "ply"),
        ({"ply": 1, "moves": 42}, "moves"),
        ({"ply": 1, "moves": ["24/18", 3]}, "moves"),
        ({"ply": 1}, "moves"),
        ({"ply": 1, "moves": "24/18", "extra": True}, "extra"),
    ],
)
def test_malformed_play_bodies_are_400_naming_the_field(game, client_for, body, field):
    response = client_for(game.white).post(game_url("play-submit", game.pk), body, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_a_non_object_body_is_400(game, client_for):
    response = client_for(game.white).post(game_url("play-submit", game.pk), [1], format="json")
    assert response.status_code == 400


def test_moves_for_a_finished_game_are_409(game, client_for):
    client_for(game.black).post(game_url("game-resign", game.pk), {}, format="json")
    for name, body in (("dice-roll", None), ("play-submit", {"ply": 1, "moves": "24/18"})):
        response = client_for(game.white).post(game_url(name, game.pk), body, format="json")
        assert response.status_code == 409
        assert "over" in response.json()["detail"]


def test_resignation_scores_the_offered_value_for_the_opponent(online_match, game, client_for):
    response = client_for(game.black).post(
        game_url("game-resign", game.pk), {"kind": "single"}, format="json"
    )
    body = response.json()
    assert body["status"] == "finished" and body["seed"] is not None
    assert body["result"] == {
        "winner": game.white_id,
        "kind": "single",
        "points": 1,
        "ended_by": "resignation",
        "resigned_by": game.black_id,
    }
    online_match.refresh_from_db()
    assert online_match.score_one + online_match.score_two == 1


def test_resigning_for_a_triple_is_400(game, client_for):
    response = client_for(game.black).post(
        game_url("game-resign", game.pk), {"kind": "triple"}, format="json"
    )
    assert response.status_code == 400


def test_resigning_someone_elses_game_is_403(game, client_for, organiser):
    response = client_for(organiser).post(game_url("game-resign", game.pk), {}, format="json")
    assert response.status_code == 403


def test_unknown_game_is_404_json(client_for, alice):
    response = client_for(alice).post(game_url("dice-roll", 999_999))
    assert response.status_code == 404 and "detail" in response.json()


def test_private_matches_are_hidden_from_strangers(alice, bob, staff, client_for):
    organiser = staff
    response = client_for(organiser).post(
        reverse("games:match-list"),
        {"player_one": alice.pk, "player_two": bob.pk, "is_public": False},
        format="json",
    )
    match_id = response.json()["id"]
    url = reverse("games:match-detail", kwargs={"pk": match_id})
    assert APIClient().get(url).status_code == 404
    assert client_for(alice).get(url).status_code == 200
    assert client_for(organiser).get(url).status_code == 200


def auto_roll_match(alice, bob, client_for) -> dict:
    body = {"player_one": alice.pk, "player_two": bob.pk, "auto_roll": True}
    response = client_for(alice).post(reverse("games:match-list"), body, format="json")
    assert response.status_code == 201, response.json()
    accept = reverse("games:match-accept", kwargs={"pk": response.json()["id"]})
    answer = client_for(bob).post(accept)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_with_auto_roll_every_turn_is_one_play_request(alice, bob, client_for):
    created = auto_roll_match(alice, bob, client_for)
    assert created["auto_roll"] is True
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    reader = APIClient()
    game = reader.get(game_url("game-detail", created["current_game"])).json()
    assert game["roll_due"] is False and game["dice"], "the starter's dice are on the table"

    rng = random.Random(11)
    for _ in range(6):
        choice = rng.choice(game["legal_plays"])
        body = {"ply": game["ply"], "moves": choice["notation"]}
        answer = to_move_client(game, clients).post(
            game_url("play-submit", game["id"]), body, format="json"
        )
        assert answer.status_code == 200, answer.json()
        game = answer.json()
        assert game["turns"][0]["moves"] == choice["moves"]
        # The server has rolled for the next player: the dice are on the table already.
        assert game["roll_due"] is False
        assert game["dice"] or game["position"].get("pending"), game
        roll = to_move_client(game, clients).post(game_url("dice-roll", game["id"]))
        assert roll.status_code == 409  # nothing to roll by hand

    stored = Game.objects.get(pk=game["id"])
    assert selectors.game_replay_problems(stored) == []


def test_a_whole_auto_roll_match_is_played_with_plays_only(alice, bob, client_for):
    created = auto_roll_match(alice, bob, client_for)
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    rng = random.Random(3)
    match = play_match_through_api(created["id"], clients, rng, rolls_allowed=False)
    assert match["status"] == "finished" and match["winner"] in (alice.pk, bob.pk)
    for game in Game.objects.filter(match_id=match["id"]):
        assert selectors.game_replay_problems(game) == []
        assert selectors.game_dice_proof(game)["verified"] is True


def test_auto_roll_stops_when_neither_side_can_move(alice, bob, monkeypatch):
    """Decision: automatic rolls stop after one roll per side with no play, so a game in which
    nobody can move (no stuck_limit) waits for a player's roll instead of rolling forever."""
    from games import services
    monkeypatch.setattr("games.services._steps.legal_plays", only_pass)
    match = services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, auto_roll=True
    )
    game = match.games.get()
    assert [turn.moves for turn in game.turns.all()] == [[], []]  # one pass each
    assert selectors.is_roll_due(game)
    # A player's roll that finds no play is followed by one automatic roll for the opponent.
    game = services.dice_roll(game=game, player=selectors.player_to_move(game)).game
    assert game.turns.count() == 4


def test_a_database_deadlock_is_a_503_to_retry_not_a_500(game, client_for, monkeypatch):
    from django.db import OperationalError

    def deadlocked(**kwargs):
        raise OperationalError("deadlock detected\nDETAIL: ...")

    monkeypatch.setattr("games.services.dice_roll", deadlocked)
    response = client_for(game.white).post(game_url("dice-roll", game.id))
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert response.json() == {"detail": "the database could not complete the request; retry"}
