"""Time rules of online matches: the match clock, whose time-out ends the match, and for
matches without a clock the waiting player's claim after the opponent's long inactivity
(docs/options.md, "The match clock"; docs/decisions.md D41-D44).

**Charging.** The server is the only authority. A play service takes the request's arrival time
(``games.clock.now()``) before it locks anything or asks the engine, and ends with
``clock_pass`` inside its transaction, on the match row it already holds locked. A player's turn
runs from the moment they may act (their opponent's action committed, or the game started) to
the arrival of the request that ends it: a play, a double, a take or drop, a resignation, or a
roll that was a forced pass. A roll that leaves dice to play, and a Gjul Bara stage followed by
another of the same player, continue the turn. When a turn ends the runner's bank loses the time
used beyond the delay, and the clock of whoever acts next starts: at the end of the service, so
the time the server spends (the engine's check, auto_roll) is charged to nobody. That is one
plain-SQL UPDATE of the match row per turn, and nothing at all for a match without a clock.

**Enforcing.** A clock whose deadline has passed makes its runner lose the match at once
(``match_time_out``), whether or not anyone sends a request. Whatever comes first ends it:

- a roll, play, cube action or resignation: the play services refuse it (409) after ending the
  match;
- a read of the game, the match or the match page (games/api/views.py, games/views.py);
- the deadline task (``games.tasks.match_time_out``), published on commit with its ETA when a
  turn starts whose deadline falls within ``CLOCK_SCHEDULE_SECONDS``, and again by the sweep;
- the sweep (``games.tasks.clocks_sweep``, from beat every ``CLOCK_SWEEP_SECONDS``): ends every
  overdue clock, and publishes the deadline task of every clock falling due before the sweep
  after next, so a deadline is kept to the second even if its first task was lost.

Tasks with a far ETA are never published: Redis hands an unacknowledged task out again after
its visibility timeout, and a worker holds every ETA task it has received in memory. A worker
restart loses at most the near tasks it held, which the next sweep publishes again; a time-out
is idempotent (the match is locked and checked again), so a repeated task is harmless.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Sequence
from functools import partial

from django.conf import settings
from django.db import transaction

from common.errors import ConflictError, NotAllowedError
from games import clock, selectors
from games.errors import ClaimTooEarlyError
from games.models import Game, Match, Turn
from games.selectors import User
from games.services.matches import match_end_early, match_locked
from games.services.owed import task_publish
from games.sql import fields_update
from players.models import Player

logger = logging.getLogger(__name__)

Side = Match.ClockSide
CLOCK_FIELDS = [
    "clock_one_ms",
    "clock_two_ms",
    "clock_running",
    "clock_turn_started_at",
    "clock_deadline",
]
_update_clock = partial(fields_update, fields=CLOCK_FIELDS)


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
        _bank_put(match, runner, max(0, _bank(match, runner) - used))
    _turn_start(match, next_side, clock.now())
    _update_clock(match)


def is_overdue(match: Match, at: datetime.datetime) -> bool:
    """Whether ``match``'s running clock had run out by ``at``."""
    return (
        match.clock_deadline is not None
        and at >= match.clock_deadline
        and match.status == Match.Status.IN_PROGRESS
    )


def clock_enforce(match: Match) -> bool:
    """For a read: end ``match`` (as loaded) if its clock has run out. True when it did, so the
    caller loads what it shows again."""
    if not is_overdue(match, clock.now()):
        return False
    match_time_out(match=match.pk)
    return True


def match_time_out(*, match: Match | int) -> Match | None:
    """If the running clock of ``match`` has run out, its player loses the match on time (status
    finished, ended_by "time", the score as it stood; rated like any finished match of its kind:
    docs/decisions.md D42). Runs in its own transaction, with the match locked and checked
    again, so a repeat does nothing. Returns the match when this call ended it."""
    pk = match if isinstance(match, int) else match.pk
    with transaction.atomic():
        locked = match_locked(pk)
        if locked is None or not is_overdue(locked, clock.now()):
            return None
        loser = locked.clock_running
        _bank_put(locked, loser, 0)
        winner_id = locked.player_two_id if loser == Side.PLAYER_ONE else locked.player_one_id
        winner = Player.objects.get(pk=winner_id)
        match_end_early(
            locked, winner=winner, status=Match.Status.FINISHED, ended_by=Match.EndedBy.TIME
        )
    logger.info("match %s: %s lost on time", pk, loser)
    return locked


def time_out_message(match: Match | int) -> str:
    """Why a write on a match that ended on time was refused."""
    pk = match if isinstance(match, int) else match.pk
    row = Match.objects.select_related("player_one", "player_two").get(pk=pk)
    if row.ended_by != Match.EndedBy.TIME or row.winner_id is None:
        return f"the match is over ({row.status})"
    loser = row.player_two if row.winner_id == row.player_one_id else row.player_one
    return f"the match is over: {loser.display_name} ran out of time"


def clocks_sweep() -> int:
    """End every clock that has run out, and publish the deadline task of every clock falling
    due within ``CLOCK_SCHEDULE_SECONDS``. Returns how many matches it ended."""
    at = clock.now()
    running = Match.objects.filter(
        status=Match.Status.IN_PROGRESS, clock_deadline__isnull=False
    ).order_by("clock_deadline")
    ended = 0
    for pk in running.filter(clock_deadline__lte=at).values_list("pk", flat=True):
        try:
            ended += match_time_out(match=pk) is not None
        except Exception:  # one match's failure (say, in a receiver) must not stop the others
            logger.exception("match %s: the time-out failed; the next sweep tries again", pk)
    horizon = at + datetime.timedelta(seconds=settings.CLOCK_SCHEDULE_SECONDS)
    due = running.filter(clock_deadline__gt=at, clock_deadline__lte=horizon)
    for pk, deadline in due.values_list("pk", "clock_deadline"):
        if deadline is not None:  # always (clock_deadline__gt): it tells the type
            _deadline_publish(pk, deadline)
    return ended


def match_claim(*, match: Match, user: User) -> Match:
    """The waiting player of an online match without a clock claims it after the player to
    move has let ``claim_after_hours`` pass since their turn began (the game's start or the
    opponent's last turn; a roll does not restart it): the match ends as a forfeit won by the
    claimer (unrated, like every forfeit: docs/decisions.md D44). Too early: ClaimTooEarlyError
    (409) with the time left. The player to move may not claim (403)."""
    arrived = clock.now()
    with transaction.atomic():
        locked = match_locked(match.pk)
        if locked is None:
            raise ConflictError("the match no longer exists")
        match = locked
        player = selectors.player_for(user)
        if player is None or player.pk not in (match.player_one_id, match.player_two_id):
            raise NotAllowedError("only a player of the match may claim it")
        game = _claimable_game(match)
        to_move = selectors.player_to_move(game)
        if to_move is not None and to_move.pk == player.pk:
            raise NotAllowedError(
                "it is your turn: only the player waiting for their opponent may claim the match"
            )
        claim_at = _turn_began(game) + datetime.timedelta(hours=match.claim_after_hours)
        if arrived < claim_at:
            raise ClaimTooEarlyError(claim_at=claim_at, left=claim_at - arrived)
        match_end_early(
            match, winner=player, status=Match.Status.FORFEITED, ended_by=Match.EndedBy.CLAIM
        )
    return match


def _claimable_game(match: Match) -> Game:
    if match.mode != Match.Mode.ONLINE:
        raise ConflictError(
            "only an online match can be claimed; over the board the organiser declares forfeits"
        )
    if match.status != Match.Status.IN_PROGRESS:
        raise ConflictError(f"the match is not in progress ({match.status})")
    if match.has_clock:
        raise ConflictError(
            "the match has a clock: a player whose time runs out loses it, so there is nothing "
            "to claim"
        )
    game = selectors.current_game(match)
    if game is None:
        raise ConflictError("no game of the match is in progress")
    return game


def _turn_began(game: Game) -> datetime.datetime:
    """When the player to move could first act: after the last turn of the game, else at its
    start."""
    last = game.turns.order_by("-ply").values_list("created_at", flat=True).first()
    return last or game.started_at


def _turn_start(match: Match, side: str, at: datetime.datetime) -> None:
    """Start the clock of ``side`` at ``at`` ("" stops the clock), and on commit publish its
    deadline task if it falls due soon."""
    if not side:
        match.clock_running, match.clock_turn_started_at, match.clock_deadline = "", None, None
        return
    deadline = clock.deadline(at, match.clock_delay_seconds, _bank(match, side))
    match.clock_running, match.clock_turn_started_at, match.clock_deadline = side, at, deadline
    if deadline - at <= datetime.timedelta(seconds=settings.CLOCK_SCHEDULE_SECONDS):
        transaction.on_commit(partial(_deadline_publish, match.pk, deadline), robust=True)


def _deadline_publish(pk: int, deadline: datetime.datetime) -> None:
    from games import tasks  # the tasks module imports the services

    task_publish(tasks.match_time_out, pk, eta=deadline, owe=False)


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


def _bank_put(match: Match, side: str, ms: int) -> None:
    if side == Side.PLAYER_ONE:
        match.clock_one_ms = ms
    else:
        match.clock_two_ms = ms
