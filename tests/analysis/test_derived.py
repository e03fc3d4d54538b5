"""Derived inputs (games/analysis/derived.py): Tabla's race and contact features, a network
that adds them, and a refinement that fits one (docs/decisions.md D165)."""

import numpy as np
import pytest

from games.analysis.derived import derived_size, gul_bara_features, tabla_features, with_derived
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


# Gjul Bara's set, gul_bara-1 (docs/decisions.md D167).


def gul_bara(white: dict[int, int], black: dict[int, int], turn="w") -> Position:
    """A Gjul Bara position from each side's checkers per own point; the rest borne off."""
    points: list[tuple[tuple[str, int], ...]] = [() for _ in range(24)]
    for point, count in white.items():
        points[point - 1] = (("w", count),)
    for point, count in black.items():
        points[(point + 11) % 24] = (("b", count),)  # black's own q is white's (q + 11) % 24 + 1
    off = (15 - sum(white.values()), 15 - sum(black.values()))
    return Position(turn=turn, points=tuple(points), bar=(0, 0), off=off)


def gb_features(position: Position) -> list[float]:
    x = encode_positions("gul_bara", [position])
    return [round(float(v), 6) for v in gul_bara_features(x)[0]]


def test_the_gul_bara_start_in_features():
    # 360 pips, every die playable, the start blocks the other side's way (a run of one),
    # all 15 on the start and in contact, none home.
    mine = [1.8, 0.0, round(1 / 6, 6), 1.0, 1.0, 0.0]
    assert gb_features(start_position("gul_bara")) == mine + mine


def test_lone_checkers_block_dice():
    # White on its 20 faces black's lone checkers on white's 19, 18 and 15 (black's 7, 6 and 3):
    # dice 1, 2 and 5 are blocked, and the black checkers ahead keep white's one in contact.
    position = gul_bara({20: 1}, {7: 1, 6: 1, 3: 1})
    mine = gb_features(position)[:6]
    assert mine[0] == round(20 / 200, 6)
    assert mine[1] == round(3 / 6, 6)
    assert mine[4] == round(1 / 15, 6)
    # White's 20 is black's 8, behind all of black's checkers: it blocks nothing of black's
    # way, and black has nothing of white's ahead of it.
    theirs = gb_features(position)[6:]
    assert mine[2] == 0.0 and theirs[1] == 0.0 and theirs[4] == 0.0


def test_a_block_counts_only_what_the_other_side_must_still_pass():
    # White holds its 14, 13, 10, 9 and 8: black's 2, 1, 22, 21 and 20. With black's rearmost
    # checker on its 24 all of them lie ahead of it, the longest run three (20-22); with its
    # rearmost on its 19 only the 2 and the 1 do.
    white = {14: 1, 13: 1, 10: 1, 9: 1, 8: 1, 3: 10}
    assert gb_features(gul_bara(white, {24: 5}))[2] == round(3 / 6, 6)
    assert gb_features(gul_bara(white, {19: 5}))[2] == round(2 / 6, 6)


def test_bearing_off_plays_a_die_once_every_checker_is_home():
    home = gul_bara({2: 3, 1: 2}, {3: 15})
    assert gb_features(home)[1] == 0.0  # a 1 steps 2/1, a 2 bears off the 2, higher dice too
    assert gb_features(home)[5] == round(5 / 15, 6)
    # A checker still on the 7, black on white's 6, 5 and 4 (its 18, 17 and 16): a 1 steps 2/1,
    # a 4, 5 or 6 from the 7; a 2 or a 3 is blocked from the 7 and may not bear off.
    out = gul_bara({7: 1, 2: 3, 1: 2}, {18: 1, 17: 1, 16: 1})
    assert gb_features(out)[1] == round(2 / 6, 6)


def test_gul_bara_other_side_to_move_swaps_the_features():
    for position in sample_positions("gul_bara", 200, seed=5):
        if position.pending:
            continue
        mine = gul_bara_features(encode_positions("gul_bara", [position]))[0]
        other = position.with_turn("b" if position.turn == "w" else "w")
        theirs = gul_bara_features(encode_positions("gul_bara", [other]))[0]
        assert np.array_equal(theirs, np.concatenate([mine[6:], mine[:6]]))


def test_gul_bara_features_agree_with_a_point_by_point_count():
    from games.engine.variants import find_variant

    variant = find_variant("gul_bara")
    for position in sample_positions("gul_bara", 150, seed=9):
        got = gul_bara_features(encode_positions("gul_bara", [position]))[0]
        me = position.turn
        for side, start in ((me, 0), ("b" if me == "w" else "w", 6)):
            counts = {
                q: sum(k for c, k in position.points[variant.white_point(q, side) - 1] if c == side)
                for q in range(1, 25)
            }
            pips = sum(q * k for q, k in counts.items())
            assert got[start] == pytest.approx(pips / 200)
            assert got[start + 3] == pytest.approx(counts[24] / 15)
            assert got[start + 5] == pytest.approx(sum(counts[q] for q in range(1, 7)) / 15)
