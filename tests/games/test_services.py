"""Match flow through the services: opening roll, cycle, ties, remainders, forfeit, options."""

import random

import pytest

from common.errors import ConflictError, NotAllowedError
from games import selectors, services
from games.demo import game_play_random, match_play_random
from games.engine import InvalidOptionsError
from games.models import Game, Match, Turn
from tests.games.helpers import only_pass

pytestmark = pytest.mark.django_db


def test_match_create_starts_game_one_with_an_opening_roll_and_a_commitment(online_match):
    game = online_match.games.get()
    assert online_match.status == Match.Status.IN_PROGRESS
    assert game.variant == "tabla" and game.position["turn"] == "w"
    last = game.opening_rolls[-1]
    assert last[0] != last[1] and all(a == b for a, b in game.opening_rolls[:-1])
    starter = online_match.player_one if last[0] > last[1] else online_match.player_two
    assert game.white == starter and game.starter == starter
    assert len(game.seed_commitment) == 64 and game.dice is None


def test_options_are_validated_by_the_engine(alice, bob):
    with pytest.raises(InvalidOptionsError, match="unknown option 'colour'"):
        services.match_create(
            creator=alice.user, player_one=alice, player_two=bob, options={"colour": "red"}
        )


def test_a_match_with_the_cube_starts_with_the_cube_in_the_middle(alice, bob):
    match = services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = match.games.get()
    assert match.options["cube"] == "tabla_only"
    assert (game.cube_value, game.cube_owner, game.cube_offered_by) == (1, "", "")
    assert selectors.may_double(game)


def test_target_score_sets_match_length(alice, bob):
    match = services.match_create(
        creator=alice.user,
        player_one=alice,
        player_two=bob,
        target_score=3,
        options={"preset": "greek_tavli"},
    )
    assert match.target_score == 3 and match.options["match_length"] == 3
    assert match.options["cycle"] == ["tabla", "tapa", "gul_bara"]
    assert match.organiser is None  # created by a player


def test_use_opening_dice_puts_the_opening_pair_on_the_table(alice, bob):
    match = services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, options={"preset": "bulgarian_nit"}
    )
    game = match.games.get()
    assert sorted(game.dice) == sorted(game.opening_rolls[-1])


def test_a_scheduled_match_starts_on_request(alice, bob, organiser):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, start=False)
    assert match.status == Match.Status.SCHEDULED and not match.games.exists()
    with pytest.raises(NotAllowedError):
        services.match_start(match=match, user=organiser.__class__.objects.create(username="x"))
    match = services.match_start(match=match, user=alice.user)
    assert match.status == Match.Status.IN_PROGRESS and match.games.count() == 1
    with pytest.raises(ConflictError):
        services.match_start(match=match, user=alice.user)


def test_random_matches_follow_the_cycle_and_stay_consistent(alice, bob):
    rng = random.Random(11)
    seen_pending = False
    for _ in range(2):
        match = services.match_create(creator=alice.user, player_one=alice, player_two=bob)
        match = match_play_random(match=match, rng=rng)
        assert match.status == Match.Status.FINISHED
        games = list(match.games.order_by("number"))
        for previous, following in zip(games, games[1:], strict=False):
            if previous.result_kind == "tie":  # replayed Tapa with a fresh opening roll
                assert following.variant == "tapa" and following.opening_rolls
            else:  # the winner starts the next game, as white, without an opening roll
                assert following.white_id == previous.result_winner_id
                assert following.opening_rolls == []
        for game in games:
            assert selectors.game_replay_problems(game) == []
        seen_pending |= Turn.objects.filter(game__match=match, kind=Turn.Kind.PENDING).exists()
        winner_score = max(match.score_one, match.score_two)
        assert winner_score >= 5 and match.winner_id in (alice.pk, bob.pk)
    assert seen_pending  # this seed reaches Gjul Bara pending stages (cascades, remainders)


def test_turns_record_each_decision_with_increasing_ply(game):
    game = game_play_random(game=game, rng=random.Random(1), max_decisions=12)
    turns = list(game.turns.all())
    assert [t.ply for t in turns] == list(range(1, len(turns) + 1))
    assert game.ply == len(turns) + 1
    assert turns[-1].position_after == game.position


def test_forfeit_is_for_the_organiser_and_abandons_the_game(online_match, game, alice, organiser):
    with pytest.raises(NotAllowedError):
        services.match_forfeit(match=online_match, user=alice.user, loser=alice)
    match = services.match_forfeit(match=online_match, user=organiser, loser=alice)
    game.refresh_from_db()
    assert match.status == Match.Status.FORFEITED and match.winner == match.player_two
    assert game.status == Game.Status.ABANDONED and game.seed_revealed
    with pytest.raises(ConflictError):
        services.match_forfeit(match=online_match, user=organiser, loser=alice)


def test_stuck_limit_ends_a_game_with_no_moved_checker_as_a_tie(alice, bob, monkeypatch):
    match = services.match_create(
        creator=alice.user,
        player_one=alice,
        player_two=bob,
        options={"stuck_limit": 1, "tapa_tie": "zero"},
    )
    game = match.games.get()
    # Force a pass: a roll the engine answers with no legal play counts as an idle roll.
    monkeypatch.setattr("games.services._steps.legal_plays", only_pass)
    game = services.dice_roll(game=game, player=game.white).game
    assert game.status == Game.Status.FINISHED and game.ended_by == Game.EndedBy.STUCK
    assert game.result_kind == "tie" and game.turns.get().moves == []


def test_a_tapa_tie_is_replayed_with_a_fresh_opening_roll(online_match, game):
    from games.engine import GameResult
    from games.services._steps import game_finish

    game = services.game_resign(game=game, player=game.black, kind="single").game
    second = online_match.games.get(number=2)
    services.game_resign(game=second, player=second.black, kind="single")
    third = online_match.games.get(number=3)
    assert third.variant == "tapa"

    game_finish(game=third, result=GameResult(None, "tie", 0), ended_by=Game.EndedBy.PLAY)

    fourth = online_match.games.get(number=4)
    online_match.refresh_from_db()
    assert fourth.variant == "tapa" and fourth.opening_rolls
    assert online_match.score_one + online_match.score_two == 2
    assert selectors.match_state(online_match).decided_games == 2


def test_parsed_position_and_options_follow_the_stored_json(game):
    """The parsed values kept on a game or match are dropped once a new JSON value is stored."""
    first = selectors.game_position(game)
    assert selectors.game_position(game) is first
    game.position = {**game.position, "turn": "b" if first.turn == "w" else "w"}
    assert selectors.game_position(game).turn != first.turn
    match = game.match
    assert selectors.match_options(match).match_length == 5
    match.options = {**match.options, "match_length": 3}
    assert selectors.match_options(match).match_length == 3
    game.refresh_from_db()
    assert selectors.game_position(game) == first
