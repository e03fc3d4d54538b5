"""The practice computer's choice (games.analysis.computer, docs/decisions.md D170)."""

import numpy as np
import pytest

from games.analysis.computer import computer_play
from games.analysis.encode import input_size
from games.analysis.net import Network, equity
from games.analysis.player import TEMPERATURES, drawn_play, evaluate_plays
from games.analysis.ply import search_plays
from games.engine import DEFAULT_OPTIONS, legal_plays
from tests.analysis.helpers import sample_positions


@pytest.fixture(scope="module")
def network():
    return Network.create(input_size("tabla"), hidden=8, seed=5)


def decisions(count: int):
    """``count`` Tabla decisions with a choice: a position and its legal plays for 6-1."""
    found = []
    for position in sample_positions("tabla", 400, seed=3):
        outcomes = legal_plays("tabla", position, [6, 1])
        if len(outcomes) > 2:
            found.append((position, outcomes))
        if len(found) == count:
            return found
    raise AssertionError("too few decisions with a choice")


def test_the_draw_follows_the_softmax_of_the_equities():
    # Equities 0, -0.05 and -0.10 points: at 0.05 each play is e times less likely than the
    # one 0.05 better.
    chances = np.array([[0.5, 0.0, 0.0], [0.475, 0.0, 0.0], [0.45, 0.0, 0.0]])
    assert np.allclose(equity(chances), [0.0, -0.05, -0.10])
    rng = np.random.default_rng(1)
    counts = np.bincount([drawn_play(chances, 0.05, rng) for _ in range(20_000)], minlength=3)
    want = np.exp([0.0, -1.0, -2.0]) / np.exp([0.0, -1.0, -2.0]).sum()
    assert np.allclose(counts / counts.sum(), want, atol=0.015)


def test_strong_plays_the_best_play_at_its_depth_and_draws_nothing(network):
    rng = np.random.default_rng(2)
    state = rng.bit_generator.state
    for position, outcomes in decisions(4):
        zero = evaluate_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS).best()
        one = search_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS).best()
        for depth, want in ((0, zero), (1, one)):
            chosen = computer_play(
                network, "tabla", position, outcomes, DEFAULT_OPTIONS,
                strength="strong", depth=depth, rng=rng,
            )  # fmt: skip
            assert chosen == want
    assert rng.bit_generator.state == state


def test_a_forced_play_is_played_without_a_draw(network):
    position = sample_positions("tabla", 1)[0]
    outcomes = legal_plays("tabla", position, [6, 1])[:1]
    rng = np.random.default_rng(3)
    state = rng.bit_generator.state
    assert computer_play(
        network, "tabla", position, outcomes, DEFAULT_OPTIONS,
        strength="beginner", depth=1, rng=rng,
    ) == 0  # fmt: skip
    assert rng.bit_generator.state == state


def test_the_weaker_the_computer_the_more_equity_it_gives_away(network):
    """Over the same decisions and draws, beginner gives away more than club, club more than
    strong's 0 (by the 0-ply equities the draws are made from)."""
    assert TEMPERATURES["beginner"] > TEMPERATURES["club"] > TEMPERATURES["strong"] == 0
    lost = {}
    for strength in TEMPERATURES:
        rng = np.random.default_rng(4)
        total = 0.0
        for position, outcomes in decisions(30):
            values = equity(
                evaluate_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS).chances
            )
            for _ in range(20):
                chosen = computer_play(
                    network, "tabla", position, outcomes, DEFAULT_OPTIONS,
                    strength=strength, depth=0, rng=rng,
                )  # fmt: skip
                total += values.max() - values[chosen]
        lost[strength] = total
    assert lost["beginner"] > lost["club"] > lost["strong"] == 0
