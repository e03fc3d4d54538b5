"""``Decision.prepare`` remembers its last few decisions (D107): the same arguments give the same
decision, different ones never share it, and odd dice are checked as before."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import (
    DEFAULT_OPTIONS,
    IllegalPlayError,
    InvalidDiceError,
    Options,
    check_play,
    legal_plays,
    start_position,
)
from games.engine.generate import Decision


def test_the_same_arguments_give_the_remembered_decision() -> None:
    position = start_position("tabla")
    first = Decision.prepare("tabla", position, [6, 5], DEFAULT_OPTIONS)
    again = Decision.prepare("tabla", start_position("tabla"), (6, 5), DEFAULT_OPTIONS)
    assert again is first
    outcome = check_play("tabla", position, [6, 5], "24/18 18/13")
    assert outcome.position in [o.position for o in legal_plays("tabla", position, [6, 5])]


def test_what_changes_the_plays_changes_the_decision() -> None:
    position = start_position("gul_bara")
    base = Decision.prepare("gul_bara", position, [6, 6], DEFAULT_OPTIONS)
    other_dice = Decision.prepare("gul_bara", position, [5, 5], DEFAULT_OPTIONS)
    other_options = dataclasses.replace(DEFAULT_OPTIONS, cascade=True, cascade_from_roll=1)
    assert isinstance(other_options, Options)
    with_options = Decision.prepare("gul_bara", position, [5, 5], other_options)
    other_turn = Decision.prepare(
        "gul_bara", start_position("gul_bara", "b"), [6, 6], DEFAULT_OPTIONS
    )
    assert len({id(base), id(other_dice), id(with_options), id(other_turn)}) == 4
    assert base.stage.dice == (6, 6, 6, 6) and other_dice.stage.dice == (5, 5, 5, 5)
    assert other_dice.stage.later == () and with_options.stage.later == (6, 6, 6, 6)
    assert other_turn.position.turn == "b"


def test_dice_that_are_not_plain_integers_are_refused_as_before() -> None:
    position = start_position("tabla")
    Decision.prepare("tabla", position, [1, 2], DEFAULT_OPTIONS)
    with pytest.raises(InvalidDiceError):
        Decision.prepare("tabla", position, [True, 2], DEFAULT_OPTIONS)
    with pytest.raises(InvalidDiceError):
        Decision.prepare("tabla", position, [1.0, 2], DEFAULT_OPTIONS)  # type: ignore[list-item]
    with pytest.raises(InvalidDiceError):
        Decision.prepare("tabla", position, [1, 7], DEFAULT_OPTIONS)


def test_an_illegal_play_is_still_refused_after_the_decision_is_remembered() -> None:
    position = start_position("tabla")
    legal_plays("tabla", position, [6, 5])
    with pytest.raises(IllegalPlayError):
        check_play("tabla", position, [6, 5], "24/18")
