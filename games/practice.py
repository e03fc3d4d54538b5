"""Practice against the computer (issue 23 §3; docs/decisions.md D131, D132): the reads.

A practice match is an unrated online match without a clock between a person and a computer
player (``Player.computer``: its strength). The computer is the variant's evaluator
(games/chances.py, the network of ``settings.ANALYSIS_WEIGHTS_DIR``) choosing as
games.analysis.computer does:

- ``strong``: the best play by cubeless equity, looking one roll ahead
  (games.analysis.ply; ``settings.PRACTICE_STRONG_DEPTH``, 1 by default, 0 for the 0-ply best;
  D151);
- ``club`` and ``beginner``: a play drawn with probability softmax(0-ply equity / temperature),
  the temperature the strength's (0.03 and 0.05 points of equity, so that their mistakes are
  those of GNU Backgammon's "Intermediate" and "Beginner" levels: D170), from a generator seeded
  by the game's dice seed and the ply, so the same game replays to the same choices.

Cube (D132): the computer never doubles and always takes. A hint (the best play for the human's
dice on the table) is given in a practice match only, to its human player, on their turn; in any
other match the game is not found for a hint (404). The hint looks 1 ply ahead
(games.analysis.ply, D151) when that takes at most ``settings.HINT_SECONDS`` (0.5 s; the search
stops after the candidate that passes it; 0: no search), else it gives the 0-ply best; it says
which (``depth``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.utils.translation import gettext

from common.errors import ConflictError, NotAllowedError
from games import chances, selectors
from games.analysis.computer import computer_play
from games.analysis.net import equity
from games.analysis.player import TEMPERATURES, evaluate_plays
from games.analysis.ply import search_plays
from games.engine.generate import Outcome
from games.errors import GameNotFoundError
from games.models import Game, Match
from games.selectors import User
from games.state import game_position, match_options
from players.models import COMPUTER_STRENGTHS, Player

# The strengths and their softmax temperatures (points of cubeless equity; 0: the best play).
STRENGTHS: dict[str, float] = TEMPERATURES
STRENGTH_LABELS = COMPUTER_STRENGTHS  # the words for them, with the computer's name (players)
VARIANTS = ("tabla", "gul_bara", "tapa")


def is_practice(match: Match) -> bool:
    """Whether one of ``match``'s players is a computer (the players loaded with the match)."""
    return bool(match.player_one.computer or match.player_two.computer)


def is_practice_game(game: Game) -> bool:
    """Whether ``game`` is of a practice match (its players are loaded with it)."""
    return bool(game.white.computer or game.black.computer)


def computer_of(match: Match) -> Player | None:
    for player in (match.player_one, match.player_two):
        if player.computer:
            return player
    return None


def practice_variants() -> list[str]:
    """The variants with an evaluator installed: the ones a practice match may play."""
    return [variant for variant in VARIANTS if chances.has_evaluator(variant)]


def missing_evaluators(variants: Sequence[str]) -> list[str]:
    return [variant for variant in variants if not chances.has_evaluator(variant)]


def choose(game: Game, outcomes: Sequence[Outcome], strength: str) -> int:
    """The index of the play the computer of ``strength`` makes among ``outcomes`` (the legal
    plays of the position and dice of ``game``, the computer to move)."""
    if len(outcomes) == 1:
        return 0
    network = chances.evaluator(game.variant)
    if network is None:
        raise ConflictError(gettext("no evaluator is installed for %s") % game.variant)
    digest = hashlib.sha256(f"{game.seed}:{game.ply}".encode()).digest()
    return computer_play(
        network,
        game.variant,
        game_position(game),
        outcomes,
        match_options(game.match),
        strength=strength,
        depth=settings.PRACTICE_STRONG_DEPTH,
        rng=np.random.default_rng(int.from_bytes(digest[:8], "big")),
    )


@dataclass(frozen=True, slots=True)
class Hint:
    """The best play for the dice on the table (``moves``: the engine's notation, as a play
    is submitted; ``play``: its index among the game's legal plays, the number the match
    page's step graph gives it, so that the page draws it on the board: D146), its cubeless
    equity for the mover and the depth that found it (0 or 1 ply)."""

    game: Game
    moves: list[str]
    play: int
    text: str
    equity: float
    depth: int = 0


def practice_hint(*, user: User, game: int) -> Hint:
    """The evaluator's best play for ``user``'s dice on the table in their practice match.
    GameNotFoundError (404) for a game they may not see or one outside a practice match;
    NotAllowedError (403) for someone who does not play it; ConflictError (409) when they have
    no dice to play."""
    row = selectors.game_visible(user=user, pk=game)
    if row is None or not is_practice_game(row):
        raise GameNotFoundError(gettext("no practice game %s: hints are for practice only") % game)
    player = selectors.game_player_for(row, user)
    if player is None or player.computer:
        raise NotAllowedError(gettext("only the player of a practice game may ask for a hint"))
    to_move = selectors.player_to_move(row)
    if to_move is None or to_move.pk != player.pk or row.cube_offered_by:
        raise ConflictError(gettext("a hint is for your own turn, with your dice to play"))
    outcomes = selectors.game_legal_plays(row)
    if not outcomes:
        raise ConflictError(gettext("roll the dice first: a hint is for the dice on the table"))
    network = chances.evaluator(row.variant)
    if network is None:
        raise ConflictError(gettext("no evaluator is installed for %s") % row.variant)
    position, options = game_position(row), match_options(row.match)
    seconds = settings.HINT_SECONDS
    if seconds > 0:
        deadline = time.monotonic() + seconds
        searched = search_plays(
            network, row.variant, position, outcomes, options, deadline=deadline
        )
        depth = 1 if searched.complete else 0  # cut short by the deadline: the 0-ply best
        values = equity(searched.chances if depth else searched.zero_ply)
        best = searched.best() if depth else int(np.argmax(values))
    else:  # no time for a search: 0-ply
        evaluated = evaluate_plays(network, row.variant, position, outcomes, options)
        depth, values, best = 0, equity(evaluated.chances), evaluated.best()
    play = outcomes[best].play
    return Hint(
        game=row,
        moves=play.to_json(),
        play=best,
        text=str(play) or gettext("no move"),
        equity=float(values[best]),
        depth=depth,
    )
