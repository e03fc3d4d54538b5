"""FIBS ratings: hand-computed changes, the FAQ's break-even table, experience and history."""

import pytest

from players.ratings import RatedMatch, Rating, expected_win, k_factor, rate, rate_all


def test_two_newcomers_in_a_one_point_match_move_ten_points():
    # P = 0.5, K = 5, sqrt(1) = 1: change = 4 * 5 * 1 * 0.5 = 10
    ratings = rate({}, RatedMatch(winner=1, loser=2, length=1))
    assert ratings == {1: Rating(1510.0, 1), 2: Rating(1490.0, 1)}


def test_experienced_favourite_wins_a_seven_pointer():
    # D = 100, sqrt(7) = 2.64575; P_upset = 1 / (10 ** 0.132288 + 1) = 0.424433; K = 1
    # change = 4 * 1 * 2.64575 * 0.424433 = 4.4918
    ratings = {1: Rating(1600.0, 1000), 2: Rating(1500.0, 400)}
    after = rate(ratings, RatedMatch(1, 2, 7))
    assert after[1].value == pytest.approx(1604.4918, abs=1e-3)
    assert after[2].value == pytest.approx(1495.5082, abs=1e-3)
    assert (after[1].experience, after[2].experience) == (1007, 407)


def test_underdog_win_uses_each_players_own_k():
    # D = 200, n = 5: P_upset = 1 / (10 ** 0.223607 + 1) = 0.374052, P = 0.625948
    # winner K = 5 (experience 0): 4 * 5 * 2.236068 * 0.625948 = 27.9933
    # loser K = 3 (experience 200): 4 * 3 * 2.236068 * 0.625948 = 16.7960
    ratings = {1: Rating(1500.0, 0), 2: Rating(1700.0, 200)}
    after = rate(ratings, RatedMatch(1, 2, 5))
    assert after[1].value == pytest.approx(1527.9933, abs=1e-3)
    assert after[2].value == pytest.approx(1683.2040, abs=1e-3)


@pytest.mark.parametrize(
    ("difference", "table"),
    [
        (100, [0.529, 0.550, 0.564, 0.576, 0.585, 0.594]),
        (700, [0.691, 0.802, 0.858, 0.894, 0.918, 0.935]),
    ],
)
def test_break_even_matches_the_backgammon_faq_table(difference, table):
    # rec.games.backgammon FAQ "batting average for favorite to maintain his rating":
    # with equal K the favourite breaks even exactly at its expected win rate.
    lengths = [1, 3, 5, 7, 9, 11]
    assert [round(expected_win(1500 + difference, 1500, n), 3) for n in lengths] == table


def test_k_falls_from_five_to_one_over_400_experience():
    assert [k_factor(e) for e in (0, 100, 250, 400, 5000)] == [5.0, 4.0, 2.5, 1.0, 1.0]


def test_rate_all_applies_in_order_and_keeps_history():
    matches = [RatedMatch(1, 2, 1), RatedMatch(2, 1, 1)]
    final, history = rate_all({}, matches)
    assert history[:2] == [(0, 1, 1510.0), (0, 2, 1490.0)]
    assert [row[:2] for row in history[2:]] == [(1, 2), (1, 1)]
    # second match: 1490 beats 1510, K = 4.99 for both (experience 1)
    p_upset = 1 / (10 ** (20 / 2000) + 1)
    assert final[2].value == pytest.approx(1490 + 4 * 4.99 * (1 - p_upset))
    assert final[1].experience == 2


def test_a_player_cannot_play_themselves():
    with pytest.raises(ValueError, match="themselves"):
        rate({}, RatedMatch(1, 1, 3))
