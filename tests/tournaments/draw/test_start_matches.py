"""How many matches a start would create (tournaments.draw.format_rules.start_matches, D57), against
the pure draws themselves."""

import pytest

from tournaments.draw import brackets, round_robin
from tournaments.draw.format_rules import start_matches


def test_the_issue_s_double_round_robin_of_117_players():
    settings = {"format": "round_robin", "double_round_robin": True}
    assert start_matches(settings, 117) == (13_572, "a double round robin of 117 players")


@pytest.mark.parametrize("entries", [2, 3, 7, 12, 33])
@pytest.mark.parametrize("groups", [1, 2, 3])
@pytest.mark.parametrize("double", [False, True])
def test_a_round_robin_counts_the_pairs_its_schedule_plays(entries, groups, double):
    if entries < 2 * groups:
        return
    members = (
        round_robin.snake_groups(list(range(entries)), groups)
        if groups > 1
        else [list(range(entries))]
    )
    pairs = sum(
        1
        for group in members
        for pairing in round_robin.round_robin(group, double=double)
        for _, away in pairing
        if away is not None
    )
    settings = {"format": "round_robin", "groups": groups, "double_round_robin": double}
    count, words = start_matches(settings, entries)
    assert count == pairs
    assert words.endswith(f"of {entries} players" + (f" in {groups} groups" if groups > 1 else ""))


@pytest.mark.parametrize("entries", [2, 5, 16, 100])
def test_a_bracket_counts_its_slots_and_a_swiss_its_first_round(entries):
    single = start_matches({"format": "single_elimination", "third_place": True}, entries)
    assert single[0] == len(brackets.single_elimination(entries, third_place=True).matches)
    double = start_matches({"format": "double_elimination", "grand_final_reset": True}, entries)
    assert double == (
        len(brackets.double_elimination(entries, reset=True).matches),
        f"a double elimination of {entries} players",
    )
    assert start_matches({"format": "swiss"}, entries) == (
        entries // 2,
        f"a Swiss round of {entries} players",
    )
