"""1-ply lookahead (games/analysis/ply.py): a hand-counted race, the views of the two sides, the
batch against a roll-by-roll reference, Gjul Bara's owed dice, the move filter, the review."""

import random

import numpy as np
import pytest

from games.analysis.encode import input_size
from games.analysis.net import Network, equity, flip
from games.analysis.player import evaluate_plays
from games.analysis.ply import (
    ROLLS,
    after_chances,
    candidates,
    reply_chances,
    search_plays,
)
from games.analysis.review import review_plays
from games.engine import BLACK, DEFAULT_OPTIONS, WHITE, Position, legal_plays, start_position
from tests.analysis.test_review import random_game

VARIANTS = ("tabla", "gul_bara", "tapa")
OPTIONS = DEFAULT_OPTIONS


def constant_network(variant: str, outputs: tuple[float, float, float]) -> Network:
    """A network whose outputs are ``outputs`` for every position (no weight but the biases)."""
    network = Network.create(input_size(variant), hidden=4, seed=0)
    network.w2[:] = 0.0
    network.b2[:] = np.log(np.array(outputs) / (1.0 - np.array(outputs)))
    return network


def race(turn: str) -> Position:
    """Tabla: black has two checkers left, on its own 6- and 5-points (white's 19 and 20), 13
    borne off; white has none off, 14 at home and one on its 18-point, no contact. Black bears
    both off with 6-5, 6-6, 5-5, 4-4 and 3-3 only (6 rolls of 36), and then wins a mars."""
    points: list[tuple[tuple[str, int], ...]] = [() for _ in range(24)]
    points[0] = ((WHITE, 5),)
    points[2] = ((WHITE, 5),)
    points[5] = ((WHITE, 4),)
    points[17] = ((WHITE, 1),)
    points[18] = ((BLACK, 1),)
    points[19] = ((BLACK, 1),)
    return Position(turn=turn, points=tuple(points), off=(0, 13))


@pytest.fixture(scope="module")
def networks():
    return {
        variant: Network.create(input_size(variant), hidden=8, seed=seed)
        for seed, variant in enumerate(VARIANTS, start=11)
    }


def test_the_rolls_are_the_21_of_two_dice():
    assert len(ROLLS) == 21
    assert sum(weight for _, weight in ROLLS) == pytest.approx(1.0)
    assert sum(weight for (a, b), weight in ROLLS if a == b) == pytest.approx(6 / 36)


def test_a_race_counted_by_hand():
    """Black to move: it wins (a mars) on 6 rolls of 36; on the others the network (a constant
    o for white, then to move) decides, seen by black as flip(o)."""
    o = np.array([0.3, 0.2, 0.1])
    network = constant_network("tabla", tuple(o))
    black = reply_chances(network, "tabla", race(BLACK), OPTIONS)
    want = 6 / 36 * np.array([1.0, 1.0, 0.0]) + 30 / 36 * flip(o)
    np.testing.assert_allclose(black, want, atol=1e-9)
    # White's play before it, seen by white: the same chances from the other side.
    outcomes = legal_plays("tabla", race(WHITE), [2, 1], OPTIONS)
    assert outcomes and not any(outcome.ends_game for outcome in outcomes)
    for outcome in outcomes:
        white = after_chances(network, "tabla", WHITE, outcome, OPTIONS)
        np.testing.assert_allclose(white, flip(want), atol=1e-9)
        # P(win) 30/36 * 0.3; white wins a mars as often as o says; loses one on 6 rolls
        np.testing.assert_allclose(
            white, [30 / 36 * 0.3, 30 / 36 * 0.2, 6 / 36 + 30 / 36 * 0.1], atol=1e-9
        )


def test_a_forced_result_is_exact_whatever_the_network():
    """Black's last two checkers on its 1- and 2-points: every roll bears both off, so 1-ply
    knows white loses a mars, while 0-ply only has the network's guess."""
    position = race(BLACK)
    points = list(position.points)
    points[18], points[19] = (), ()
    points[22], points[23] = ((BLACK, 1),), ((BLACK, 1),)  # black's own 2- and 1-points
    position = Position(turn=BLACK, points=tuple(points), off=(0, 13))
    for seed in (1, 2):
        network = Network.create(input_size("tabla"), hidden=8, seed=seed)
        chances = reply_chances(network, "tabla", position, OPTIONS)
        np.testing.assert_allclose(chances, [1.0, 1.0, 0.0])


def reference(network, variant, mover, outcome):
    """after_chances worked out roll by roll with the 0-ply player, one batch a roll."""
    if outcome.ends_game:
        return None
    after = outcome.position
    stages = [(None, 1.0)] if after.pending else [(list(dice), w) for dice, w in ROLLS]
    total = np.zeros(3)
    for dice, weight in stages:
        replies = legal_plays(variant, after, dice, OPTIONS)
        evaluated = evaluate_plays(network, variant, after, replies, OPTIONS)
        total += weight * evaluated.chances[evaluated.best()]
    return total if after.turn == mover else flip(total)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_batch_is_the_roll_by_roll_evaluation_and_the_views_agree(networks, variant):
    network = networks[variant]
    game = random_game(variant, seed=3)
    checked = 0
    for played in game[4:40:3]:
        dice = None if played.dice is None else list(played.dice)
        for outcome in legal_plays(variant, played.position, dice, OPTIONS)[:3]:
            mover = played.position.turn
            want = reference(network, variant, mover, outcome)
            if want is None:
                continue
            got = after_chances(network, variant, mover, outcome, OPTIONS)
            np.testing.assert_allclose(got, want, atol=1e-12)
            theirs = reply_chances(network, variant, outcome.position, OPTIONS)
            if outcome.position.turn != mover:  # the other side's view is the flip of it
                assert got[0] == pytest.approx(1.0 - theirs[0])
                assert (got[1], got[2]) == pytest.approx((theirs[2], theirs[1]))
            else:
                np.testing.assert_allclose(got, theirs)
            checked += 1
    assert checked > 10


def test_gul_bara_owed_dice_are_played_not_rolled(networks):
    """After a play that leaves a cascade owed, the next decision is that stage, weight 1."""
    network = networks["gul_bara"]
    found = 0
    for seed in range(40):
        for played in random_game("gul_bara", seed=seed):
            if not played.position.pending:
                continue
            stage = legal_plays("gul_bara", played.position, None, OPTIONS)
            evaluated = evaluate_plays(network, "gul_bara", played.position, stage, OPTIONS)
            want = evaluated.chances[evaluated.best()]
            got = reply_chances(network, "gul_bara", played.position, OPTIONS)
            np.testing.assert_allclose(got, want)
            found += 1
            if found >= 3:
                return
    pytest.skip("no owed dice in these games")


def test_the_filter_keeps_the_0_ply_best_first():
    zero = np.array([[0.5, 0, 0], [0.9, 0, 0], [0.1, 0, 0], [0.86, 0, 0], [0.2, 0, 0]])
    assert candidates(zero, keep=1, margin=0.0) == [1]
    assert candidates(zero, keep=1, margin=0.1) == [1, 3]  # 0.08 points behind the best
    assert candidates(zero, keep=2, margin=0.0, include=[2]) == [1, 3, 2]
    assert candidates(zero, keep=5, margin=0.0, limit=3) == [1, 3, 0]
    assert candidates(zero, keep=0, margin=0.0, limit=0) == [1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_chooses_among_its_candidates_by_1_ply(networks, variant):
    network = networks[variant]
    for played in random_game(variant, seed=9)[2:30:9]:
        dice = None if played.dice is None else list(played.dice)
        outcomes = legal_plays(variant, played.position, dice, OPTIONS)
        if len(outcomes) < 2:
            continue
        searched = search_plays(network, variant, played.position, outcomes, OPTIONS, keep=3)
        zero = evaluate_plays(network, variant, played.position, outcomes, OPTIONS)
        assert searched.deep[0] == zero.best()
        assert searched.complete
        assert searched.best() in searched.deep
        values = equity(searched.chances)
        assert values[searched.best()] == max(values[searched.deep])
        for index in searched.deep:
            want = after_chances(network, variant, played.position.turn, outcomes[index], OPTIONS)
            np.testing.assert_allclose(searched.chances[index], want)
        np.testing.assert_allclose(searched.zero_ply, zero.chances)


def test_a_deadline_cuts_the_search_after_the_0_ply_best(networks):
    network = networks["tabla"]
    position = start_position("tabla", WHITE)
    outcomes = legal_plays("tabla", position, [6, 2], OPTIONS)
    searched = search_plays(network, "tabla", position, outcomes, OPTIONS, deadline=0.0)
    assert not searched.complete
    assert searched.deep == [int(np.argmax(equity(searched.zero_ply)))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_review_at_1_ply(networks, variant):
    network = networks[variant]
    game = random_game(variant, seed=5)[:12]
    shallow = {item.index: item for item in review_plays(network, variant, OPTIONS, game)}
    deep = review_plays(network, variant, OPTIONS, game, depth=1)
    assert [item.index for item in deep] == sorted(shallow)
    differs = 0
    for item in deep:
        played = game[item.index]
        dice = None if played.dice is None else list(played.dice)
        outcomes = legal_plays(variant, played.position, dice, OPTIONS)
        made = next(i for i, o in enumerate(outcomes) if o.node == item.made.node)
        searched = search_plays(
            network, variant, played.position, outcomes, OPTIONS, include=[made]
        )
        values = equity(searched.chances)
        assert item.made_equity == pytest.approx(values[made])
        assert item.best_equity == pytest.approx(values[searched.best()])
        assert item.error >= 0
        differs += abs(item.made_equity - shallow[item.index].made_equity) > 1e-9
    assert differs  # judged by another depth, the numbers are not the 0-ply ones
    with pytest.raises(ValueError):
        review_plays(network, variant, OPTIONS, game, depth=2)


def test_random_positions_keep_probabilities_in_range(networks):
    rng = random.Random(1)
    network = networks["tapa"]
    for played in rng.sample(random_game("tapa", seed=2), 5):
        dice = None if played.dice is None else list(played.dice)
        for outcome in legal_plays("tapa", played.position, dice, OPTIONS)[:2]:
            chances = after_chances(network, "tapa", played.position.turn, outcome, OPTIONS)
            assert ((chances >= 0) & (chances <= 1)).all()
