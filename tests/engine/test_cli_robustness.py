"""The batch CLI answers every line (docs/rules.md Appendix A): an unexpected exception inside the
engine on one query is answered ``{"error": "internal error: ..."}`` on that line and the run
goes on; only KeyboardInterrupt and SystemExit stop it."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import Options, Position, start_position
from games.engine.__main__ import run_plays
from games.engine.generate import Decision

MARKED_DICE = [2, 1]  # the query whose preparation the tests make fail


def _lines() -> list[str]:
    lines = []
    for variant, dice in [
        ("tabla", [6, 5]),
        ("tapa", MARKED_DICE),
        ("gul_bara", [6, 5]),
        ("tabla", [3, 3]),
    ]:
        position = start_position(variant).to_json()
        lines.append(json.dumps({"variant": variant, "position": position, "dice": dice}))
    return lines


def _answers(lines: list[str]) -> list[dict[str, Any]]:
    out = io.StringIO()
    run_plays(lines, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _fail_on_marked_query(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    prepare = Decision.prepare

    def failing(
        cls: type[Decision],
        variant_name: str,
        position: Position,
        dice: Sequence[int] | None,
        options: Options,
    ) -> Decision:
        if list(dice or []) == MARKED_DICE:
            raise error
        return prepare(variant_name, position, dice, options)

    monkeypatch.setattr(Decision, "prepare", classmethod(failing))


@pytest.mark.parametrize(
    "error",
    [KeyError(111), ZeroDivisionError("division by zero"), RecursionError("too deep")],
    ids=lambda error: type(error).__name__,
)
def test_an_unexpected_exception_answers_its_line_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    expected = _answers(_lines())
    assert all("plays" in answer for answer in expected)
    _fail_on_marked_query(monkeypatch, error)
    answers = _answers(_lines())
    assert len(answers) == 4
    assert answers[0] == expected[0] and answers[2:] == expected[2:]
    assert set(answers[1]) == {"error"}
    if not isinstance(error, RecursionError):  # answer_line words a RecursionError itself
        assert answers[1]["error"] == f"internal error: {type(error).__name__}: {error}"


def test_an_exception_while_encoding_an_answer_is_answered_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import games.engine.query as query

    real = query.plays_text
    calls = []

    def plays_text(decision: Decision) -> str:
        calls.append(decision)
        if len(calls) == 2:
            raise TypeError("Object of type Thing is not JSON serializable")
        return real(decision)

    monkeypatch.setattr(query, "plays_text", plays_text)
    answers = _answers(_lines())
    assert len(answers) == 4
    assert answers[1] == {
        "error": "internal error: TypeError: Object of type Thing is not JSON serializable"
    }
    assert all("plays" in answer for index, answer in enumerate(answers) if index != 1)


def test_a_long_internal_error_message_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_on_marked_query(monkeypatch, ZeroDivisionError("x" * 5000))
    message = _answers(_lines())[1]["error"]
    assert message.startswith("internal error: ZeroDivisionError: xxx")
    assert message.endswith("...") and len(message) < 300


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), SystemExit(3)], ids=["interrupt", "exit"])
def test_interrupt_and_exit_still_stop_the_run(
    monkeypatch: pytest.MonkeyPatch, stop: BaseException
) -> None:
    _fail_on_marked_query(monkeypatch, stop)
    out = io.StringIO()
    with pytest.raises(type(stop)):
        run_plays(_lines(), out)
    assert len(out.getvalue().splitlines()) == 1  # the answer before the interrupted query


GUL_BARA_CASCADE = {
    "turn": "w",
    "points": [[]] * 11 + [[["b", 15]]] + [[]] * 11 + [[["w", 15]]],
    "rolls": {"w": 4, "b": 4},
    "pending": [5, 5, 5, 5, 6, 6, 6, 6],
    "pending_kind": "cascade",
}


@pytest.mark.parametrize("dice", [15, 1.5, False, "55", [5, [5]], [5, 5, 5, 5.0], {"a": 5}])
def test_dice_of_the_wrong_shape_with_a_pending_stage_are_an_error(dice: Any) -> None:
    line = json.dumps({"variant": "gul_bara", "position": GUL_BARA_CASCADE, "dice": dice})
    (answer,) = _answers([line])
    assert set(answer) == {"error"}
    assert answer["error"].startswith("dice must be a list of integers 1-6, got "), answer


def test_the_pending_stage_may_still_be_named() -> None:
    lines = [
        json.dumps({"variant": "gul_bara", "position": GUL_BARA_CASCADE, "dice": dice})
        for dice in (None, [5, 5], [5, 5, 5, 5], [6, 6])
    ]
    answers = _answers(lines)
    assert answers[0] == answers[1] == answers[2]
    assert "plays" in answers[0]
    assert "differ from the pending stage" in answers[3]["error"]


@pytest.mark.parametrize("options", [None, {"cascade_scope": "whole_chain"}])
def test_pending_dice_beyond_one_chain_are_an_error_not_a_hang(
    options: dict[str, Any] | None,
) -> None:
    """At most four of each value (a whole 1-1 chain is 24 dice). 400 pending 1s once made
    cascade_scope=whole_chain search for ever."""
    position = {**GUL_BARA_CASCADE, "pending": [1] * 400, "pending_kind": "remainder"}
    query: dict[str, Any] = {"variant": "gul_bara", "position": position}
    if options:
        query["options"] = options
    (answer,) = _answers([json.dumps(query)])
    assert answer == {
        "error": "pending dice hold at most four of each value (the stages of one chain), "
        "got 400 of 1"
    }


def test_a_whole_one_one_chain_is_still_accepted() -> None:
    chain = [value for value in range(1, 7) for _ in range(4)]
    position = {**GUL_BARA_CASCADE, "pending": chain, "pending_kind": "remainder"}
    query = {
        "variant": "gul_bara",
        "position": position,
        "options": {"cascade_scope": "whole_chain"},
    }
    (answer,) = _answers([json.dumps(query)])
    assert "plays" in answer
    assert answer["plays"][0]["position"]["pending"] == chain[4:]
