"""The benchmark's opponents: pubeval as Tesauro wrote it, the heuristic players."""

import random

import pytest

from games.analysis.opponents import (
    PUBEVAL_CONTACT,
    PUBEVAL_RACE,
    choose,
    heuristic,
    is_race,
    pips,
    pubeval,
    pubeval_inputs,
)
from games.engine import Position, find_variant, legal_plays, start_position
from games.engine.board import to_node


def _node(variant, position):
    return to_node(find_variant(variant), position)


def test_the_weights_are_pubeval_c():
    assert PUBEVAL_RACE.shape == PUBEVAL_CONTACT.shape == (122,)
    # first, last and a few in between, as printed in pubeval.c
    assert list(PUBEVAL_RACE[[1, 6, 96, 119, 121]]) == [
        -0.17160,
        -1.40375,
        2.19605,
        -12.32252,
        3.42040,
    ]
    assert list(PUBEVAL_CONTACT[[0, 4, 97, 120, 121]]) == [
        0.25696,
        -2.53398,
        4.37655,
        5.62596,
        -2.75800,
    ]
    assert all(PUBEVAL_RACE[k] == 0.0 for k in range(0, 120, 5))  # "opponent blot" units in a race
    assert round(float(PUBEVAL_RACE.sum()), 5) == -31.29905
    assert round(float(PUBEVAL_CONTACT.sum()), 5) == -6.72565


def test_pubeval_inputs_of_the_start():
    x = pubeval_inputs(_node("tabla", start_position("tabla", "w")))
    # the mover's 24-point (2 checkers) is block 0, its 13-point (5) block 11, 8 (3) block 16,
    # 6 (5) block 18; the opponent's two on the mover's 1-point are no blot: nothing
    assert list(x[0:5]) == [0, 0, 1, 0, 0]
    assert list(x[55:60]) == [0, 0, 1, 0, 1.0]
    assert list(x[80:85]) == [0, 0, 1, 1, 0]
    assert list(x[90:95]) == [0, 0, 1, 0, 1.0]
    assert x.sum() == 4 + 1 + 2
    assert not is_race(_node("tabla", start_position("tabla", "w")))


def _race() -> Position:
    points = [()] * 24
    points = list(points)
    points[2] = (("w", 2),)
    points[4] = (("w", 3),)
    points[20] = (("b", 4),)
    return Position(turn="w", points=tuple(points), off=(10, 11))


def test_a_race_and_the_bar():
    node = _node("tabla", _race())
    assert is_race(node)
    x = pubeval_inputs(node)
    assert x[121] == 10 / 15 and x[120] == 0
    assert pubeval(True, node) == pytest.approx(float(PUBEVAL_RACE @ x))
    assert pips("tabla", node) == (2 * 3 + 3 * 5, 4 * 4)


def test_pubeval_and_the_heuristics_take_a_winning_play():
    points = list(_race().points)
    points[4] = ()
    points[2] = (("w", 1),)
    position = Position(turn="w", points=tuple(points), off=(14, 11))
    outcomes = legal_plays("tabla", position, [6, 5])
    for kind in ("pubeval", "heuristic"):
        index = choose(kind, "tabla", "w", _node("tabla", position), outcomes, random.Random(1))
        assert outcomes[index].result is not None and outcomes[index].result.winner == "w"


def test_pubeval_is_for_tabla_only():
    position = start_position("tapa", "w")
    outcomes = legal_plays("tapa", position, [3, 1])
    with pytest.raises(ValueError):
        choose("pubeval", "tapa", "w", _node("tapa", position), outcomes, random.Random(1))


def test_the_tapa_heuristic_likes_pins_and_fears_for_its_mother():
    points = [()] * 24
    points = list(points)
    points[23] = (("w", 14),)
    points[0] = (("b", 14),)
    points[10] = (("b", 1),)
    pinned = list(points)
    pinned[10] = (("b", 1), ("w", 1))
    pinned[23] = (("w", 13),)
    before = heuristic("tapa", _node("tapa", Position(turn="w", points=tuple(points))))
    after = heuristic("tapa", _node("tapa", Position(turn="w", points=tuple(pinned))))
    assert after - before == 24 - 11 + 12 + 0  # pips gained, a pin; no blot (the pinner is safe)
    alone = list(points)
    alone[23] = (("w", 1),)
    alone[5] = (("w", 13),)
    lone = heuristic("tapa", _node("tapa", Position(turn="w", points=tuple(alone))))
    away = list(alone)
    away[23] = ()
    away[4] = (("w", 1),)
    assert heuristic("tapa", _node("tapa", Position(turn="w", points=tuple(away)))) > lone + 15


def _versus_random(variant, kind, games):
    found = find_variant(variant)
    score = 0.0
    for game in range(games):
        rng = random.Random(game)
        side = "wb"[game % 2]
        position = start_position(variant, rng.choice("wb"))
        for _ in range(3000):
            dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
            outcomes = legal_plays(variant, position, dice)
            if position.turn == side:
                before = to_node(found, position)
                outcome = outcomes[choose(kind, variant, side, before, outcomes, rng)]
            else:
                outcome = rng.choice(outcomes)
            if outcome.result is not None:
                winner = outcome.result.winner
                score += 0.5 if winner is None else float(winner == side)
                break
            position = outcome.position
    return score


@pytest.mark.parametrize(
    ("variant", "kind"), [("tabla", "pubeval"), ("tabla", "heuristic"), ("tapa", "heuristic")]
)
def test_they_beat_a_random_player(variant, kind):
    assert _versus_random(variant, kind, 20) >= 17
