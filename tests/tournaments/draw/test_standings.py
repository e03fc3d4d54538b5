"""Standings: records, hand-computed tie-breaks, configurable order, byes and forfeits."""

import pytest

from tournaments.draw.standings import (
    DEFAULT_ORDER,
    TIEBREAKS,
    MatchResult,
    compute_standings,
    first_place_by_seed,
)
from tournaments.draw.tiebreaks import median_buchholz


def win(round_, winner, loser, score=(5, 2)):
    return MatchResult(round_, winner, loser, winner, score1=score[0], score2=score[1])


# A four-player round robin: A=1 beats everyone, B=2 beats C and D, C=3 beats D: 3, 2, 1, 0.
ROUND_ROBIN = [
    win(1, 1, 4),
    win(1, 2, 3),
    win(2, 1, 3),
    win(2, 2, 4, (5, 4)),
    win(3, 1, 2, (5, 3)),
    win(3, 3, 4),
]


def rows_by_player(rows):
    return {row.player: row for row in rows}


def test_round_robin_records_and_hand_computed_tie_breaks():
    rows = compute_standings([1, 2, 3, 4], ROUND_ROBIN)
    assert [(r.rank, r.player, r.match_points) for r in rows] == [
        (1, 1, 3.0),
        (2, 2, 2.0),
        (3, 3, 1.0),
        (4, 4, 0.0),
    ]
    by = rows_by_player(rows)
    # Buchholz: opponents' scores. A: 2 + 1 + 0 = 3; B: 3 + 1 + 0 = 4; C: 3 + 2 + 0 = 5; D: 6
    assert [by[p].buchholz for p in (1, 2, 3, 4)] == [3.0, 4.0, 5.0, 6.0]
    # Sonneborn-Berger: scores of those beaten. A: 3; B: 1 + 0 = 1; C: 0; D: 0
    assert [by[p].sonneborn_berger for p in (1, 2, 3, 4)] == [3.0, 1.0, 0.0, 0.0]
    # Median Buchholz with three opponents drops the best and the worst: A keeps 1
    assert by[1].median_buchholz == 1.0
    assert (by[2].points_for, by[2].points_against, by[2].point_diff) == (13, 11, 2)
    assert (by[1].played, by[1].match_wins, by[1].match_losses, by[4].match_losses) == (3, 3, 0, 3)


def test_buchholz_breaks_a_tie_on_match_points():
    # 1 and 2 both win once; 1 beat 3 who then won, 2 beat 4 who then lost.
    results = [win(1, 1, 3), win(1, 2, 4), win(2, 3, 4), win(2, 5, 1), win(2, 6, 2)]
    rows = compute_standings([1, 2, 3, 4, 5, 6], results)
    by = rows_by_player(rows)
    assert by[1].match_points == by[2].match_points == 1.0
    assert by[1].buchholz == 2.0 and by[2].buchholz == 1.0  # 3 (1) + 5 (1); 4 (0) + 6 (1)
    assert by[1].rank < by[2].rank


def test_head_to_head_decides_between_players_equal_so_far():
    results = [win(1, 1, 2), win(2, 2, 3), win(3, 3, 1)]  # a cycle: all on 1 point
    order = ("match_points", "head_to_head")
    rows = compute_standings([1, 2, 3], results, order)
    assert {r.rank for r in rows} == {1}  # one win each against the tied: still tied
    # 1, 2 and 4 on one point: 1 beat 2 and 4 beat 1 count; 2's win over 3 (0 points) does not
    results = [win(1, 1, 2), win(2, 2, 3), win(2, 4, 1)]
    rows = compute_standings([1, 2, 3, 4], results, order)
    assert {r.player: (r.rank, r.head_to_head) for r in rows} == {
        1: (1, 1.0),
        4: (1, 1.0),
        2: (3, 0.0),
        3: (4, 0.0),
    }


def test_head_to_head_before_buchholz_when_ordered_so():
    results = [win(1, 1, 2), win(2, 2, 3), win(2, 1, 4), win(3, 3, 4), win(3, 2, 5)]
    players = [1, 2, 3, 4, 5]
    by_default = compute_standings(players, results, ("match_points", "buchholz"))
    by_h2h = compute_standings(players, results, ("match_points", "head_to_head", "buchholz"))
    assert by_default[0].match_points == 2.0 and by_h2h[0].player == 1


def test_ties_on_every_criterion_share_a_rank():
    rows = compute_standings([5, 6], [])
    assert [(r.rank, r.player) for r in rows] == [(1, 5), (1, 6)]


def test_a_tie_for_first_on_every_criterion_goes_to_the_best_seed_d28():
    # A three-way cycle: one win each, equal on every tie-break.
    results = [win(1, 1, 2), win(2, 2, 3), win(3, 3, 1), win(1, 4, 5)]
    rows = compute_standings([1, 2, 3, 4, 5], results)
    assert [r.rank for r in rows] == [1, 1, 1, 4, 5]
    decided = first_place_by_seed(rows, {1: 3, 2: 2, 3: None, 4: 1, 5: 5})
    assert [(r.rank, r.player) for r in decided] == [(1, 2), (2, 1), (2, 3), (4, 4), (5, 5)]


def test_a_single_leader_is_left_as_ranked():
    rows = compute_standings([1, 2], [win(1, 2, 1)])
    assert first_place_by_seed(rows, {1: 1, 2: 2}) == rows


def test_a_bye_scores_but_is_neither_played_nor_won_and_counts_the_player_as_opponent():
    results = [
        MatchResult(1, 1, None, 1, bye_points=0.5),
        win(2, 1, 2),
    ]
    by = rows_by_player(compute_standings([1, 2], results))
    assert (by[1].match_points, by[1].played, by[1].match_wins, by[1].byes) == (1.5, 1, 1, 1)
    # virtual opponent with 1's own 1.5, plus player 2 with 0
    assert by[1].buchholz == 1.5
    assert by[1].sonneborn_berger == 0.0


def test_a_forfeit_counts_as_a_result_but_not_for_points_or_opponent_strength():
    results = [
        MatchResult(1, 1, 2, 1, score1=7, forfeit=True),
        win(2, 2, 3),
        win(2, 1, 4),
    ]
    by = rows_by_player(compute_standings([1, 2, 3, 4], results))
    assert (by[1].match_wins, by[1].points_for, by[1].forfeits) == (2, 5, 0)
    assert (by[2].match_losses, by[2].forfeits) == (1, 1)
    assert by[1].buchholz == 2.0  # virtual (own 2) + player 4 (0)
    assert by[1].sonneborn_berger == 0.0  # only 4 was beaten over the board
    assert by[2].buchholz == 1.0 + 0.0  # virtual (own 1) + player 3 (0)


def games(round_, winner, loser, won, score=(5, 2)):
    """A match with its game record: ``won`` is (winner's games, loser's games); None for a
    whole-match score, which has none."""
    first, second = (None, None) if won is None else won
    return MatchResult(round_, winner, loser, winner, score[0], score[1], first, second)


def test_games_won_is_unknown_once_a_counted_match_has_no_game_record():
    results = [
        games(1, 1, 2, (3, 1)),
        games(1, 3, 4, None, (5, 4)),  # a whole-match score
        games(2, 1, 3, (4, 2)),
        MatchResult(2, 2, 4, 2, forfeit=True, games1=None, games2=None),  # a forfeit's games
    ]
    by = rows_by_player(compute_standings([1, 2, 3, 4], results))
    assert [by[p].games_won for p in (1, 2, 3, 4)] == [7, 1, None, None]
    assert (by[3].points_for, by[3].points_against) == (5 + 2, 4 + 5)  # still known
    assert (by[4].points_for, by[4].points_against) == (4, 5)


def test_games_won_breaks_a_tie_only_when_every_tied_player_has_it_known():
    order = ("match_points", "games_won", "points_for")
    # 1 and 2 tie on a win each, with their games known: games won decides (4 beats 3).
    known = [games(1, 1, 3, (4, 0), (5, 0)), games(1, 2, 4, (3, 1), (5, 4))]
    assert [r.player for r in compute_standings([2, 1, 3, 4], known, order)][:2] == [1, 2]
    # 2's games are unknown: not taken as 0, the tie goes on to points for (2's 5 v 1's 5:
    # still tied, both 1st), where as 0 would have put 1 alone first.
    unknown = [games(1, 1, 3, (4, 0), (5, 0)), games(1, 2, 4, None, (5, 4))]
    ranked = compute_standings([2, 1, 3, 4], unknown, order)
    assert [(r.rank, r.player, r.games_won) for r in ranked][:2] == [(1, 2, None), (1, 1, 4)]
    # 3 and 4 (no win) tie apart from them: 4's games are unknown too, points for decide.
    assert [(r.rank, r.player) for r in ranked][2:] == [(3, 4), (4, 3)]


def test_unfinished_matches_are_ignored():
    rows = compute_standings([1, 2], [MatchResult(1, 1, 2, None)])
    assert all(row.played == 0 for row in rows)


def test_median_buchholz_with_few_opponents_cuts_nothing():
    assert median_buchholz([2.0, 1.0]) == 3.0 and median_buchholz([3, 2, 1, 0]) == 3.0


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unknown tie-breaks"):
        compute_standings([1], [], ("match_points", "coin_toss"))
    with pytest.raises(ValueError, match="player 9 is not in this event"):
        compute_standings([1], [win(1, 1, 9)])
    with pytest.raises(ValueError, match="did not play"):
        compute_standings([1, 2, 3], [MatchResult(1, 1, 2, 3)])
    assert set(DEFAULT_ORDER) <= set(TIEBREAKS)
