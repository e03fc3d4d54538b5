"""The network's input: fixed length, mirror invariance, no two positions alike."""

import numpy as np
import pytest

from games.analysis.encode import encode, encode_positions, half_size, input_size, mirrored
from games.engine import DEFAULT_OPTIONS, VARIANT_NAMES, Position, start_position
from games.engine.generate import escalates
from games.engine.variants import find_variant

from .helpers import sample_positions


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_vector_of_a_variant_has_the_same_length(variant):
    positions = sample_positions(variant, 300)
    vectors = encode_positions(variant, positions)
    assert vectors.shape == (300, input_size(variant))
    assert vectors.dtype == np.float32
    assert input_size(variant) == {"tabla": 196, "gul_bara": 204, "tapa": 244}[variant]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_other_side_to_move_swaps_the_halves(variant):
    half = half_size(variant)
    for position in sample_positions(variant, 200, seed=2):
        mine = encode(variant, position)
        other = encode(variant, position.with_turn("b" if position.turn == "w" else "w"))
        assert np.array_equal(other[:half], mine[half : 2 * half])
        assert np.array_equal(other[half : 2 * half], mine[:half])


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_position_and_its_colour_mirror_encode_alike(variant):
    for position in sample_positions(variant, 200, seed=3):
        mirror = mirrored(variant, position)
        assert mirror != position
        assert mirrored(variant, mirror) == position
        assert np.array_equal(encode(variant, mirror), encode(variant, position))


def relevant_state(variant: str, position, options=DEFAULT_OPTIONS):
    """What the evaluation may depend on: the position seen by white to move, without the roll
    counters (only Gjul Bara's escalation depends on them)."""
    seen = position if position.turn == "w" else mirrored(variant, position)
    flags = ()
    if variant == "gul_bara":
        found = find_variant(variant)
        flags = (escalates(found, seen, options), escalates(found, seen.with_turn("b"), options))
    data = seen.to_json()
    del data["rolls"]
    return repr(data), flags


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_distinct_positions_encode_to_distinct_vectors(variant):
    positions = sample_positions(variant, 1500, seed=4)
    states = {relevant_state(variant, p): p for p in positions}
    assert len(states) > 1000
    vectors = encode_positions(variant, list(states.values()))
    assert len({vector.tobytes() for vector in vectors}) == len(states)


def test_the_start_of_tabla_in_units():
    vector = encode("tabla", start_position("tabla"))
    half = half_size("tabla")
    for own_point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        units = vector[(own_point - 1) * 4 : own_point * 4]
        expected = [1, count >= 2, count >= 3, max(count - 3, 0) / 4]
        assert list(units) == expected
        assert list(vector[half + (own_point - 1) * 4 : half + own_point * 4]) == expected
    assert vector.sum() == 2 * (2 + 3 + 3 + 0.5 + 3 + 0.5)


def test_tapa_pins_and_the_mother():
    position = start_position("tapa")
    points = list(position.points)
    # white's mother alone on its 24-point, pinned by a black checker; black's 15 on its start
    points[23] = (("w", 1), ("b", 1))
    points[0] = (("b", 14),)
    points[4] = (("w", 14),)
    pinned = Position(turn="w", points=tuple(points))
    vector = encode("tapa", pinned)
    half = half_size("tapa")
    pins = vector[97 : 97 + 24]
    assert pins[23] == 1 and pins.sum() == 1  # white's own 24-point: pinned, whose: the mover's
    assert vector[half + 97 : half + 97 + 24].sum() == 0
    free = Position(turn="w", points=tuple([*points[:23], (("w", 1),)]))
    assert encode("tapa", free)[97 + 24] == 1  # the mother alone and free
    assert encode("tapa", free)[97 + 23] == 0


def test_gul_bara_pending_dice_are_in_the_tail():
    for position in sample_positions("gul_bara", 3000, seed=5):
        if position.pending:
            tail = encode("gul_bara", position)[2 * half_size("gul_bara") :]
            assert tail[:6].sum() == len(position.pending) / 4
            assert tail[6] + tail[7] == 1
            break
    else:
        pytest.fail("no pending dice met")
