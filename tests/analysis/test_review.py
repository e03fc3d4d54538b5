"""A game's plays against the evaluator's best (games/analysis/review.py)."""

import random

import pytest

from games.analysis.encode import input_size
from games.analysis.net import Network, equity
from games.analysis.player import evaluate_plays
from games.analysis.review import Played, review_plays
from games.engine import DEFAULT_OPTIONS, check_play, legal_plays, start_position

VARIANTS = ("tabla", "gul_bara", "tapa")


def random_game(variant: str, seed: int, *, best_of: Network | None = None) -> list[Played]:
    """A game of random plays (or the network's best ones) as the review reads it."""
    rng = random.Random(seed)
    position = start_position(variant, "w")
    played = []
    for _ in range(600):
        dice = None if position.pending else (rng.randint(1, 6), rng.randint(1, 6))
        outcomes = legal_plays(variant, position, None if dice is None else list(dice))
        if best_of is not None and len(outcomes) > 1:
            evaluated = evaluate_plays(best_of, variant, position, outcomes, DEFAULT_OPTIONS)
            outcome = outcomes[evaluated.best()]
        else:
            outcome = rng.choice(outcomes)
        played.append(Played(position, dice, outcome.play))
        if outcome.result is not None:
            break
        position = outcome.position
    return played


@pytest.fixture(scope="module")
def networks():
    return {
        variant: Network.create(input_size(variant), hidden=8, seed=seed)
        for seed, variant in enumerate(VARIANTS, start=1)
    }


@pytest.mark.parametrize("variant", VARIANTS)
def test_errors_are_the_gap_to_the_best_play_and_never_negative(networks, variant):
    network = networks[variant]
    game = random_game(variant, seed=5)
    reviewed = review_plays(network, variant, DEFAULT_OPTIONS, game)
    assert reviewed
    for item in reviewed:
        played = game[item.index]
        dice = None if played.dice is None else list(played.dice)
        outcomes = legal_plays(variant, played.position, dice)
        values = equity(
            evaluate_plays(network, variant, played.position, outcomes, DEFAULT_OPTIONS).chances
        )
        assert item.choices == len(outcomes) > 1
        assert item.mover == played.position.turn
        assert item.best_equity == pytest.approx(max(values))
        assert item.error >= 0
        assert item.error == pytest.approx(item.best_equity - item.made_equity)
        dice_made = None if played.dice is None else list(played.dice)
        made = check_play(variant, played.position, dice_made, played.play)
        assert item.made.position == made.position
    assert any(item.error > 0 for item in reviewed)  # random plays are mostly worse


@pytest.mark.parametrize("variant", VARIANTS)
def test_forced_plays_are_skipped(networks, variant):
    game = random_game(variant, seed=7)
    reviewed = review_plays(networks[variant], variant, DEFAULT_OPTIONS, game)
    indexes = {item.index for item in reviewed}
    for index, played in enumerate(game):
        dice = None if played.dice is None else list(played.dice)
        choices = len(legal_plays(variant, played.position, dice))
        assert (index in indexes) == (choices > 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_best_play_made_is_no_error(networks, variant):
    network = networks[variant]
    game = random_game(variant, seed=9, best_of=network)
    reviewed = review_plays(network, variant, DEFAULT_OPTIONS, game)
    assert reviewed
    for item in reviewed:
        assert item.error == 0
        assert item.best.node == item.made.node


def test_a_gjul_bara_cascade_stage_is_a_decision_of_its_own(networks):
    for seed in range(40):
        game = random_game("gul_bara", seed=seed)
        stages = [i for i, played in enumerate(game) if played.dice is None]
        if stages:
            break
    else:
        pytest.fail("no cascade in 40 random games")
    reviewed = review_plays(networks["gul_bara"], "gul_bara", DEFAULT_OPTIONS, game)
    by_index = {item.index for item in reviewed}
    for index in stages:
        played = game[index]
        choices = len(legal_plays("gul_bara", played.position, None))
        assert (index in by_index) == (choices > 1)
