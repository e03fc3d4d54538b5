"""Every tricky case of docs/rules.md §9 (1-23), with the option variants the cases mention.

Each case lists the plays docs/rules.md gives. The expected set of resulting states is made twice,
by
replaying those moves in the test reference (``reference.apply_moves``) and with ``check_play``;
the engine's answer and the reference generator must both give exactly that set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from games.engine import (
    GameResult,
    IllegalPlayError,
    MatchState,
    Options,
    answer_query,
    match_winner,
    next_game,
    opening_roll,
    record_game,
    start_position,
)
from tests.engine.helpers import checked_entry, describe, engine_entries, make_query, states
from tests.engine.notation import case_position
from tests.engine.reference import apply_moves, canonical, reference_answer

WHITE_SINGLE = {"winner": "w", "kind": "single", "points": 1}
WHITE_MARS = {"winner": "w", "kind": "mars", "points": 2}
WHITE_MOTHER = {"winner": "w", "kind": "mother", "points": 2}
TIE_REPLAY = {"winner": None, "kind": "tie", "points": 0}


@dataclass(frozen=True)
class Case:
    name: str
    variant: str
    board: str
    dice: tuple[int, int] | None
    plays: tuple[str, ...]  # moves of each expected play; "" is a pass
    turn: str = "w"
    rolls: tuple[int, int] = (5, 5)
    options: dict[str, Any] | None = None
    pending: tuple[int, ...] = ()
    pending_kind: str | None = None
    results: dict[str, dict[str, Any] | None] = field(default_factory=dict)  # play -> result
    after: dict[str, Any] = field(default_factory=dict)  # position fields every play must show

    def query(self) -> dict[str, Any]:
        position = case_position(
            self.board,
            turn=self.turn,
            rolls=self.rolls,
            pending=list(self.pending),
            pending_kind=self.pending_kind,
        )
        return make_query(
            self.variant, position, list(self.dice) if self.dice else None, self.options
        )


C1 = "W 13, 1×14 | B 2×2, 24×13"
C2 = "W 13, 1×14 | B 7×2, 2×2, 24×11"
C3 = "W 13, 1×14 | B 7×2, 24×13"
C4 = "W 13, 1×14 | B 5×2, 24×13"
C5 = "W 4, 2 (off 13) | B 24×10 (off 5)"
C6 = "W 6, 3, 2 (off 12) | B 24×10"
C7 = "W 6×2, 1 (off 12) | B 24×10"
C8 = "W bar 1, 24, 13×5, 8×3, 6×5 | B 20, 19×2, 17×3, 12×5, 1×4"
C9A = "W bar 2, 13×5, 8×3, 6×5 | B 19×2, 17×3, 12×5, 1×5"
C9B = "W bar 1, 13×5, 8×3, 6×6 | B 19×2, 20×2, 21×2, 22×2, 23×2, 24×2, 12×3"
C10 = "W 2 (off 14) | B 24×10 (off 5)"
C11 = "W 24×15 | B 12×15"
C12 = "W 24×13, 19, 17 | B 20, 16, 12×13"
C13 = "W 6×4 (off 11) | B 13×15"
C14 = "W 22, 1×14 | B 16, 13×14"
C14_UNSTARTED = "W 22, 1×14 | B 19, 13×14"
C15 = "W 5, 2 (off 13) | B 3, 13×14"
C16 = "W 24×12, 13×2, 11 | B 10, 1×14"
C17 = "W 24×12, 13×2, [b/w]@10 | B 7, 1×13"
C18 = "W [w/b]@5, 2×3, 1×2 (off 9) | B 20×4, 13×10"
C18_SIX = "W 6, [w/b]@5, 2×3, 1×2 (off 8) | B 20×4, 13×10"
C19 = "W 3, 8×14 | B 1, 20×14"
C20 = "W 24×2, 3, 8×12 | B 1, 20×14"
C21 = "W 24, 8×13, [b/w]@1 | B 20×14"
C22 = "W 24, 8×13, [b/w]@1 | B 22, 5×13"

ROLL_14 = (3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)

CASES = [
    Case("case01_larger_die", "tabla", C1, (6, 5), ("13/7",)),
    Case("case02_only_smaller_die", "tabla", C2, (6, 5), ("13/8",)),
    Case("case03_smaller_die_first", "tabla", C3, (6, 5), ("13/8 8/2",)),
    Case("case04_double_partly_playable", "tabla", C4, (4, 4), ("13/9",)),
    Case(
        "case05_higher_dice_bear_off",
        "tabla",
        C5,
        (6, 5),
        ("4/off 2/off",),
        results={"4/off 2/off": WHITE_SINGLE},
    ),
    Case("case06_exact_die_vs_higher", "tabla", C6, (6, 3), ("6/off 3/off", "6/3 3/off")),
    Case("case07_move_from_higher_point", "tabla", C7, (3, 2), ("6/3 3/1", "6/3 6/4")),
    Case(
        "case08_enter_with_hit",
        "tabla",
        C8,
        (6, 5),
        ("bar/20 20/14", "bar/20 24/18", "bar/20 13/7", "bar/20 8/2"),
        after={"bar": {"w": 0, "b": 1}},
    ),
    Case("case09a_second_entry_blocked", "tabla", C9A, (6, 5), ("bar/20",)),
    *[
        Case(
            f"case09b_closed_board_{a}{b}",
            "tabla",
            C9B,
            (a, b),
            ("",),
            after={"turn": "b", "rolls": {"w": 6, "b": 5}},
        )
        for a in range(1, 7)
        for b in range(1, a + 1)
    ],
    Case(
        "case10_last_checker_off",
        "tabla",
        C10,
        (6, 1),
        ("2/off",),
        results={"2/off": WHITE_SINGLE},
    ),
    Case(
        "case11_gul_bara_opening_66",
        "gul_bara",
        C11,
        (6, 6),
        ("24/18 24/18 24/18 24/18",),
        rolls=(0, 0),
        after={"turn": "b", "rolls": {"w": 1, "b": 0}},
    ),
    Case(
        "case11_escalating_66_is_four_sixes",
        "gul_bara",
        C11,
        (6, 6),
        ("24/18 24/18 24/18 24/18",),
        rolls=(3, 0),
        after={"turn": "b", "rolls": {"w": 4, "b": 0}},
    ),
    Case(
        "case12_lone_checker_holds",
        "gul_bara",
        C12,
        (4, 1),
        ("24/23 23/19", "19/15 15/14", "19/15 24/23", "17/13 19/18", "17/13 24/23"),
        rolls=(2, 2),
    ),
    Case(
        "case13_stage1_of_cascade",
        "gul_bara",
        C13,
        (5, 5),
        ("6/1 6/1 6/1 6/1",),
        rolls=(3, 5),
        after={
            "turn": "w",
            "pending": [6, 6, 6, 6],
            "pending_kind": "cascade",
            "rolls": {"w": 4, "b": 5},
        },
    ),
    Case(
        "case13_stage2_of_cascade",
        "gul_bara",
        "W 1×4 (off 11) | B 13×15",
        None,
        ("1/off 1/off 1/off 1/off",),
        rolls=(4, 5),
        pending=(6, 6, 6, 6),
        pending_kind="cascade",
        results={"1/off 1/off 1/off 1/off": WHITE_MARS},
        after={"turn": "b", "rolls": {"w": 4, "b": 5}},
    ),
    Case(
        "case13_third_roll_is_ordinary",
        "gul_bara",
        C13,
        (5, 5),
        ("6/1 6/1 6/1 6/1",),
        rolls=(2, 5),
        after={"turn": "b", "rolls": {"w": 3, "b": 5}},
    ),
    Case(
        "case13_cascade_from_roll_3",
        "gul_bara",
        C13,
        (5, 5),
        ("6/1 6/1 6/1 6/1",),
        rolls=(2, 5),
        options={"cascade_from_roll": 3},
        after={"turn": "w", "pending": [6, 6, 6, 6], "pending_kind": "cascade"},
    ),
    Case(
        "case13_cascade_count_per_game",
        "gul_bara",
        C13,
        (5, 5),
        ("6/1 6/1 6/1 6/1",),
        rolls=(1, 1),
        options={"cascade_count": "per_game"},
        after={"turn": "b", "rolls": {"w": 2, "b": 1}},
    ),
    Case(
        "case13_cascade_count_per_game_escalates",
        "gul_bara",
        C13,
        (5, 5),
        ("6/1 6/1 6/1 6/1",),
        rolls=(2, 1),
        options={"cascade_count": "per_game"},
        after={"turn": "w", "pending": [6, 6, 6, 6], "pending_kind": "cascade"},
    ),
    Case(
        "case13_cascade_off",
        "gul_bara",
        C13,
        (5, 5),
        ("6/1 6/1 6/1 6/1",),
        rolls=(3, 5),
        options={"cascade": False},
        after={"turn": "b"},
    ),
    Case(
        "case14_remainder_to_opponent",
        "gul_bara",
        C14,
        (3, 3),
        ("22/19",),
        rolls=(3, 3),
        after={
            "turn": "b",
            "pending": list(ROLL_14),
            "pending_kind": "remainder",
            "rolls": {"w": 4, "b": 3},
        },
    ),
    Case(
        "case14_remainder_forfeit",
        "gul_bara",
        C14,
        (3, 3),
        ("22/19",),
        rolls=(3, 3),
        options={"cascade_remainder": "forfeit"},
        after={"turn": "b", "rolls": {"w": 4, "b": 3}},
    ),
    Case(
        "case14_unstarted_chain_lost",
        "gul_bara",
        C14_UNSTARTED,
        (3, 3),
        ("",),
        rolls=(3, 3),
        after={"turn": "b", "rolls": {"w": 4, "b": 3}},
    ),
    Case(
        "case14_unstarted_chain_passes",
        "gul_bara",
        C14_UNSTARTED,
        (3, 3),
        ("",),
        rolls=(3, 3),
        options={"unstarted_chain": "passes"},
        after={
            "turn": "b",
            "pending": [3, *ROLL_14],
            "pending_kind": "remainder",
            "rolls": {"w": 4, "b": 3},
        },
    ),
    Case(
        "case14_unstarted_chain_passes_but_forfeit",
        "gul_bara",
        C14_UNSTARTED,
        (3, 3),
        ("",),
        rolls=(3, 3),
        options={"unstarted_chain": "passes", "cascade_remainder": "forfeit"},
        after={"turn": "b", "rolls": {"w": 4, "b": 3}},
    ),
    Case(
        "case15_bear_off_blocked_by_lone_checker",
        "gul_bara",
        C15,
        (2, 1),
        ("2/off 5/4", "5/4 4/2"),
    ),
    Case(
        "case15_mars",
        "gul_bara",
        C15,
        (6, 2),
        ("5/off 2/off",),
        results={"5/off 2/off": WHITE_MARS},
    ),
    Case(
        "case16_pin_reinforce_run",
        "tapa",
        C16,
        (3, 1),
        (
            "13/10 11/10",
            "13/10 10/9",
            "13/10 13/12",
            "13/10 24/23",
            "11/8 8/7",
            "11/8 13/12",
            "11/8 24/23",
            "24/21 21/20",
            "24/21 24/23",
            "24/21 13/12",
            "24/21 11/10",
        ),
    ),
    Case(
        "case17_pinner_cannot_be_pinned",
        "tapa",
        C17,
        (3, 2),
        ("24/21 24/22", "24/21 21/19", "24/21 18/16", "18/16 16/13"),
        turn="b",
    ),
    Case("case18_occupies_66_passes", "tapa", C18, (6, 6), ("",)),
    Case("case18_occupies_64_must_pass", "tapa", C18, (6, 4), ("",)),
    Case("case18_occupies_21", "tapa", C18, (2, 1), ("2/off 1/off", "2/off 2/1")),
    Case(
        "case18_no_bearoff_21",
        "tapa",
        C18,
        (2, 1),
        ("2/1",),
        options={"pinned_bearoff": "no_bearoff"},
    ),
    Case(
        "case18_no_bearoff_66",
        "tapa",
        C18,
        (6, 6),
        ("",),
        options={"pinned_bearoff": "no_bearoff"},
    ),
    Case("case18_occupies_43_larger_die", "tapa", C18_SIX, (4, 3), ("6/2",)),
    Case(
        "case18_no_bearoff_43_larger_die",
        "tapa",
        C18_SIX,
        (4, 3),
        ("6/2",),
        options={"pinned_bearoff": "no_bearoff"},
    ),
    Case(
        "case18_bulgarian_nit_preset_21",
        "tapa",
        C18,
        (2, 1),
        ("2/1",),
        options={"preset": "bulgarian_nit"},
    ),
    Case(
        "case19_mother_pinned_wins",
        "tapa",
        C19,
        (6, 2),
        ("3/1", "8/2 3/1", "8/6 8/2"),
        results={"3/1": WHITE_MOTHER, "8/2 3/1": WHITE_MOTHER, "8/6 8/2": None},
    ),
    Case(
        "case19_mother_tie_only",
        "tapa",
        C19,
        (6, 2),
        ("8/2 3/1", "8/6 8/2"),
        options={"mother": "tie_only"},
        results={"8/2 3/1": None, "8/6 8/2": None},
    ),
    Case(
        "case19_mother_off",
        "tapa",
        C19,
        (6, 2),
        ("8/2 3/1", "8/6 8/2"),
        options={"mother": "off"},
        results={"8/2 3/1": None, "8/6 8/2": None},
    ),
    Case(
        "case20_pinner_still_on_start",
        "tapa",
        C20,
        (6, 2),
        (
            "24/18 18/16",
            "24/18 24/22",
            "24/18 3/1",
            "24/18 8/6",
            "8/2 24/22",
            "8/2 3/1",
            "8/2 8/6",
        ),
        results={
            "24/18 18/16": None,
            "24/18 24/22": None,
            "24/18 3/1": None,
            "24/18 8/6": None,
            "8/2 24/22": None,
            "8/2 3/1": None,
            "8/2 8/6": None,
        },
    ),
    Case(
        "case21_win_when_start_empties",
        "tapa",
        C21,
        (6, 2),
        ("24/18", "24/22", "8/2 24/22", "8/6 24/18", "8/2 8/6"),
        results={
            "24/18": WHITE_MOTHER,
            "24/22": WHITE_MOTHER,
            "8/2 24/22": WHITE_MOTHER,
            "8/6 24/18": WHITE_MOTHER,
            "8/2 8/6": None,
        },
    ),
    Case(
        "case21_mother_off",
        "tapa",
        C21,
        (6, 2),
        ("24/18 18/16", "24/18 8/6", "8/2 24/22", "8/2 8/6"),
        options={"mother": "off"},
    ),
    Case(
        "case21_mother_tie_only",
        "tapa",
        C21,
        (6, 2),
        ("24/18 18/16", "24/18 8/6", "8/2 24/22", "8/2 8/6"),
        options={"mother": "tie_only"},
    ),
    Case(
        "case22_both_mothers_pinned_tie",
        "tapa",
        C22,
        (2, 1),
        ("3/1", "20/19 3/1", "20/18 20/19", "20/18 3/2"),
        turn="b",
        results={"3/1": TIE_REPLAY, "20/19 3/1": TIE_REPLAY, "20/18 20/19": None},
    ),
    Case(
        "case22_tie_one_each",
        "tapa",
        C22,
        (2, 1),
        ("3/1", "20/19 3/1", "20/18 20/19", "20/18 3/2"),
        turn="b",
        options={"tapa_tie": "one_each"},
        results={"3/1": {"winner": None, "kind": "tie", "points": 1}},
    ),
    Case(
        "case22_tie_zero",
        "tapa",
        C22,
        (2, 1),
        ("3/1", "20/19 3/1", "20/18 20/19", "20/18 3/2"),
        turn="b",
        options={"tapa_tie": "zero"},
        results={"3/1": {"winner": None, "kind": "tie", "points": 0}},
    ),
    Case(
        "case22_tie_only_still_ties",
        "tapa",
        C22,
        (2, 1),
        ("3/1", "20/19 3/1", "20/18 20/19", "20/18 3/2"),
        turn="b",
        options={"mother": "tie_only"},
        results={"3/1": TIE_REPLAY},
    ),
    Case(
        "case22_mother_off_no_tie",
        "tapa",
        C22,
        (2, 1),
        ("20/19 3/1", "20/18 20/19", "20/18 3/2"),
        turn="b",
        options={"mother": "off"},
        results={"20/19 3/1": None},
    ),
]


def test_case_notation_reads_pins_bar_and_off() -> None:
    position = case_position("W bar 1, [w/b]@5, [b/w2]@10, 6×3 (off 8) | B 20×12 (Black to move)")
    assert position["turn"] == "b"
    assert position["bar"] == {"w": 1, "b": 0}
    assert position["points"][4] == [["w", 1], ["b", 1]]
    assert position["points"][9] == [["b", 1], ["w", 2]]
    assert position["off"] == {"w": 8, "b": 1}  # black shows 12 + 1 pinner + 1 pinned
    assert position["rolls"] == {"w": 5, "b": 5}


def _expected_by_reference(case: Case) -> dict[str, dict[str, Any]]:
    query = case.query()
    return {play: apply_moves(query, play.split()) for play in case.plays}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_reference_generator_reproduces_the_case(case: Case) -> None:
    """The test reference itself agrees with docs/rules.md (so it can be trusted elsewhere)."""
    query = case.query()
    expected = states(_expected_by_reference(case).values())
    found = reference_answer(query)["plays"]
    assert states(found) == expected, describe(
        query, {"rules": list(_expected_by_reference(case).values()), "reference": found}
    )


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_engine_answers_exactly_the_listed_plays(case: Case) -> None:
    query = case.query()
    expected = list(_expected_by_reference(case).values())
    found = engine_entries(query)
    assert states(found) == states(expected), describe(query, {"rules": expected, "engine": found})
    assert len(found) == len(states(found)), "two entries share one resulting state"


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_check_play_accepts_each_listed_play(case: Case) -> None:
    query = case.query()
    for play, expected in _expected_by_reference(case).items():
        entry = checked_entry(query, play)
        assert canonical(entry) == canonical(expected), f"{case.name}: {play!r}"


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.results or c.after], ids=lambda case: case.name
)
def test_results_and_position_fields_are_as_stated(case: Case) -> None:
    query = case.query()
    by_state = {canonical(entry): entry for entry in engine_entries(query)}
    for play, expected in _expected_by_reference(case).items():
        entry = by_state.get(canonical(expected))
        assert entry is not None, f"{case.name}: no engine play for {play!r}"
        if play in case.results:
            assert entry.get("result") == case.results[play], f"{case.name}: {play!r}"
        for key, value in case.after.items():
            assert entry["position"].get(key) == value, f"{case.name}: {play!r} {key}"
        if "pending" not in case.after:
            assert not entry["position"].get("pending"), f"{case.name}: nothing may be pending"
            assert "pending_kind" not in entry["position"]


# --- the multi-query cascades of Cases 13 and 14 (B4, B5) -----------------------------------------


def _only_play(query: dict[str, Any]) -> dict[str, Any]:
    plays = engine_entries(query)
    assert len(plays) == 1, [play["moves"] for play in plays]
    return plays[0]


def test_case13_cascade_is_answered_one_stage_per_query() -> None:
    query = make_query("gul_bara", case_position(C13, rolls=(3, 5)), [5, 5])
    first = _only_play(query)
    assert sorted(first["moves"]) == ["6/1"] * 4
    assert first["position"]["turn"] == "w"
    assert first["position"]["pending"] == [6, 6, 6, 6]
    assert first["position"]["pending_kind"] == "cascade"
    assert first["position"]["rolls"] == {"w": 4, "b": 5}
    assert "result" not in first

    second = _only_play(make_query("gul_bara", first["position"]))  # no dice: the pending stage
    assert sorted(second["moves"]) == ["1/off"] * 4
    assert second["result"] == WHITE_MARS
    assert second["position"]["off"] == {"w": 15, "b": 0}
    assert second["position"]["turn"] == "b"  # B8
    assert not second["position"].get("pending")
    assert second["position"]["rolls"] == {"w": 4, "b": 5}


def test_case13_pending_stage_may_be_given_as_dice() -> None:
    position = case_position("W 1×4 (off 11) | B 13×15", rolls=(4, 5), pending=[6, 6, 6, 6])
    position["pending_kind"] = "cascade"
    without = engine_entries(make_query("gul_bara", position))
    given = engine_entries(make_query("gul_bara", position, [6, 6]))
    assert states(given) == states(without)


def test_case14_remainder_is_played_by_black_stage_by_stage() -> None:
    query = make_query("gul_bara", case_position(C14, rolls=(3, 3)), [3, 3])
    white = _only_play(query)
    assert white["moves"] == ["22/19"]
    position = white["position"]
    assert position["turn"] == "b"
    assert position["pending"] == list(ROLL_14)
    assert position["pending_kind"] == "remainder"
    assert position["rolls"] == {"w": 4, "b": 3}

    stage = _only_play(make_query("gul_bara", position))
    assert sorted(stage["moves"]) == sorted(["4/1", "1/off", "1/off"])
    assert stage["moves"][0] == "4/1"  # the only order: 1/off is illegal while 4 is occupied
    position = stage["position"]
    assert position["turn"] == "b"
    assert position["off"]["b"] == 2
    assert position["pending"] == [4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6]
    assert position["pending_kind"] == "remainder"

    for left in ([5, 5, 5, 5, 6, 6, 6, 6], [6, 6, 6, 6], []):
        stage = _only_play(make_query("gul_bara", position))
        assert len(stage["moves"]) == 4
        assert all(move.endswith("/off") for move in stage["moves"])
        assert "result" not in stage
        position = stage["position"]
        assert position["turn"] == "b"
        assert position.get("pending", []) == left
        assert position["rolls"] == {"w": 4, "b": 3}
    assert "pending_kind" not in position
    assert position["off"] == {"w": 0, "b": 14}
    assert position["points"][12] == [["b", 1]]

    # Black now rolls normally: a fresh roll counts as its 4th.
    after_roll = engine_entries(make_query("gul_bara", position, [2, 1]))
    assert all(entry["position"]["rolls"] == {"w": 4, "b": 4} for entry in after_roll)


def test_case14_remainder_stages_agree_with_reference() -> None:
    query = make_query("gul_bara", case_position(C14, rolls=(3, 3)), [3, 3])
    while True:
        found = engine_entries(query)
        wanted = reference_answer(query)["plays"]
        assert states(found) == states(wanted), describe(
            query, {"engine": found, "reference": wanted}
        )
        position = found[0]["position"]
        if not position.get("pending"):
            break
        query = make_query("gul_bara", position)


def test_wrong_dice_for_a_pending_stage_are_rejected() -> None:
    position = case_position("W 1×4 (off 11) | B 13×15", rolls=(4, 5), pending=[6, 6, 6, 6])
    position["pending_kind"] = "cascade"
    with pytest.raises(ValueError, match="pending"):
        answer_query(make_query("gul_bara", position, [5, 5]))


# --- illegal plays are rejected with a precise reason (§2.8) --------------------------------------

ILLEGAL = [
    # (name, variant, board, turn, dice, options, moves, step, key words)
    ("case01_smaller_die", "tabla", C1, "w", (6, 5), None, "13/8", None, ["larger", "6"]),
    ("case01_pass", "tabla", C1, "w", (6, 5), None, "", None, ["passing"]),
    ("case01_no_such_die", "tabla", C1, "w", (6, 5), None, "13/9", 0, ["no die of 4"]),
    ("case01_bear_off_not_home", "tabla", C1, "w", (6, 5), None, "1/off", 0, ["not", "home"]),
    ("case02_blocked_six", "tabla", C2, "w", (6, 5), None, "13/7", 0, ["blocked", "7"]),
    ("case03_lands_on_blocked_7", "tabla", C3, "w", (6, 5), None, "13/7 7/2", 0, ["7", "blocked"]),
    ("case03_one_die_only", "tabla", C3, "w", (6, 5), None, "13/8", None, ["more dice"]),
    ("case04_third_four_blocked", "tabla", C4, "w", (4, 4), None, "13/9 9/5", 1, ["blocked"]),
    ("case06_higher_die_not_highest", "tabla", C6, "w", (6, 3), None, "2/off", 0, ["highest"]),
    # §2.4: 4/off alone ends where the only legal play 4/3 3/off ends, but uses one die of two.
    (
        "shorter_route_to_a_legal_state",
        "tabla",
        "W 4, 3 (off 13) | B 2×2, 24×13",
        "w",
        (6, 1),
        None,
        "4/off",
        None,
        ["more dice"],
    ),
    ("case07_one_needs_highest", "tabla", C7, "w", (3, 2), None, "1/off 6/3", 0, ["highest"]),
    ("case08_bar_first", "tabla", C8, "w", (6, 5), None, "24/18 bar/20", 0, ["bar"]),
    ("case08_closed_entry", "tabla", C8, "w", (6, 5), None, "bar/19", 0, ["blocked"]),
    ("case09a_second_on_bar", "tabla", C9A, "w", (6, 5), None, "bar/20 13/7", 1, ["bar"]),
    ("case10_step_after_end", "tabla", C10, "w", (6, 1), None, "2/off 2/1", 1, ["over"]),
    ("case12_lone_black_on_20", "gul_bara", C12, "w", (4, 1), None, "24/20", 0, ["20", "opposing"]),
    ("case12_lone_black_on_16", "gul_bara", C12, "w", (4, 1), None, "17/16", 0, ["16", "opposing"]),
    ("case15_lone_black_on_3", "gul_bara", C15, "w", (2, 1), None, "5/3", 0, ["3", "opposing"]),
    ("case15_too_short", "gul_bara", C15, "w", (2, 1), None, "2/1", None, ["more dice"]),
    (
        "case17_pinner_pinned",
        "tapa",
        C17,
        "b",
        (3, 2),
        None,
        "18/15",
        0,
        ["pinner cannot be pinned"],
    ),
    ("case17_pinned_moves", "tapa", C17, "b", (3, 2), None, "15/12", 0, ["pinned", "cannot"]),
    ("case18_pinned_bear_off", "tapa", C18, "w", (6, 4), None, "5/off", 0, ["pinned"]),
    ("case18_pass_is_forced", "tapa", C18, "w", (6, 4), None, "2/off", 0, ["highest"]),
    (
        "case18_no_bearoff",
        "tapa",
        C18,
        "w",
        (2, 1),
        {"pinned_bearoff": "no_bearoff"},
        "2/off",
        0,
        ["no_bearoff"],
    ),
    ("case18_smaller_die", "tapa", C18_SIX, "w", (4, 3), None, "6/3", None, ["larger", "4"]),
    ("case19_step_after_win", "tapa", C19, "w", (6, 2), None, "3/1 8/2", 1, ["over"]),
    ("case22_step_after_tie", "tapa", C22, "b", (2, 1), None, "3/1 20/19", 1, ["over"]),
]


@pytest.mark.parametrize(
    "name, variant, board, turn, dice, options, moves, step, words",
    ILLEGAL,
    ids=[row[0] for row in ILLEGAL],
)
def test_illegal_play_is_rejected_with_reason(
    name: str,
    variant: str,
    board: str,
    turn: str,
    dice: tuple[int, int],
    options: dict[str, Any] | None,
    moves: str,
    step: int | None,
    words: list[str],
) -> None:
    query = make_query(variant, case_position(board, turn=turn), list(dice), options)
    with pytest.raises(IllegalPlayError) as error:
        checked_entry(query, moves)
    assert error.value.step == step, str(error.value)
    message = str(error.value).lower()
    for word in words:
        assert word.lower() in message, f"{word!r} not in {message!r}"


def test_case03_illegal_order_reaches_a_legal_state_but_is_rejected() -> None:
    """§2.8 (a): 13/7 7/2 ends where 13/8 8/2 does, yet its first step lands on a blocked point."""
    query = make_query("tabla", case_position(C3), [6, 5])
    legal = checked_entry(query, "13/8 8/2")
    assert states([legal]) == states(engine_entries(query))
    with pytest.raises(IllegalPlayError):
        checked_entry(query, "13/7 7/2")


def test_case10_both_orders_are_one_play() -> None:
    query = make_query("tabla", case_position(C10), [6, 1])
    assert canonical(checked_entry(query, "2/1 1/off")) == canonical(checked_entry(query, "2/off"))


def test_case16_pin_stacks_in_white_numbering() -> None:
    """Appendix C: 13/10 11/10 makes [["b",1],["w",2]] on white 10; rolls.w 4 -> 5."""
    query = make_query("tapa", case_position(C16, rolls=(4, 5)), [3, 1])
    entry = checked_entry(query, "13/10 11/10")
    points = entry["position"]["points"]
    assert points[9] == [["b", 1], ["w", 2]]
    assert points[10] == [] and points[12] == [["w", 1]]
    assert entry["position"]["turn"] == "b"
    assert entry["position"]["rolls"] == {"w": 5, "b": 5}
    pinned = checked_entry(query, "13/10 24/23")["position"]["points"][9]
    assert pinned == [["b", 1], ["w", 1]]
    freed = checked_entry(query, "13/10 10/9")["position"]["points"]
    assert freed[9] == [["b", 1]] and freed[8] == [["w", 1]]


# --- Case 23: match arithmetic (§6) --------------------------------------------------------------


def test_case23a_mars_takes_the_leader_past_the_target() -> None:
    state = MatchState(scores=(4, 3), decided_games=3, games_played=3, last_winner=0)
    after = record_game(state, GameResult("w", "mars", 2), 0)
    assert after.scores == (6, 3)
    assert match_winner(after) == 0


def test_case23b_tapa_tie_is_replayed_by_default() -> None:
    state = MatchState(scores=(3, 4), decided_games=2, games_played=2, last_winner=1)
    assert next_game(state).variant == "tapa"
    after = record_game(state, GameResult(None, "tie", 0), None)
    assert after.scores == (3, 4)
    assert match_winner(after) is None
    following = next_game(after)
    assert following.variant == "tapa"  # the replay does not advance the cycle
    assert following.starter is None  # a fresh opening roll


def test_case23b_tie_one_each_lets_the_leader_win() -> None:
    options = Options.from_json({"tapa_tie": "one_each"})
    state = MatchState(scores=(3, 4), decided_games=2, games_played=2, last_winner=1)
    after = record_game(state, GameResult(None, "tie", 1), None, options)
    assert after.scores == (4, 5)
    assert match_winner(after, options) == 1


def test_case23b_level_at_the_target_plays_on() -> None:
    options = Options.from_json({"tapa_tie": "one_each"})
    state = MatchState(scores=(4, 4), decided_games=2, games_played=2, last_winner=1)
    after = record_game(state, GameResult(None, "tie", 1), None, options)
    assert after.scores == (5, 5)
    assert match_winner(after, options) is None
    assert next_game(after, options).variant == "tabla"  # the scored tie advances the cycle


def test_case23c_opening_roll_rerolls_equal_dice() -> None:
    dice = iter([4, 4, 2, 6])
    roll = opening_roll(lambda: next(dice))
    assert roll.rounds == ((4, 4), (2, 6))
    assert roll.starter == 1  # the 6-roller


def test_case23c_opening_double_is_roll_1_and_does_not_escalate() -> None:
    position = start_position("gul_bara", "b").to_json()
    entries = engine_entries(make_query("gul_bara", position, [3, 3]))
    assert entries
    for entry in entries:
        assert len(entry["moves"]) == 4
        assert not entry["position"].get("pending")
        assert entry["position"]["turn"] == "w"
        assert entry["position"]["rolls"] == {"w": 0, "b": 1}
    with_from_1 = make_query("gul_bara", position, [3, 3], {"cascade_from_roll": 1})
    assert all(e["position"].get("pending_kind") == "cascade" for e in engine_entries(with_from_1))


def test_case23c_use_opening_dice_makes_them_the_first_roll() -> None:
    dice = iter([4, 4, 2, 6])
    roll = opening_roll(lambda: next(dice))
    assert roll.first_dice == (2, 6)


def test_previous_winner_starts_the_next_game_in_the_cycle() -> None:
    state = MatchState()
    assert next_game(state).variant == "tabla"
    assert next_game(state).starter is None  # game 1: opening roll
    state = record_game(state, GameResult("b", "single", 1), 1)
    assert (next_game(state).variant, next_game(state).starter) == ("gul_bara", 1)
    state = record_game(state, GameResult("w", "mars", 2), 0)
    assert (next_game(state).variant, next_game(state).starter) == ("tapa", 0)
    state = record_game(state, GameResult("w", "mother", 2), 0)
    assert next_game(state).variant == "tabla"
    assert state.scores == (4, 1) and match_winner(state) is None
    opening = Options.from_json({"next_starter": "opening_roll"})
    assert next_game(state, opening).starter is None


def test_tapa_tie_zero_counts_the_game_and_advances_the_cycle() -> None:
    options = Options.from_json({"tapa_tie": "zero"})
    state = MatchState(scores=(3, 4), decided_games=2, games_played=2, last_winner=1)
    after = record_game(state, GameResult(None, "tie", 0), None, options)
    assert after.scores == (3, 4)
    assert after.decided_games == 3
    assert next_game(after, options).variant == "tabla"
