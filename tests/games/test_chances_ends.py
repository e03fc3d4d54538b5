"""The end of every game in a match's chances (games/chances.py ``game_series``; docs/analysis.md
"On the site"): a game ended without a play that ends it (a resignation, single or mars; a
result reported at the desk without its moves; a dropped double; the game in progress of a
match lost on time or forfeited) ends its series with its result, mapped through the match table
as a played end is, and a match that is over (by its score, or resigned whole) shows its winner
100 % and the loser 0 %, whole and after a cursor; a cursor whose last point changed (a
correction) gets the whole answer."""

import random

import pytest
from django.db import transaction

from games import chances, selectors, services
from games.demo import game_play_random
from games.engine import GameResult
from games.models import Game, Match
from games.services._steps import game_finish
from tests.games.helpers import chances_url

pytestmark = pytest.mark.django_db


def unrated(alice, bob, organiser, **fields) -> Match:
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, rated=False, **fields
    )


def current_game(match: Match) -> Game:
    return match.games.order_by("-number").first()


def resign(match: Match, player, kind: str, decisions: int = 4, seed: int = 1) -> Game:
    """A few random decisions of the current game, then ``player`` resigns it offering ``kind``."""
    game = game_play_random(
        game=current_game(match), rng=random.Random(seed), max_decisions=decisions
    )
    assert not game.is_over
    return services.game_resign(game=game, player=player, kind=kind).game


def after_table(match: Match, game: Game, points: int) -> float:
    """Player one's match chance after ``game`` ended with ``points`` to player one (the score
    before it from the games finished before it), from the site's match table."""
    table = chances._table(chances._match_options(match))
    one = sum(
        g.result_points
        for g in match.games.filter(number__lt=game.number, result_winner=match.player_one)
    )
    two = sum(
        g.result_points
        for g in match.games.filter(number__lt=game.number, result_winner=match.player_two)
    )
    return table.after(match.target_score - one, match.target_score - two, 0, points)


def points_of(data: dict, number: int) -> list[dict]:
    return [p for p in data["points"] if p["game"] == number]


def assert_tail(part: dict, whole: dict, held: int) -> None:
    assert part["incremental"] is True
    assert part["points"] == whole["points"][held:]
    assert part["current"] == whole["current"] and part["cursor"] == whole["cursor"]


@pytest.mark.parametrize(("kind", "points"), [("single", 1), ("mars", 2)])
def test_a_resigned_game_ends_with_its_result_mapped_through_the_match_table(
    weights, alice, bob, organiser, spectator, client_for, kind, points
):
    match = unrated(alice, bob, organiser, options={"cycle": ["tabla"]})
    game = resign(match, bob, kind)
    assert game.turns.filter(result__isnull=False).count() == 0  # no turn ended it
    data = client_for(spectator).get(chances_url(match)).json()
    first = points_of(data, 1)
    last_turn = game.turns.order_by("-ply").first().ply
    assert [p["turn"] for p in first][-2:] == [last_turn, last_turn + 1]
    assert first[-1]["win"] == 1.0
    assert first[-1]["match"] == pytest.approx(after_table(match, game, points), abs=1e-4)
    assert points_of(data, 2)[0]["turn"] == 0  # the next game's start follows
    end = chances.chances_for(user=spectator, match=match).points
    ended = [p for p in end if p.game == 1][-1]
    assert ended.one_to_move is None
    assert (ended.win_mars, ended.lose_mars) == ((1.0, 0.0) if kind == "mars" else (0.0, 0.0))


def test_a_match_won_by_resignations_shows_its_winner_100_whole_and_after_a_cursor(
    weights, alice, bob, organiser, spectator, client_for
):
    """The review's match 14: won through resignations only; its page showed 79 % / 21 % and
    ``current`` the last game's start."""
    match = unrated(alice, bob, organiser)
    client = client_for(spectator)
    resign(match, alice, "mars", seed=2)  # bob 2
    held = client.get(chances_url(match)).json()
    for seed in (3, 4, 5):  # bob 4, then alice 2, then bob 6: over
        loser = alice if seed != 4 else bob
        game = resign(match, loser, "mars", seed=seed)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_id == bob.pk
    for user in (spectator, alice, bob):
        whole = client_for(user).get(chances_url(match)).json()
        current = whole["current"]
        assert (current["game"], current["to_move"]) == (game.number, None)
        assert current["bar"] == {"player": alice.pk, "chance": 0.0}
        assert whole["points"][-1] == {"turn": current["turn"], "game": 4, "win": 0.0, "match": 0.0}
        for number in (1, 2, 3):  # every game ends with its result
            assert points_of(whole, number)[-1]["win"] == float(number == 3)
    part = client.get(chances_url(match, held["cursor"])).json()
    assert_tail(part, whole, len(held["points"]))
    again = client.get(chances_url(match, whole["cursor"])).json()
    assert again["points"] == [] and again["current"] == whole["current"]


def test_a_match_resigned_whole_ends_its_game_s_series_with_the_winner(
    weights, alice, bob, organiser, spectator, client_for
):
    """Resigning the match (docs/decisions.md D166): the game in progress ends with Bob's win,
    and the match's end is his, 100 %, for everyone."""
    match = unrated(alice, bob, organiser)
    game = game_play_random(game=current_game(match), rng=random.Random(1), max_decisions=4)
    services.match_resign(match=match, user=alice.user)
    for user in (spectator, alice, bob):
        whole = client_for(user).get(chances_url(match)).json()
        last = points_of(whole, game.number)[-1]
        assert last["turn"] == game.turns.order_by("-ply").first().ply + 1
        assert (last["win"], last["match"]) == (0.0, 0.0)  # player one, Alice, resigned
        assert whole["current"]["to_move"] is None
        assert whole["current"]["bar"] == {"player": alice.pk, "chance": 0.0}


def test_a_rated_match_s_spectator_sees_a_resigned_game_s_end_one_point_behind(
    weights, online_match, alice, bob, spectator, client_for
):
    assert online_match.rated
    game = resign(online_match, alice, "single")
    data = client_for(spectator).get(chances_url(online_match)).json()
    assert data["behind"] == 1
    assert (data["current"]["game"], data["current"]["to_move"]) == (1, None)
    assert data["points"][-1]["win"] == 0.0
    assert data["points"][-1]["turn"] == game.ply
    for player in (alice, bob):  # the players still see nothing
        assert client_for(player).get(chances_url(online_match)).status_code == 403


def test_a_match_lost_on_time_ends_with_the_winner_at_100(
    weights, fake_clock, alice, bob, organiser, spectator, client_for
):
    match = services.match_create(
        creator=organiser,
        player_one=alice,
        player_two=bob,
        clock={"preset": "standard"},
        rated=False,
    )
    game = game_play_random(game=current_game(match), rng=random.Random(6), max_decisions=5)
    runner = selectors.player_to_move(game)
    client = client_for(spectator)
    held = client.get(chances_url(match)).json()
    fake_clock.advance(60 * 60)
    assert services.match_time_out(match=match.pk) is not None
    match.refresh_from_db()
    game.refresh_from_db()
    assert match.ended_by == Match.EndedBy.TIME and game.status == Game.Status.ABANDONED
    winner_is_one = runner.pk != alice.pk
    whole = client.get(chances_url(match)).json()
    assert whole["points"][-1]["game"] == 1 and whole["current"]["to_move"] is None
    assert whole["points"][-1]["win"] == whole["points"][-1]["match"] == float(winner_is_one)
    assert whole["current"]["bar"]["chance"] == float(winner_is_one)
    assert_tail(client.get(chances_url(match, held["cursor"])).json(), whole, len(held["points"]))


def test_a_forfeit_and_a_correction_give_the_last_point_the_match_s_winner(
    weights, alice, bob, organiser, spectator, client_for
):
    match = unrated(alice, bob, organiser)
    resign(match, bob, "single")
    game_play_random(game=current_game(match), rng=random.Random(7), max_decisions=3)
    services.match_forfeit(match=match, user=organiser, loser=alice)
    client = client_for(spectator)
    whole = client.get(chances_url(match)).json()
    assert points_of(whole, 1)[-1]["win"] == 1.0  # alice won game 1
    assert whole["points"][-1]["game"] == 2
    assert whole["points"][-1]["match"] == 0.0 and whole["current"]["bar"]["chance"] == 0.0
    # The organiser corrects the match to alice: the last point changes, so a cursor that holds
    # it gets the whole answer.
    services.match_correct(match=match, user=organiser, winner=alice, score_one=5, score_two=0)
    corrected = client.get(chances_url(match, whole["cursor"])).json()
    assert corrected["incremental"] is False
    assert corrected["points"][-1]["match"] == 1.0 and corrected["current"]["bar"]["chance"] == 1.0
    assert corrected["points"][:-1] == whole["points"][:-1]


def test_a_result_reported_at_the_desk_without_moves_ends_its_game(
    weights, alice, bob, organiser, spectator, client_for
):
    match = unrated(alice, bob, organiser, mode=Match.Mode.OVER_THE_BOARD)
    services.result_report(match=match, user=organiser, winner=alice, points=2, kind="mars")
    game = match.games.get(number=1)
    assert game.ended_by == Game.EndedBy.REPORT and not game.turns.exists()
    client = client_for(spectator)
    first = client.get(chances_url(match)).json()
    assert [(p["turn"], p["win"]) for p in first["points"]][1:] == [(1, 1.0)]
    assert first["points"][-1]["match"] == pytest.approx(after_table(match, game, 2), abs=1e-4)
    assert first["current"]["to_move"] is None
    for winner, points in ((bob, 1), (alice, 2), (alice, 1)):  # alice 2-1, 4-1, 5-1: over
        services.result_report(
            match=match,
            user=organiser,
            winner=winner,
            points=points,
            kind="mars" if points == 2 else "single",
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_id == alice.pk
    whole = client.get(chances_url(match)).json()
    assert [p["win"] for p in whole["points"] if p["turn"] == 1] == [1.0, 0.0, 1.0, 1.0]
    assert whole["points"][-1]["match"] == 1.0
    assert whole["current"]["bar"] == {"player": alice.pk, "chance": 1.0}
    assert_tail(client.get(chances_url(match, first["cursor"])).json(), whole, 2)


def test_a_dropped_double_ends_its_game_at_the_cube_s_value(
    weights, alice, bob, organiser, spectator, client_for
):
    match = unrated(alice, bob, organiser, options={"cube": "tabla_only", "cycle": ["tabla"]})
    game = game_play_random(game=current_game(match), rng=random.Random(8), max_decisions=4)
    while not (selectors.is_roll_due(game) and selectors.may_double(game)):
        game = game_play_random(game=game, rng=random.Random(9), max_decisions=1)
    doubler = selectors.player_to_move(game)
    game = services.cube_double(game=game, player=doubler).game
    game = services.cube_drop(game=game, player=selectors.player_to_move(game)).game
    assert game.ended_by == Game.EndedBy.DROP
    data = client_for(spectator).get(chances_url(match)).json()
    end = points_of(data, 1)[-1]
    one_won = doubler.pk == alice.pk
    assert end["win"] == float(one_won)
    signed = game.result_points if one_won else -game.result_points
    assert end["match"] == pytest.approx(after_table(match, game, signed), abs=1e-4)


def test_a_game_ended_stuck_ends_with_a_tie(weights, alice, bob, organiser, spectator, client_for):
    """A game that ends 0-0 after ``stuck_limit`` idle rolls: its last turn did not end it in
    the replay, the game's row did (games/services/_steps.py ``turn_append``)."""
    match = unrated(alice, bob, organiser, options={"cycle": ["tapa"]})
    game = game_play_random(game=current_game(match), rng=random.Random(10), max_decisions=6)
    with transaction.atomic():
        game_finish(game=game, result=GameResult(None, "tie", 0), ended_by=Game.EndedBy.STUCK)
    data = client_for(spectator).get(chances_url(match)).json()
    end = points_of(data, 1)[-1]
    assert (end["turn"], end["win"]) == (game.ply, 0.5)
    assert end["match"] == pytest.approx(after_table(match, game, 0), abs=1e-4)
    assert points_of(data, 2)[0]["turn"] == 0
