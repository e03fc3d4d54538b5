"""Swiss pairing: examples, brute-force agreement on small fields and whole random events."""

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw.swiss import PairingError, SwissPlayer, default_rounds, pair_round


def test_default_rounds_is_ceil_log2():
    assert [default_rounds(n) for n in (1, 2, 3, 8, 9, 1000)] == [1, 1, 2, 3, 4, 10]


def test_first_round_pairs_top_half_against_bottom_half():
    players = [SwissPlayer(i, 0.0, rating=2000 - i) for i in range(1, 9)]
    assert pair_round(players).pairs == ((1, 5), (2, 6), (3, 7), (4, 8))


def test_score_groups_pair_within_themselves():
    players = [SwissPlayer(i, 1.0 if i <= 4 else 0.0, rank=i) for i in range(1, 9)]
    assert pair_round(players).pairs == ((1, 3), (2, 4), (5, 7), (6, 8))


def test_an_odd_group_floats_its_last_player_to_the_top_of_the_next():
    players = [SwissPlayer(i, 1.0 if i <= 3 else 0.0, rank=i) for i in range(1, 7)]
    assert pair_round(players).pairs == ((1, 2), (3, 4), (5, 6))


def test_rematches_are_avoided():
    players = [
        SwissPlayer(1, 1.0, rank=1, opponents=frozenset({3})),
        SwissPlayer(2, 1.0, rank=2, opponents=frozenset({4})),
        SwissPlayer(3, 0.0, rank=3, opponents=frozenset({1})),
        SwissPlayer(4, 0.0, rank=4, opponents=frozenset({2})),
    ]
    assert pair_round(players).pairs == ((1, 2), (3, 4))


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    players = [SwissPlayer(i, 0.0, rank=i, had_bye=i == 5) for i in range(1, 6)]
    round_ = pair_round(players)
    assert round_.bye == 4 and sorted(p for pair in round_.pairs for p in pair) == [1, 2, 3, 5]


def test_no_legal_pairing_raises_a_pairing_error():
    everyone = frozenset(range(1, 5))
    players = [SwissPlayer(i, 0.0, opponents=everyone - {i}) for i in range(1, 5)]
    with pytest.raises(PairingError, match="no legal pairing for 4 players"):
        pair_round(players)


def test_a_lone_player_who_had_the_bye_cannot_be_paired():
    assert pair_round([SwissPlayer(7, 0.0)]) == pair_round([SwissPlayer(7, 3.0)])
    with pytest.raises(PairingError):
        pair_round([SwissPlayer(7, 0.0, had_bye=True)])


def legal_pairings(
    players: list[SwissPlayer],
) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    """Every legal pairing, by brute force (fields up to ~11)."""
    by_id = {p.id: p for p in players}

    def extend(left: list[int], pairs: list[tuple[int, int]], bye: int | None):
        if not left:
            yield list(pairs), bye
            return
        first, rest = left[0], left[1:]
        if len(left) % 2 and bye is None and not by_id[first].had_bye:
            yield from extend(rest, pairs, first)
        for other in rest:
            if other not in by_id[first].opponents:
                remaining = [p for p in rest if p != other]
                yield from extend(remaining, [*pairs, (first, other)], bye)

    yield from extend([p.id for p in players], [], None)


def gap_cost(players, pairs, bye) -> int:
    """The primary criterion: squared score-group distances (the bye one group below the lowest)."""
    groups = {s: g for g, s in enumerate(sorted({p.score for p in players}, reverse=True))}
    group = {p.id: groups[p.score] for p in players}
    lowest = max(group.values())
    cost = sum((group[a] - group[b]) ** 2 for a, b in pairs)
    return cost + ((lowest + 1 - group[bye]) ** 2 if bye is not None else 0)


def simulate(n: int, rounds: int, rng: random.Random, check=None) -> list[SwissPlayer]:
    """Play `rounds` rounds with random winners; `check(players, round_)` after each pairing."""
    score = dict.fromkeys(range(n), 0.0)
    opponents: dict[int, set[int]] = {i: set() for i in range(n)}
    byes: set[int] = set()
    rating = {i: rng.uniform(1200, 1800) for i in range(n)}
    for _ in range(rounds):
        players = [
            SwissPlayer(i, score[i], rating[i], frozenset(opponents[i]), i in byes)
            for i in range(n)
        ]
        try:
            round_ = pair_round(players)
        except PairingError:
            if check is None:
                raise
            check(players, None)
            return players
        if check is not None:
            check(players, round_)
        for a, b in round_.pairs:
            opponents[a].add(b)
            opponents[b].add(a)
            score[rng.choice((a, b))] += 1
        if round_.bye is not None:
            byes.add(round_.bye)
            score[round_.bye] += 1
    return players


def assert_legal(players: list[SwissPlayer], round_) -> None:
    by_id = {p.id: p for p in players}
    seen = [p for pair in round_.pairs for p in pair] + (
        [round_.bye] if round_.bye is not None else []
    )
    assert sorted(seen) == sorted(by_id), "each player appears exactly once"
    assert all(b not in by_id[a].opponents for a, b in round_.pairs), "no rematch"
    assert round_.bye is None or not by_id[round_.bye].had_bye, "one bye per player"
    assert (round_.bye is not None) == (len(players) % 2 == 1)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 10), rounds=st.integers(1, 9), rng=st.randoms(use_true_random=False))
def test_small_fields_pair_exactly_when_brute_force_can(n, rounds, rng):
    def check(players, round_):
        options = list(legal_pairings(players))
        if round_ is None:
            assert options == [], "PairingError although a legal pairing exists"
            return
        assert_legal(players, round_)
        best = min(gap_cost(players, pairs, bye) for pairs, bye in options)
        assert gap_cost(players, round_.pairs, round_.bye) == best

    simulate(n, rounds, rng, check)


@settings(max_examples=8, deadline=None)
@given(n=st.integers(49, 200), rng=st.randoms(use_true_random=False))
def test_large_fields_paired_in_blocks_stay_legal(n, rng):
    simulate(n, 6, rng, assert_legal)
