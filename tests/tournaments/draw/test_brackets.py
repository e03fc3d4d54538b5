"""Elimination brackets: seeding, byes, double elimination, consolation flights and placings."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.draw.helpers import (
    assert_well_formed,
    losses,
    play_out,
    random_winner,
    seeding_for,
    top_seed_wins,
)
from tournaments.draw.brackets import (
    BracketMatch,
    LoserOf,
    Seed,
    WinnerOf,
    _drop_order,
    consolation,
    consolation_placings,
    double_elimination,
    downstream,
    parse_source,
    placing_ranges,
    placings,
    resolve,
    section_rank,
    seeding_order,
    single_elimination,
    source_text,
)


def first_round(bracket):
    return [tuple(s.number for s in m.sources) for m in bracket.matches if m.key.startswith("W1-")]


def test_eight_seeds_are_drawn_1_8_4_5_2_7_3_6():
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_round(single_elimination(8)) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_sixteen_seeds_fold_the_eight_seed_draw():
    assert first_round(single_elimination(16))[:4] == [(1, 16), (8, 9), (4, 13), (5, 12)]


def test_six_players_give_byes_to_seeds_1_and_2():
    bracket = single_elimination(6)
    states = resolve(bracket, seeding_for(6), {})
    assert states["W1-1"].status == "bye" and states["W1-1"].winner == 101
    assert states["W1-3"].status == "bye" and states["W1-3"].winner == 102
    assert [states[k].status for k in ("W1-2", "W1-4")] == ["ready", "ready"]
    assert states["W2-1"].players == (101, None) and states["W2-1"].status == "waiting"


def test_a_result_naming_someone_else_is_refused():
    bracket = single_elimination(4)
    with pytest.raises(ValueError, match="W1-1 names 103"):
        resolve(bracket, seeding_for(4), {"W1-1": 103})
    with pytest.raises(ValueError, match="'waiting'"):
        resolve(bracket, seeding_for(4), {"W2-1": 101})


def test_correcting_a_result_is_a_recompute():
    bracket = single_elimination(4)
    before = resolve(bracket, seeding_for(4), {"W1-1": 101, "W1-2": 102})
    after = resolve(bracket, seeding_for(4), {"W1-1": 104, "W1-2": 102})
    assert before["W2-1"].players == (101, 102) and after["W2-1"].players == (104, 102)


def test_a_result_a_correction_makes_impossible_is_left_out_when_not_strict():
    bracket = single_elimination(4)
    results = {"W1-1": 104, "W1-2": 102, "W2-1": 101}  # the final names the old W1-1 winner
    with pytest.raises(ValueError, match="W2-1 names 101"):
        resolve(bracket, seeding_for(4), results)
    states = resolve(bracket, seeding_for(4), results, strict=False)
    assert states["W2-1"].players == (104, 102) and states["W2-1"].status == "ready"


def test_downstream_follows_winners_and_losers_but_never_goes_back():
    assert downstream(single_elimination(8, third_place=True), "W2-1") == ["W3-1", "3P"]
    assert downstream(single_elimination(8), "W3-1") == []
    after_semi = downstream(double_elimination(8), "W2-1")
    assert after_semi == ["W3-1", "L2-2", "L3-1", "L4-1", "GF", "GF2"]
    assert downstream(double_elimination(8), "L1-1") == ["L2-1", "L3-1", "L4-1", "GF", "GF2"]


def test_semi_final_losers_share_third_without_a_third_place_match():
    bracket = single_elimination(8)
    states, _ = play_out(bracket, top_seed_wins)
    assert sorted(placings(bracket, states)) == [
        (101, 1),
        (102, 2),
        (103, 3),
        (104, 3),
        (105, 5),
        (106, 5),
        (107, 5),
        (108, 5),
    ]


def test_the_third_place_match_separates_the_semi_final_losers():
    bracket = single_elimination(8, third_place=True)
    assert bracket.matches[-1] == BracketMatch(
        "3P", "third_place", 1, 1, (LoserOf("W2-1"), LoserOf("W2-2"))
    )
    states, _ = play_out(bracket, top_seed_wins)
    assert placings(bracket, states)[:4] == [(101, 1), (102, 2), (103, 3), (104, 4)]


def test_byes_take_no_place():
    bracket = single_elimination(6)
    states, _ = play_out(bracket, top_seed_wins)
    assert sorted(placings(bracket, states), key=lambda pair: pair[1])[-2:] == [(105, 5), (106, 5)]


def test_players_out_in_the_same_round_share_a_range_of_places():
    """The quarter-final losers of 8 are "5-8", not 5th by a tie-break (docs/decisions.md D33)."""
    bracket = single_elimination(8)
    states, _ = play_out(bracket, top_seed_wins)
    assert sorted(placing_ranges(bracket, states)) == [
        (101, 1, 1), (102, 2, 2), (103, 3, 4), (104, 3, 4),
        (105, 5, 8), (106, 5, 8), (107, 5, 8), (108, 5, 8),
    ]  # fmt: skip
    with_third = single_elimination(8, third_place=True)
    states, _ = play_out(with_third, top_seed_wins)
    assert placing_ranges(with_third, states)[:4] == [
        (101, 1, 1), (102, 2, 2), (103, 3, 3), (104, 4, 4),
    ]  # fmt: skip
    six = single_elimination(6)
    states, _ = play_out(six, top_seed_wins)
    assert sorted(placing_ranges(six, states))[-2:] == [(105, 5, 6), (106, 5, 6)]


def test_a_range_is_known_before_all_its_players_are():
    bracket = single_elimination(8)
    states = resolve(bracket, seeding_for(8), {"W1-1": 101})
    assert placing_ranges(bracket, states) == [(108, 5, 8)]


def test_double_elimination_ranges_follow_the_losers_bracket():
    bracket = double_elimination(8)
    states, _ = play_out(bracket, top_seed_wins)
    ranges = {first: last for _player, first, last in placing_ranges(bracket, states)}
    assert ranges == {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 7: 8}


def test_double_elimination_with_four_players():
    bracket = double_elimination(4)
    assert [m.key for m in bracket.matches] == ["W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF", "GF2"]
    assert bracket.match("L2-1").sources == (WinnerOf("L1-1"), LoserOf("W2-1"))
    results = {"W1-1": 101, "W1-2": 103, "L1-1": 102, "W2-1": 101, "L2-1": 102, "GF": 102}
    states = resolve(bracket, seeding_for(4), results)
    assert states["GF"].players == (101, 102)
    assert states["GF2"].status == "ready" and states["GF2"].players == (101, 102)
    states = resolve(bracket, seeding_for(4), {**results, "GF2": 102})
    assert placings(bracket, states) == [(102, 1), (101, 2), (103, 3), (104, 4)]


def test_reset_match_is_void_when_the_winners_champion_wins_the_grand_final():
    bracket = double_elimination(4)
    results = {"W1-1": 101, "W1-2": 102, "L1-1": 103, "W2-1": 101, "L2-1": 102, "GF": 101}
    states = resolve(bracket, seeding_for(4), results)
    assert states["GF2"].status == "void"
    assert placings(bracket, states)[:2] == [(101, 1), (102, 2)]


def test_double_elimination_with_eight_players_top_seeds_winning():
    bracket = double_elimination(8)
    states, results = play_out(bracket, top_seed_wins)
    assert states["L2-1"].players == (105, 103) and states["L2-2"].players == (106, 104)
    assert states["GF"].players == (101, 102) and states["GF2"].status == "void"
    assert placings(bracket, states) == [
        (101, 1),
        (102, 2),
        (103, 3),
        (104, 4),
        (105, 5),
        (106, 5),
        (108, 7),
        (107, 7),
    ]


def test_double_elimination_with_five_players_propagates_byes():
    bracket = double_elimination(5)
    states, _ = play_out(bracket, top_seed_wins)
    assert states["L1-1"].status == "bye" and states["L1-1"].winner == 105
    assert states["L1-2"].status == "void"
    assert_well_formed(bracket, states)
    assert [place for _, place in placings(bracket, states)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("n", [4, 5, 8, 13])
def test_double_elimination_played_out_upsets_included(n):
    bracket = double_elimination(n)
    states, _ = play_out(bracket, random_winner(random.Random(n)))
    assert_well_formed(bracket, states)
    assert sorted(p for p, _ in placings(bracket, states)) == sorted(seeding_for(n).values())
    assert (
        sum(1 for count in losses(states).values() if count < 2)
        + (len(seeding_for(n)) - len(losses(states)))
        == 1
    )


def test_drop_ins_avoid_rematches_until_they_cannot():
    bracket = double_elimination(64)
    for number, round_ in enumerate(bracket.rounds("losers"), start=1):
        drops = [m.sources[1] for m in round_ if isinstance(m.sources[1], LoserOf)]
        if number % 2 == 0 and len(drops) >= 4:
            entering = int(drops[0].key[1:].split("-")[0])
            previous = [m.sources[0] for m in round_]
            # no player in the live slot can have lost to the drop-in in the winners bracket
            for source, drop in zip(previous, drops, strict=True):
                j = int(drop.key.split("-")[1])
                origins = _origins(bracket, source)
                assert all((i - 1) >> (entering - q) != j - 1 for q, i in origins)
    assert _drop_order([(Seed(1), frozenset({(1, 1)})), (Seed(2), frozenset({(1, 3)}))], 2) == [
        1,
        0,
    ]


def _origins(bracket, source):
    if isinstance(source, LoserOf) and source.key.startswith("W"):
        q, i = source.key[1:].split("-")
        return {(int(q), int(i))}
    match = bracket.match(source.key)
    return set().union(*(_origins(bracket, s) for s in match.sources))


def test_consolation_flight_for_first_round_losers():
    bracket = consolation(8, match_length=3)
    side = bracket.rounds("consolation")
    assert [[m.sources for m in round_] for round_ in side] == [
        [(LoserOf("W1-1"), LoserOf("W1-2")), (LoserOf("W1-3"), LoserOf("W1-4"))],
        [(WinnerOf("C1-1"), WinnerOf("C1-2"))],
    ]
    assert {m.match_length for round_ in side for m in round_} == {3}
    assert {m.match_length for m in bracket.matches if m.section == "main"} == {None}


def test_progressive_consolation_lets_second_round_losers_enter_later():
    bracket = consolation(8, entry_rounds=2)
    side = bracket.rounds("consolation")
    assert [len(round_) for round_ in side] == [2, 2, 1]
    assert {type(m.sources[1]) for m in side[1]} == {LoserOf}
    states, _ = play_out(bracket, top_seed_wins)
    assert consolation_placings(bracket, states)[0] == (103, 1)  # lost to 2 in round 2
    assert placings(bracket, states)[:2] == [(101, 1), (102, 2)]


def test_consolation_needs_a_round_to_enter_from():
    with pytest.raises(ValueError, match="entry_rounds"):
        consolation(4, entry_rounds=2)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), third_place=st.booleans(), rng=st.randoms(use_true_random=False))
def test_single_elimination_always_crowns_one_champion(n, third_place, rng):
    bracket = single_elimination(n, third_place=third_place)
    states, _ = play_out(bracket, random_winner(rng))
    assert_well_formed(bracket, states)
    places = placings(bracket, states)
    assert sorted(p for p, _ in places) == sorted(seeding_for(n).values())
    assert [place for _, place in places].count(1) == 1
    main_losses = losses({k: s for k, s in states.items() if k != "3P"})
    assert len(main_losses) == n - 1 and set(main_losses.values()) == {1}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), reset=st.booleans(), rng=st.randoms(use_true_random=False))
def test_double_elimination_leaves_one_player_with_fewer_than_two_losses(n, reset, rng):
    bracket = double_elimination(n, reset=reset)
    states, _ = play_out(bracket, random_winner(rng))
    assert_well_formed(bracket, states)
    lost = losses(states)
    survivors = [p for p in seeding_for(n).values() if lost[p] < 2]
    grand_final = states["GF"]
    needed = grand_final.winner == grand_final.players[1]
    if reset:
        assert states["GF2"].status == ("done" if needed else "void")
        assert len(survivors) == 1
    else:
        assert len(survivors) == (2 if needed else 1)
    places = placings(bracket, states)
    assert sorted(p for p, _ in places) == sorted(seeding_for(n).values())
    assert [place for _, place in places].count(1) == 1


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 40), data=st.data(), rng=st.randoms(use_true_random=False))
def test_consolation_played_out_has_one_winner_per_flight(n, data, rng):
    rounds = len(single_elimination(n).rounds("main"))
    if rounds < 2:
        return
    entry_rounds = data.draw(st.integers(1, rounds - 1))
    bracket = consolation(n, entry_rounds=entry_rounds)
    states, _ = play_out(bracket, random_winner(rng))
    assert_well_formed(bracket, states)
    side = consolation_placings(bracket, states)
    assert [place for _, place in side].count(1) == 1


def test_sources_round_trip_through_their_stored_text_and_nothing_else_parses() -> None:
    for source in (Seed(3), WinnerOf("W1-1"), LoserOf("GF")):
        assert parse_source(source_text(source)) == source
    assert source_text(LoserOf("W2-1")) == "loser:W2-1"
    for bad in ("", "seed:", "seed:x", "winner:", "champion:W1-1", "W1-1"):
        with pytest.raises(ValueError, match="not a bracket source"):
            parse_source(bad)


def test_sections_rank_in_display_order_with_other_names_last() -> None:
    names = ["reset", "group-2", "grand_final", "third_place", "losers", "main"]
    assert sorted(names, key=section_rank) == [
        "main", "losers", "third_place", "grand_final", "reset", "group-2",
    ]  # fmt: skip
