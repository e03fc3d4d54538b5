"""Derived inputs (games/analysis/derived.py): Tabla's race and contact features, a network
that adds them, and a refinement that fits one (docs/decisions.md D165)."""

import numpy as np
import pytest

from games.analysis.derived import derived_size, tabla_features, with_derived
from games.analysis.encode import encode, encode_positions, input_size
from games.analysis.net import Network
from games.engine import Position, start_position

from .helpers import sample_positions


def tabla(white: dict[int, int], black: dict[int, int], bar=(0, 0), turn="w") -> Position:
    """A Tabla position from each side's checkers per own point; the rest borne off."""
    points: list[tuple[tuple[str, int], ...]] = [() for _ in range(24)]
    for point, count in white.items():
        points[point - 1] = (("w", count),)
    for point, count in black.items():
        points[24 - point] = (("b", count),)  # black's own point q is white's 25 - q
    off = (15 - sum(white.values()) - bar[0], 15 - sum(black.values()) - bar[1])
    return Position(turn=turn, points=tuple(points), bar=bar, off=off)


def features(position: Position) -> list[float]:
    return [round(float(v), 6) for v in tabla_features(encode_positions("tabla", [position]))[0]]


def test_the_start_in_features():
    mine = [1.67, 0.0, round(1 / 6, 6), round(2 / 15, 6), 0.0, 1.0]
    assert features(start_position("tabla")) == mine + mine


def test_a_blot_six_away_is_hit_on_17_rolls():
    # White's blot on its 10-point, a black checker on white's 4-point (black's 21), six away:
    # any 6 (11 rolls), 5-1 and 4-2 (4), 2-2 and 3-3 (2).
    position = tabla({10: 1, 6: 2}, {21: 1, 1: 2})
    mine = features(position)[:6]
    assert mine[1] == round(17 / 36, 6)
    assert mine[0] == round((10 + 12) / 100, 6)
    assert mine[4] == round(1 / 5, 6) and mine[5] == 1.0
    theirs = features(position)[6:]
    # Black's blot on its 21 is 6 away from white's 10-point (black's 15) and 2 from its 6
    # (black's 19): a roll with a 2 or a 6 (18 of the 30 others than doubles), 5-1 (2), and
    # 1-1, 2-2, 3-3, 6-6.
    assert theirs[1] == round(24 / 36, 6)
    assert theirs[3] == round(1 / 15, 6)  # one black checker back, on its 21


def test_a_checker_on_the_bar_hits_only_by_entering():
    # Black on the bar enters on white's d-point: a blot on white's 3 is hit by any 3 (11),
    # 2-1 (2) and 1-1 (1); the black checker on white's 2 must wait for the one on the bar.
    position = tabla({3: 1, 13: 2}, {23: 1}, bar=(0, 1))
    assert features(position)[1] == round(14 / 36, 6)
    assert features(position)[6 + 3] == round(2 / 15, 6)  # the bar and the 23-point
    assert features(position)[6 + 0] == round((23 + 25) / 100, 6)


def test_no_contact_once_the_sides_have_passed():
    position = tabla({3: 5, 4: 5}, {5: 5, 2: 5})  # black's 5 and 2 are white's 20 and 23
    assert features(position)[5] == 0.0 and features(position)[11] == 0.0
    assert features(position)[1] == 0.0


def test_a_prime_is_its_longest_run():
    position = tabla({4: 2, 5: 2, 6: 2, 7: 2, 9: 2, 10: 2, 13: 3}, {24: 15})
    assert features(position)[2] == round(4 / 6, 6)


def test_the_other_side_to_move_swaps_the_features():
    for position in sample_positions("tabla", 200, seed=5):
        mine = tabla_features(encode_positions("tabla", [position]))[0]
        other = position.with_turn("b" if position.turn == "w" else "w")
        theirs = tabla_features(encode_positions("tabla", [other]))[0]
        assert np.array_equal(theirs, np.concatenate([mine[6:], mine[:6]]))


def test_a_network_that_derives_inputs_answers_as_before_until_trained(tmp_path):
    network = Network.create(input_size("tabla"), hidden=6, seed=2)
    x = encode_positions("tabla", sample_positions("tabla", 40, seed=6)).astype(np.float64)
    before = network.forward(x)
    network.derive("tabla-1")
    assert network.inputs == input_size("tabla") + derived_size("tabla-1")
    assert network.encoded_inputs == input_size("tabla")
    assert np.array_equal(network.forward(x), before)
    network.w1[:, -12:] = np.random.default_rng(1).normal(size=(6, 12))
    expected = Network(network.w1, network.b1, network.w2, network.b2).forward(
        np.hstack([x, tabla_features(x)])
    )
    assert np.allclose(network.forward(x), expected)
    one = encode("tabla", start_position("tabla"))
    assert np.allclose(network.forward(one.astype(np.float64)), network.forward(one[None])[0])
    path = tmp_path / "derived.npz"
    network.save(path)
    again = Network.load(path)
    assert again.derived == "tabla-1" and np.array_equal(again.forward(x), network.forward(x))
    with pytest.raises(ValueError):
        again.derive("tabla-1")


def test_an_unknown_set_is_refused_on_load(tmp_path):
    network = Network.create(input_size("tabla") + 3, hidden=4, seed=1)
    path = tmp_path / "odd.npz"
    network.save(path, derived="tabla-99")
    with pytest.raises(ValueError, match="unknown set"):
        Network.load(path)


def test_the_gradient_reaches_the_derived_inputs_weights():
    network = Network.create(input_size("tabla"), hidden=5, seed=3)
    network.derive("tabla-1")
    network.w1[:, -12:] = np.random.default_rng(2).normal(scale=0.3, size=(5, 12))
    x = encode_positions("tabla", sample_positions("tabla", 8, seed=7)).astype(np.float64)
    target = np.random.default_rng(3).random((8, 3))
    _, grads = network.loss_gradient(x, target)
    step = 1e-6
    for column in (input_size("tabla") + 0, input_size("tabla") + 7):
        network.w1[2, column] += step
        up, _ = network.loss_gradient(x, target)
        network.w1[2, column] -= 2 * step
        down, _ = network.loss_gradient(x, target)
        network.w1[2, column] += step
        assert grads[0][2, column] == pytest.approx((up - down) / (2 * step), rel=1e-4, abs=1e-9)


def test_with_no_set_the_encoding_is_the_input():
    x = np.ones((2, 5))
    assert with_derived(None, x) is x
