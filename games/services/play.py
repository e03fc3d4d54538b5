"""Playing a game: the server's roll, submitted plays, forced passes and resignation (of a game,
or of the whole match: ``match_resign``).

Every service here opens its own transaction, loads and locks the game row with its match and
players (one query in plain SQL, games/sql.py), checks who acts, asks the engine, and appends one
Turn per decision; Game.position always equals the replay of its turns. Each returns a
``PlayResult``: the game after the write and the turns it appended, so an answer needs no query
for them.

The actor is either ``user`` (a request's user: the game must be visible to them, else
GameNotFoundError, and they act as the player they are in it) or ``player`` (a trusted caller
such as the demo, tasks and tests). ``game`` is a Game or its id; a Game passed in is not changed
(it is loaded again, locked).

With a match clock, each service takes the request's arrival time as it starts (before the lock
and the engine's work), refuses every write once the clock has run out (the match is then ended
on time and the answer is 409), and hands the clock over before it commits
(games/services/clock.py).

Row locks here and in every service are FOR NO KEY UPDATE (``no_key=True``): no key is ever
changed, and a plain FOR UPDATE conflicts with the KEY SHARE locks PostgreSQL's deferred
foreign-key checks take at commit; a ratings run inserting history that refers to a match in
play then deadlocked with the play (bench/api_plays.py on PostgreSQL).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from django.db import transaction
from django.utils.translation import gettext

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import clock, dice, selectors
from games.engine import (
    check_play,
    opponent,
    resignation_result,
)
from games.errors import GameNotFoundError, StalePlyError
from games.models import Game, Match, Turn
from games.push import match_changed
from games.selectors import User
from games.services import clock as clock_services
from games.services._steps import (
    PendingTurns,
    clock_pass,
    cube_turn_append,
    dice_put,
    game_finish,
    is_overdue,
    match_end_early,
    match_locked,
    match_won_at_length,
    play_write,
    roll_if_auto,
    turn_append,
)
from games.services.owed import task_enqueue_on_commit
from games.state import game_cube, game_cube_put
from players.models import Player

COMPUTER_TASK = "games.tasks.computer_play"  # games/services/practice.py
RESIGNATION_KINDS = ("single", "mars")
# What a roll or a play may change on the game row, when no game ends (game_finish saves all).
PLAY_FIELDS = [
    "ply",
    "position",
    "dice",
    "idle_rolls",
    "cube_value",
    "cube_owner",
    "cube_offered_by",
]
# The write of every roll, play and cube action: its new turns and the game row, one statement
# on PostgreSQL (games/services/_steps.py play_write, games/sql.py).
_write_play = functools.partial(play_write, fields=PLAY_FIELDS)


@dataclass(frozen=True)
class PlayResult:
    """What a write did: the game after it (saved) and the turns it appended, in ply order."""

    game: Game
    turns: list[Turn] = field(default_factory=list)


P = ParamSpec("P")
R = TypeVar("R")


class _OutOfTime(Exception):
    """The match's clock had run out when the request arrived: raised inside the service's
    transaction, so that nothing of the request is written."""

    def __init__(self, match_id: int) -> None:
        super().__init__(match_id)
        self.match_id = match_id


def _in_time(service: Callable[P, R]) -> Callable[P, R]:
    """A play service that, on a match whose clock had run out, ends the match on time (in a
    transaction of its own) and refuses the request with 409."""

    @functools.wraps(service)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return service(*args, **kwargs)
        except _OutOfTime as out:
            clock_services.match_time_out(match=out.match_id)
            raise ConflictError(_time_out_message(out.match_id)) from None

    return checked


@_in_time
def dice_roll(
    *, game: Game | int, player: Player | None = None, user: User | None = None
) -> PlayResult:
    """The player to move rolls: the dice of this ply come from the game's seed. A roll with no
    legal play is recorded as a pass at once and the turn goes over."""
    arrived = clock.now()
    turns: list[Turn] = PendingTurns()
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        _check_no_offer(game)
        _check_to_move(game, player)
        position = selectors.game_position(game)
        if position.pending:
            raise ConflictError(
                f"no roll is due: first play the pending dice {list(position.pending)} "
                "(submit a play without rolling)"
            )
        if game.dice is not None:
            raise ConflictError(
                gettext("the dice are already rolled (%(dice)s); submit a play")
                % {"dice": game.dice}
            )
        dice_put(game=game, dice=dice.roll(game.seed, game.ply), turns=turns)
        roll_if_auto(game, rolled=position.turn, turns=turns)  # after a pass, the opponent's
        turns = _write_play(game, turns)
        clock_pass(game=game, arrived=arrived, turns=turns)
    return PlayResult(game, turns)


@_in_time
def play_submit(
    *,
    game: Game | int,
    ply: int,
    moves: str | list[str],
    player: Player | None = None,
    user: User | None = None,
) -> PlayResult:
    """Apply ``moves`` as decision ``ply`` of the player to move, after the engine checks them.

    Raises StalePlyError when ``ply`` is not the game's next ply (another submission won),
    ConflictError when a roll is due first, and the engine's IllegalPlayError when illegal
    (before anything is written).
    """
    arrived = clock.now()
    turns: list[Turn] = PendingTurns()
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        # The ply is checked before the turn: a player's duplicate submission, arriving after
        # the first one passed the turn, is stale (409), not someone else's turn.
        _check_ply(game, player, ply)
        _check_no_offer(game)
        _check_to_move(game, player)
        position = selectors.game_position(game)
        if not position.pending and game.dice is None:
            raise ConflictError(gettext("roll the dice first: no dice are on the table"))
        rolled = None if position.pending else game.dice
        outcome = check_play(
            game.variant, position, rolled, moves, selectors.match_options(game.match)
        )
        turn_append(game, position, rolled, outcome, turns)
        roll_if_auto(game, turns=turns)
        turns = _write_play(game, turns)
        clock_pass(game=game, arrived=arrived, turns=turns)
    return PlayResult(game, turns)


@_in_time
def game_resign(
    *, game: Game | int, kind: str, player: Player | None = None, user: User | None = None
) -> PlayResult:
    """``player`` gives up the game; the opponent scores the value offered (single 1, mars 2).

    Decision (docs/rules.md §6.7 leaves it to the service): either player may resign at any moment
    of their own game, and a resignation is a decided game for the cycle and the next starter.
    """
    if kind not in RESIGNATION_KINDS:
        raise InvalidRequestError(f"a resignation offers 'single' or 'mars', got {kind!r}")
    arrived = clock.now()
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        colour = game.colour_of(player) if player is not None else None
        if colour is None:
            raise NotAllowedError(gettext("only a player of this game may resign it"))
        game.resigned_by = player
        game_finish(
            game=game, result=resignation_result(colour, kind), ended_by=Game.EndedBy.RESIGNATION
        )
        clock_pass(game=game, arrived=arrived, turns=[])
    return PlayResult(game)


@_in_time
def match_resign(*, match: Match, user: User) -> Match:
    """``user``'s player gives up the whole of ``match``, an online match in progress: the
    opponent wins it (status finished, ended_by "resignation"; rated like any finished match).

    Decision (docs/decisions.md D166): the game in progress is recorded as the player's
    resignation of a single (``resigned_by``, the cube counted, as ``game_resign``); if that
    does not already end the match, the opponent's score becomes the match length and the match
    ends there, through the end of a time-out or a forfeit (``match_end_early``). The match is
    locked after its game, as a play locks them, so a second resignation finds it over (409).
    """
    arrived = clock.now()
    with transaction.atomic():
        locked = match_locked(match.pk)
        if locked is None:
            raise ConflictError(gettext("the match no longer exists"))
        player = selectors.player_for(user)
        if player is None or player.pk not in (locked.player_one_id, locked.player_two_id):
            raise NotAllowedError(gettext("only a player of the match may resign it"))
        game = _resignable_game(locked)
        if is_overdue(locked, arrived):
            raise _OutOfTime(locked.pk)
        colour = game.colour_of(player)
        if colour is None:  # not reached: both players of a match play each of its games
            raise NotAllowedError(gettext("only a player of the match may resign it"))
        game.match, game.resigned_by = locked, player
        result = resignation_result(colour, "single")
        game_finish(game=game, result=result, ended_by=Game.EndedBy.RESIGNATION, start_next=False)
        clock_pass(game=game, arrived=arrived, turns=[])
        if locked.status == Match.Status.IN_PROGRESS:
            _match_resign_end(locked, winner=game.player_of(opponent(colour)))
        else:  # the single reached the match length: over by that game, as the player asked
            locked.ended_by = Match.EndedBy.RESIGNATION
            locked.save(update_fields=["ended_by", "updated_at"])
    return locked


def _resignable_game(match: Match) -> Game:
    """The game in progress of ``match``, which must be an online match in progress (409)."""
    if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
        raise ConflictError(gettext("the match is over (%(status)s)") % {"status": match.status})
    if match.mode != Match.Mode.ONLINE:
        raise ConflictError(
            gettext("only an online match can be resigned; over the board, report its result")
        )
    if match.status != Match.Status.IN_PROGRESS:
        raise ConflictError(
            gettext("the match is not in progress (%(status)s)") % {"status": match.status}
        )
    game = selectors.current_game(match)
    if game is None:
        raise ConflictError(gettext("no game of the match is in progress"))
    return game


def _match_resign_end(match: Match, *, winner: Player) -> None:
    """The resigner's opponent wins ``match`` at the match length; the resigner's score stays."""
    match_won_at_length(match, winner=winner)
    match_end_early(
        match, winner=winner, status=Match.Status.FINISHED, ended_by=Match.EndedBy.RESIGNATION
    )


@_in_time
def cube_double(
    *,
    game: Game | int,
    player: Player | None = None,
    user: User | None = None,
    ply: int | None = None,
) -> PlayResult:
    """The player to move offers a double before rolling (docs/rules.md §6.6, option ``cube``); the
    opponent must then take or drop. Recorded as a turn of kind ``double`` (a ply without dice).
    ``ply``, when given, must be the game's next ply (409 otherwise, as for a play)."""
    arrived = clock.now()
    turns: list[Turn] = PendingTurns()
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        _check_ply(game, player, ply)
        _check_no_offer(game)
        _check_to_move(game, player)
        if not selectors.may_double(game):
            raise ConflictError(_why_no_double(game))
        colour = game.position["turn"]
        cube_turn_append(game, Turn.Kind.DOUBLE, colour, turns)
        game_cube_put(game, game_cube(game).double(colour))
        turns = _write_play(game, turns)
        clock_pass(game=game, arrived=arrived, turns=turns)
    return PlayResult(game, turns)


@_in_time
def cube_take(
    *,
    game: Game | int,
    player: Player | None = None,
    user: User | None = None,
    ply: int | None = None,
) -> PlayResult:
    """The opponent accepts the double: the stake doubles and the taker owns the cube. The
    doubler then rolls (at once with ``auto_roll``)."""
    arrived = clock.now()
    turns: list[Turn] = PendingTurns()
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        doubler = _check_answer(game, player, ply)
        taker = opponent(doubler)
        cube_turn_append(game, Turn.Kind.TAKE, taker, turns)
        game_cube_put(game, game_cube(game).take(taker))
        roll_if_auto(game, turns=turns)
        turns = _write_play(game, turns)
        clock_pass(game=game, arrived=arrived, turns=turns)
    return PlayResult(game, turns)


@_in_time
def cube_drop(
    *,
    game: Game | int,
    player: Player | None = None,
    user: User | None = None,
    ply: int | None = None,
) -> PlayResult:
    """The opponent declines the double: the game ends, lost at the cube's value before the
    double (a decided game for the cycle and the next starter)."""
    arrived = clock.now()
    turns: list[Turn] = []
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        doubler = _check_answer(game, player, ply)
        # game_finish clears the offer
        cube_turn_append(game, Turn.Kind.DROP, opponent(doubler), turns)
        result = game_cube(game).drop(opponent(doubler))
        game_finish(game=game, result=result, ended_by=Game.EndedBy.DROP)
        clock_pass(game=game, arrived=arrived, turns=turns)
    return PlayResult(game, turns)


def _check_answer(game: Game, player: Player | None, ply: int | None) -> str:
    """The doubler's colour, once ``player`` is the one who must answer the pending double."""
    _check_ply(game, player, ply)
    if not game.cube_offered_by:
        raise ConflictError(gettext("no double is offered in this game"))
    _check_to_move(game, player)
    return game.cube_offered_by


def _why_no_double(game: Game) -> str:
    options = selectors.match_options(game.match)
    if not options.cube_applies_to(game.variant):
        if options.cube == "off":
            return gettext("no doubling in this game: the match's cube option is off")
        return gettext("no doubling in this game: the match's cube option is %(cube)s") % {
            "cube": options.cube
        }
    if game.crawford:
        return gettext("no doubling in the Crawford game")
    if not selectors.is_roll_due(game):
        return gettext("a double comes before rolling: the dice are already on the table")
    return gettext("the cube is your opponent's: only its owner may double")


def _check_ply(game: Game, player: Player | None, ply: int | None) -> None:
    if ply is not None and player is not None and game.colour_of(player) and ply != game.ply:
        raise StalePlyError(
            gettext("ply %(ply)s is stale: the game is at ply %(now)s")
            % {"ply": ply, "now": game.ply}
        )


def _check_no_offer(game: Game) -> None:
    if game.cube_offered_by:
        doubler = game.player_of(game.cube_offered_by).display_name
        answer = game.player_of(opponent(game.cube_offered_by)).display_name
        raise ConflictError(
            gettext("%(doubler)s has offered a double: %(answer)s must take or drop it first")
            % {"doubler": doubler, "answer": answer}
        )


def _locked(
    game: Game | int, player: Player | None, user: User | None, arrived: datetime.datetime
) -> tuple[Game, Player | None]:
    """The game loaded again and locked in the open transaction (with its match and players,
    one query), and who acts in it: ``user``'s player when a user acts (GameNotFoundError when
    the game is missing or not visible to them), else ``player``. _OutOfTime when the match's
    clock had run out by ``arrived``. The match's spectators are told once the transaction
    commits; a write refused later on rolls back and tells nobody."""
    pk = game if isinstance(game, int) else game.pk
    if user is not None:
        locked = selectors.game_visible(user=user, pk=pk, for_update=True)
        if locked is None:
            raise GameNotFoundError(f"no game {pk} that you may see")
        acting = selectors.game_player_for(locked, user)
    else:
        locked = selectors.game_for_update(pk)
        if locked is None:
            raise GameNotFoundError(f"no game {pk}")
        acting = player
    if is_overdue(locked.match, arrived):
        raise _OutOfTime(locked.match_id)
    # Every write here passes: its spectators hear of it once it commits (games/push.py).
    match_changed(match_id=locked.match_id, kind="turn")
    if (locked.white.computer or locked.black.computer) and not (acting and acting.computer):
        # A practice match's human acted: the computer answers once this commits (it does
        # nothing if it is not its turn then; games/services/practice.py).
        task_enqueue_on_commit(COMPUTER_TASK, locked.match_id)
    return locked, acting


def _check_not_over(game: Game) -> None:
    if game.is_over:
        raise ConflictError(
            gettext("game %(number)s is over (%(status)s); no more moves")
            % {"number": game.number, "status": game.status}
        )


def _check_to_move(game: Game, player: Player | None) -> None:
    to_move = selectors.player_to_move(game)
    if player is None or to_move is None or player.pk != to_move.pk:
        name = to_move.display_name if to_move else gettext("nobody")
        raise NotAllowedError(gettext("it is not your turn: %(name)s is to move") % {"name": name})


def _time_out_message(pk: int) -> str:
    """Why a write on a match that ended on time was refused."""
    row = Match.objects.select_related("player_one", "player_two").get(pk=pk)
    if row.ended_by != Match.EndedBy.TIME or row.winner_id is None:
        return gettext("the match is over (%(status)s)") % {"status": row.status}
    loser = row.player_two if row.winner_id == row.player_one_id else row.player_one
    return gettext("the match is over: %(name)s ran out of time") % {"name": loser.display_name}
