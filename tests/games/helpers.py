"""Helpers shared by the games test modules (test modules import from here, not each other)."""

from __future__ import annotations

import random
from io import StringIO
from types import SimpleNamespace
from typing import Any

from django.core.management import call_command
from django.urls import reverse

from games import selectors, services
from games.engine import Play
from games.models import Match


def game_url(name: str, game_id: int) -> str:
    return reverse(f"games:{name}", kwargs={"pk": game_id})


def chances_url(match: Match, after: str | None = None) -> str:
    """The match's chances endpoint, with ``?after=`` a cursor when given (D160)."""
    url = reverse("games:match-chances", kwargs={"pk": match.pk})
    return url if after is None else f"{url}?after={after}"


def run(*args: Any) -> str:
    """A management command's output."""
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def only_pass(variant: Any, position: Any, dice: Any, options: Any) -> list[SimpleNamespace]:
    """A stand-in for legal_plays whose only answer is a pass."""
    after = position.with_turn("b" if position.turn == "w" else "w")
    return [SimpleNamespace(play=Play(()), position=after, result=None)]


def play_cube_match(match: Match, rng: random.Random) -> Match:
    """Random legal play through the services, doubling at some chances, taking or dropping
    at random, to the end of the match."""
    for _ in range(20_000):
        match.refresh_from_db()
        game = selectors.current_game(match)
        if game is None:
            return match
        if game.cube_offered_by:
            answer = game.player_of("b" if game.cube_offered_by == "w" else "w")
            action = services.cube_take if rng.random() < 0.6 else services.cube_drop
            action(game=game, player=answer)
        elif selectors.may_double(game) and rng.random() < 0.2:
            services.cube_double(game=game, player=selectors.player_to_move(game))
        elif selectors.is_roll_due(game):
            services.dice_roll(game=game, player=selectors.player_to_move(game))
        else:
            outcome = rng.choice(selectors.game_legal_plays(game))
            player = selectors.player_to_move(game)
            services.play_submit(
                game=game, player=player, ply=game.ply, moves=outcome.play.to_json()
            )
    raise AssertionError("the match did not end")
