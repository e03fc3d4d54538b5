"""The rules engine for the Tabla match: Tabla, Gjul Bara and Tapa (docs/rules.md).

Pure Python, no Django. Typical use::

    from games.engine import Options, Position, legal_plays, check_play, start_position

    position = start_position("tabla")
    for outcome in legal_plays("tabla", position, [6, 5]):
        print(outcome.play, outcome.position.to_json())
    check_play("tabla", position, [6, 5], "24/18 18/13")  # or IllegalPlayError with the reason
"""

from .cube import Cube, CubeError
from .errors import (
    EngineError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidOptionsError,
    InvalidPositionError,
    InvalidScoreError,
    UnknownVariantError,
)
from .generate import Outcome, legal_plays, stage_for
from .match import (
    MatchState,
    NextGame,
    OpeningRoll,
    final_score_winner,
    game_variant,
    match_winner,
    next_game,
    opening_roll,
    record_game,
)
from .notation import Move, Play
from .options import DEFAULT_OPTIONS, PRESETS, VARIANT_NAMES, Options
from .position import BLACK, WHITE, Position, opponent
from .query import answer_query
from .results import GameResult, resignation_result
from .step_graph import StepGraph, pip_counts, step_graph
from .validation import validate_position
from .variants import VARIANTS, Variant, find_variant, start_position
from .verify import check_play

__all__ = [
    "BLACK",
    "DEFAULT_OPTIONS",
    "PRESETS",
    "VARIANTS",
    "VARIANT_NAMES",
    "WHITE",
    "Cube",
    "CubeError",
    "EngineError",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidOptionsError",
    "InvalidPositionError",
    "InvalidScoreError",
    "MatchState",
    "Move",
    "NextGame",
    "OpeningRoll",
    "Options",
    "Outcome",
    "Play",
    "Position",
    "StepGraph",
    "UnknownVariantError",
    "Variant",
    "answer_query",
    "check_play",
    "final_score_winner",
    "find_variant",
    "game_variant",
    "legal_plays",
    "match_winner",
    "next_game",
    "opening_roll",
    "opponent",
    "pip_counts",
    "record_game",
    "resignation_result",
    "stage_for",
    "start_position",
    "step_graph",
    "validate_position",
]
