"""The doubling cube (docs/rules.md §6.6, match options ``cube`` and ``crawford``) through the API:
double before rolling, take or drop, the stake in the score, and everything the cube refuses."""

import random

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game, Match, Turn
from tests.games.helpers import game_url

pytestmark = pytest.mark.django_db


def cube_match(alice, bob, organiser, auto_roll=False, **options):
    options = {"cube": "tabla_only", **options}
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options=options, auto_roll=auto_roll
    )


def current(match: Match) -> Game:
    return selectors.current_game(match)


def post(client_for, player, name, game, body=None):
    return client_for(player).post(game_url(name, game.pk), body or {}, format="json")


def test_a_taken_double_doubles_the_stake_and_gives_the_taker_the_cube(
    alice, bob, organiser, client_for
):
    match = cube_match(alice, bob, organiser)
    game = current(match)
    doubler, taker = game.white, game.black
    before = client_for(doubler).get(game_url("game-detail", game.pk)).json()
    assert before["cube"] == {
        "enabled": True,
        "value": 1,
        "owner": None,
        "offered_by": None,
        "crawford": False,
        "may_double": True,
    }

    offered = post(client_for, doubler, "cube-double", game, {"ply": before["ply"]})
    assert offered.status_code == 200, offered.json()
    body = offered.json()
    assert body["cube"]["offered_by"] == doubler.pk and body["player_to_move"]["id"] == taker.pk
    assert body["roll_due"] is False and body["turns"][0]["kind"] == "double"

    taken = post(client_for, taker, "cube-take", game)
    assert taken.status_code == 200, taken.json()
    body = taken.json()
    assert body["cube"]["value"] == 2 and body["cube"]["owner"] == taker.pk
    assert body["cube"]["offered_by"] is None and body["cube"]["may_double"] is False
    assert body["player_to_move"]["id"] == doubler.pk and body["roll_due"] is True
    assert [t["kind"] for t in body["turns"]] == ["take"] and body["ply"] == before["ply"] + 2

    rolled = post(client_for, doubler, "dice-roll", game)
    assert rolled.status_code == 200
    game.refresh_from_db()
    assert selectors.game_replay_problems(game) == []


def test_a_dropped_double_loses_the_game_at_the_stake_before_it(alice, bob, organiser, client_for):
    match = cube_match(alice, bob, organiser)
    game = current(match)
    services.cube_double(game=game, player=game.white)
    services.cube_take(game=game, player=game.black)
    game = current(match)
    services.dice_roll(game=game, player=game.white)
    game.refresh_from_db()
    outcome = random.Random(1).choice(selectors.game_legal_plays(game))
    services.play_submit(game=game, player=game.white, ply=game.ply, moves=outcome.play.to_json())
    game.refresh_from_db()
    assert selectors.may_double(game)  # black owns the cube and is to move: a redouble

    redoubled = post(client_for, game.black, "cube-double", game)
    assert redoubled.status_code == 200, redoubled.json()
    dropped = post(client_for, game.white, "cube-drop", game)
    assert dropped.status_code == 200, dropped.json()

    body = dropped.json()
    assert body["status"] == "finished" and body["result"]["ended_by"] == "drop"
    assert body["result"]["winner"] == game.black_id and body["result"]["points"] == 2
    match.refresh_from_db()
    assert sorted((match.score_one, match.score_two)) == [0, 2]
    game.refresh_from_db()
    assert selectors.game_replay_problems(game) == []
    assert selectors.game_dice_proof(game)["verified"] is True
    second = match.games.get(number=2)
    assert second.white_id == game.black_id  # the winner of the dropped game starts the next


def test_a_win_scores_its_value_times_the_cube(alice, bob, organiser, client_for):
    match = cube_match(alice, bob, organiser)
    game = current(match)
    services.cube_double(game=game, player=game.white)
    services.cube_take(game=game, player=game.black)
    game = current(match)
    resigned = post(client_for, game.white, "game-resign", game, {"kind": "mars"})
    assert resigned.status_code == 200
    assert resigned.json()["result"]["points"] == 4  # mars 2, cube 2
    match.refresh_from_db()
    assert sorted((match.score_one, match.score_two)) == [0, 4]


@pytest.mark.parametrize(
    ("setup", "who", "action", "status", "message"),
    [
        ("none", "black", "cube-double", 403, "not your turn"),
        ("rolled", "white", "cube-double", 409, "before rolling"),
        ("offered", "white", "dice-roll", 409, "must take or drop it first"),
        ("offered", "black", "play-submit", 409, "must take or drop it first"),
        ("offered", "white", "cube-take", 403, "not your turn"),
        ("offered", "white", "cube-double", 409, "must take or drop it first"),
        ("none", "black", "cube-take", 409, "no double is offered"),
        ("taken", "black", "cube-double", 403, "not your turn"),
    ],
)
def test_the_cube_refuses_what_the_rules_refuse(
    alice, bob, organiser, client_for, setup, who, action, status, message
):
    match = cube_match(alice, bob, organiser)
    game = current(match)
    if setup == "rolled":
        services.dice_roll(game=game, player=game.white)
    if setup in ("offered", "taken"):
        services.cube_double(game=game, player=game.white)
    if setup == "taken":
        services.cube_take(game=game, player=game.black)
    game.refresh_from_db()
    body = {"ply": game.ply, "moves": []} if action == "play-submit" else {}
    response = post(client_for, getattr(game, who), action, game, body)
    assert response.status_code == status, response.json()
    assert message in response.json()["detail"]


def test_the_owner_of_the_cube_alone_may_redouble(alice, bob, organiser, client_for):
    match = cube_match(alice, bob, organiser)
    game = current(match)
    services.cube_double(game=game, player=game.white)
    services.cube_take(game=game, player=game.black)
    game.refresh_from_db()
    assert game.position["turn"] == "w" and not selectors.may_double(game)
    response = post(client_for, game.white, "cube-double", game)
    assert response.status_code == 409
    assert "only its owner may double" in response.json()["detail"]


def test_no_doubling_when_the_cube_is_off_or_outside_its_scope(alice, bob, organiser, client_for):
    plain = services.match_create(creator=organiser, player_one=alice, player_two=bob)
    game = current(plain)
    response = post(client_for, game.white, "cube-double", game)
    assert response.status_code == 409 and "cube option is off" in response.json()["detail"]
    assert (
        client_for(alice).get(game_url("game-detail", game.pk)).json()["cube"]["enabled"] is False
    )

    scoped = cube_match(alice, bob, organiser)  # tabla_only: game 2 is Gjul Bara
    first = current(scoped)
    services.game_resign(game=first, player=first.black, kind="single")
    second = current(scoped)
    assert second.variant == "gul_bara"
    response = post(client_for, second.white, "cube-double", second)
    assert response.status_code == 409 and "tabla_only" in response.json()["detail"]


def test_the_crawford_game_has_no_doubling(alice, bob, organiser, client_for):
    match = cube_match(alice, bob, organiser, crawford=True, match_length=3, cube="all_games")
    first = current(match)
    services.game_resign(game=first, player=first.black, kind="mars")  # 2-0: one away
    crawford = current(match)
    assert crawford.crawford
    response = post(client_for, crawford.white, "cube-double", crawford)
    assert response.status_code == 409 and "Crawford" in response.json()["detail"]
    services.game_resign(game=crawford, player=crawford.white, kind="single")  # 2-1
    after = current(match)
    assert not after.crawford and selectors.may_double(after)  # post-Crawford: doubling again


def test_a_stale_ply_on_a_cube_action_is_a_conflict(alice, bob, organiser, client_for):
    match = cube_match(alice, bob, organiser)
    game = current(match)
    response = post(client_for, game.white, "cube-double", game, {"ply": game.ply + 1})
    assert response.status_code == 409 and "stale" in response.json()["detail"]
    assert not Turn.objects.filter(game=game, kind="double").exists()


def test_auto_roll_waits_for_a_player_who_may_double(alice, bob, organiser, client_for):
    match = cube_match(alice, bob, organiser, auto_roll=True)
    game = current(match)
    assert game.dice is None and selectors.may_double(game)  # white decides: double or roll
    services.cube_double(game=game, player=game.white)
    taken = services.cube_take(game=game, player=game.black).game
    assert taken.dice is not None  # white cannot redouble: rolled for at once
    game.refresh_from_db()
    outcome = selectors.game_legal_plays(game)[0]
    played = services.play_submit(
        game=game, player=game.white, ply=game.ply, moves=outcome.play.to_json()
    ).game
    assert played.dice is None and selectors.may_double(played)  # black owns the cube


def test_a_whole_cube_match_is_played_through_the_api(alice, bob, organiser, client_for):
    """Random play with a double at each chance, taken or dropped at random, to the end."""
    match = cube_match(alice, bob, organiser, cube="all_games")
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    rng = random.Random(11)
    reader = client_for(alice)
    for _ in range(20_000):
        state = reader.get(reverse("games:match-detail", kwargs={"pk": match.pk})).json()
        if state["status"] != "in_progress":
            break
        game = reader.get(game_url("game-detail", state["current_game"])).json()
        client = clients[game["player_to_move"]["id"]]
        cube = game["cube"]
        if cube["offered_by"] is not None:
            action = "cube-take" if rng.random() < 0.5 else "cube-drop"
            response = client.post(game_url(action, game["id"]), {}, format="json")
        elif cube["may_double"] and rng.random() < 0.15:
            response = client.post(game_url("cube-double", game["id"]), {}, format="json")
        else:
            if game["roll_due"]:
                response = client.post(game_url("dice-roll", game["id"]))
            else:
                choice = rng.choice(game["legal_plays"])
                body = {"ply": game["ply"], "moves": choice["moves"]}
                response = client.post(game_url("play-submit", game["id"]), body, format="json")
        assert response.status_code == 200, response.json()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    games = list(match.games.all())
    assert any(g.cube_value > 1 for g in games) and any(g.ended_by == "drop" for g in games)
    totals = [0, 0]
    for game in games:
        assert selectors.game_replay_problems(game) == []
        assert selectors.game_dice_proof(game)["verified"] is True
        if game.result_winner_id:
            totals[0 if game.result_winner_id == alice.pk else 1] += game.result_points
    assert totals == [match.score_one, match.score_two]
