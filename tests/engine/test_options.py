"""Hand-checked examples for the options the reference does not implement (docs/rules.md §4.7, §8):
the Fevga restrictions first_runner, start_quarter_block, six_prime and head_rule, Tabla's
tabla_hit_and_run_home, and Gjul Bara's cascade_scope."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import IllegalPlayError, Options, answer_query
from games.engine.errors import InvalidOptionsError
from tests.engine.helpers import checked_entry, describe, engine_entries, make_query, states
from tests.engine.notation import case_position

START = "W 24×15 | B 12×15"


def _query(board: str, dice: tuple[int, int], options: dict[str, Any] | None = None, **kw: Any):
    return make_query("gul_bara", case_position(board, **kw), list(dice), options)


def _assert_plays(query: dict[str, Any], plays: list[str]) -> None:
    found = engine_entries(query)
    expected = [checked_entry(query, play) for play in plays]
    assert states(found) == states(expected), describe(query, {"rules": expected, "engine": found})


def _rejected(query: dict[str, Any], moves: str) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as error:
        checked_entry(query, moves)
    return error.value


# --- F1 first runner ------------------------------------------------------------------------------

F1 = {"first_runner": True}


def test_first_runner_opening_66_plays_a_single_six() -> None:
    """§4.7 F1 [DRG]: 24/18, then 18/12 is black's start and no second checker may leave."""
    _assert_plays(_query(START, (6, 6), F1, rolls=(0, 0)), ["24/18"])
    _assert_plays(_query(START, (6, 6), rolls=(0, 0)), ["24/18 24/18 24/18 24/18"])


def test_first_runner_opening_65_runs_one_checker() -> None:
    query = _query(START, (6, 5), F1, rolls=(0, 0))
    _assert_plays(query, ["24/18 18/13"])
    error = _rejected(query, "24/18 24/19")
    assert error.step == 1 and "first_runner" in str(error)


def test_first_runner_second_checker_may_leave_once_the_first_passed_point_11() -> None:
    board = "W 24×14, 13 | B 12×15"
    # 24/18 first is illegal (the runner on 13 has not passed 12); after 13/7 or 13/8 it has.
    _assert_plays(_query(board, (6, 5), F1), ["13/7 7/2", "13/7 24/19", "13/8 24/18"])
    _assert_plays(
        _query(board, (6, 5)),
        ["13/7 7/2", "13/7 24/19", "13/8 24/18", "24/18 24/19", "24/18 18/13"],
    )
    passed = _query("W 24×14, 10 | B 12×15", (6, 5), F1)
    assert checked_entry(passed, "24/18 24/19")["position"]["points"][17] == [["w", 1]]


# --- F2 start quarter -----------------------------------------------------------------------------

F2 = {"start_quarter_block": True}
F2_BOARD = "W 24×11, 23, 22, 21, 20 | B 12×15"


def _holds_start_quarter(entry: dict[str, Any]) -> bool:
    points = entry["position"]["points"]
    return all(points[p - 1] and points[p - 1][0][0] == "w" for p in range(19, 25))


def test_start_quarter_block_forbids_holding_19_to_24() -> None:
    query = _query(F2_BOARD, (5, 1), F2)
    error = _rejected(query, "24/19 24/23")
    assert error.step == 0 and "start_quarter_block" in str(error)
    # The same end state by another route never holds all six points: legal.
    assert checked_entry(query, "24/23 23/18")
    assert _rejected(query, "24/19 19/18").step == 0
    checked_entry(_query(F2_BOARD, (5, 1)), "24/19 19/18")  # legal by default


def test_start_quarter_block_plays_are_default_plays_without_the_full_quarter() -> None:
    restricted = engine_entries(_query(F2_BOARD, (5, 1), F2))
    default = engine_entries(_query(F2_BOARD, (5, 1)))
    assert restricted and states(restricted) <= states(default)
    assert not any(_holds_start_quarter(entry) for entry in restricted)
    assert any(_holds_start_quarter(entry) for entry in default)


# --- F3 six-prime ---------------------------------------------------------------------------------

# White 2-6 and 8 (+ 24×9); 8/7 makes the six-prime 2-7 (black's own 14-19).
PRIME_BOARD = "W 24×9, 8, 6, 5, 4, 3, 2 | B 12×15"
PRIME_BOARD_BLACK_AHEAD = "W 24×9, 8, 6, 5, 4, 3, 2 | B 12×14, 1"  # white 1 = black's 13: past it


def test_six_prime_opponent_ahead_forbids_a_prime_with_nobody_in_front() -> None:
    options = {"six_prime": "opponent_ahead"}
    error = _rejected(_query(PRIME_BOARD, (6, 1), options), "24/18 8/7")
    assert error.step == 1 and "six_prime" in str(error)
    checked_entry(_query(PRIME_BOARD_BLACK_AHEAD, (6, 1), options), "24/18 8/7")
    checked_entry(_query(PRIME_BOARD, (6, 1)), "24/18 8/7")  # allowed by default


# Black's 15 checkers all on white 8 (black's 20), right behind white's prime on 2-7.
TRAP_BOARD = "W 24×9, 7, 6, 5, 4, 3, 2 | B 8×15"


def _keeps_prime(entry: dict[str, Any]) -> bool:
    points = entry["position"]["points"]
    return all(points[p - 1] and points[p - 1][0][0] == "w" for p in range(2, 8))


def test_six_prime_must_release_keeps_only_plays_that_open_the_trap() -> None:
    """§4.7 F3 (b): if a play that breaks the trapping prime exists, keeping it is illegal."""
    default = engine_entries(_query(TRAP_BOARD, (6, 5)))
    released = engine_entries(_query(TRAP_BOARD, (6, 5), {"six_prime": "must_release"}))
    assert any(_keeps_prime(entry) for entry in default)
    opening = states(entry for entry in default if not _keeps_prime(entry))
    assert opening, "the example needs plays that open the prime"
    assert states(released) == opening
    error = _rejected(_query(TRAP_BOARD, (6, 5), {"six_prime": "must_release"}), "24/18 24/19")
    assert "six_prime" in str(error)


def test_greek_tavli_preset_turns_the_fevga_rules_on() -> None:
    options = Options.from_json({"preset": "greek_tavli"})
    assert options.first_runner and options.start_quarter_block
    assert options.six_prime == "must_release" and options.cascade is False
    query = _query(START, (6, 6), {"preset": "greek_tavli"}, rolls=(3, 3))
    _assert_plays(query, ["24/18"])  # F1, and no cascade: nothing pending
    assert not engine_entries(query)[0]["position"].get("pending")


# --- head rule ------------------------------------------------------------------------------------


def test_head_rule_lets_one_checker_leave_the_start_per_turn() -> None:
    query = _query(START, (6, 5), {"head_rule": True}, rolls=(0, 0))
    _assert_plays(query, ["24/18 18/13"])
    error = _rejected(query, "24/18 24/19")
    assert error.step == 1 and "head_rule" in str(error)
    # 4-4: 24/20 20/16, then 16/12 is black's start; no second checker may leave.
    _assert_plays(_query(START, (4, 4), {"head_rule": True}, rolls=(0, 0)), ["24/20 20/16"])


# --- Tabla: hit and run in the home board ---------------------------------------------------------

HOME_HIT = "W 8, 6×14 | B 5, 24×14"


def test_hit_and_run_home_is_allowed_by_default() -> None:
    query = make_query("tabla", case_position(HOME_HIT), [3, 2])
    plays = ["8/5 5/3", "8/5 6/4", "6/3 3/1", "6/3 6/4", "8/6 6/3"]
    _assert_plays(query, plays)
    assert checked_entry(query, "8/5 5/3")["position"]["bar"] == {"w": 0, "b": 1}


def test_without_hit_and_run_home_a_home_hitter_stops() -> None:
    options = {"tabla_hit_and_run_home": False}
    query = make_query("tabla", case_position(HOME_HIT), [3, 2], options)
    _assert_plays(query, ["8/5 6/4", "6/3 3/1", "6/3 6/4", "8/6 6/3"])
    error = _rejected(query, "8/5 5/3")
    assert error.step == 1 and "hit" in str(error)


def test_without_hit_and_run_home_a_hitter_outside_home_runs_on() -> None:
    options = {"tabla_hit_and_run_home": False}
    query = make_query("tabla", case_position("W 13, 6×14 | B 9, 24×14"), [4, 3], options)
    entry = checked_entry(query, "13/9 9/6")
    assert entry["position"]["bar"] == {"w": 0, "b": 1}


# --- Gjul Bara: cascade_scope ---------------------------------------------------------------------

# White to move on its 4th roll with 4-4. Stage one (four 4s) can end on {6, 3} or {7, 2}.
# After {6, 3} no 5 is playable (6/1 lands on black's checker; 3/off needs 3 to be highest):
# the chain stops. After {7, 2} the 5s play 7/2, 2/off, 2/off and win.
SCOPE_BOARD = "W 14, 11 (off 13) | B 24, 17, 5, 4, 1 (off 10)"


def test_cascade_scope_per_stage_allows_a_stage_play_that_blocks_the_next_stage() -> None:
    query = _query(SCOPE_BOARD, (4, 4), rolls=(3, 3))
    _assert_plays(query, ["14/10 10/6 11/7 7/3", "14/10 10/6 6/2 11/7"])
    blocked = checked_entry(query, "14/10 10/6 11/7 7/3")["position"]
    assert blocked["pending"] == [5, 5, 5, 5, 6, 6, 6, 6] and blocked["turn"] == "w"
    after = engine_entries(make_query("gul_bara", blocked))
    assert [entry["moves"] for entry in after] == [[]]
    assert after[0]["position"]["turn"] == "b"
    assert after[0]["position"]["pending_kind"] == "remainder"
    assert after[0]["position"]["pending"] == [5, 5, 5, 5, 6, 6, 6, 6]


def test_cascade_scope_whole_chain_keeps_the_stage_play_that_uses_more_later_dice() -> None:
    query = _query(SCOPE_BOARD, (4, 4), {"cascade_scope": "whole_chain"}, rolls=(3, 3))
    _assert_plays(query, ["14/10 10/6 6/2 11/7"])
    error = _rejected(query, "14/10 10/6 11/7 7/3")
    assert error.step is None and "whole_chain" in str(error)


def test_options_do_not_change_an_ordinary_answer_they_do_not_touch() -> None:
    query = make_query("tabla", case_position(HOME_HIT), [3, 2])
    switched = dict(query, options={"cascade_scope": "whole_chain", "head_rule": False})
    assert states(answer_query(switched)["plays"]) == states(answer_query(query)["plays"])


def test_cycle_accepts_the_greek_and_turkish_names_of_the_games():
    """docs/rules.md §7/§8: Portes, Plakoto, Fevga (and Tavla, Moultezim) are the same
    geometries."""
    options = Options.from_json({"cycle": ["portes", "plakoto", "fevga"]})
    assert options.cycle == ("tabla", "tapa", "gul_bara")
    assert Options.from_json({"cycle": ["tavla", "tapa", "moultezim"]}).cycle == (
        "tabla",
        "tapa",
        "gul_bara",
    )
    with pytest.raises(InvalidOptionsError, match="unknown game 'backgammon'"):
        Options.from_json({"cycle": ["backgammon"]})
