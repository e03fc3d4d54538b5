"""Bounds of the rule options (games/engine/options.py): every value outside is an
InvalidOptionsError naming the option and the allowed range, never another exception; and the
batch CLI answers an error line for a line the JSON decoder cannot take (deep nesting, huge
integers) instead of crashing the run."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.engine import Options
from games.engine.__main__ import run_plays
from games.engine.errors import InvalidOptionsError
from games.engine.options import MAX_CYCLE_LENGTH, MAX_MATCH_LENGTH, MAX_STUCK_LIMIT


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("match_length", 0, "from 1 to 99"),
        ("match_length", MAX_MATCH_LENGTH + 1, "from 1 to 99"),
        ("match_length", 10**6, "from 1 to 99"),
        ("match_length", 2**31, "from 1 to 99"),
        ("match_length", 2**63, "from 1 to 99"),
        ("match_length", -1, "from 1 to 99"),
        ("match_length", 5.0, "from 1 to 99"),
        ("match_length", True, "from 1 to 99"),
        ("stuck_limit", 0, "null or an integer from 1 to 1000"),
        ("stuck_limit", MAX_STUCK_LIMIT + 1, "from 1 to 1000"),
        ("stuck_limit", 2**63, "from 1 to 1000"),
        ("stuck_limit", "7", "from 1 to 1000"),
        ("cycle", ["tabla"] * (MAX_CYCLE_LENGTH + 1), "31 games; expected 1 to 30"),
        ("cycle", ["tabla"] * 10**6, "1000000 games; expected 1 to 30"),
        ("cycle", [], "non-empty list"),
        ("cycle", [["tabla"]], "unknown game"),
        ("cycle", [{"a": 1}], "unknown game"),
        ("cascade_from_roll", 2, "expected 1, 3 or 4"),
        ("cascade_from_roll", 2**63, "expected 1, 3 or 4"),
        ("cascade_from_roll", True, "expected 1, 3 or 4"),
        ("cube", ["off"], "expected one of off, tabla_only, all_games"),
        ("crawford", 1, "expected true or false"),
    ],
)
def test_an_option_out_of_bounds_names_the_option_and_the_range(
    key: str, value: Any, expected: str
) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        Options.from_json({key: value})
    assert key in str(error.value) and expected in str(error.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("match_length", 1),
        ("match_length", MAX_MATCH_LENGTH),
        ("stuck_limit", 1),
        ("stuck_limit", MAX_STUCK_LIMIT),
        ("stuck_limit", None),
        ("stuck_limit", "none"),
        ("cycle", ["tabla"] * MAX_CYCLE_LENGTH),
        ("cycle", ["portes", "plakoto", "fevga"]),
    ],
)
def test_the_bounds_themselves_are_accepted(key: str, value: Any) -> None:
    options = Options.from_json({key: value})
    assert Options.from_json(options.to_json()) == options


def test_a_huge_bad_value_is_quoted_short() -> None:
    with pytest.raises(InvalidOptionsError) as error:
        Options.from_json({"cube": "x" * 1_000_000})
    assert len(str(error.value)) < 200 and "'xxx" in str(error.value)
    with pytest.raises(InvalidOptionsError) as error:
        Options.from_json({"k" * 1_000_000: 1})
    assert len(str(error.value)) < 200


def test_a_value_too_deep_or_too_long_to_show_is_still_an_options_error() -> None:
    deep: Any = "tabla"
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(InvalidOptionsError, match="a deeply nested value"):
        Options.from_json({"cube": deep})
    with pytest.raises(InvalidOptionsError, match="a very large number"):
        Options.from_json({"match_length": 10**5000})


def test_every_option_field_has_a_bound_checked_here() -> None:
    """A new field of Options needs a bound (and a case above): from_json must refuse a value
    far out of range for every field."""
    absurd: list[Any] = [2**63, "x" * 100, [None] * 100, {"a": 1}, -1]
    for key in Options().to_json():
        refused = 0
        for value in absurd:
            try:
                Options.from_json({key: value})
            except InvalidOptionsError:
                refused += 1
        assert refused == len(absurd), key


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
KEYS = st.sampled_from([*Options().to_json(), "preset", "unknown"]) | st.text(max_size=10)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.dictionaries(KEYS, JSON_VALUES | st.sampled_from(["none", "tabla", "off", "per_game"])))
@example({"match_length": 10**6, "preset": "greek_tavli"})
def test_from_json_raises_only_invalid_options(data: dict[str, Any]) -> None:
    try:
        options = Options.from_json(data)
    except InvalidOptionsError:
        return
    assert 1 <= options.match_length <= MAX_MATCH_LENGTH
    assert 1 <= len(options.cycle) <= MAX_CYCLE_LENGTH
    assert options.stuck_limit is None or 1 <= options.stuck_limit <= MAX_STUCK_LIMIT
    assert Options.from_json(options.to_json()) == options


@settings(max_examples=100, deadline=None, derandomize=True)
@given(JSON_VALUES)
def test_from_json_of_any_json_value_raises_only_invalid_options(data: Any) -> None:
    try:
        Options.from_json(data)
    except InvalidOptionsError:
        pass


def test_the_cli_answers_an_error_line_for_lines_the_decoder_refuses() -> None:
    lines = ["[" * 100_000, '{"a":' * 100_000, "1" * 5000, '{"variant": "tabla"}']
    out = io.StringIO()
    run_plays((line + "\n" for line in lines), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 4
    assert answers[0] == {"error": "the line is not valid JSON: nested too deeply"}
    assert answers[1] == {"error": "the line is not valid JSON: nested too deeply"}
    assert answers[2]["error"].startswith("the line is not valid JSON: Exceeds the limit")
    assert answers[3] == {"error": "the query has no position"}


def test_the_cli_answers_an_error_line_for_an_option_out_of_bounds() -> None:
    from games.engine import start_position

    query = {
        "variant": "tabla",
        "position": start_position("tabla").to_json(),
        "dice": [6, 5],
        "options": {"match_length": 10**6},
    }
    out = io.StringIO()
    run_plays([json.dumps(query) + "\n"], out)
    answer = json.loads(out.getvalue())
    assert "match_length" in answer["error"] and "from 1 to 99" in answer["error"]
