"""The steps the games services are made of: each runs inside its caller's transaction, on the
rows the caller holds locked, and none opens a transaction, decides who may act or is called from
outside ``games/services/``. The public use-cases (``matches``, ``play``, ``clock``, ``results``,
``exchange``) own their transaction and call these.

They live in one module because they call each other in a circle that is the game's own: a play
that ends a game finishes it (``game_finish``), which may start the next game (``game_start``),
whose opening dice (``dice_put``) append a turn (``turn_append``), which may end a game again.
This module imports no other service but the ratings' and the owed tasks' enqueueing, and
publishes tasks by name (``games.services.owed.task_named``), so ``games/tasks.py`` imports the
services and nothing here imports it.

**Clock charging** (docs/decisions.md D41): a play service takes the request's arrival time
before it locks anything and ends with ``clock_pass`` on the match row it holds locked. When a
turn ends the runner's bank loses the time used beyond the delay, and the clock of whoever acts
next starts: at the end of the service, so the time the server spends (the engine's check,
auto_roll) is charged to nobody. That is one plain-SQL UPDATE of the match row per turn, and
nothing at all for a match without a clock.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.errors import NotAllowedError
from games import clock, dice, postgame, selectors
from games.engine import (
    GameResult,
    Options,
    Outcome,
    Position,
    find_variant,
    next_game,
    opening_roll,
    stage_for,
    start_position,
)
from games.engine.cube import points_scored
from games.engine.match import is_stuck, match_winner
from games.models import Game, Match, Notification, ResultReport, Turn
from games.records import Replay
from games.selectors import User
from games.selectors import legal_plays_for as legal_plays  # the engine's, remembered
from games.services.owed import task_enqueue_on_commit, task_named, task_publish
from games.services.ratings import ratings_enqueue
from games.signals import match_finished
from games.sql import fields_update, turn_insert, turns_insert_with_update
from games.state import game_position_put
from players.models import Player

MATCH_TIME_OUT_TASK = "games.tasks.match_time_out"
REVIEW_WARM_TASK = "games.tasks.review_warm"

Side = Match.ClockSide
CLOCK_FIELDS = [
    "clock_one_ms",
    "clock_two_ms",
    "clock_running",
    "clock_turn_started_at",
    "clock_deadline",
]
# The turn of every roll and play, and the clock's write, with SQL written once
# (games/sql.py).
_insert_turn = turn_insert
_update_clock = partial(fields_update, fields=CLOCK_FIELDS)


# --- who decides ------------------------------------------------------------------------------


def check_decider(user: User, match: Match, what: str) -> None:
    """Refuse (403) anyone but an organiser of ``match`` (staff included) who does not play in
    it: a party to a match never settles its reports, forfeits it or corrects it, even as its
    organiser; a co-organiser or staff does (docs/decisions.md D39). ``what`` names the action
    ("declare a forfeit")."""
    if not selectors.is_organiser(user, match):
        raise NotAllowedError(f"only the match's organiser may {what}")
    if selectors.plays_in(user, match):
        raise NotAllowedError(selectors.PARTY_DECIDES)


# --- a match's games and its end ----------------------------------------------------------------


def match_locked(pk: int) -> Match | None:
    """Match ``pk`` locked for the rest of the transaction, after its game in progress: the play
    services lock a game and then its match, so a service that ends a match (a forfeit, a
    time-out, a claim) takes them in the same order, and one that meets a play waits for it
    instead of deadlocking with it."""
    list(
        Game.objects.select_for_update(no_key=True)
        .filter(match_id=pk, status=Game.Status.IN_PROGRESS)
        .values_list("pk", flat=True)
    )
    return Match.objects.select_for_update(no_key=True).filter(pk=pk).first()


def game_start(*, match: Match) -> Game:
    """Start the next game of the cycle: variant, starter (opening roll from the game's seed
    when needed, docs/rules.md §6.3) and the dice commitment. The starter plays white. The
    first game of a match with a clock starts the clock of the player to move."""
    options = selectors.match_options(match)
    upcoming = next_game(selectors.match_state(match), options)
    seed = dice.new_seed()
    rounds: list[list[int]] = []
    starter = upcoming.starter
    if starter is None:
        stream = dice.opening_stream(seed)
        opening = opening_roll(lambda: next(stream))
        starter, rounds = opening.starter, [list(pair) for pair in opening.rounds]
    players = match.players
    last = match.games.order_by("-number").values_list("number", flat=True).first() or 0
    game = Game.objects.create(
        match=match,
        number=last + 1,
        variant=upcoming.variant,
        white=players[starter],
        black=players[1 - starter],
        opening_rolls=rounds,
        position=start_position(upcoming.variant, "w").to_json(),
        crawford=upcoming.crawford,
        seed=seed,
        seed_commitment=dice.commitment(seed),
    )
    if match.status != Match.Status.IN_PROGRESS:
        match.status = Match.Status.IN_PROGRESS
        match.save(update_fields=["status", "updated_at"])
    if rounds and options.opening_roll == "use_opening_dice":
        dice_put(game=game, dice=rounds[-1])
        game.save()
    elif match.auto_roll:
        roll_if_auto(game)
        game.save()
    if match.has_clock and not match.clock_running:
        clock_start(game=game)
    return game


def game_finish(*, game: Game, result: GameResult, ended_by: str, start_next: bool = True) -> Game:
    """Record ``result`` on ``game`` (saved), then update the match: its score, its end, or the
    next game (online matches)."""
    game.status = Game.Status.FINISHED
    game.ended_by = ended_by
    game.result_winner = game.player_of(result.winner) if result.winner else None
    game.result_kind = result.kind
    # The points scored: the cube multiplies a win (docs/rules.md §6.4), not a tie's points.
    game.result_points = points_scored(result, game.cube_value)
    game.cube_offered_by = ""
    game.dice = None
    game.finished_at = timezone.now()
    game.save()
    match_update(match=game.match, start_next=start_next)
    return game


def match_update(*, match: Match, start_next: bool) -> Match:
    """Fold the finished games into the score; finish the match or start its next game."""
    options = selectors.match_options(match)
    state = selectors.match_state(match)
    match.score_one, match.score_two = state.scores
    winner = match_winner(state, options)
    if winner is not None:
        match.status, match.ended_by = Match.Status.FINISHED, Match.EndedBy.SCORE
        match.winner = match.players[winner]
    match.save()
    if winner is not None:
        match_finished_announce(match)
    elif start_next and match.mode == Match.Mode.ONLINE:
        game_start(match=match)
    return match


def games_abandon(match: Match) -> None:
    """Abandon ``match``'s game in progress, if any: its seed is revealed, its dice cleared."""
    match.games.filter(status=Game.Status.IN_PROGRESS).update(
        status=Game.Status.ABANDONED, dice=None, finished_at=timezone.now()
    )


def match_end_early(match: Match, *, winner: Player, status: str, ended_by: str) -> Match:
    """End ``match`` (locked by the caller) before its score decided it: ``winner`` wins it, a
    game in progress is abandoned (its seed revealed), the score stays as it was and the clock
    stops. Sends match_finished."""
    games_abandon(match)
    match.status, match.ended_by, match.winner = status, ended_by, winner
    match.clock_running, match.clock_turn_started_at, match.clock_deadline = "", None, None
    match.save()
    match_finished_announce(match)
    return match


def match_won_at_length(match: Match, *, winner: Player) -> None:
    """``winner``'s score becomes the match length, if below it; the other's stays (a match
    resigned, docs/decisions.md D166). The caller saves ``match``."""
    if winner.pk == match.player_one_id:
        match.score_one = max(match.score_one, match.target_score)
    else:
        match.score_two = max(match.score_two, match.target_score)


def match_finished_announce(match: Match) -> None:
    """Tell the apps above that ``match`` is over (the match_finished signal: tournaments records
    the result), then rate it once the transaction commits (games.services.ratings): that
    match and its games, after every result rated before them; and, where a broker runs the
    tasks and an evaluator is installed, review it into the cache (games.postgame, D138)."""
    match_finished.send(sender=Match, match=match)
    ratings_enqueue(match_id=match.pk)
    if postgame.review_queued(match):
        task_enqueue_on_commit(REVIEW_WARM_TASK, match.pk)


# --- turns ------------------------------------------------------------------------------------


def dice_put(*, game: Game, dice: Sequence[int], turns: list[Turn] | None = None) -> None:
    """Put rolled ``dice`` on the table; when no play is possible, record the pass at once
    (appended to ``turns`` when given). The caller saves ``game``."""
    position = selectors.game_position(game)
    outcomes = legal_plays(game.variant, position, dice, _options(game))
    if len(outcomes) == 1 and not outcomes[0].play.moves:
        turn_append(game, position, list(dice), outcomes[0], [] if turns is None else turns)
    else:
        game.dice = list(dice)


def roll_if_auto(game: Game, rolled: str | None = None, turns: list[Turn] | None = None) -> None:
    """Match option ``auto_roll``: roll for the player to move while a roll is due (not during
    a Gjul Bara cascade, whose dice are already known, nor for a player who may double: with
    the cube on, that player chooses between doubling and rolling). A roll with no play is a
    pass and the turn goes over, so the other side is rolled for next; it stops after one
    automatic roll per side, so that a game in which neither side can move (a Tapa deadlock
    with mother=off and no stuck_limit) waits for a player to roll instead of rolling forever.
    ``rolled``: the side that has just rolled by hand in this request. The turns are appended
    to ``turns`` when given. The caller saves."""
    if not game.match.auto_roll:
        return
    rolled_for = {rolled} if rolled else set()
    while not game.is_over and game.dice is None:
        position = selectors.game_position(game)
        if position.pending or position.turn in rolled_for:
            return
        if selectors.may_double(game):  # the player decides: double, or roll by hand
            return
        rolled_for.add(position.turn)
        dice_put(game=game, dice=dice.roll(game.seed, game.ply), turns=turns)


def turn_append(
    game: Game,
    position: Position,
    rolled: list[int] | None,
    outcome: Outcome,
    turns: list[Turn],
) -> None:
    """Append the turn, move the game on, and play any forced empty pending stage."""
    options = _options(game)
    if rolled is None:
        stage = stage_for(find_variant(game.variant), position, None, options)
        kind, shown = Turn.Kind.PENDING, list(stage.dice)
    else:
        kind, shown = Turn.Kind.ROLL, list(rolled)
    turn = Turn(
        game=game,
        ply=game.ply,
        side=position.turn,
        kind=kind,
        dice=shown,
        moves=outcome.play.to_json(),
        position_after=outcome.position.to_json(),
        result=outcome.result.to_json() if outcome.result else None,
    )
    _turn_add(turn, turns)
    game.ply += 1
    game_position_put(game, outcome.position)
    game.dice = None
    if kind == Turn.Kind.ROLL:
        game.idle_rolls = 0 if outcome.play.moves else game.idle_rolls + 1
    if outcome.result is not None:
        turns_flush(turns)  # what game_finish's listeners read is stored
        game_finish(game=game, result=outcome.result, ended_by=Game.EndedBy.PLAY)
    elif is_stuck(game.idle_rolls, options):
        turns_flush(turns)
        game_finish(game=game, result=GameResult(None, "tie", 0), ended_by=Game.EndedBy.STUCK)
    elif outcome.position.pending:
        _play_forced_stage(game, outcome.position, turns)


def cube_turn_append(game: Game, kind: str, side: str, turns: list[Turn]) -> None:
    """Append a cube action (double, take, drop) of ``side`` as a ply without dice."""
    turn = Turn(
        game=game,
        ply=game.ply,
        side=side,
        kind=kind,
        dice=[],
        moves=[],
        position_after=game.position,
        result=None,
    )
    _turn_add(turn, turns)
    game.ply += 1


class PendingTurns(list[Turn]):
    """The turns one play service appends, in ply order, held unsaved (no key yet) until the
    service writes them together with its game row (``play_write``): on PostgreSQL one
    statement instead of an INSERT a turn and an UPDATE (docs/decisions.md D139). A game that
    ends has its turns written first (``turns_flush``), before ``game_finish`` and whatever
    listens to it. A plain list passed instead has each turn inserted at once."""


def _turn_add(turn: Turn, turns: list[Turn]) -> None:
    """Append the new ``turn`` to ``turns``: inserted now, or left for ``play_write`` when
    ``turns`` is a PendingTurns."""
    turns.append(turn if isinstance(turns, PendingTurns) else _insert_turn(turn))


def turns_flush(turns: list[Turn]) -> None:
    """Insert the turns of ``turns`` not stored yet (those of a PendingTurns), in place."""
    for index, turn in enumerate(turns):
        if turn.pk is None:
            turns[index] = _insert_turn(turn)


def play_write(game: Game, turns: list[Turn], fields: Sequence[str]) -> list[Turn]:
    """Store ``fields`` of ``game`` and the turns of ``turns`` not stored yet, and return
    ``turns`` as stored: one statement on PostgreSQL (games/sql.py)."""
    new = [index for index, turn in enumerate(turns) if turn.pk is None]
    stored = turns_insert_with_update([turns[index] for index in new], game, fields)
    written = list(turns)
    for index, turn in zip(new, stored, strict=True):
        written[index] = turn
    return written


def turns_create(game: Game, replay: Replay) -> None:
    """Store the turns of a replayed move record (a reported or imported game), in one INSERT."""
    Turn.objects.bulk_create(
        Turn(
            game=game,
            ply=ply,
            side=turn.side,
            kind=turn.kind,
            dice=turn.dice,
            moves=turn.moves,
            position_after=turn.position_after.to_json(),
            result=turn.result.to_json() if turn.result else None,
        )
        for ply, turn in enumerate(replay.turns, start=1)
    )


def _play_forced_stage(game: Game, position: Position, turns: list[Turn]) -> None:
    outcomes = legal_plays(game.variant, position, None, _options(game))
    if len(outcomes) == 1 and not outcomes[0].play.moves:
        turn_append(game, position, None, outcomes[0], turns)


def _options(game: Game) -> Options:
    return selectors.match_options(game.match)


# --- the match clock ----------------------------------------------------------------------------


def clock_start(*, game: Game) -> None:
    """The first game of ``game``'s match has started: the clock of its player to move runs."""
    match = game.match
    to_move = selectors.player_to_move(game)
    _turn_start(match, _side_of(match, to_move), clock.now())
    _update_clock(match)


def clock_pass(*, game: Game, arrived: datetime.datetime, turns: Sequence[Turn]) -> None:
    """After an action accepted in ``game`` (the request arrived at ``arrived``; ``turns``: the
    turns it appended): the runner's turn goes on, or it ends, the runner is charged, and the
    clock of whoever acts next starts now (none once the match is over). The caller holds the
    match row locked; this writes its clock fields."""
    match = game.match
    if not match.has_clock:
        return
    following = game if not game.is_over else _current_game(match)
    to_move = selectors.player_to_move(following) if following is not None else None
    next_side = _side_of(match, to_move)
    runner = match.clock_running
    if runner and following is game and next_side == runner:
        colour = "w" if game.white_id == _player_id(match, runner) else "b"
        if all(turn.side == colour for turn in turns):
            return  # a roll with dice to play, or the next stage of a cascade: the turn goes on
    if runner and match.clock_turn_started_at is not None:
        used = clock.charged_ms(match.clock_turn_started_at, arrived, match.clock_delay_seconds)
        bank_put(match, runner, max(0, _bank(match, runner) - used))
    _turn_start(match, next_side, clock.now())
    _update_clock(match)


def is_overdue(match: Match, at: datetime.datetime) -> bool:
    """Whether ``match``'s running clock had run out by ``at``."""
    return (
        match.clock_deadline is not None
        and at >= match.clock_deadline
        and match.status == Match.Status.IN_PROGRESS
    )


def bank_put(match: Match, side: str, ms: int) -> None:
    """Set the bank of ``side`` ("player_one" or "player_two") on ``match`` (not saved)."""
    if side == Side.PLAYER_ONE:
        match.clock_one_ms = ms
    else:
        match.clock_two_ms = ms


def deadline_publish(pk: int, deadline: datetime.datetime) -> None:
    """Publish match ``pk``'s deadline task (``games.tasks.match_time_out``) to run at
    ``deadline``; not owed when it cannot be published: the clock sweep publishes it again."""
    task_publish(task_named(MATCH_TIME_OUT_TASK), pk, eta=deadline, owe=False)


def _turn_start(match: Match, side: str, at: datetime.datetime) -> None:
    """Start the clock of ``side`` at ``at`` ("" stops the clock), and on commit publish its
    deadline task if it falls due soon."""
    if not side:
        match.clock_running, match.clock_turn_started_at, match.clock_deadline = "", None, None
        return
    deadline = clock.deadline(at, match.clock_delay_seconds, _bank(match, side))
    match.clock_running, match.clock_turn_started_at, match.clock_deadline = side, at, deadline
    if deadline - at <= datetime.timedelta(seconds=settings.CLOCK_SCHEDULE_SECONDS):
        transaction.on_commit(partial(deadline_publish, match.pk, deadline), robust=True)


def _current_game(match: Match) -> Game | None:
    if match.status != Match.Status.IN_PROGRESS:
        return None
    games = match.games.select_related("white", "black").filter(status=Game.Status.IN_PROGRESS)
    return games.order_by("-number").first()


def _side_of(match: Match, player: Player | None) -> str:
    if player is None:
        return ""
    return Side.PLAYER_ONE if player.pk == match.player_one_id else Side.PLAYER_TWO


def _player_id(match: Match, side: str) -> int:
    return int(match.player_one_id if side == Side.PLAYER_ONE else match.player_two_id)


def _bank(match: Match, side: str) -> int:
    return int(match.clock_one_ms if side == Side.PLAYER_ONE else match.clock_two_ms)


# --- notifications (docs/decisions.md D115, D116) ---------------------------------------------

NOTIFICATIONS_EMAIL_TASK = "games.tasks.notifications_email"
EMAILED_KINDS = (Notification.Kind.MATCH_READY, Notification.Kind.RESULT_TO_CONFIRM)
# (the recipient's user id, or None for a player without an account; match id; report id)
NotificationKey = tuple[int | None, int, int | None]


def notifications_add(kind: str, keys: Iterable[NotificationKey]) -> None:
    """Store a notification of ``kind`` for each (recipient, match, report) of ``keys`` that
    has none yet (a player without an account is skipped): one event, one notification, even
    when a write repeats the event. One INSERT whatever their number, which skips the rows the
    unique constraints refuse (stored before, or by a concurrent write of the same event),
    without failing the caller's write. The e-mail of the kinds that send one goes out by the
    task ``notifications_email``, queued on commit. Nothing more is pushed: the event's own
    push (a match created, a report saved) reaches the recipient's badge socket, which asks
    the unread count too (a draw's, in bulk, shows at the next ping)."""
    wanted = {(user_id, match, report) for user_id, match, report in keys if user_id is not None}
    if not wanted:
        return
    rows = [
        Notification(recipient_id=user_id, kind=kind, match_id=match_id, report_id=report_id)
        for user_id, match_id, report_id in sorted(wanted, key=_in_order)
    ]
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    if kind in EMAILED_KINDS:
        matches = sorted({match_id for _user, match_id, _report in wanted})
        reports = sorted({report for _user, _match, report in wanted if report is not None})
        task_enqueue_on_commit(NOTIFICATIONS_EMAIL_TASK, kind, matches, reports)


def _in_order(key: tuple[int, int, int | None]) -> tuple[int, int, int]:
    """Notifications inserted in the order of their matches (and reports)."""
    user_id, match_id, report_id = key
    return (match_id, report_id or 0, user_id)


def match_ready_notify(matches: Sequence[Match], *, but: int | None = None) -> None:
    """Tell the players of ``matches`` (with an account) that their match is ready for them:
    a tournament match opened, a challenge accepted or taken. ``but``: the user whose own act
    opened it, who is told nothing."""
    notifications_add(
        Notification.Kind.MATCH_READY,
        [
            (player.user_id, match.pk, None)
            for match in matches
            for player in match.players
            if player.user_id is None or player.user_id != but
        ],
    )


def result_to_confirm_notify(report: ResultReport, reporter_player_id: int | None) -> None:
    """Tell the opponent of the player who reported ``report`` that it awaits their
    confirmation (nothing for an organiser's report, which counts at once)."""
    match = report.match
    if reporter_player_id not in (match.player_one_id, match.player_two_id):
        return
    opponent_id = (
        match.player_two_id if reporter_player_id == match.player_one_id else match.player_one_id
    )
    user_id = Player.objects.filter(pk=opponent_id).values_list("user_id", flat=True).first()
    notifications_add(Notification.Kind.RESULT_TO_CONFIRM, [(user_id, match.pk, report.pk)])


def notifications_settle(*, match_id: int, kind: str, report_id: int | None = None) -> None:
    """Mark read what was told of an event now dealt with (a report answered, a challenge
    answered), so the unread count shows only what still waits."""
    Notification.objects.filter(
        match_id=match_id, kind=kind, report_id=report_id, read_at__isnull=True
    ).update(read_at=timezone.now())
