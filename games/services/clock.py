"""Time rules of online matches: the match clock, whose time-out ends the match, and for
matches without a clock the waiting player's claim after the opponent's long inactivity
(docs/options.md, "The match clock"; docs/decisions.md D41-D44).

**Charging** happens inside each play service's transaction (``clock_start``, ``clock_pass``:
games/services/_steps.py). A player's turn runs from the moment they may act (their opponent's
action committed, or the game started) to the arrival of the request that ends it: a play, a
double, a take or drop, a resignation, or a roll that was a forced pass. A roll that leaves dice
to play, and a Gjul Bara stage followed by another of the same player, continue the turn.

**Enforcing.** A clock whose deadline has passed makes its runner lose the match at once
(``match_time_out``), whether or not anyone sends a request. Whatever comes first ends it:

- a roll, play, cube action or resignation: the play services refuse it (409) after ending the
  match;
- a read of the game, the match or the match page, and the page's live poll (games/api/views.py,
  games/views.py), through ``match_time_out`` too: the one service every path calls
  (docs/decisions.md D64);
- the deadline task (``games.tasks.match_time_out``), published on commit with its ETA when a
  turn starts whose deadline falls within ``CLOCK_SCHEDULE_SECONDS``, and again by the sweep;
- the sweep (``games.tasks.clocks_sweep``, from beat every ``CLOCK_SWEEP_SECONDS``): ends every
  overdue clock, and publishes the deadline task of every clock falling due before the sweep
  after next, so a deadline is kept to the second even if its first task was lost. Where no
  beat runs (``make run``) the server process runs ``clocks_sweep`` itself every second
  (config/lifespan.py), and the match page reads ``state.json`` when its clock shows 0:00
  (docs/decisions.md D95, D96).

Tasks with a far ETA are never published: Redis hands an unacknowledged task out again after
its visibility timeout, and a worker holds every ETA task it has received in memory. A worker
restart loses at most the near tasks it held, which the next sweep publishes again; a time-out
is idempotent (the match is locked and checked again), so a repeated task is harmless.
"""

from __future__ import annotations

import datetime
import logging
import time

from django.conf import settings
from django.db import OperationalError, transaction
from django.utils.translation import gettext

from common.errors import ConflictError, NotAllowedError
from games import clock, selectors
from games.errors import ClaimTooEarlyError
from games.models import Game, Match
from games.selectors import User
from games.services._steps import (
    bank_put,
    deadline_publish,
    is_overdue,
    match_end_early,
    match_locked,
)
from players.models import Player

logger = logging.getLogger(__name__)

Side = Match.ClockSide


def match_time_out(*, match: Match | int) -> Match | None:
    """If the running clock of ``match`` has run out, its player loses the match on time (status
    finished, ended_by "time", the score as it stood; rated like any finished match of its kind:
    docs/decisions.md D42). Runs in its own transaction, with the match locked and checked
    again, so a repeat does nothing. Returns the match when this call ended it.

    The one time-out of every path (docs/decisions.md D64): the deadline task, the sweep and a
    play service whose request came too late pass an id; a read passes the match it has loaded
    (the API's reads, the match page), whose deadline is checked first, so that a read of a
    match whose clock has not run out opens no transaction and writes nothing (the page's live
    poll checks the deadline it read and passes the id only when it has passed)."""
    if isinstance(match, Match) and not is_overdue(match, clock.now()):
        return None  # as loaded, not overdue: a read costs no transaction and no lock
    pk = match if isinstance(match, int) else match.pk
    for attempt in range(1, TIME_OUT_TRIES + 1):
        try:
            return _time_out(pk)
        except OperationalError as error:
            # Every open page asks at 0:00 at once: where the database answers a concurrent
            # writer "locked" at once instead of waiting (SQLite's shared cache, the tests'
            # in-memory database), try again shortly; the first to get in ends the match and
            # the others find it ended. Inside a caller's transaction nothing can be retried.
            retry = "locked" in str(error) and not transaction.get_connection().in_atomic_block
            if not retry or attempt == TIME_OUT_TRIES:
                raise
            time.sleep(0.05 * attempt)
    return None  # not reached: the last try returns or raises


TIME_OUT_TRIES = 4  # at most 0.3 s of waiting in all


def _time_out(pk: int) -> Match | None:
    with transaction.atomic():
        locked = match_locked(pk)
        if locked is None or not is_overdue(locked, clock.now()):
            return None
        loser = locked.clock_running
        bank_put(locked, loser, 0)
        winner_id = locked.player_two_id if loser == Side.PLAYER_ONE else locked.player_one_id
        winner = Player.objects.get(pk=winner_id)
        match_end_early(
            locked, winner=winner, status=Match.Status.FINISHED, ended_by=Match.EndedBy.TIME
        )
    logger.info("match %s: %s lost on time", pk, loser)
    return locked


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
            deadline_publish(pk, deadline)
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
            raise ConflictError(gettext("the match no longer exists"))
        match = locked
        player = selectors.player_for(user)
        if player is None or player.pk not in (match.player_one_id, match.player_two_id):
            raise NotAllowedError(gettext("only a player of the match may claim it"))
        game = _claimable_game(match)
        to_move = selectors.player_to_move(game)
        if to_move is not None and to_move.pk == player.pk:
            raise NotAllowedError(
                gettext(
                    "it is your turn: only the player waiting for their opponent may claim the "
                    "match"
                )
            )
        claim_at = selectors.claim_opens_at(match, game)
        if arrived < claim_at:
            raise ClaimTooEarlyError(claim_at=claim_at, left=claim_at - arrived)
        match_end_early(
            match, winner=player, status=Match.Status.FORFEITED, ended_by=Match.EndedBy.CLAIM
        )
    return match


def _claimable_game(match: Match) -> Game:
    if match.mode != Match.Mode.ONLINE:
        raise ConflictError(
            gettext(
                "only an online match can be claimed; over the board the organiser declares "
                "forfeits"
            )
        )
    if match.status != Match.Status.IN_PROGRESS:
        raise ConflictError(
            gettext("the match is not in progress (%(status)s)") % {"status": match.status}
        )
    if match.has_clock:
        raise ConflictError(
            gettext(
                "the match has a clock: a player whose time runs out loses it, so there is "
                "nothing to claim"
            )
        )
    game = selectors.current_game(match)
    if game is None:
        raise ConflictError(gettext("no game of the match is in progress"))
    return game
