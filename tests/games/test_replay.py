"""The one replay of a turn log (games/replay.py): it agrees with games played through the
services, and it refuses logs that break the cube's or the dice's rules."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from games import selectors, services
from games.engine import Cube, GameResult, Options, legal_plays, start_position
from games.models import Game, Turn
from games.replay import ReplayError, cube_steps, replay_log
from tests.games.helpers import play_cube_match

CUBE = Options.from_json({"cube": "tabla_only"})


@pytest.mark.django_db
def test_the_replay_of_a_stored_cube_game_agrees_with_the_game(alice, bob, organiser):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    play_cube_match(match, random.Random(7))
    games = match.games.filter(variant="tabla", status=Game.Status.FINISHED).order_by("number")
    assert any(g.cube_value > 1 for g in games) and games.filter(ended_by="drop").exists()
    for game in games:
        turns = list(game.turns.order_by("ply"))
        steps = list(replay_log(game.variant, CUBE, turns, crawford=game.crawford))
        assert len(steps) == len(turns)
        for turn, step in zip(turns, steps, strict=True):
            assert (step.side, step.kind, step.moves) == (turn.side, turn.kind, turn.moves)
            assert step.position_after.to_json() == turn.position_after
        # The match page's one walk of the stored log gives the replay's cubes.
        assert cube_steps(turns, crawford=game.crawford) == [step.cube for step in steps]
        last = steps[-1]
        assert (last.cube.value, last.cube.owner) == (game.cube_value, game.cube_owner)
        if game.ended_by in ("play", "drop"):
            assert last.game_result == selectors.game_result(game, cube=False)
        assert selectors.game_replay_problems(game) == []


def opening(dice: list[int]) -> dict:
    """White's first roll and a legal play of it."""
    outcome = legal_plays("tabla", start_position("tabla", "w"), dice)[0]
    return {"dice": dice, "moves": outcome.play.to_json()}


def test_cube_actions_move_the_cube_and_leave_the_position():
    log = [{"kind": "double"}, {"kind": "take"}, opening([6, 5])]
    steps = list(replay_log("tabla", CUBE, log))
    assert [(s.side, s.kind) for s in steps] == [("w", "double"), ("b", "take"), ("w", "roll")]
    assert steps[0].cube == Cube(1, "", "w") and steps[1].cube == Cube(2, "b", "")
    assert steps[1].position_after == start_position("tabla", "w")
    assert steps[2].cube == Cube(2, "b", "")


def test_a_drop_ends_the_game_and_nothing_may_follow():
    steps = list(replay_log("tabla", CUBE, [{"kind": "double"}, {"kind": "drop"}]))
    assert steps[-1].game_result == GameResult("w", "single", 1) and steps[-1].result is None
    with pytest.raises(ReplayError, match="already over") as caught:
        list(replay_log("tabla", CUBE, [{"kind": "double"}, {"kind": "drop"}, opening([6, 5])]))
    assert caught.value.number == 3


@pytest.mark.parametrize(
    ("log", "options", "crawford", "message"),
    [
        ([{"kind": "double"}], Options(), False, "no doubling in this game"),
        ([{"kind": "double"}], CUBE, True, "no doubling in this game"),
        ([{"kind": "take"}], CUBE, False, "a take with no double"),
        ([{"kind": "double"}, {"kind": "double"}], CUBE, False, "may not double"),
        ([{"kind": "double"}, opening([6, 5])], CUBE, False, "a double awaits"),
        ([{"kind": "double", "side": "b"}], CUBE, False, "expected a double of 'w'"),
        ([{**opening([6, 5]), "side": "b"}], CUBE, False, "expected a roll of 'w'"),
        ([{**opening([6, 5]), "kind": "pending"}], CUBE, False, "recorded as 'pending'"),
        ([{"kind": "double", "moves": ["24/18"]}], CUBE, False, "moves no checker"),
        ([{"dice": [6, 5]}], CUBE, False, "expected"),
    ],
)
def test_a_log_that_breaks_the_rules_is_refused_at_its_entry(log, options, crawford, message):
    with pytest.raises(ReplayError, match=message) as caught:
        list(replay_log("tabla", options, log, crawford=crawford))
    assert caught.value.number == len(log)


def test_entries_may_be_objects_as_well_as_mappings():
    row = SimpleNamespace(kind=Turn.Kind.ROLL, side="w", **opening([6, 5]))
    (step,) = replay_log("tabla", Options(), [row])
    assert step.kind == "roll" and step.position_after.turn == "b"


@pytest.mark.django_db
def test_verify_games_finds_a_take_by_the_doubler(alice, bob, organiser):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = selectors.current_game(match)
    services.cube_double(game=game, player=selectors.player_to_move(game))
    game.refresh_from_db()
    services.cube_take(game=game, player=selectors.player_to_move(game))
    game.refresh_from_db()
    assert selectors.game_replay_problems(game) == []
    Turn.objects.filter(game=game, kind=Turn.Kind.TAKE).update(side="w")
    assert selectors.game_replay_problems(game) == ["ply 2: expected a take of 'b', got 'w'"]
