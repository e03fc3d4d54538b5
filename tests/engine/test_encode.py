"""The batch CLI's fast answer text (``games.engine.encode``) is byte for byte the reference
answer: ``json.dumps(answer_line(line), separators=(",", ":"))``, built from Position.to_json and
Outcome.to_json. Checked on random games of every variant and option set (both colours,
pending stages, game-ending plays), constructed end games and tall Tapa stacks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Position, legal_plays
from games.engine.board import _white_order
from games.engine.encode import _board_reader, outcomes_json
from games.engine.query import answer_line, answer_text
from games.engine.variants import VARIANTS as ENGINE_VARIANTS
from tests.engine.strategies import (
    ENGINE_SETTINGS,
    ROLLS,
    VARIANTS,
    decisions,
    end_games,
    playout,
    tall_stack_positions,
)

OPTION_SETS: list[dict[str, Any] | None] = [
    None,
    {"tabla_triple": True, "tabla_hit_and_run_home": False},
    {"cascade_from_roll": 1, "cascade_remainder": "forfeit"},
    {"cascade_from_roll": 1, "unstarted_chain": "passes", "cascade_scope": "whole_chain"},
    {"preset": "greek_tavli"},
    {"preset": "bulgarian_nit", "head_rule": True},
    {"mother": "tie_only", "tapa_tie": "one_each"},
]


def _reference(line: str) -> str:
    return json.dumps(answer_line(line), separators=(",", ":"))


def _same(query: dict[str, Any]) -> str:
    line = json.dumps(query)
    text = answer_text(line)
    assert text == _reference(line), line
    return text


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("options", OPTION_SETS)
def test_whole_random_games_are_answered_byte_for_byte(
    variant: str, options: dict[str, Any] | None
) -> None:
    rng = random.Random(f"encode:{variant}:{options}")
    answered = 0
    for race in (0.0, 0.7):  # a random middle game, and a race to the bear-off and the end
        for decision in playout(variant, rng, options, max_decisions=150, race=race):
            _same(decision.query)
            answered += 1
    assert answered > 20


@ENGINE_SETTINGS
@given(decisions())
def test_positions_from_random_play_are_answered_byte_for_byte(decision: Any) -> None:
    _same(decision.query)


@settings(ENGINE_SETTINGS, max_examples=60)
@given(
    st.sampled_from(VARIANTS).flatmap(lambda name: st.tuples(st.just(name), end_games(name))),
    st.sampled_from(ROLLS),
    st.sampled_from(OPTION_SETS),
)
def test_constructed_end_games_are_answered_byte_for_byte(
    drawn: tuple[str, dict[str, Any]], dice: list[int], options: dict[str, Any] | None
) -> None:
    variant, position = drawn
    query: dict[str, Any] = {"variant": variant, "position": position}
    if not position.get("pending"):
        query["dice"] = dice
    if options:
        query["options"] = options
    _same(query)


@settings(ENGINE_SETTINGS, max_examples=40)
@given(st.data(), st.sampled_from(ROLLS))
def test_tall_tapa_stacks_are_answered_byte_for_byte(data: st.DataObject, dice: list[int]) -> None:
    position = data.draw(tall_stack_positions("tapa"))
    _same({"variant": "tapa", "position": position, "dice": dice})


@pytest.mark.parametrize(
    "line",
    [
        "",
        "not json",
        "[1, 2]",
        '{"variant": "tabla"}',
        '{"variant": "tabla", "position": {"turn": "w", "points": []}, "dice": [6, 5]}',
        '{"variant": "chess", "position": {}, "dice": [6, 5]}',
    ],
)
def test_bad_lines_are_answered_by_answer_line(line: str) -> None:
    assert answer_text(line) == _reference(line)
    assert "error" in json.loads(answer_text(line))


@pytest.mark.parametrize("name", sorted(ENGINE_VARIANTS))
@pytest.mark.parametrize("colour", ["w", "b"])
def test_board_reader_reads_the_points_in_white_order(name: str, colour: str) -> None:
    variant = ENGINE_VARIANTS[name]
    node = bytes(range(100, 129))
    expected = [node[q] for q in _white_order(variant, colour)]
    assert list(_board_reader(variant, colour)(node)) == expected


@ENGINE_SETTINGS
@given(decisions())
def test_outcomes_json_is_each_outcomes_to_json(decision: Any) -> None:
    query = decision.query
    position = Position.from_json(query["position"])
    outcomes = legal_plays(query["variant"], position, query.get("dice"))
    assert outcomes_json(outcomes) == [outcome.to_json() for outcome in outcomes]
    some = outcomes[::-2]  # not the decision's own list: the reference path
    assert outcomes_json(some) == [outcome.to_json() for outcome in some]
