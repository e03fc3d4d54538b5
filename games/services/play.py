"""Playing a game: the server's roll, submitted plays, forced passes and resignation.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from django.db import transaction

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import clock, dice, selectors
from games.engine import (
    GameResult,
    Options,
    Outcome,
    Position,
    check_play,
    find_variant,
    opponent,
    resignation_result,
    stage_for,
)
from games.engine.match import is_stuck
from games.errors import GameNotFoundError, StalePlyError
from games.models import Game, Turn
from games.push import match_changed
from games.selectors import User
from games.selectors import legal_plays_for as legal_plays  # the engine's, remembered
from games.services import clock as clock_services
from games.services.matches import game_finish
from games.sql import fields_update, turn_insert
from games.state import game_cube, game_cube_put, game_position_put
from players.models import Player

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
# The two writes of every roll and play (games/sql.py).
_insert_turn = turn_insert
_update_play = functools.partial(fields_update, fields=PLAY_FIELDS)


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
            raise ConflictError(clock_services.time_out_message(out.match_id)) from None

    return checked


@_in_time
def dice_roll(
    *, game: Game | int, player: Player | None = None, user: User | None = None
) -> PlayResult:
    """The player to move rolls: the dice of this ply come from the game's seed. A roll with no
    legal play is recorded as a pass at once and the turn goes over."""
    arrived = clock.now()
    turns: list[Turn] = []
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
            raise ConflictError(f"the dice are already rolled ({game.dice}); submit a play")
        dice_put(game=game, dice=dice.roll(game.seed, game.ply), turns=turns)
        roll_if_auto(game, rolled=position.turn, turns=turns)  # after a pass, the opponent's
        _update_play(game)
        clock_services.clock_pass(game=game, arrived=arrived, turns=turns)
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
    turns: list[Turn] = []
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
            raise ConflictError("roll the dice first: no dice are on the table")
        rolled = None if position.pending else game.dice
        outcome = check_play(game.variant, position, rolled, moves, _options(game))
        _append(game, position, rolled, outcome, turns)
        roll_if_auto(game, turns=turns)
        _update_play(game)
        clock_services.clock_pass(game=game, arrived=arrived, turns=turns)
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
            raise NotAllowedError("only a player of this game may resign it")
        game.resigned_by = player
        game_finish(
            game=game, result=resignation_result(colour, kind), ended_by=Game.EndedBy.RESIGNATION
        )
        clock_services.clock_pass(game=game, arrived=arrived, turns=[])
    return PlayResult(game)


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
    turns: list[Turn] = []
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        _check_ply(game, player, ply)
        _check_no_offer(game)
        _check_to_move(game, player)
        if not selectors.may_double(game):
            raise ConflictError(_why_no_double(game))
        colour = game.position["turn"]
        _append_cube_turn(game, Turn.Kind.DOUBLE, colour, turns)
        game_cube_put(game, game_cube(game).double(colour))
        _update_play(game)
        clock_services.clock_pass(game=game, arrived=arrived, turns=turns)
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
    turns: list[Turn] = []
    with transaction.atomic():
        game, player = _locked(game, player, user, arrived)
        _check_not_over(game)
        doubler = _check_answer(game, player, ply)
        taker = opponent(doubler)
        _append_cube_turn(game, Turn.Kind.TAKE, taker, turns)
        game_cube_put(game, game_cube(game).take(taker))
        roll_if_auto(game, turns=turns)
        _update_play(game)
        clock_services.clock_pass(game=game, arrived=arrived, turns=turns)
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
        _append_cube_turn(game, Turn.Kind.DROP, opponent(doubler), turns)
        result = game_cube(game).drop(opponent(doubler))
        game_finish(game=game, result=result, ended_by=Game.EndedBy.DROP)
        clock_services.clock_pass(game=game, arrived=arrived, turns=turns)
    return PlayResult(game, turns)


def _check_answer(game: Game, player: Player | None, ply: int | None) -> str:
    """The doubler's colour, once ``player`` is the one who must answer the pending double."""
    _check_ply(game, player, ply)
    if not game.cube_offered_by:
        raise ConflictError("no double is offered in this game")
    _check_to_move(game, player)
    return game.cube_offered_by


def _why_no_double(game: Game) -> str:
    options = selectors.match_options(game.match)
    if not options.cube_applies_to(game.variant):
        scope = "is off" if options.cube == "off" else f"is {options.cube}"
        return f"no doubling in this game: the match's cube option {scope}"
    if game.crawford:
        return "no doubling in the Crawford game"
    if not selectors.is_roll_due(game):
        return "a double comes before rolling: the dice are already on the table"
    return "the cube is your opponent's: only its owner may double"


def _append_cube_turn(game: Game, kind: str, side: str, turns: list[Turn]) -> None:
    turn = _insert_turn(
        Turn(
            game=game,
            ply=game.ply,
            side=side,
            kind=kind,
            dice=[],
            moves=[],
            position_after=game.position,
            result=None,
        )
    )
    turns.append(turn)
    game.ply += 1


def _check_ply(game: Game, player: Player | None, ply: int | None) -> None:
    if ply is not None and player is not None and game.colour_of(player) and ply != game.ply:
        raise StalePlyError(f"ply {ply} is stale: the game is at ply {game.ply}")


def _check_no_offer(game: Game) -> None:
    if game.cube_offered_by:
        doubler = game.player_of(game.cube_offered_by).display_name
        answer = game.player_of(opponent(game.cube_offered_by)).display_name
        raise ConflictError(f"{doubler} has offered a double: {answer} must take or drop it first")


def dice_put(*, game: Game, dice: Sequence[int], turns: list[Turn] | None = None) -> None:
    """Put rolled ``dice`` on the table; when no play is possible, record the pass at once
    (appended to ``turns`` when given). The caller saves ``game``."""
    position = selectors.game_position(game)
    outcomes = legal_plays(game.variant, position, dice, _options(game))
    if len(outcomes) == 1 and not outcomes[0].play.moves:
        _append(game, position, list(dice), outcomes[0], [] if turns is None else turns)
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


def _append(
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
    turn = _insert_turn(
        Turn(
            game=game,
            ply=game.ply,
            side=position.turn,
            kind=kind,
            dice=shown,
            moves=outcome.play.to_json(),
            position_after=outcome.position.to_json(),
            result=outcome.result.to_json() if outcome.result else None,
        )
    )
    turns.append(turn)
    game.ply += 1
    game_position_put(game, outcome.position)
    game.dice = None
    if kind == Turn.Kind.ROLL:
        game.idle_rolls = 0 if outcome.play.moves else game.idle_rolls + 1
    if outcome.result is not None:
        game_finish(game=game, result=outcome.result, ended_by=Game.EndedBy.PLAY)
    elif is_stuck(game.idle_rolls, options):
        game_finish(game=game, result=GameResult(None, "tie", 0), ended_by=Game.EndedBy.STUCK)
    elif outcome.position.pending:
        _play_forced_stage(game, outcome.position, turns)


def _play_forced_stage(game: Game, position: Position, turns: list[Turn]) -> None:
    outcomes = legal_plays(game.variant, position, None, _options(game))
    if len(outcomes) == 1 and not outcomes[0].play.moves:
        _append(game, position, None, outcomes[0], turns)


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
    if clock_services.is_overdue(locked.match, arrived):
        raise _OutOfTime(locked.match_id)
    # Every write here passes: its spectators hear of it once it commits (games/push.py).
    match_changed(match_id=locked.match_id, kind="turn")
    return locked, acting


def _check_not_over(game: Game) -> None:
    if game.is_over:
        raise ConflictError(f"game {game.number} is over ({game.status}); no more moves")


def _check_to_move(game: Game, player: Player | None) -> None:
    to_move = selectors.player_to_move(game)
    if player is None or to_move is None or player.pk != to_move.pk:
        name = to_move.display_name if to_move else "nobody"
        raise NotAllowedError(f"it is not your turn: {name} is to move")


def _options(game: Game) -> Options:
    return selectors.match_options(game.match)
