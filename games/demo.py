"""Playing games through the services with random legal plays (the demo and tests use it)."""

from __future__ import annotations

import random

from games import selectors, services
from games.models import Game, Match


def game_play_random(*, game: Game, rng: random.Random, max_decisions: int | None = None) -> Game:
    """Roll and play random legal plays as the players of ``game`` until it ends (or until
    ``max_decisions`` decisions were made). Returns the game, refreshed."""
    decisions = 0
    while not game.is_over and (max_decisions is None or decisions < max_decisions):
        player = selectors.player_to_move(game)
        if selectors.is_roll_due(game):
            game = services.dice_roll(game=game, player=player).game
            continue
        outcome = rng.choice(selectors.game_legal_plays(game))
        game = services.play_submit(
            game=game, player=player, ply=game.ply, moves=outcome.play.to_json()
        ).game
        decisions += 1
    return game


def match_play_random(*, match: Match, rng: random.Random, max_games: int | None = None) -> Match:
    """Play the current games of an online ``match`` with random legal plays until it ends
    (or ``max_games`` games have finished)."""
    finished = 0
    while max_games is None or finished < max_games:
        game = selectors.current_game(match)
        if game is None:
            break
        game_play_random(game=game, rng=rng)
        finished += 1
    match.refresh_from_db()
    return match
