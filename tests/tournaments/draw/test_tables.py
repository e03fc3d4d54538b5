"""Table numbers (tournaments/draw/tables.py, docs/decisions.md D40) and the play levels of a
bracket that group its matches into rounds played side by side."""

from tournaments.draw import brackets
from tournaments.draw.tables import Slot, table_numbers


def test_table_one_is_the_top_pairing_and_byes_get_no_table():
    slots = [Slot("R1-1", True), Slot("R1-2", True), Slot("R1-bye", False)]
    assert table_numbers(slots) == {"R1-1": 1, "R1-2": 2}


def test_a_match_decided_or_waiting_keeps_its_table_so_the_others_do_not_move():
    slots = [Slot("W2-1", True), Slot("W2-2", True), Slot("L1-1", True), Slot("L1-2", True)]
    assert table_numbers(slots)["L1-2"] == 4


def test_winners_round_two_and_losers_round_one_are_one_play_level():
    bracket = brackets.double_elimination(8)
    levels = brackets.play_levels(bracket.matches)
    assert {key for key, level in levels.items() if level == 2} == {"W2-1", "W2-2", "L1-1", "L1-2"}
    assert levels["W1-1"] == 1 and levels["GF"] > levels["L3-1"] > levels["W3-1"]
