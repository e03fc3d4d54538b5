"""Practice against the computer, the public use-cases (games/practice.py; docs/decisions.md
D131, D132): a signed-in player starts a practice match, and the computer plays its turns.

``practice_start`` creates the unrated, clockless online match between the user's player
(player one) and the computer player of the chosen strength (created on first use, no account),
and queues ``computer_play`` on commit. The server rolls the human's dice (``auto_roll``, on
unless asked otherwise: docs/decisions.md D164) whenever a roll is due and they may not double.
Every write of a practice match's human queues it too (games/services/play.py ``_locked``), so
the computer answers as soon as the human's play commits, through Celery by name (at once when
Celery runs eagerly: tests and ``make run``).

``computer_play`` is the computer's whole turn: while the computer is to move in the match's
current game (at most ``COMPUTER_DECISIONS`` decisions: a Gjul Bara cascade, the human's forced
passes, a next game it starts), it takes a double, rolls the server's dice or submits its
chosen play through the same services a person's request uses, with the computer as the actor.
When it is not the computer's turn it does nothing, so a duplicate or late task is harmless.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import practice, selectors
from games.engine import EngineError, Options
from games.errors import StalePlyError
from games.models import Match
from games.selectors import User
from games.services.matches import match_create
from games.services.owed import task_enqueue_on_commit
from games.services.play import COMPUTER_TASK, cube_take, dice_roll, play_submit
from players.models import Player, computer_stored_name

COMPUTER_DECISIONS = 40  # a bound on one task's decisions: a turn, its cascade, forced passes


def practice_start(
    *,
    user: User,
    strength: str,
    options: dict[str, Any] | None = None,
    target_score: int | None = None,
    auto_roll: bool = True,
) -> Match:
    """``user``'s player starts a practice match against the computer of ``strength``: unrated,
    without a clock, started at once (the computer's first turn queued on commit), the dice
    rolled for whoever is to move unless ``auto_roll`` is False (D164: with the cube on, a player
    who may double still rolls by hand). 400 for an unknown strength or rules; 409 when a variant
    of the match's cycle has no evaluator."""
    player = selectors.player_for(user)
    if player is None or player.computer:
        raise NotAllowedError(gettext("only a signed-in player may practise against the computer"))
    if strength not in practice.STRENGTHS:
        raise InvalidRequestError(
            gettext("unknown strength %(strength)s: one of %(choices)s")
            % {"strength": strength, "choices": ", ".join(practice.STRENGTHS)}
        )
    try:
        rules = Options.from_json(options or {})
        if target_score is not None:
            rules = Options.from_json({**rules.to_json(), "match_length": target_score})
    except EngineError as error:
        raise InvalidRequestError(str(error)) from None
    missing = practice.missing_evaluators(sorted(set(rules.cycle)))
    if missing:
        raise ConflictError(
            gettext("no evaluator is installed for %s: no practice with these rules")
            % ", ".join(missing)
        )
    with transaction.atomic():
        computer = _computer(strength)
        match = match_create(
            creator=user,
            player_one=player,
            player_two=computer,
            options=rules.to_json(),
            rated=False,
            start=True,
            is_public=False,
            auto_roll=auto_roll,
        )
        task_enqueue_on_commit(COMPUTER_TASK, match.pk)
    return match


def computer_play(*, match: Match | int) -> int:
    """The computer plays its turn in its practice ``match``: how many decisions it made (0
    when it is not its turn, the match is over or not a practice match)."""
    pk = match if isinstance(match, int) else match.pk
    row = Match.objects.select_related("player_one", "player_two").filter(pk=pk).first()
    if row is None:
        return 0
    computer = practice.computer_of(row)
    if computer is None:
        return 0
    decisions = 0
    while decisions < COMPUTER_DECISIONS:
        game = selectors.current_game(row)
        if game is None or row.status != Match.Status.IN_PROGRESS:
            break
        to_move = selectors.player_to_move(game)
        if to_move is None or to_move.pk != computer.pk:
            break
        try:
            if game.cube_offered_by:
                cube_take(game=game, player=computer, ply=game.ply)  # D132: always takes
            elif selectors.is_roll_due(game):
                dice_roll(game=game, player=computer)  # D132: never doubles
            else:
                outcomes = selectors.game_legal_plays(game)
                chosen = outcomes[practice.choose(game, outcomes, computer.computer)]
                play_submit(game=game, player=computer, ply=game.ply, moves=chosen.play.to_json())
        except (StalePlyError, NotAllowedError):
            break  # another task acted first: the turn is no longer ours
        decisions += 1
        row.refresh_from_db()
    return decisions


def _computer(strength: str) -> Player:
    """The computer player of ``strength``, created on first use. Its name is shown in each
    reader's language (players.models.computer_name); the row stores a neutral one."""
    computer = Player.objects.filter(computer=strength, user=None).order_by("pk").first()
    if computer is None:
        computer = Player.objects.create(
            computer=strength, display_name=computer_stored_name(strength)
        )
    return computer
