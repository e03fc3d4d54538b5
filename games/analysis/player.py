"""0-ply play with a network: every legal play's resulting position evaluated in one batch.

A play that ends the game is worth its result; any other is worth the network's outputs for the
position after it, turned to the mover's view when the other side moves next (a Gjul Bara
cascade leaves the mover to move). The best play has the highest cubeless equity.

Where the network carries the exact bear-off tables (``Network.races``, games.analysis.bearoff),
a position after a play that is a pure race with both sides home is worth the tables' exact
chances instead of the network's (docs/decisions.md D147); ``position_chances`` does the same
for positions evaluated on their own (the chances of a match, games/chances.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from games.engine.generate import Outcome
from games.engine.options import Options
from games.engine.position import Colour, Position
from games.engine.results import GameResult

from .bearoff import RaceTables
from .encode import Matrix, encode_outcomes, encode_positions
from .net import Array, Network, equity, flip


def result_chances(result: GameResult, side: Colour) -> Array:
    """A finished game as the network's three outputs for ``side``: P(win), P(win mars),
    P(lose mars), each 0 or 1; a tie is half a win. Tapa's mother win counts as a mars."""
    if result.winner is None:
        return np.array([0.5, 0.0, 0.0])
    big = float(result.kind != "single")
    if result.winner == side:
        return np.array([1.0, big, 0.0])
    return np.array([0.0, 0.0, big])


@dataclass(slots=True)
class Evaluated:
    """The plays of one decision with their chances for the mover, ``inputs`` the encoded
    positions after the plays that do not end the game (row ``rows[i]`` for play ``i``, -1 for
    one that ends it)."""

    outcomes: Sequence[Outcome]
    chances: Array  # (n, 3), the mover's view
    inputs: Matrix
    rows: list[int]

    def best(self) -> int:
        return int(np.argmax(equity(self.chances)))


def evaluate_plays(
    network: Network,
    variant: str,
    position: Position,
    outcomes: Sequence[Outcome],
    options: Options,
) -> Evaluated:
    mover = position.turn
    chances = np.empty((len(outcomes), 3))
    rows: list[int] = []
    after: list[Outcome] = []
    for index, outcome in enumerate(outcomes):
        if outcome.ends_game:
            result = outcome.result
            assert result is not None
            chances[index] = result_chances(result, mover)
            rows.append(-1)
        else:
            rows.append(len(after))
            after.append(outcome)
    inputs, same = encode_outcomes(variant, mover, after, options)
    if after:
        outputs = network.forward(inputs)
        live = [index for index, row in enumerate(rows) if row >= 0]
        chances[live] = np.where(same[:, None], outputs, flip(outputs))
        races = network.races
        if races is not None and races.may_answer(variant, position):
            for index, outcome in zip(live, after, strict=True):
                exact = exact_after(races, variant, options, outcome, mover)
                if exact is not None:
                    chances[index] = exact
    return Evaluated(outcomes, chances, inputs, rows)


def exact_after(
    races: RaceTables, variant: str, options: Options, outcome: Outcome, mover: Colour
) -> Array | None:
    """The exact tables' chances of the position ``mover``'s play ``outcome`` leaves, in the
    mover's view; None when it is not a race they answer."""
    state = outcome.after
    exact = races.chances(
        variant,
        options,
        outcome.node,
        mover,
        turn=state.turn,
        rolls=state.rolls,
        pending=state.pending,
        pending_kind=state.pending_kind,
    )
    if exact is None:
        return None
    return exact if state.turn == mover else flip(exact)


def position_chances(
    network: Network, variant: str, positions: Sequence[Position], options: Options
) -> Array:
    """The outputs (n, 3) for each position's side to move: the network's, or the exact
    bear-off tables' for a pure race both sides are home in (``Network.races``)."""
    values = network.forward(encode_positions(variant, positions, options))
    races = network.races
    if races is not None:
        for row, position in enumerate(positions):
            exact = races.position_chances(variant, position, options)
            if exact is not None:
                values[row] = exact
    return values


# The practice computer's strengths (games/practice.py, docs/decisions.md D131, D170): the
# temperature of its softmax draw, in points of cubeless equity; 0 plays the best play.
TEMPERATURES: dict[str, float] = {"beginner": 0.05, "club": 0.03, "strong": 0.0}


def drawn_play(chances: Array, temperature: float, rng: np.random.Generator) -> int:
    """The index of a play drawn with probability softmax(equity / ``temperature``) over the
    plays' ``chances`` (n, 3) for the mover: the weaker practice computers' choice. A play
    ``temperature`` points of equity worse than another is drawn e (2.7) times less often."""
    values = equity(chances) / temperature
    weights = np.exp(values - values.max())
    weights /= weights.sum()
    return int(rng.choice(len(chances), p=weights))
