"""The match clock through the services, on a clock the tests move by hand (``fake_clock``):
what each action charges (the delay free, a roll continuing the turn, the cube passing the
clock), the arrival time taken before the engine's work, time-outs on a request, on the task and
on the sweep, and what a time-out is (a finished match, rated)."""

from __future__ import annotations

import datetime
import doctest
import json
import random

import pytest

from common.errors import ConflictError, InvalidRequestError
from games import clock, selectors, services, tasks
from games.models import Game, Match, RatingHistory
from games.services import _steps as steps
from games.services import clock as clock_services
from games.services import play as play_module
from games.services.ratings import ratings_recompute

BANK_MS = 600_000  # the standard clock on a 5-point match: 2 minutes a point
DELAY = 12


def seconds(n: float) -> datetime.timedelta:
    return datetime.timedelta(seconds=n)


@pytest.fixture
def clocked(alice, bob, organiser):
    """``clocked(**fields)``: a started online 5-point match between Alice and Bob with the
    standard clock (or the ``clock`` given)."""

    def make(**fields) -> Match:
        fields = {"clock": {"preset": "standard"}, "target_score": 5, **fields}
        return services.match_create(creator=organiser, player_one=alice, player_two=bob, **fields)

    return make


def side_of(match: Match, player) -> str:
    return "player_one" if player.pk == match.player_one_id else "player_two"


def bank(match: Match, player) -> int:
    match.refresh_from_db()
    return match.clock_one_ms if player.pk == match.player_one_id else match.clock_two_ms


def current(match: Match) -> Game:
    return selectors.current_game(match)


def play_first(game: Game, player) -> None:
    """Play the first legal play of ``player``, rolling first if a roll is due."""
    game.refresh_from_db()
    if selectors.is_roll_due(game):
        services.dice_roll(game=game, player=player)
        game.refresh_from_db()
    outcome = selectors.game_legal_plays(game)[0]
    services.play_submit(game=game, player=player, ply=game.ply, moves=outcome.play.to_json())


def test_the_clock_module_examples():
    assert doctest.testmod(clock).failed == 0


def test_the_first_game_starts_the_clock_of_the_player_to_move(fake_clock, clocked):
    match = clocked()
    match.refresh_from_db()
    to_move = selectors.player_to_move(current(match))
    assert (match.clock_bank_seconds, match.clock_delay_seconds) == (600, DELAY)
    assert match.clock_one_ms == match.clock_two_ms == BANK_MS
    assert match.clock_running == side_of(match, to_move)
    assert match.clock_turn_started_at == fake_clock.at
    assert match.clock_deadline == fake_clock.at + seconds(DELAY + 600)


def test_a_match_without_a_clock_writes_no_clock(fake_clock, online_match):
    game = current(online_match)
    play_first(game, selectors.player_to_move(game))
    online_match.refresh_from_db()
    assert online_match.clock_bank_seconds == 0
    assert online_match.clock_running == "" and online_match.clock_deadline is None


def test_a_turn_is_charged_beyond_the_delay_and_a_roll_continues_it(fake_clock, clocked):
    match = clocked()
    game = current(match)
    mover = selectors.player_to_move(game)
    started = fake_clock.at
    fake_clock.advance(5)
    services.dice_roll(game=game, player=mover)
    match.refresh_from_db()
    assert bank(match, mover) == BANK_MS  # still the same turn: nothing charged yet
    assert match.clock_turn_started_at == started

    fake_clock.advance(25)  # the play arrives 30 s into the turn: 18 s beyond the delay
    play_first(game, mover)
    assert bank(match, mover) == BANK_MS - 18_000
    opponent = match.player_two if mover.pk == match.player_one_id else match.player_one
    assert match.clock_running == side_of(match, opponent)
    assert match.clock_turn_started_at == fake_clock.at
    assert match.clock_deadline == fake_clock.at + seconds(DELAY) + seconds(BANK_MS / 1000)


def test_a_turn_within_the_delay_costs_nothing(fake_clock, clocked):
    match = clocked()
    game = current(match)
    mover = selectors.player_to_move(game)
    fake_clock.advance(DELAY - 1)
    play_first(game, mover)
    assert bank(match, mover) == BANK_MS


def test_the_time_is_taken_when_the_request_arrives_not_after_the_engine(
    fake_clock, clocked, monkeypatch
):
    match = clocked()
    game = current(match)
    mover = selectors.player_to_move(game)
    services.dice_roll(game=game, player=mover)
    real_check = play_module.check_play

    def slow_check(*args, **kwargs):
        fake_clock.advance(10)  # the engine's (and the lock's) time is the server's
        return real_check(*args, **kwargs)

    monkeypatch.setattr(play_module, "check_play", slow_check)
    arrival = fake_clock.advance(20)
    play_first(game, mover)
    assert bank(match, mover) == BANK_MS - 8_000  # charged to the arrival, not to +30
    assert match.clock_turn_started_at == arrival + seconds(10)  # the opponent's from the commit


def test_a_double_and_its_take_each_pass_the_clock_with_a_fresh_delay(fake_clock, clocked):
    match = clocked(options={"cube": "all_games"})
    game = current(match)
    doubler = selectors.player_to_move(game)
    assert selectors.may_double(game)
    fake_clock.advance(20)
    services.cube_double(game=game, player=doubler)
    taker = selectors.player_to_move(Game.objects.get(pk=game.pk))
    assert bank(match, doubler) == BANK_MS - 8_000
    assert match.clock_running == side_of(match, taker)

    answered = fake_clock.advance(15)
    services.cube_take(game=game, player=taker)
    assert bank(match, taker) == BANK_MS - 3_000
    assert match.clock_running == side_of(match, doubler)  # the doubler now rolls
    assert match.clock_turn_started_at == answered
    assert match.clock_deadline == answered + seconds(DELAY) + seconds(592)


def test_with_auto_roll_the_next_clock_starts_when_the_play_commits(fake_clock, clocked):
    match = clocked(auto_roll=True)
    game = current(match)
    mover = selectors.player_to_move(game)
    assert game.dice is not None  # rolled for the starter at once
    played = fake_clock.advance(20)
    play_first(game, mover)
    game.refresh_from_db()
    opponent = selectors.player_to_move(game)
    assert opponent != mover and game.dice is not None  # their dice are on the table
    assert bank(match, mover) == BANK_MS - 8_000
    assert match.clock_running == side_of(match, opponent)
    assert match.clock_turn_started_at == played


def test_a_resignation_charges_the_runner_and_starts_the_next_games_clock(fake_clock, clocked):
    match = clocked()
    game = current(match)
    mover = selectors.player_to_move(game)
    fake_clock.advance(40)
    services.game_resign(game=game, player=mover, kind="single")
    assert bank(match, mover) == BANK_MS - 28_000
    following = current(match)
    assert following.number == 2
    assert match.clock_running == side_of(match, selectors.player_to_move(following))
    assert match.clock_turn_started_at == fake_clock.at


def test_the_end_of_the_match_stops_the_clock(fake_clock, clocked):
    match = clocked(target_score=1)
    game = current(match)
    services.game_resign(game=game, player=selectors.player_to_move(game), kind="single")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ended_by == Match.EndedBy.SCORE
    assert match.clock_running == "" and match.clock_deadline is None


def test_a_request_after_the_deadline_loses_the_match_on_time(fake_clock, clocked):
    match = clocked()
    game = current(match)
    mover = selectors.player_to_move(game)
    fake_clock.advance(DELAY + 600)  # the very deadline: the time is up
    with pytest.raises(ConflictError, match="ran out of time"):
        services.dice_roll(game=game, player=mover)
    match.refresh_from_db()
    game.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ended_by == Match.EndedBy.TIME
    assert match.winner_id != mover.pk
    assert bank(match, mover) == 0
    assert match.clock_running == "" and match.clock_deadline is None
    assert game.status == Game.Status.ABANDONED and game.seed_revealed
    assert match.games.count() == 1  # no next game: the match is over


def test_any_write_on_an_overdue_match_ends_it_first(fake_clock, clocked):
    """The waiting player's resignation, arriving after the runner's time is up, comes too
    late: the match was already lost on time by the runner."""
    match = clocked()
    game = current(match)
    runner = selectors.player_to_move(game)
    waiting = game.black if runner.pk == game.white_id else game.white
    fake_clock.advance(DELAY + 600 + 1)
    with pytest.raises(ConflictError, match="ran out of time"):
        services.game_resign(game=game, player=waiting, kind="single")
    match.refresh_from_db()
    assert match.winner_id == waiting.pk and match.ended_by == Match.EndedBy.TIME


def test_the_task_ends_an_overdue_match_without_any_request(fake_clock, clocked):
    match = clocked()
    fake_clock.advance(DELAY + 599)
    assert tasks.match_time_out(match.pk) is False  # a second left: nothing to do
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    fake_clock.advance(1)
    assert tasks.match_time_out(match.pk) is True
    assert tasks.match_time_out(match.pk) is False  # a repeated task changes nothing
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ended_by == Match.EndedBy.TIME


@pytest.fixture
def published(monkeypatch) -> list[tuple]:
    """The deadline tasks the clock publishes: (task name, args, eta)."""
    calls: list[tuple] = []

    def record(task, *args, eta=None, owe=True):
        calls.append((task.name, args, eta))

    monkeypatch.setattr(steps, "task_publish", record)
    return calls


def test_the_sweep_ends_overdue_clocks_and_publishes_the_deadlines_falling_due(
    fake_clock, clocked, published
):
    fast = clocked(clock={"per_point_seconds": 10, "delay_seconds": 0}, target_score=1)
    slow = clocked()
    fast.refresh_from_db()
    assert tasks.clocks_sweep() == 0
    assert published == [("games.tasks.match_time_out", (fast.pk,), fast.clock_deadline)]

    fake_clock.advance(10)
    assert tasks.clocks_sweep() == 1
    fast.refresh_from_db()
    slow.refresh_from_db()
    assert fast.ended_by == Match.EndedBy.TIME
    assert slow.status == Match.Status.IN_PROGRESS
    fake_clock.advance(DELAY + 600)
    assert tasks.clocks_sweep() == 1
    slow.refresh_from_db()
    assert slow.ended_by == Match.EndedBy.TIME


def test_a_turn_starting_close_to_its_deadline_publishes_its_task_on_commit(
    fake_clock, clocked, published, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        close = clocked(clock={"per_point_seconds": 10, "delay_seconds": 5}, target_score=2)
        far = clocked()
    close.refresh_from_db()
    assert close.clock_deadline == fake_clock.at + seconds(25)
    assert published == [("games.tasks.match_time_out", (close.pk,), close.clock_deadline)]
    assert far.pk not in [args[0] for _name, args, _eta in published]


def test_the_deadline_task_is_not_run_early_when_tasks_run_eagerly(fake_clock, clocked):
    """Without a broker the task would run at once, before its time: it is left to the reads
    (and, in production, to the sweep)."""
    from games.services.owed import task_publish

    match = clocked()
    task_publish(tasks.match_time_out, match.pk, eta=clock.now() - seconds(1000), owe=False)
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS


def test_a_time_out_is_rated_like_any_finished_match(fake_clock, clocked):
    match = clocked()
    fake_clock.advance(DELAY + 601)
    clock_services.match_time_out(match=match.pk)
    ratings_recompute()
    rows = RatingHistory.objects.filter(match=match, variant="")
    assert sorted(rows.values_list("player_id", flat=True)) == sorted(
        [match.player_one_id, match.player_two_id]
    )
    winner_row = rows.get(player_id=Match.objects.get(pk=match.pk).winner_id)
    assert winner_row.change > 0


@pytest.mark.parametrize(
    ("clock_json", "words"),
    [
        ({"preset": "blitz"}, "unknown clock preset 'blitz'"),
        ({"per_point_seconds": 5, "delay_seconds": 0}, "per_point_seconds must be"),
        ({"preset": "standard", "delay_seconds": 500}, "delay_seconds must be"),
        ({"per_point_seconds": 60}, "delay_seconds is missing"),
        ({"preset": "standard", "increment": 2}, "unknown clock key 'increment'"),
        ([120, 12], "must be null"),
    ],
)
def test_bad_clock_settings_are_refused(alice, bob, organiser, clock_json, words):
    with pytest.raises(InvalidRequestError, match=words):
        services.match_create(creator=organiser, player_one=alice, player_two=bob, clock=clock_json)


def test_a_clock_needs_an_online_match(alice, bob, organiser):
    with pytest.raises(InvalidRequestError, match="needs an online match"):
        services.match_create(
            creator=organiser,
            player_one=alice,
            player_two=bob,
            mode=Match.Mode.OVER_THE_BOARD,
            clock={"preset": "relaxed"},
        )


def test_the_clock_as_the_api_shows_it_counts_the_delay_then_the_bank(fake_clock, clocked):
    match = clocked()
    match.refresh_from_db()
    runner = match.clock_running
    fake_clock.advance(5)
    state = selectors.match_clock(match, clock.now())
    assert state["running"] == runner and state["delay_left"] == 7
    assert state["remaining"][runner] == 600 and state["flagged"] is None
    fake_clock.advance(27)
    state = selectors.match_clock(match, clock.now())
    assert state["delay_left"] == 0 and state["remaining"][runner] == 580
    fake_clock.advance(600)
    state = selectors.match_clock(match, clock.now())
    assert state["remaining"][runner] == 0 and state["flagged"] == runner


def test_a_whole_match_keeps_the_clock_with_the_player_to_move(fake_clock, clocked):
    """Random play of a whole match, a random time before each action: the clock always runs
    for the player to move, with its deadline; a bank never grows and loses exactly the time
    beyond the delay when its turn ends; a roll with dice to play and a player's next Gjul Bara
    stage continue the turn (this seed meets both)."""
    rng = random.Random(11)
    match = clocked(clock={"per_point_seconds": 3600, "delay_seconds": 10})
    delay = seconds(10)
    continued = {"roll": 0, "stage": 0}
    for _ in range(5000):
        match.refresh_from_db()
        game = current(match)
        if game is None:
            break
        actor = selectors.player_to_move(game)
        side = side_of(match, actor)
        assert match.clock_running == side
        assert match.clock_deadline == match.clock_turn_started_at + delay + seconds(
            bank(match, actor) / 1000
        )
        before, started = bank(match, actor), match.clock_turn_started_at
        arrived = fake_clock.advance(rng.randint(0, 25))
        if selectors.is_roll_due(game):
            result = services.dice_roll(game=game, player=actor)
            kind = "roll"
        else:
            outcome = rng.choice(selectors.game_legal_plays(game))
            moves = outcome.play.to_json()
            result = services.play_submit(game=game, player=actor, ply=game.ply, moves=moves)
            kind = "stage"
        match.refresh_from_db()
        colour = "w" if actor.pk == result.game.white_id else "b"
        goes_on = (
            not result.game.is_over
            and selectors.player_to_move(result.game) == actor
            and all(turn.side == colour for turn in result.turns)
        )
        if goes_on:
            continued[kind] += 1
            assert (bank(match, actor), match.clock_turn_started_at) == (before, started)
        else:
            used = max(datetime.timedelta(0), arrived - started - delay)
            assert bank(match, actor) == before - used // datetime.timedelta(milliseconds=1)
            if match.status == Match.Status.IN_PROGRESS:
                assert match.clock_turn_started_at == arrived
    assert match.status == Match.Status.FINISHED and match.clock_running == ""
    assert continued["roll"] > 0 and continued["stage"] > 0, continued


def test_an_export_keeps_a_time_out_and_its_import_ends_the_same_way(fake_clock, clocked, staff):
    match = clocked()
    game = current(match)
    play_first(game, selectors.player_to_move(game))
    fake_clock.advance(3600)
    clock_services.match_time_out(match=match.pk)
    match.refresh_from_db()
    lines = services.match_export(match)
    assert lines[0]["ended_by"] == "time"
    text = "\n".join(json.dumps(line) for line in lines)
    imported = services.match_import(
        text=text, creator=staff, player_one=match.player_one, player_two=match.player_two
    )
    assert imported.status == Match.Status.FINISHED and imported.ended_by == Match.EndedBy.TIME
    assert imported.winner_id == match.winner_id
    assert (imported.score_one, imported.score_two) == (match.score_one, match.score_two)


def test_a_clock_costs_a_play_one_update_of_the_locked_match_row(fake_clock, clocked, online_match):
    """bench/api_plays.py's path: a match without a clock runs no query more; a clocked one
    writes the match row it already holds locked, once a turn (a roll that continues the turn
    writes nothing)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(match: Match) -> tuple[int, int, list[str]]:
        game = current(match)
        player = selectors.player_to_move(game)
        with CaptureQueriesContext(connection) as rolled:
            services.dice_roll(game=game, player=player)
        game.refresh_from_db()
        moves = selectors.game_legal_plays(game)[0].play.to_json()
        with CaptureQueriesContext(connection) as played:
            services.play_submit(game=game, player=player, ply=game.ply, moves=moves)
        return len(rolled), len(played), [q["sql"] for q in played.captured_queries]

    roll_plain, play_plain, _ = queries(online_match)
    roll_clocked, play_clocked, sql = queries(clocked())
    assert roll_clocked == roll_plain
    assert play_clocked == play_plain + 1
    assert sum('UPDATE "games_match"' in statement for statement in sql) == 1
