"""Who enters a consolation flight: every player whose first match played was a loss, once."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.draw.helpers import (
    assert_well_formed,
    play_out,
    random_winner,
    seeding_for,
)
from tournaments.draw.brackets import (
    Bye,
    LoserOf,
    Section,
    SlotState,
    WinnerOf,
    consolation,
    consolation_placings,
    consolation_rounds_for,
    parse_source,
    placing_ranges,
    resolve,
    source_text,
)


def first_matches(bracket, states: dict[str, SlotState]) -> dict[int, SlotState]:
    """Each player's first main-flight match actually played (byes are not played)."""
    first: dict[int, SlotState] = {}
    for match in bracket.matches:
        state = states[match.key]
        if match.section == Section.MAIN and state.status == "done":
            for player in state.players:
                first.setdefault(player, state)
    return first


def consolation_entrants(bracket, states) -> Counter[int]:
    """How many times each player entered the consolation from the main flight."""
    entered: Counter[int] = Counter()
    for match in bracket.matches:
        if match.section != Section.CONSOLATION:
            continue
        state = states[match.key]
        for source, player in zip(match.sources, state.players, strict=True):
            if isinstance(source, LoserOf) and player is not None:
                entered[player] += 1
    return entered


def test_eleven_players_a_seed_who_loses_their_first_real_match_enters():
    # 11 in a draw of 16: seeds 1-5 have round-1 byes. Seed 1 loses W2-1 to the winner of
    # 8 v 9: that was seed 1's first match played, so seed 1 plays in C1.
    bracket = consolation(11)
    seeding = seeding_for(11)
    results = {"W1-2": 108, "W1-6": 107, "W1-8": 106, "W2-1": 108}
    states = resolve(bracket, seeding, results)
    assert bracket.match("C1-1").sources == (LoserOf("W2-1", 0), LoserOf("W1-2"))
    assert states["C1-1"].players == (101, 109)
    assert states["C1-1"].status == "ready"


def test_the_side_conditional_slot_is_a_bye_when_the_seed_wins():
    bracket = consolation(11)
    results = {"W1-2": 108, "W1-6": 107, "W1-8": 106, "W2-1": 101}
    states = resolve(bracket, seeding_for(11), results)
    # 108 won round 1 and lost round 2: not their first match, so no consolation for 108;
    # the loser of 8 v 9 (109) meets the empty slot and goes through.
    assert states["C1-1"].players == (None, 109)
    assert states["C1-1"].status == "bye" and states["C1-1"].winner == 109


def test_two_seeds_with_byes_meeting_drop_nobody_into_round_two():
    # 11 entrants, entry_rounds=2: seeds 4 and 5 both had byes and meet in W2-2; its loser
    # enters C1 (first match played) and must not drop into C2 again.
    bracket = consolation(11, entry_rounds=2)
    sources = {
        source_text(s) for m in bracket.matches if m.section == Section.CONSOLATION
        for s in m.sources
    }  # fmt: skip
    assert "loser:W2-2:0" in sources and "loser:W2-2:1" in sources
    assert "bye" in sources and "loser:W2-2" not in sources


def test_stored_text_of_the_new_sources_round_trips():
    for source in (LoserOf("W2-1", 0), LoserOf("W2-3", 1), Bye()):
        assert parse_source(source_text(source)) == source
    for bad in ("loser:W2-1:2", "loser::0", "byes"):
        with pytest.raises(ValueError, match="not a bracket source"):
            parse_source(bad)


@pytest.mark.parametrize(
    ("n", "wanted", "rounds"),
    [(2, 1, 0), (3, 2, 1), (4, 1, 1), (5, 2, 2), (8, 5, 2), (9, 2, 2), (40, 5, 5)],
)
def test_entry_rounds_follow_what_the_field_allows(n, wanted, rounds):
    assert consolation_rounds_for(n, wanted) == rounds
    bracket = consolation(n, entry_rounds=rounds)
    assert bool(bracket.rounds(Section.CONSOLATION)) == (rounds > 0)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), wanted=st.integers(1, 2), rng=st.randoms(use_true_random=False))
def test_every_first_match_loser_enters_once_and_the_flight_has_one_winner(n, wanted, rng):
    entry_rounds = consolation_rounds_for(n, wanted)
    bracket = consolation(n, entry_rounds=entry_rounds)
    states, _ = play_out(bracket, random_winner(rng))
    assert_well_formed(bracket, states)
    entered = consolation_entrants(bracket, states)
    assert max(entered.values(), default=1) == 1, "a player entered the consolation twice"
    if entry_rounds == 0:
        return
    first_losers = {s.loser for s in first_matches(bracket, states).values()}
    first_losers = {p for p in first_losers if first_matches(bracket, states)[p].loser == p}
    assert first_losers <= set(entered)
    if entry_rounds == 1:
        assert set(entered) == first_losers
    places = consolation_placings(bracket, states)
    assert {player for player, _ in places} <= set(entered)
    if len(entered) >= 2:
        assert [place for _, place in places].count(1) == 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(5, 40), rng=st.randoms(use_true_random=False))
def test_no_consolation_winner_goes_through_on_byes_alone(n, rng):
    """With one entry round, the flight's winner played at least one consolation match
    whenever three or more players entered it."""
    bracket = consolation(n, entry_rounds=1)
    states, _ = play_out(bracket, random_winner(rng))
    entered = consolation_entrants(bracket, states)
    winner = [p for p, place in consolation_placings(bracket, states) if place == 1]
    if len(entered) >= 3:
        played = [
            s for key, s in states.items()
            if key.startswith("C") and s.status == "done" and winner[0] in s.players
        ]  # fmt: skip
        assert played, f"{winner} won the consolation on byes"


def test_consolation_winner_is_first_of_the_flight_for_eleven():
    bracket = consolation(11)
    states, _ = play_out(bracket, lambda players: min(players))
    places = dict(consolation_placings(bracket, states))
    # Top seeds win: losers of first matches are 9, 10, 11 (round 1) and 5 (lost to 4, the
    # first match of both); the best of them, seed 5, wins the flight.
    assert set(places) == {105, 109, 110, 111}
    assert places[105] == 1
    assert isinstance(bracket.rounds(Section.CONSOLATION)[-1][0].sources[0], WinnerOf)


def test_consolation_ranges_span_the_places_a_flight_round_shares():
    bracket = consolation(8)
    states, _ = play_out(bracket, lambda players: min(players))
    ranges = sorted(placing_ranges(bracket, states, Section.CONSOLATION))
    assert ranges == [(105, 1, 1), (106, 2, 2), (107, 3, 4), (108, 3, 4)]
