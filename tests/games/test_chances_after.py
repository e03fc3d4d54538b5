"""The chances' answer after a cursor (``GET /api/v1/matches/{id}/chances/?after=``; games/
chances.py, docs/decisions.md D160): only the points after those the client holds, the tail
of the whole answer; the same fairness as the whole one; the whole answer again whenever the
points held are no longer the first shown as they are; the same queries early and late."""

import random

import pytest

from games import selectors, services
from games.demo import game_play_random, match_play_random
from games.models import Game, Match
from tests.games.factories import UserFactory
from tests.games.helpers import chances_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def spectator(db):
    return UserFactory(username="spectator")


def unrated(alice, bob, organiser, **options) -> Match:
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, rated=False, options=options or None
    )


def play(match: Match, decisions: int, seed: int) -> Game:
    game = match.games.order_by("-number").first()
    return game_play_random(game=game, rng=random.Random(seed), max_decisions=decisions)


def assert_tail(part: dict, whole: dict, held: int) -> None:
    """``part`` (after a cursor of ``held`` points) is ``whole`` but for the points held."""
    assert part["incremental"] is True and whole["incremental"] is False
    assert part["points"] == whole["points"][held:]
    assert {k: v for k, v in part.items() if k not in ("points", "incremental")} == {
        k: v for k, v in whole.items() if k not in ("points", "incremental")
    }


def test_the_answer_after_a_cursor_is_the_tail_of_the_whole_one(
    weights, alice, bob, organiser, spectator, client_for
):
    match = unrated(alice, bob, organiser)
    play(match, 5, seed=1)
    client = client_for(spectator)
    first = client.get(chances_url(match)).json()
    assert first["incremental"] is False and first["cursor"].startswith(f"{len(first['points'])}.")
    play(match, 3, seed=2)
    whole = client.get(chances_url(match)).json()
    part = client.get(chances_url(match, first["cursor"])).json()
    assert len(part["points"]) >= 3
    assert_tail(part, whole, len(first["points"]))
    # Nothing new: no point, the same current point and cursor.
    again = client.get(chances_url(match, part["cursor"])).json()
    assert again["points"] == [] and again["incremental"] is True
    assert again["current"] == whole["current"] and again["cursor"] == whole["cursor"]
    # Across the end of a game: the next game's points follow the finished one's.
    match_play_random(match=match, rng=random.Random(3), max_games=1)
    play(match, 4, seed=4)
    whole = client.get(chances_url(match)).json()
    part = client.get(chances_url(match, again["cursor"])).json()
    assert {p["game"] for p in part["points"]} >= {1, 2}
    assert_tail(part, whole, int(again["cursor"].split(".")[0]))


def test_a_rated_match_s_spectator_stays_one_move_behind_after_a_cursor(
    weights, online_match, alice, spectator, client_for, settings
):
    assert online_match.rated
    play(online_match, 6, seed=5)
    client = client_for(spectator)
    first = client.get(chances_url(online_match)).json()
    game = play(online_match, 3, seed=6)
    whole = client.get(chances_url(online_match)).json()
    part = client.get(chances_url(online_match, first["cursor"])).json()
    assert part["behind"] == whole["behind"] == 1
    assert_tail(part, whole, len(first["points"]))
    last_ply = game.turns.order_by("-ply").first().ply
    assert part["points"][-1]["turn"] < last_ply and part["current"]["turn"] < last_ply
    # A cursor claiming more points than are shown gets the whole answer, never the one held
    # back; and the players of the match get none.
    for forged in (f"{len(whole['points']) + 1}.{whole['cursor'].split('.')[1]}", "99.x"):
        assert client.get(chances_url(online_match, forged)).json() == whole
    assert client_for(alice).get(chances_url(online_match, whole["cursor"])).status_code == 403
    settings.CHANCES_SPECTATOR_DELAY_TURNS = 0  # live: the point held back comes, and only it
    ahead = client.get(chances_url(online_match, whole["cursor"])).json()
    assert ahead["incremental"] is True and ahead["behind"] == 0
    assert [p["turn"] for p in ahead["points"]] == [last_ply]


def test_a_cursor_whose_points_changed_or_that_is_not_one_gets_the_whole_answer(
    weights, alice, bob, organiser, spectator, client_for, settings
):
    match = unrated(alice, bob, organiser, cube="tabla_only")
    game = play(match, 4, seed=7)
    while not (selectors.is_roll_due(game) and selectors.may_double(game)):
        game = game_play_random(game=game, rng=random.Random(8), max_decisions=1)
    client = client_for(spectator)
    first = client.get(chances_url(match)).json()
    mover = selectors.player_to_move(game)
    game = services.cube_double(game=game, player=mover).game
    game = services.cube_take(game=game, player=selectors.player_to_move(game)).game
    whole = client.get(chances_url(match)).json()
    # The points held were weighed with the cube at 1: the answer is whole again.
    assert client.get(chances_url(match, first["cursor"])).json() == whole
    count, basis = whole["cursor"].split(".")
    for malformed in ("", "x", "3", f"-{count}.{basis}", f"{count}.", f"0.{basis}", "²." + basis):
        assert client.get(chances_url(match, malformed)).json() == whole, malformed
    assert client.get(chances_url(match, whole["cursor"])).json()["points"] == []
    # More new points than the answer holds: the whole answer, truncated.
    settings.CHANCES_MAX_POINTS = 2
    held = f"1.{whole['cursor'].split('.')[1]}"
    assert client.get(chances_url(match, held)).json()["truncated"] is True


def test_a_read_after_a_new_turn_costs_the_same_queries_and_points_early_and_late(
    weights, alice, bob, organiser, spectator, client_for, django_assert_num_queries
):
    client = client_for(spectator)
    for decisions in (5, 150):
        for seed in range(20):  # a game that lasts past ``decisions`` + 1 decisions
            match = unrated(alice, bob, organiser)
            game = play(match, decisions, seed=seed)
            if not game.is_over:
                break
        cursor = client.get(chances_url(match)).json()["cursor"]
        game = game_play_random(game=game, rng=random.Random(99), max_decisions=1)
        assert not game.is_over
        with django_assert_num_queries(4):  # the user, the match, its games with their last
            # turns, the turns from the cached entry's last on
            part = client.get(chances_url(match, cursor)).json()
        assert part["incremental"] is True and 1 <= len(part["points"]) <= 2
        assert part["points"][-1]["turn"] == game.turns.order_by("-ply").first().ply
