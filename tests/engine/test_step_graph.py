"""The step graph (games/engine/step_graph.py): the legal plays of a decision a step at a time,
for the board on the match page. Properties on random decisions, checked against check_play and
the test reference's own step replay, and the §9 cases where the order of the steps matters."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given

from games.engine import IllegalPlayError, Position, check_play, legal_plays, start_position
from games.engine.step_graph import StepGraph, step_graph
from tests.engine.notation import case_position
from tests.engine.reference import apply_moves
from tests.engine.strategies import ENGINE_SETTINGS, decisions, pip_count


def graph_of(query: dict[str, Any]) -> StepGraph:
    return step_graph(query["variant"], Position.from_json(query["position"]), query.get("dice"))


def walk(graph: StepGraph, moves: list[str]) -> int:
    """The state reached by following ``moves`` (the first edge with each move's text)."""
    state = 0
    for move in moves:
        state = next(step.state for step in graph.states[state].steps if step.move == move)
    return state


def board(state: Any) -> dict[str, Any]:
    data = state.to_json()
    return {"points": data["points"], "bar": data["bar"], "off": data["off"]}


@ENGINE_SETTINGS
@given(decisions())
def test_every_legal_play_is_reached_and_every_state_leads_to_one(decision: Any) -> None:
    query = decision.query
    graph = graph_of(query)
    position = Position.from_json(query["position"])
    outcomes = legal_plays(query["variant"], position, query.get("dice"))
    plays = {state.play for state in graph.states if state.play is not None}
    assert plays == set(range(len(outcomes)))  # (twice when two dice make the same last step)
    for state in graph.states:
        assert (state.play is None) == bool(state.steps)  # no dead end, no step past a play
        for step in state.steps:
            assert 0 < step.state < len(graph.states)


@ENGINE_SETTINGS
@given(decisions())
def test_a_walk_through_the_graph_is_a_legal_play_with_the_boards_on_the_way(
    decision: Any,
) -> None:
    query = decision.query
    graph = graph_of(query)
    position = Position.from_json(query["position"])
    outcomes = legal_plays(query["variant"], position, query.get("dice"))
    rng = random.Random(str(query))
    for _ in range(3):
        state, moves = 0, []
        while graph.states[state].steps:
            step = rng.choice(graph.states[state].steps)
            moves.append(step.move)
            state = step.state
            after = apply_moves(query, moves)["position"]  # the test reference's replay
            expected = {key: after[key] for key in ("points", "bar", "off")}
            assert board(graph.states[state]) == expected, moves
            colours = ("w", "b")
            pips = [pip_count(query["variant"], after, colour) for colour in colours]
            assert list(graph.states[state].pips) == pips
        outcome = check_play(query["variant"], position, query.get("dice"), moves)
        assert outcome.position == outcomes[graph.states[state].play].position


@ENGINE_SETTINGS
@given(decisions())
def test_every_order_of_a_play_that_check_play_accepts_is_in_the_graph(decision: Any) -> None:
    query = decision.query
    graph = graph_of(query)
    position = Position.from_json(query["position"])
    for index, outcome in enumerate(legal_plays(query["variant"], position, query.get("dice"))):
        for order in set(itertools.permutations(outcome.move_texts())):
            try:
                check_play(query["variant"], position, query.get("dice"), list(order))
            except IllegalPlayError:
                continue
            assert graph.states[walk(graph, list(order))].play == index, order


def test_both_orders_of_a_tabla_opening_reach_one_state() -> None:
    graph = step_graph("tabla", start_position("tabla"), [6, 5])
    assert walk(graph, ["13/8", "24/18"]) == walk(graph, ["24/18", "13/8"])
    assert walk(graph, ["13/8", "8/2"]) == walk(graph, ["13/7", "7/2"])
    first = {(step.move, step.die) for step in graph.states[0].steps}
    # 24/19 and 6/1 land on black points; 6/off is not allowed before all are home
    assert first == {("24/18", 6), ("13/7", 6), ("8/2", 6), ("13/8", 5), ("8/3", 5)}


def test_only_the_smaller_die_may_go_first_when_so_both_dice_are_played() -> None:
    """docs/rules.md §9 Case 3: 13/8 8/2, never 13/7."""
    position = Position.from_json(case_position("W 13, 1×14 | B 7×2, 24×13"))
    graph = step_graph("tabla", position, [6, 5])
    assert [step.move for step in graph.states[0].steps] == ["13/8"]
    assert graph.states[walk(graph, ["13/8"])].dice == (6,)


def test_a_hit_puts_the_checker_on_the_bar_in_the_next_state() -> None:
    """docs/rules.md §9 Case 8: the 5 must enter, and it hits on 20."""
    position = Position.from_json(
        case_position("W bar 1, 24, 13×5, 8×3, 6×5 | B 20, 19×2, 17×3, 12×5, 1×4")
    )
    graph = step_graph("tabla", position, [6, 5])
    [entry] = graph.states[0].steps
    assert (entry.move, entry.source, entry.target, entry.die) == ("bar/20", "bar", 20, 5)
    entered = graph.states[entry.state]
    assert entered.bar == (0, 1) and entered.points[19] == (("w", 1),)
    assert entered.pips[1] == graph.states[0].pips[1] + 20  # black's 5-point to the bar


def test_a_tapa_pin_is_a_stack_in_the_next_state() -> None:
    """docs/rules.md §9 Case 16: 13/10 pins the black checker on white's 10-point, 11/10 adds a
    second pinner, and 13/10 10/9 frees it again."""
    position = Position.from_json(case_position("W 24×12, 13×2, 11 | B 10, 1×14"))
    graph = step_graph("tapa", position, [3, 1])
    assert graph.states[walk(graph, ["13/10"])].points[9] == (("b", 1), ("w", 1))
    assert graph.states[walk(graph, ["13/10", "11/10"])].points[9] == (("b", 1), ("w", 2))
    assert graph.states[walk(graph, ["13/10", "10/9"])].points[9] == (("b", 1),)


def test_a_pinned_checker_has_no_step() -> None:
    """docs/rules.md §9 Case 17: black's checker pinned under white's on 10 never moves."""
    position = Position.from_json(case_position("W 24×12, 13, [b/w2]@10 | B 1×14", turn="b"))
    graph = step_graph("tapa", position, [3, 1])
    assert {step.source for step in graph.states[0].steps} == {1}


def test_a_gjul_bara_cascade_stage_names_the_stages_still_owed() -> None:
    """docs/rules.md §9 Case 13: a 5-5 on white's 4th roll escalates; this decision is the 5s."""
    position = Position.from_json(case_position("W 6×4 (off 11) | B 13×15", rolls=(3, 3)))
    graph = step_graph("gul_bara", position, [5, 5])
    assert (graph.dice, graph.later, graph.kind) == ((5, 5, 5, 5), (6, 6, 6, 6), "roll")
    end = walk(graph, ["6/1", "6/1", "6/1", "6/1"])
    assert graph.states[end].play == 0 and graph.states[end].dice == ()
    after = legal_plays("gul_bara", position, [5, 5])[0].position
    pending = step_graph("gul_bara", after)
    assert (pending.dice, pending.later, pending.kind) == ((6, 6, 6, 6), (), "cascade")
    assert [step.target for step in pending.states[0].steps] == ["off"]


def test_the_json_lists_the_start_board_once_and_each_states_changes() -> None:
    graph = step_graph("tabla", start_position("tabla"), [6, 5])
    data = graph.to_json()
    assert data["points"] == start_position("tabla").to_json()["points"]
    assert data["states"][0]["changes"] == {}
    state = data["states"][walk(graph, ["24/18"])]
    assert state["changes"] == {"24": [["w", 1]], "18": [["w", 1]]}
    assert state["steps"][0][1:3] in ([18, 13], [18, 12], [24, 18], [13, 8], [8, 3], [6, 1])
    assert state["pips"] == {"w": 161, "b": 167}


@pytest.mark.parametrize(
    ("variant", "source", "target"), [("tabla", 1, 7), ("gul_bara", 12, 6), ("tapa", 1, 7)]
)
def test_black_steps_are_drawn_in_white_numbers(variant: str, source: int, target: int) -> None:
    graph = step_graph(variant, start_position(variant, "b"), [6, 5])
    step = next(step for step in graph.states[0].steps if step.move == "24/18")
    assert (step.source, step.target) == (source, target)
