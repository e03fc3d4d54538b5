"""Round-robin schedules, snake groups and knock-out qualifiers."""

from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.draw.brackets import seeding_order
from tournaments.draw.round_robin import knockout_qualifiers, round_robin, snake_groups


def test_four_players_play_three_rounds():
    assert round_robin([1, 2, 3, 4]) == [[(1, 4), (2, 3)], [(3, 1), (4, 2)], [(1, 2), (3, 4)]]


def test_an_odd_field_gives_each_player_one_bye():
    rounds = round_robin([1, 2, 3])
    assert len(rounds) == 3
    assert sorted(home for round_ in rounds for home, away in round_ if away is None) == [1, 2, 3]


@given(n=st.integers(0, 21), double=st.booleans())
def test_every_pair_meets_once_and_everyone_plays_once_a_round(n, double):
    players = list(range(10, 10 + n))
    rounds = round_robin(players, double=double)
    cycle = n - 1 + n % 2 if n > 1 else 0
    assert len(rounds) == cycle * (2 if double else 1)
    meetings = Counter(frozenset(pair) for round_ in rounds for pair in round_ if None not in pair)
    assert meetings == {frozenset(pair): 2 if double else 1 for pair in combinations(players, 2)}
    for round_ in rounds:
        seen = [p for pair in round_ for p in pair if p is not None]
        assert sorted(seen) == players
    if double:  # the second cycle swaps home and away
        homes = Counter(pair for round_ in rounds for pair in round_ if None not in pair)
        assert all(homes[(b, a)] == count for (a, b), count in homes.items())


def test_snake_groups_deal_back_and_forth():
    assert snake_groups(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert snake_groups([1, 2, 3], 4) == [[1], [2], [3], []]


def test_group_winners_are_seeded_first_and_avoid_their_own_runner_up():
    groups = [[11, 12, 13], [21, 22, 23], [31, 32, 33], [41, 42, 43]]
    order = knockout_qualifiers(groups, 2)
    assert order[:4] == [11, 21, 31, 41]
    assert _same_group_first_round_matches(order) == 0


def test_three_groups_of_two_qualifiers_give_byes_to_the_winners():
    order = knockout_qualifiers([[11, 12], [21, 22], [31, 32]], 2)
    assert order[:3] == [11, 21, 31] and sorted(order[3:]) == [12, 22, 32]
    assert _same_group_first_round_matches(order) == 0


def _same_group_first_round_matches(order):
    size = 1
    while size < len(order):
        size *= 2
    seeds = seeding_order(size)
    pairs = [(seeds[i], seeds[i + 1]) for i in range(0, size, 2)]
    return sum(1 for a, b in pairs if b <= len(order) and order[a - 1] // 10 == order[b - 1] // 10)
