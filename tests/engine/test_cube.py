"""The doubling cube's arithmetic in the engine (games/engine/cube.py): pure functions."""

from __future__ import annotations

import pytest

from games.engine import Cube, CubeError, GameResult, Options
from games.engine.cube import (
    cube_for_points,
    may_double,
    points_before_cube,
    points_scored,
)


def test_a_double_from_the_middle_then_a_take_gives_the_taker_the_cube_at_twice_the_value():
    offered = Cube().double("w")
    assert offered == Cube(1, "", "w") and offered.offered_value == 2
    taken = offered.take("b")
    assert taken == Cube(2, "b", "")
    assert taken.double("b").take("w") == Cube(4, "w", "")


def test_a_drop_loses_single_at_the_value_before_the_double():
    cube = Cube(4, "b").double("b")
    assert cube.drop("w") == GameResult("b", "single", 1)
    after, ended = cube.act("drop", "w")
    assert after == Cube(4, "b", "") and ended == GameResult("b", "single", 1)
    assert points_scored(ended, after.value) == 4


def test_only_the_owner_may_redouble_and_never_while_a_double_awaits_an_answer():
    assert Cube().may_double("w") and Cube().may_double("b")
    owned = Cube(2, "b")
    assert owned.may_double("b") and not owned.may_double("w")
    with pytest.raises(CubeError, match="w may not double"):
        owned.double("w")
    with pytest.raises(CubeError, match="b may not double"):
        owned.double("b").double("b")


def test_no_doubling_in_the_crawford_game():
    cube = Cube(crawford=True)
    assert not cube.may_double("w")
    with pytest.raises(CubeError):
        cube.double("w")


@pytest.mark.parametrize("action", ["take", "drop"])
def test_an_answer_needs_a_double_of_the_opponent(action):
    with pytest.raises(CubeError, match=f"a {action} with no double"):
        Cube().act(action, "b")
    with pytest.raises(CubeError, match=f"a {action} with no double"):
        Cube().double("w").act(action, "w")  # the doubler cannot answer their own double


def test_an_unknown_action_is_refused():
    with pytest.raises(CubeError, match="unknown cube action 'beaver'"):
        Cube().act("beaver", "w")


def test_may_double_follows_the_cube_option_and_the_variant():
    tabla_only = Options.from_json({"cube": "tabla_only"})
    assert may_double(Cube(), "w", "tabla", tabla_only)
    assert not may_double(Cube(), "w", "tapa", tabla_only)
    assert not may_double(Cube(), "w", "tabla", Options())
    assert may_double(Cube(), "b", "tapa", Options.from_json({"cube": "all_games"}))
    assert not may_double(Cube(2, "w"), "b", "tabla", tabla_only)


def test_points_with_the_cube():
    assert points_scored(GameResult("w", "mars", 2), 4) == 8
    assert points_scored(GameResult(None, "tie", 1), 4) == 1  # the cube does not multiply a tie
    assert points_before_cube(8, 4) == 2 and points_before_cube(1, 4, is_tie=True) == 1
    assert [cube_for_points(p, "mars") for p in (2, 4, 6, 8, 16)] == [1, 2, None, 4, 8]
    assert cube_for_points(0, "single") is None and cube_for_points(12, "triple") == 4
