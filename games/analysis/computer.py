"""The practice computer's choice of a play (games/practice.py; docs/decisions.md D131, D151,
D170): pure, so that the site and the benchmarks play the same computer.

- ``strong`` (temperature 0): the best play by cubeless equity, looking one roll ahead
  (games.analysis.ply) at ``depth`` 1, or the 0-ply best at ``depth`` 0;
- ``club`` and ``beginner``: a play drawn with probability softmax(0-ply equity / temperature)
  (``player.drawn_play``) from ``rng``.

The temperatures were chosen so that GNU Backgammon, judging the computers' plays in Tabla,
finds about the average error of its own playing levels of the same kind (bench/review_bands.py,
D170).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from games.engine.generate import Outcome
from games.engine.options import Options
from games.engine.position import Position

from .net import Network
from .player import TEMPERATURES, drawn_play, evaluate_plays
from .ply import search_plays


def computer_play(
    network: Network,
    variant: str,
    position: Position,
    outcomes: Sequence[Outcome],
    options: Options,
    *,
    strength: str,
    depth: int,
    rng: np.random.Generator,
) -> int:
    """The index of the play the computer of ``strength`` makes among ``outcomes`` (the legal
    plays of ``position``'s dice); ``depth`` is the strong computer's lookahead (0 or 1); ``rng``
    draws the weaker computers' plays. An unknown strength plays as ``strong``."""
    if len(outcomes) == 1:
        return 0
    temperature = TEMPERATURES.get(strength, 0.0)
    if temperature <= 0 and depth == 1:
        return search_plays(network, variant, position, outcomes, options).best()
    evaluated = evaluate_plays(network, variant, position, outcomes, options)
    if temperature <= 0:
        return evaluated.best()
    return drawn_play(evaluated.chances, temperature, rng)
