"""Properties of every answer, on positions reached by random playouts (hypothesis)."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Move,
    Options,
    Play,
    Position,
    answer_query,
    check_play,
    find_variant,
    legal_plays,
    validate_position,
)
from tests.engine.notation import case_position, case_text
from tests.engine.reference import canonical
from tests.engine.strategies import (
    ENGINE_SETTINGS,
    VARIANTS,
    Decision,
    decisions,
    end_games,
    random_game,
)

OTHER = {"w": "b", "b": "w"}


def _count(position: dict[str, Any], colour: str) -> int:
    on_board = sum(n for stack in position["points"] for c, n in stack if c == colour)
    return on_board + position["bar"][colour] + position["off"][colour]


def _stage_size(query: dict[str, Any]) -> int:
    """How many dice the decision plays: 2, 4, or the leading run of the pending dice (B5)."""
    pending = query["position"].get("pending") or []
    if pending:
        return min(4, sum(1 for die in pending if die == pending[0]))
    first, second = query["dice"]
    return 2 if first != second else 4


def _options(decision: Decision) -> Options:
    return Options.from_json(decision.query.get("options"))


@ENGINE_SETTINGS
@given(decisions())
def test_every_play_keeps_fifteen_checkers_a_side(decision: Decision) -> None:
    for entry in decision.plays:
        for colour in ("w", "b"):
            assert _count(entry["position"], colour) == 15, entry


@ENGINE_SETTINGS
@given(decisions())
def test_no_play_leaves_an_invalid_position(decision: Decision) -> None:
    variant = find_variant(decision.variant)
    for entry in decision.plays:
        position = Position.from_json(entry["position"])
        if "result" in entry:
            continue  # a finished game is rejected as input on purpose (B7)
        validate_position(variant, position, _options(decision))
        for stack in entry["position"]["points"]:
            if len(stack) == 2:
                assert (
                    decision.variant == "tapa" and stack[0][1] == 1 and stack[0][0] != stack[1][0]
                )
        if decision.variant != "tabla":
            assert entry["position"]["bar"] == {"w": 0, "b": 0}


@ENGINE_SETTINGS
@given(decisions())
def test_positions_and_plays_round_trip(decision: Decision) -> None:
    start = Position.from_json(decision.position)
    assert Position.from_json(start.to_json()) == start
    for entry in decision.plays:
        position = Position.from_json(entry["position"])
        assert Position.from_json(position.to_json()) == position
        assert canonical({"position": position.to_json()}) == canonical(
            {"position": entry["position"]}
        )
        play = Play.parse(entry["moves"])
        assert Play.parse(str(play)) == play
        assert play.to_json() == entry["moves"]
        for move in play.moves:
            assert Move.parse(str(move)) == move


@ENGINE_SETTINGS
@given(decisions())
def test_case_notation_round_trips(decision: Decision) -> None:
    for position in [decision.position, *(entry["position"] for entry in decision.plays)]:
        if 15 in position["off"].values():
            continue
        again = case_position(case_text(position))
        for key in ("points", "bar", "off"):
            assert again[key] == position[key], case_text(position)


@ENGINE_SETTINGS
@given(decisions())
def test_replaying_each_play_with_check_play_reaches_its_position(decision: Decision) -> None:
    position = Position.from_json(decision.position)
    for entry in decision.plays:
        outcome = check_play(
            decision.variant,
            position,
            decision.query.get("dice"),
            entry["moves"],
            _options(decision),
        )
        assert canonical(outcome.to_json()) == canonical(entry), entry["moves"]


@ENGINE_SETTINGS
@given(decisions())
def test_listing_shortcuts_agree_with_the_built_plays(decision: Decision) -> None:
    """ends_game and move_texts (used to list plays without building positions) say what the
    built play and result say."""
    position = Position.from_json(decision.position)
    dice = decision.query.get("dice")
    options = _options(decision)
    for outcome in legal_plays(decision.variant, position, dice, options):
        assert outcome.move_texts() == outcome.play.to_json()
    for outcome in legal_plays(decision.variant, position, dice, options):  # fresh: nothing built
        ends = outcome.ends_game
        assert ends == (outcome.result is not None), outcome.play


@ENGINE_SETTINGS
@given(decisions())
def test_no_two_plays_share_a_resulting_state(decision: Decision) -> None:
    keys = [canonical(entry) for entry in decision.plays]
    assert len(keys) == len(set(keys))
    assert decision.plays, "an answer lists at least one play (a pass is moves: [])"


@ENGINE_SETTINGS
@given(decisions())
def test_must_play_no_listed_play_is_shorter_unless_it_ended_the_game(decision: Decision) -> None:
    size = _stage_size(decision.query)
    open_lengths = {len(entry["moves"]) for entry in decision.plays if "result" not in entry}
    ended = [entry for entry in decision.plays if "result" in entry]
    assert len(open_lengths) <= 1, f"plays of different lengths: {open_lengths}"
    for entry in decision.plays:
        assert len(entry["moves"]) <= size
    if ended and open_lengths:
        assert open_lengths == {size}, "a game-ending play counts as using all the dice"
    if not decision.plays[0]["moves"] and len(decision.plays) > 1:
        raise AssertionError("a pass is listed beside a real play")


@ENGINE_SETTINGS
@given(decisions())
def test_turn_rolls_and_pending_follow_b2_b4_b5(decision: Decision) -> None:
    before = decision.position
    mover = before["turn"]
    is_roll = not before.get("pending")
    remainder_stage = before.get("pending_kind") == "remainder"
    for entry in decision.plays:
        after = entry["position"]
        expected_rolls = dict(before["rolls"])
        if is_roll:
            expected_rolls[mover] += 1
        assert after["rolls"] == expected_rolls
        pending = after.get("pending") or []
        assert ("pending_kind" in after) == bool(pending)
        assert pending == sorted(pending)
        if "result" in entry:
            assert after["turn"] == OTHER[mover] and not pending  # B6, B8
        elif remainder_stage:
            assert after["turn"] == mover  # a remainder never passes anything back
            assert pending == before["pending"][_stage_size(decision.query) :]
        elif pending:
            assert decision.variant == "gul_bara"
            kind = after["pending_kind"]
            assert after["turn"] == (mover if kind == "cascade" else OTHER[mover])
        else:
            assert after["turn"] == OTHER[mover]


@ENGINE_SETTINGS
@given(decisions())
def test_moves_are_single_die_steps_in_contract_shape(decision: Decision) -> None:
    """B3: one string per die step, no hit markers, multipliers or combined moves; the steps'
    dice fit the stage; a play entry has only moves, position and (when it ends) result."""
    pending = decision.position.get("pending") or []
    stage = pending[: _stage_size(decision.query)] if pending else list(decision.query["dice"])
    if not pending and stage[0] == stage[1]:
        stage = stage * 2
    for entry in decision.plays:
        assert set(entry) <= {"moves", "position", "result"}
        assert "result" not in entry or entry["result"] is not None
        dice = sorted(stage)
        bear_offs = []
        for text in entry["moves"]:
            assert re.fullmatch(r"(bar|[1-9]|1[0-9]|2[0-4])/(off|[1-9]|1[0-9]|2[0-4])", text), text
            move = Move.parse(text)
            if move.is_bear_off:
                bear_offs.append(move.source)
                continue
            assert move.source - move.target in dice, (text, stage, entry["moves"])
            dice.remove(move.source - move.target)
        for source in sorted(bear_offs, reverse=True):
            usable = [die for die in dice if die >= source]
            assert usable, (entry["moves"], stage)
            dice.remove(min(usable))


@ENGINE_SETTINGS
@given(
    st.sampled_from(VARIANTS).flatmap(lambda name: st.tuples(st.just(name), end_games(name))),
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_valid_constructed_positions_are_accepted_and_answered(
    drawn: tuple[str, dict[str, Any]], dice: tuple[int, int]
) -> None:
    """Positions built to satisfy B7 (15 a side, legal stacks, not finished) are accepted."""
    variant, position = drawn
    validate_position(find_variant(variant), Position.from_json(position), Options())
    query: dict[str, Any] = {"variant": variant, "position": position}
    if not position.get("pending"):
        query["dice"] = list(dice)
    plays = answer_query(query)["plays"]
    assert plays
    for entry in plays:
        for colour in ("w", "b"):
            assert _count(entry["position"], colour) == 15


# --- whole games ----------------------------------------------------------------------------------

GAME_OPTIONS: dict[str, list[dict[str, Any] | None]] = {
    "tabla": [None, {"tabla_triple": True}],
    "gul_bara": [None, {"cascade_from_roll": 1}],
    "tapa": [None, {"tapa_tie": "one_each"}, {"mother": "off"}],
}


@settings(ENGINE_SETTINGS, max_examples=20)
@given(
    st.sampled_from(VARIANTS),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from([0.0, 0.5]),
    st.integers(min_value=0, max_value=2),
)
def test_random_games_end_with_a_valid_result(
    variant: str, seed: int, race: float, option_index: int
) -> None:
    choices = GAME_OPTIONS[variant]
    options = choices[option_index % len(choices)]
    played, final = random_game(variant, random.Random(seed), options, race=race)
    if final is None:
        last = played[-1].position
        if variant == "tapa":
            # Without the mother rule nothing ends a game in which each side's mother is pinned
            # under the other's 14 remaining checkers: neither can ever bear off again.
            assert (options or {}).get("mother") == "off", case_text(last)
            assert _mother_pinned(last, "w") and _mother_pinned(last, "b"), case_text(last)
        else:
            assert variant == "gul_bara", "only a Gjul Bara game may stall (§6.7)"
        return
    for decision in played:
        for entry in decision.plays:
            if "result" in entry:
                _assert_valid_result(variant, options or {}, decision, entry)
    assert "result" in final


def _assert_valid_result(
    variant: str, options: dict[str, Any], decision: Decision, entry: dict[str, Any]
) -> None:
    """B6: kind and points fit the variant and options, and the state shows the end."""
    result, position = entry["result"], entry["position"]
    kind, winner, points = result["kind"], result["winner"], result["points"]
    mover = decision.position["turn"]
    if kind == "tie":
        assert variant == "tapa" and options.get("mother") != "off"
        assert winner is None
        assert points == (1 if options.get("tapa_tie") == "one_each" else 0)
        assert _mother_pinned(position, "w") and _mother_pinned(position, "b")
        return
    assert winner == mover, "only the side that moves can end the game"
    loser = OTHER[winner]
    if kind == "mother":
        assert variant == "tapa" and options.get("mother", "auto_win") == "auto_win"
        assert points == 2
        assert _mother_pinned(position, loser)
        start = position["points"][23 if winner == "w" else 0]
        assert not any(colour == winner for colour, _ in start)
        return
    assert position["off"][winner] == 15
    if position["off"][loser]:
        assert (kind, points) == ("single", 1)
    elif kind == "triple":
        assert variant == "tabla" and options.get("tabla_triple") and points == 3
    else:
        assert (kind, points) == ("mars", 2)


def _mother_pinned(position: dict[str, Any], colour: str) -> bool:
    """Tapa: ``colour``'s own 24-point is a pin stack with ``colour`` at the bottom (§5.4)."""
    stack = position["points"][23 if colour == "w" else 0]
    return len(stack) == 2 and stack[0][0] == colour
