"""The engine contract (docs/rules.md Appendix A, B7): the batch CLI in a subprocess, the
Django-free
import, and input validation answered as ``{"error": ...}``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from games.engine import answer_query, start_position
from tests.engine.helpers import make_query, states
from tests.engine.notation import case_position
from tests.engine.reference import reference_answer

ROOT = Path(__file__).resolve().parents[2]

GUL_BARA_START = {
    "turn": "w",
    "points": [[]] * 11 + [[["b", 15]]] + [[]] * 11 + [[["w", 15]]],
    "bar": {"w": 0, "b": 0},
    "off": {"w": 0, "b": 0},
    "rolls": {"w": 0, "b": 0},
}
# Appendix C: the answer to gul_bara 6-5 from the start, verbatim.
APPENDIX_C_ANSWER = json.loads(
    '{"plays":[{"moves":["24/18","24/19"],"position":{"turn":"b","points":[[],[],[],[],[],[],[],'
    '[],[],[],[],[["b",15]],[],[],[],[],[],[["w",1]],[["w",1]],[],[],[],[],[["w",13]]],"bar":{"w":0,'
    '"b":0},"off":{"w":0,"b":0},"rolls":{"w":1,"b":0}}},{"moves":["24/18","18/13"],"position":'
    '{"turn":"b","points":[[],[],[],[],[],[],[],[],[],[],[],[["b",15]],[["w",1]],[],[],[],[],[],[],'
    '[],[],[],[],[["w",14]]],"bar":{"w":0,"b":0},"off":{"w":0,"b":0},"rolls":{"w":1,"b":0}}}]}'
)


def _tabla_start() -> dict[str, Any]:
    return start_position("tabla").to_json()


def _without_one_checker() -> dict[str, Any]:
    position = _tabla_start()
    position["points"][5] = [["w", 4]]
    return position


def _run_cli(lines: list[str]) -> list[str]:
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
    return completed.stdout.splitlines()


CLI_INPUT: list[tuple[str, str]] = [  # (line, what the answer must be)
    (json.dumps(make_query("tabla", _tabla_start(), [6, 5])), "plays"),
    ('{"variant": "tabla", "position": ', "error"),  # not valid JSON
    (json.dumps(make_query("tabla", _without_one_checker(), [6, 5])), "error"),
    (json.dumps(make_query("tabla", _tabla_start(), [0, 7])), "error"),
    (json.dumps(make_query("tabla", _tabla_start(), [6, 5], {"no_such_rule": True})), "error"),
    (json.dumps(make_query("tabla", _tabla_start(), [6, 5], {"mother": "sometimes"})), "error"),
    (json.dumps(make_query("backgammon", _tabla_start(), [6, 5])), "error"),
    (json.dumps(make_query("gul_bara", GUL_BARA_START, [6, 5])), "plays"),
    ("[1, 2, 3]", "error"),
    (json.dumps(make_query("tapa", start_position("tapa", "b").to_json(), [3, 1])), "plays"),
    (json.dumps(make_query("gul_bara", GUL_BARA_START, [6, 6])), "plays"),
]


@pytest.fixture(scope="module")
def cli_answers() -> list[dict[str, Any]]:
    output = _run_cli([line for line, _ in CLI_INPUT])
    return [json.loads(line) for line in output]


def test_cli_answers_one_line_per_input_line_in_order(cli_answers: list[dict[str, Any]]) -> None:
    assert len(cli_answers) == len(CLI_INPUT)
    for (line, expected), answer in zip(CLI_INPUT, cli_answers, strict=True):
        assert set(answer) == {expected}, (line, answer)
        if expected == "error":
            assert isinstance(answer["error"], str) and answer["error"]


def test_cli_valid_answers_match_the_reference(cli_answers: list[dict[str, Any]]) -> None:
    for (line, expected), answer in zip(CLI_INPUT, cli_answers, strict=True):
        if expected == "plays":
            query = json.loads(line)
            assert states(answer["plays"]) == states(reference_answer(query)["plays"]), line
            assert states(answer["plays"]) == states(answer_query(query)["plays"]), line


def test_cli_appendix_c_example(cli_answers: list[dict[str, Any]]) -> None:
    answer = cli_answers[7]
    assert states(answer["plays"]) == states(APPENDIX_C_ANSWER["plays"])
    assert len(answer["plays"]) == 2


def test_cli_errors_name_the_problem(cli_answers: list[dict[str, Any]]) -> None:
    messages = [answer.get("error", "").lower() for answer in cli_answers]
    assert "json" in messages[1]
    assert "15" in messages[2]
    assert "dice" in messages[3]
    assert "no_such_rule" in messages[4]
    assert "mother" in messages[5]
    assert "backgammon" in messages[6]


def test_cli_streams_each_answer_before_the_input_ends() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "games.engine", "plays"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    timer = threading.Timer(60, process.kill)
    timer.start()
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(make_query("tabla", _tabla_start(), [6, 5])) + "\n")
        process.stdin.flush()
        first = json.loads(process.stdout.readline())  # stdin is still open
        assert (
            len(first["plays"]) == 7
        )  # 24/13, 24/18 13/8, 24/18 8/3, 13/7 13/8, 13/2, 13/7 8/3, 8/2 8/3
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        timer.cancel()
        if process.poll() is None:
            process.kill()


def test_cli_without_the_plays_command_is_a_usage_error() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "games.engine"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert completed.returncode != 0
    assert "usage" in completed.stderr.lower()


def test_engine_imports_without_django() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    script = (
        "import json, sys; import games.engine; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == []


# --- B7: input validation -------------------------------------------------------------------------


def _points(**stacks: list[list[Any]]) -> list[list[list[Any]]]:
    points: list[list[list[Any]]] = [[] for _ in range(24)]
    for name, stack in stacks.items():
        points[int(name[1:]) - 1] = stack
    return points


def _position(points: list[list[list[Any]]], **extra: Any) -> dict[str, Any]:
    position = {
        "turn": "w",
        "points": points,
        "bar": {"w": 0, "b": 0},
        "off": {"w": 0, "b": 0},
        "rolls": {"w": 5, "b": 5},
    }
    position.update(extra)
    return position


TAPA_MOTHER_WON = "W 8×14, [b/w]@1 | B 17×14"  # white pinned black's mother, white's start empty
TAPA_TIE = "W 8×13, [b/w]@1 | B 17×13, [w/b]@24"  # both mothers pinned
TAPA_BLACK_MOTHER_WON = "W 17×14 | B 8×14, [w/b]@24"  # black pinned white's mother, its start empty
CASCADE_6S = {"pending": [6, 6, 6, 6], "pending_kind": "cascade"}

INVALID: list[tuple[str, str, dict[str, Any], Any, dict[str, Any] | None]] = [
    ("white_has_14", "tabla", _without_one_checker(), [6, 5], None),
    (
        "black_has_16",
        "gul_bara",
        _position(_points(p24=[["w", 15]], p12=[["b", 16]])),
        [6, 5],
        None,
    ),
    (
        "off_counts_toward_15",
        "tapa",
        _position(_points(p24=[["w", 15]], p1=[["b", 15]]), off={"w": 1, "b": 0}),
        [6, 5],
        None,
    ),
    (
        "bar_counts_toward_15",
        "tabla",
        {**_tabla_start(), "bar": {"w": 0, "b": 1}},
        [6, 5],
        None,
    ),
    (
        "two_colours_in_tabla",
        "tabla",
        _position(_points(p24=[["w", 14]], p10=[["b", 1], ["w", 1]], p1=[["b", 14]])),
        [6, 5],
        None,
    ),
    (
        "two_colours_in_gul_bara",
        "gul_bara",
        _position(_points(p24=[["w", 14]], p10=[["b", 1], ["w", 1]], p12=[["b", 14]])),
        [6, 5],
        None,
    ),
    (
        "tapa_stack_with_two_at_the_bottom",
        "tapa",
        _position(_points(p24=[["w", 14]], p10=[["b", 2], ["w", 1]], p1=[["b", 13]])),
        [6, 5],
        None,
    ),
    (
        "tapa_stack_of_one_colour",
        "tapa",
        _position(_points(p24=[["w", 13]], p10=[["w", 1], ["w", 1]], p1=[["b", 15]])),
        [6, 5],
        None,
    ),
    (
        "tapa_stack_of_three_layers",
        "tapa",
        _position(_points(p24=[["w", 13]], p10=[["w", 1], ["b", 1], ["w", 1]], p1=[["b", 14]])),
        [6, 5],
        None,
    ),
    (
        "zero_count",
        "tapa",
        _position(_points(p24=[["w", 15]], p10=[["w", 0]], p1=[["b", 15]])),
        [6, 5],
        None,
    ),
    (
        "negative_count",
        "tabla",
        _position(_points(p24=[["w", 16]], p10=[["w", -1]], p1=[["b", 15]])),
        [6, 5],
        None,
    ),
    (
        "bar_in_gul_bara",
        "gul_bara",
        _position(_points(p24=[["w", 14]], p12=[["b", 15]]), bar={"w": 1, "b": 0}),
        [6, 5],
        None,
    ),
    (
        "bar_in_tapa",
        "tapa",
        _position(_points(p24=[["w", 15]], p1=[["b", 14]]), bar={"w": 0, "b": 1}),
        [6, 5],
        None,
    ),
    ("die_zero", "tabla", _tabla_start(), [0, 3], None),
    ("die_seven", "tabla", _tabla_start(), [7, 1], None),
    ("die_fraction", "tabla", _tabla_start(), [1.5, 2], None),
    ("die_text", "tabla", _tabla_start(), ["1", 2], None),
    ("die_boolean", "tabla", _tabla_start(), [True, 2], None),
    ("one_die", "tabla", _tabla_start(), [4], None),
    ("three_dice", "tabla", _tabla_start(), [1, 2, 3], None),
    ("no_dice", "tabla", _tabla_start(), None, None),
    (
        "dice_differ_from_pending",
        "gul_bara",
        case_position("W 1×4 (off 11) | B 13×15", rolls=(4, 5)) | CASCADE_6S,
        [5, 5],
        None,
    ),
    ("turn_x", "tabla", {**_tabla_start(), "turn": "x"}, [6, 5], None),
    (
        "turn_missing",
        "tabla",
        {k: v for k, v in _tabla_start().items() if k != "turn"},
        [6, 5],
        None,
    ),
    ("tapa_mother_already_won", "tapa", case_position(TAPA_MOTHER_WON), [6, 5], None),
    ("tapa_already_tied", "tapa", case_position(TAPA_TIE), [6, 5], None),
    ("tapa_black_already_won", "tapa", case_position(TAPA_BLACK_MOTHER_WON), [6, 5], None),
    (
        "pending_outside_gul_bara",
        "tabla",
        {**_tabla_start(), "pending": [6, 6, 6, 6], "pending_kind": "cascade"},
        None,
        None,
    ),
    (
        "pending_not_ascending",
        "gul_bara",
        {**GUL_BARA_START, "pending": [6, 5], "pending_kind": "remainder"},
        None,
        None,
    ),
    (
        "pending_kind_unknown",
        "gul_bara",
        {**GUL_BARA_START, "pending": [5, 6], "pending_kind": "bonus"},
        None,
        None,
    ),
    (
        "tapa_tie_only_still_ties",
        "tapa",
        case_position(TAPA_TIE),
        [6, 5],
        {"mother": "tie_only"},
    ),
    ("unknown_option", "tabla", _tabla_start(), [6, 5], {"cube_colour": "red"}),
    ("bad_option_value", "gul_bara", GUL_BARA_START, [6, 5], {"cascade_from_roll": 2}),
    ("unknown_variant", "nardy", _tabla_start(), [6, 5], None),
]


def _finished_board() -> dict[str, Any]:
    position = _position(_points(p1=[["b", 15]]), off={"w": 15, "b": 0})
    return position


INVALID.append(("fifteen_off", "tabla", _finished_board(), [6, 5], None))


@pytest.mark.parametrize(
    "name, variant, position, dice, options", INVALID, ids=[row[0] for row in INVALID]
)
def test_invalid_query_is_an_error(
    name: str, variant: str, position: dict[str, Any], dice: Any, options: dict[str, Any] | None
) -> None:
    query: dict[str, Any] = {"variant": variant, "position": position}
    if dice is not None:
        query["dice"] = dice
    if options is not None:
        query["options"] = options
    with pytest.raises(ValueError) as error:
        answer_query(query)
    assert str(error.value)


def test_invalid_queries_answer_errors_on_the_cli() -> None:
    lines = []
    for _name, variant, position, dice, options in INVALID:
        query: dict[str, Any] = {"variant": variant, "position": position}
        if dice is not None:
            query["dice"] = dice
        if options is not None:
            query["options"] = options
        lines.append(json.dumps(query))
    answers = [json.loads(line) for line in _run_cli(lines)]
    assert len(answers) == len(INVALID)
    for (name, *_rest), answer in zip(INVALID, answers, strict=True):
        assert list(answer) == ["error"], name


@pytest.mark.parametrize(
    "board, options",
    [
        (TAPA_MOTHER_WON, {"mother": "tie_only"}),
        (TAPA_MOTHER_WON, {"mother": "off"}),
        (TAPA_TIE, {"mother": "off"}),
    ],
)
def test_tapa_patterns_that_do_not_end_the_game_under_the_options_are_playable(
    board: str, options: dict[str, Any]
) -> None:
    query = make_query("tapa", case_position(board), [6, 5], options)
    assert states(answer_query(query)["plays"]) == states(reference_answer(query)["plays"])


def test_missing_optional_fields_take_their_defaults() -> None:
    position = {"turn": "w", "points": _tabla_start()["points"]}
    answer = answer_query({"variant": "tabla", "position": position, "dice": [6, 5]})
    assert len(answer["plays"]) == 7
    for entry in answer["plays"]:
        assert entry["position"]["rolls"] == {"w": 1, "b": 0}
        assert "pending" not in entry["position"] or entry["position"]["pending"] == []


PENDING_REMAINDER = case_position(
    "W 19, 1×14 | B 16, 13×14",
    turn="b",
    rolls=(4, 3),
    pending=[3, 3, 3, 4, 4, 4, 4],
    pending_kind="remainder",
)


@pytest.mark.parametrize(
    "position, dice",
    [
        (case_position("W 1×4 (off 11) | B 13×15", rolls=(4, 5)) | CASCADE_6S, [6, 6, 6, 6]),
        (PENDING_REMAINDER, [3, 3, 3]),
    ],
    ids=["cascade_6s", "remainder_333"],
)
def test_dice_equal_to_the_pending_stage_are_accepted(
    position: dict[str, Any], dice: list[int]
) -> None:
    given = answer_query({"variant": "gul_bara", "position": position, "dice": dice})
    omitted = answer_query({"variant": "gul_bara", "position": position})
    assert states(given["plays"]) == states(omitted["plays"])


@pytest.mark.parametrize(
    "position, dice",
    [
        (case_position("W 1×4 (off 11) | B 13×15", rolls=(4, 5)) | CASCADE_6S, [6, 6, 6, 6, 6]),
        (case_position("W 1×4 (off 11) | B 13×15", rolls=(4, 5)) | CASCADE_6S, [6] * 8),
        (PENDING_REMAINDER, [3, 3, 3, 3]),
    ],
    ids=["five_6s_for_four", "eight_6s_for_four", "four_3s_for_three"],
)
def test_dice_longer_than_the_pending_stage_are_an_error(
    position: dict[str, Any], dice: list[int]
) -> None:
    """B5: a query on a pending position omits dice or gives exactly the next stage; B7: dice
    that differ from that stage are an error. More dice than the stage holds can never be it."""
    with pytest.raises(ValueError):
        answer_query({"variant": "gul_bara", "position": position, "dice": dice})
