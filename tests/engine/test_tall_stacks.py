"""Tall stacks and other extreme position shapes: no query crashes the engine.

A Tapa point can hold 16 checkers (one pinned under all 15 opponents); a play that built such a
stack once crashed the engine with a KeyError. Every variant can have all 15 of a side on one
point, and Tabla all 15 on the bar. Each answer is compared with the brute-force reference, and
the batch CLI answers each such line.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Position, answer_query, check_play, find_variant, legal_plays
from games.engine.__main__ import run_plays
from games.engine.board import board_points, to_node
from tests.engine.helpers import make_query, states
from tests.engine.notation import case_position
from tests.engine.reference import BudgetExceeded, reference_answer
from tests.engine.strategies import (
    ENGINE_SETTINGS,
    OTHER,
    ROLLS,
    VARIANTS,
    tall_stack_positions,
)

ROOT = Path(__file__).resolve().parents[2]


def _mirror(position: dict[str, Any]) -> dict[str, Any]:
    """The same Tabla/Tapa position with the colours swapped (contrary movement: p -> 25 - p)."""
    return {
        "turn": OTHER[position["turn"]],
        "points": [
            [[OTHER[colour], count] for colour, count in stack]
            for stack in reversed(position["points"])
        ],
        "bar": {"w": position["bar"]["b"], "b": position["bar"]["w"]},
        "off": {"w": position["off"]["b"], "b": position["off"]["w"]},
        "rolls": {"w": position["rolls"]["b"], "b": position["rolls"]["w"]},
    }


def _cli(lines: list[str]) -> list[dict[str, Any]]:
    out = io.StringIO()
    run_plays(lines, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _agrees_with_reference(query: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's plays, checked against the reference and the CLI; returned for more checks."""
    plays = answer_query(query)["plays"]
    try:
        expected = reference_answer(query, budget=300_000)["plays"]
    except BudgetExceeded:  # too big for the brute force: the CLI check below still runs
        expected = None
    if expected is not None:
        assert states(plays) == states(expected), query
    assert _cli([json.dumps(query)]) == [{"plays": plays}]
    return plays


# --- the board codec ------------------------------------------------------------------------------


def _every_stack(variant: str) -> list[list[list[Any]]]:
    stacks: list[list[list[Any]]] = [[]]
    for count in range(1, 16):
        stacks += [[["w", count]], [["b", count]]]
        if variant == "tapa":
            stacks += [[["b", 1], ["w", count]], [["w", 1], ["b", count]]]
    return stacks


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("turn", ["w", "b"])
def test_every_stack_a_position_can_hold_survives_the_node(variant: str, turn: str) -> None:
    """Up to 15 of a colour on a point, and in Tapa a pin under 1 to 15 (16 checkers)."""
    rules = find_variant(variant)
    for stack in _every_stack(variant):
        for index in (0, 4, 11, 23):
            points: list[list[list[Any]]] = [[] for _ in range(24)]
            points[index] = stack
            position = Position.from_json({"turn": turn, "points": points})
            assert board_points(rules, to_node(rules, position), turn) == position.points


# --- Tapa: a checker pinned under all 15 opponents ------------------------------------------------

# White's 15th checker joins 14 pinners on white's 5-point; black holds 2, 4 and 7, so 8/5 (the
# larger die) is the only play and leaves [[b, 1], [w, 15]].
PIN_14_PLUS_ONE = case_position("W [b/w14]@5, 8 | B 2×2, 4×2, 7×2, 20×8")
SIXTEEN = [["b", 1], ["w", 15]]


@pytest.mark.parametrize("mirrored", [False, True], ids=["white", "black"])
def test_tapa_play_that_pins_under_fifteen(mirrored: bool) -> None:
    position = _mirror(PIN_14_PLUS_ONE) if mirrored else PIN_14_PLUS_ONE
    query = make_query("tapa", position, [3, 1])
    plays = _agrees_with_reference(query)
    assert [entry["moves"] for entry in plays] == [["8/5"]]
    after = plays[0]["position"]
    expected = _mirror(after)["points"][4] if mirrored else after["points"][4]
    assert expected == SIXTEEN
    checked = check_play("tapa", Position.from_json(position), [3, 1], "8/5")
    assert checked.to_json() == plays[0]


@pytest.mark.parametrize("mirrored", [False, True], ids=["white", "black"])
@pytest.mark.parametrize("turn", ["w", "b"], ids=["pinner-moves", "pinned-side-moves"])
@pytest.mark.parametrize("dice", ROLLS, ids=lambda dice: f"{dice[0]}-{dice[1]}")
def test_tapa_positions_with_a_sixteen_stack(mirrored: bool, turn: str, dice: list[int]) -> None:
    """From a stack of 16 the pinners move off (or the pinned side plays elsewhere)."""
    position = case_position("W [b/w15]@5 | B 2×2, 4×2, 7×2, 20×8", turn=turn)
    position = _mirror(position) if mirrored else position
    plays = _agrees_with_reference(make_query("tapa", position, dice))
    assert plays


def test_tapa_sixteen_stack_through_the_cli_process() -> None:
    lines = [
        json.dumps(make_query("tapa", PIN_14_PLUS_ONE, [3, 1])),
        json.dumps(make_query("tapa", _mirror(PIN_14_PLUS_ONE), [3, 1])),
    ]
    completed = subprocess.run(
        [sys.executable, "-m", "games.engine", "plays"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    answers = [json.loads(line) for line in completed.stdout.splitlines()]
    assert [[entry["moves"] for entry in answer["plays"]] for answer in answers] == [[["8/5"]]] * 2


# --- all of a side on one point, or on the bar ----------------------------------------------------

ONE_POINT = {
    # (variant, white-numbered board): every checker of a side on a single point
    "tabla": [
        "W 24×15 | B 1×15",
        "W 6×15 | B 19×15",
        "W 1×15 | B 24×15",
        "W 13×15 | B 12×15",
        "W 3×15 | B 4×15",
    ],
    "gul_bara": [
        "W 24×15 | B 12×15",
        "W 6×15 | B 18×15",
        "W 1×15 | B 13×15",
        "W 13×15 | B 11×15",
    ],
    "tapa": [
        "W 24×15 | B 1×15",
        "W 6×15 | B 19×15",
        "W 1×15 | B 24×15",
        "W 13×15 | B 12×15",
        "W 3×15 | B 4×15",
    ],
}


@pytest.mark.parametrize(
    ("variant", "board"), [(v, b) for v, boards in ONE_POINT.items() for b in boards]
)
@pytest.mark.parametrize("turn", ["w", "b"])
def test_all_fifteen_on_one_point(variant: str, board: str, turn: str) -> None:
    position = case_position(board, turn=turn, rolls=(0, 0))
    for dice in ROLLS:
        assert _agrees_with_reference(make_query(variant, position, dice))


BAR_HEAVY = [
    "W bar 15 | B bar 15",
    "W bar 15 | B 19×3, 20×2, 21×2, 22×2, 23×2, 24×2, 6×2",  # white's entry points all closed
    "W bar 14, 1 | B bar 13, 24×2",
    "W bar 2, 6×13 | B bar 15",
]


@pytest.mark.parametrize("board", BAR_HEAVY)
@pytest.mark.parametrize("turn", ["w", "b"])
def test_tabla_bar_heavy_positions(board: str, turn: str) -> None:
    position = case_position(board, turn=turn)
    for dice in ROLLS:
        assert _agrees_with_reference(make_query("tabla", position, dice))


def test_closed_board_with_fifteen_on_the_bar_passes() -> None:
    position = case_position(BAR_HEAVY[1])
    for dice in ROLLS:
        plays = legal_plays("tabla", Position.from_json(position), dice)
        assert [str(outcome.play) for outcome in plays] == [""]


# --- random positions with tall stacks (hypothesis) -----------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@settings(ENGINE_SETTINGS, max_examples=40)
@given(
    data=st.data(),
    dice=st.sampled_from(ROLLS),
    options=st.sampled_from([None, {"mother": "off"}, {"pinned_bearoff": "no_bearoff"}]),
)
def test_random_tall_stack_positions_are_answered_like_the_reference(
    variant: str, data: st.DataObject, dice: list[int], options: dict[str, Any] | None
) -> None:
    position = data.draw(tall_stack_positions(variant))
    query = make_query(variant, position, dice, options)
    answer = _cli([json.dumps(query)])[0]
    if "error" in answer:  # a finished Tapa (a mother pinned): B7 rejects it, nothing else
        assert variant == "tapa" and "already over" in answer["error"], answer
        return
    _agrees_with_reference(query)
