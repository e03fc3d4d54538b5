"""Round names: elimination rounds named from the end (Final, Semi-final, Quarter-final, Round of
16), the flights of double elimination and consolation, and league rounds by number
(docs/decisions.md D34)."""

import pytest

from tournaments.draw.brackets import Section, consolation, double_elimination, single_elimination
from tournaments.draw.round_names import RoundKind, RoundName, round_name


def names(bracket, section):
    rounds = bracket.rounds(section)
    return [
        str(round_name(bracket.format, section, n, len(rounds))) for n in range(1, len(rounds) + 1)
    ]


def test_single_elimination_rounds_are_named_from_the_final_back():
    assert names(single_elimination(32), Section.MAIN) == [
        "Round of 32", "Round of 16", "Quarter-final", "Semi-final", "Final",
    ]  # fmt: skip
    assert names(single_elimination(2), Section.MAIN) == ["Final"]
    assert names(single_elimination(5), Section.MAIN) == ["Quarter-final", "Semi-final", "Final"]


def test_the_third_place_match_has_its_own_name():
    assert names(single_elimination(4, third_place=True), Section.THIRD_PLACE) == [
        "Third-place match"
    ]


def test_double_elimination_names_the_winners_losers_and_grand_finals():
    bracket = double_elimination(8)
    assert names(bracket, Section.MAIN) == [
        "Winners' quarter-final", "Winners' semi-final", "Winners' final",
    ]  # fmt: skip
    assert names(bracket, Section.LOSERS) == [
        "Losers' round 1", "Losers' round 2", "Losers' round 3", "Losers' final",
    ]  # fmt: skip
    assert names(bracket, Section.GRAND_FINAL) == ["Grand final"]
    assert names(bracket, Section.RESET) == ["Grand final reset"]
    assert names(double_elimination(16), Section.MAIN)[0] == "Winners' round of 16"


def test_a_consolation_flight_ends_in_its_own_final():
    bracket = consolation(8, entry_rounds=2)
    assert names(bracket, Section.MAIN) == ["Quarter-final", "Semi-final", "Final"]
    flight = names(bracket, Section.CONSOLATION)
    assert flight[-1] == "Consolation final" and flight[0] == "Consolation round 1"


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_league_rounds_keep_their_numbers(fmt):
    assert str(round_name(fmt, "main", 3, 7)) == "Round 3"
    assert round_name(fmt, "group-2", 1, 3) == RoundName(RoundKind.ROUND, 1)


def test_a_round_outside_its_section_is_refused():
    with pytest.raises(ValueError, match="round 4 is not one of the 3 rounds"):
        round_name("single_elimination", "main", 4, 3)
    with pytest.raises(ValueError):
        round_name("swiss", "main", 0, 3)


def test_every_kind_has_english_text():
    for kind in RoundKind:
        assert "{" not in str(RoundName(kind, 4))
