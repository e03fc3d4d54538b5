"""The match table: exact on small matches worked by hand, symmetric, monotone, equal to a
simulation of the same rates; a position's match chance on obvious inputs."""

import numpy as np
import pytest

from games.analysis.match_table import (
    GameChances,
    MatchTable,
    cube_chances,
    match_chance,
    simulate,
)
from games.analysis.rates import Rates, VariantRates
from games.engine import Options

CYCLE = ("tabla", "gul_bara", "tapa")

# Made-up rates with a first-mover edge that differs by game, mars and a Tapa tie.
RATES = Rates(
    {
        "tabla": VariantRates.of([0.33, 0.20], [0.30, 0.17]),
        "gul_bara": VariantRates.of([0.30, 0.25, 0.01], [0.30, 0.14]),
        "tapa": VariantRates.of([0.30, 0.22], [0.28, 0.18], tie=0.02),
    }
)
# Only singles and mars, no tie: the 2-point match by hand below.
PLAIN = Rates(
    {
        "tabla": VariantRates.of([0.4, 0.15], [0.3, 0.15]),
        "gul_bara": VariantRates.of([0.35, 0.2], [0.35, 0.1]),
        "tapa": VariantRates.of([0.25, 0.3], [0.3, 0.15]),
    }
)


def wins(rates: Rates, k: int) -> float:
    return rates[CYCLE[k % 3]].first_mover_wins


def test_a_one_point_match_is_the_game_itself():
    table = MatchTable(RATES, Options(match_length=1))
    for k, variant in enumerate(CYCLE):
        r = RATES[variant]
        # a replayed tie starts afresh after an opening roll: half of it for each side
        assert table.first[1, 1, k] == pytest.approx(r.first_mover_wins + r.tie / 2, abs=1e-12)
        assert table.chance(1, 1, k, "roll") == pytest.approx(0.5, abs=1e-12)
        assert table.chance(1, 1, k, "other") == pytest.approx(1 - table.first[1, 1, k])


@pytest.mark.parametrize("tie", ["replay", "one_each", "zero"])
def test_a_one_point_match_whatever_a_tie_does(tie):
    table = MatchTable(RATES, Options(match_length=1, tapa_tie=tie))
    r = RATES["tapa"]
    # one_each from 0-0 in a 1-point match is 1-1: level at the target, play on (§6.5)
    assert table.first[1, 1, 2] == pytest.approx(r.first_mover_wins + r.tie / 2, abs=1e-12)


def test_a_two_point_match_by_hand():
    table = MatchTable(PLAIN, Options(match_length=2))

    def split(k):
        r = PLAIN[CYCLE[k % 3]]
        return r.win[0], r.win[1], r.lose[0], r.lose[1]

    for k in range(3):
        w1, w2, l1, l2 = split(k)
        # needing 1 each: the next game decides
        one_one = wins(PLAIN, k)
        assert table.first[1, 1, k] == pytest.approx(one_one, abs=1e-12)
        # 1 against 2: a win ends it; a single loss is 1-1 with the other side first next game
        one_two = w1 + w2 + l1 * (1 - wins(PLAIN, k + 1))
        assert table.first[1, 2, k] == pytest.approx(one_two, abs=1e-12)
        # 2 against 1: a mars wins; a single is 1-1 with this side first; any loss ends it
        two_one = w2 + w1 * wins(PLAIN, k + 1)
        assert table.first[2, 1, k] == pytest.approx(two_one, abs=1e-12)
    for k in range(3):
        w1, w2, l1, l2 = split(k)
        n = (k + 1) % 3
        # 2-2: a mars wins; a single leaves 1-2 moving first; a single loss 2-1, the other first
        expected = w2 + w1 * table.first[1, 2, n] + l1 * (1 - table.first[1, 2, n])
        assert table.first[2, 2, k] == pytest.approx(expected, abs=1e-12)
        assert table.start() == pytest.approx(table.first[2, 2, 0])


def test_opening_roll_before_every_game():
    table = MatchTable(PLAIN, Options(match_length=2, next_starter="opening_roll"))
    for k in range(3):
        r = PLAIN[CYCLE[k]]
        w1, w2, l1 = r.win[0], r.win[1], r.lose[0]
        # after a single either side may move first: 1-2 before a roll
        one_two = table.chance(1, 2, k + 1, "roll")
        assert one_two == pytest.approx(
            0.5 * table.first[1, 2, (k + 1) % 3] + 0.5 * (1 - table.first[2, 1, (k + 1) % 3])
        )
        assert table.first[2, 2, k] == pytest.approx(w2 + w1 * one_two + l1 * (1 - one_two))


def test_without_a_first_mover_edge_the_sides_are_symmetric():
    even = Rates({v: VariantRates.of([0.3, 0.15, 0.05], [0.3, 0.15, 0.05]) for v in CYCLE})
    table = MatchTable(even, Options(match_length=5))
    for a in range(1, 6):
        for b in range(1, 6):
            for k in range(3):
                assert table.first[a, b, k] + table.first[b, a, k] == pytest.approx(1, abs=1e-12)
                assert table.chance(a, b, k, "roll") == pytest.approx(table.first[a, b, k])
    assert table.first[3, 3, 1] == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("tie", ["replay", "one_each", "zero"])
def test_swapping_sides(tie):
    table = MatchTable(RATES, Options(match_length=5, tapa_tie=tie))
    for a in range(1, 6):
        for b in range(1, 6):
            for k in range(3):
                assert table.chance(a, b, k, "roll") + table.chance(b, a, k, "roll") == (
                    pytest.approx(1, abs=1e-12)
                )
                assert table.chance(a, b, k, "self") + table.chance(b, a, k, "other") == (
                    pytest.approx(1, abs=1e-12)
                )


def test_monotone_in_the_points_needed():
    table = MatchTable(RATES, Options(match_length=7))
    first = table.first[1:, 1:, :]
    assert np.all(np.diff(first, axis=0) < 0)  # needing more is worse
    assert np.all(np.diff(first, axis=1) > 0)  # the other needing more is better
    assert np.all((first > 0) & (first < 1))


def test_a_finished_match():
    table = MatchTable(RATES)
    assert table.chance(0, 3) == 1.0
    assert table.chance(3, -1) == 0.0
    assert table.after(1, 4, 0, 1) == 1.0
    assert table.after(2, 4, 0, 2) == 1.0
    assert table.after(4, 2, 1, -3) == 0.0
    # a single win moves this side to 2 against 4, and it moves first in the next game
    assert table.after(3, 4, 0, 1) == pytest.approx(table.first[2, 4, 1])
    assert table.after(3, 4, 0, -1) == pytest.approx(1 - table.first[3, 3, 1])
    # a replayed Tapa tie: the same game again after an opening roll
    assert table.after(3, 4, 2, 0) == pytest.approx(table.chance(3, 4, 2, "roll"))


@pytest.mark.parametrize(
    "options",
    [
        Options(match_length=3),
        Options(match_length=3, tapa_tie="one_each", next_starter="opening_roll"),
        Options(match_length=3, tapa_tie="zero", cycle=("tapa", "tabla")),
    ],
)
def test_equal_to_simulated_matches(options):
    table = MatchTable(RATES, options)
    length, games = options.match_length, len(options.cycle)
    starts = [
        (a, b, k) for a in range(1, length + 1) for b in range(1, length + 1) for k in range(games)
    ]
    matches = 20_000
    simulated = simulate(RATES, options, starts, matches, seed=3)
    exact = np.array([table.first[state] for state in starts])
    # 4.5 standard errors, over at most 27 states
    assert np.max(np.abs(simulated - exact)) < 4.5 * 0.5 / np.sqrt(matches)


def test_a_table_needs_rates_for_every_game_of_the_cycle():
    with pytest.raises(ValueError, match="tapa"):
        MatchTable(Rates({"tabla": PLAIN["tabla"], "gul_bara": PLAIN["gul_bara"]}))


# --- a position's chance ---------------------------------------------------------------------


def test_a_certain_result():
    table = MatchTable(RATES)
    assert match_chance(table, GameChances(win=1.0), 1, 5, 0) == 1.0
    assert match_chance(table, GameChances(win=0.0), 5, 1, 0) == 0.0
    assert match_chance(table, GameChances(win=1.0), 3, 3, 0) == pytest.approx(table.first[2, 3, 1])
    assert match_chance(table, GameChances(win=1.0, win_mars=1.0), 3, 3, 0) == pytest.approx(
        table.first[1, 3, 1]
    )
    assert match_chance(table, GameChances(win=0.0, lose_mars=1.0), 3, 3, 1) == pytest.approx(
        1 - table.first[1, 3, 2]
    )
    assert match_chance(table, GameChances(win=1.0, win_mars=1.0, win_triple=1.0), 3, 5, 0) == 1


def test_a_coin_flip_game_at_one_point_each():
    table = MatchTable(RATES)
    assert match_chance(table, GameChances(win=0.5), 1, 1, 2) == pytest.approx(0.5)
    assert match_chance(table, GameChances(win=0.3, win_mars=0.2, lose_mars=0.6), 1, 1, 0) == (
        pytest.approx(0.3)
    )


def test_the_game_start_is_the_first_movers_table_entry():
    # a position at the start of a game has the variant's rates as its outcome chances
    table = MatchTable(RATES)
    for k, variant in enumerate(CYCLE):
        r = RATES[variant]
        chances = GameChances(
            win=sum(r.win),
            win_mars=r.win[1] + r.win[2],
            lose_mars=r.lose[1] + r.lose[2],
            win_triple=r.win[2],
            lose_triple=r.lose[2],
            tie=r.tie,
        )
        for a, b in [(5, 5), (2, 4), (4, 1)]:
            assert match_chance(table, chances, a, b, k) == pytest.approx(
                table.first[a, b, k], abs=1e-12
            )


def test_inconsistent_network_outputs_are_clipped():
    outcomes = dict(GameChances(win=0.4, win_mars=0.5, lose_mars=0.7).outcomes())
    assert outcomes[1] == 0 and outcomes[2] == pytest.approx(0.4)
    assert outcomes[-1] == 0 and outcomes[-2] == pytest.approx(0.6)
    assert sum(outcomes.values()) == pytest.approx(1)


def test_the_cube_multiplies_the_game_and_the_crawford_game_has_none():
    table = MatchTable(RATES)
    certain = GameChances(win=1.0)
    assert match_chance(table, certain, 2, 4, 0, cube=2) == 1.0
    assert match_chance(table, certain, 4, 4, 0, cube=2) == pytest.approx(table.first[2, 4, 1])
    with pytest.raises(ValueError, match="Crawford"):
        match_chance(table, certain, 1, 4, 0, cube=2, crawford=True)
    with pytest.raises(ValueError, match="cube value"):
        match_chance(table, certain, 1, 4, 0, cube=3)
    chances = GameChances(win=0.7, win_mars=0.1, lose_mars=0.05)
    cube = cube_chances(table, chances, 4, 4, 0)
    assert cube.drop == pytest.approx(table.after(4, 4, 0, 1))
    assert cube.take == pytest.approx(match_chance(table, chances, 4, 4, 0, cube=2))
    # a strong favourite gains by doubling (cubeless later games)
    assert cube.take > cube.no_double


def test_the_committed_rates_give_the_five_point_table():
    from games.analysis.rates import RATES_FILE

    measured = Rates.load(RATES_FILE)
    for variant in CYCLE:
        info = measured.meta["variants"][variant]
        assert info["source"] == "self-play, 0-ply"
        assert VariantRates.from_counts(info["counts"]) == measured[variant]
    table = MatchTable(measured)
    first = table.first[1:, 1:, :]
    assert np.all(np.diff(first, axis=0) < 0) and np.all(np.diff(first, axis=1) > 0)
    assert 0.4 < table.start() < 0.6
