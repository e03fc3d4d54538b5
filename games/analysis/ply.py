"""1-ply lookahead: a play judged by the opponent's best 0-ply reply to each of the 21 rolls.

The value of the position after a play, for the side that made it (the MOVER):

- a play that ends the game is worth its result, exactly (``player.result_chances``);
- otherwise the side to move after it (the opponent, or the mover itself in a Gjul Bara cascade,
  or either with dice still owed) takes its best 0-ply play for each roll it may get: the
  engine's legal plays of that roll, each evaluated as 0-ply does (a reply that ends the game by
  its result, the others by the network), the one of highest cubeless equity for THAT side; the
  value is the average of those best replies' outcome probabilities over the 21 rolls, a double
  weighted 1/36 and any other 2/36. When dice are owed (a pending Gjul Bara stage) there is no
  roll: the one stage the engine names is played, with weight 1. The engine's legal plays make
  every variant's rules right: Tabla's bar, Tapa's pins, Gjul Bara's escalating doubles (a
  double that escalates is a four-dice stage leaving the cascade owed, which the network reads
  from the position's encoding).
- Where the network carries the exact bear-off tables (``Network.races``, docs/decisions.md
  D147), a position both sides are home in is worth the tables' chances without a look ahead,
  and a reply that leaves such a race takes them instead of the network's, as at 0-ply.
- The average is of the three probabilities (P(win), P(win a mars), P(lose a mars)) for the side
  that replies; turned to the mover's view by ``net.flip`` when that side is the opponent
  (P(win) -> 1 - P(win), the two mars chances swap), so the equity of a mars is counted from
  the right side.

All the replies of all the rolls of one play are encoded and go through the network in ONE
matrix call (a few hundred rows).

**The move filter** (as GNU Backgammon's): every play is evaluated at 0-ply first; 1-ply is spent
on the ``keep`` best of them (5) and any other within ``margin`` (0.1 points of cubeless equity)
of the 0-ply best, at most ``limit`` (8) in all, and on any play the caller names (``include``:
the review's play made, so that it is compared at the same depth). The best play is the best of
those at 1-ply; the others keep their 0-ply values and are never chosen.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from games.engine.generate import Outcome, legal_plays
from games.engine.options import Options
from games.engine.position import Colour, Position

from .encode import encode_outcomes
from .net import Array, Network, equity, flip
from .player import evaluate_plays, exact_after, result_chances

# The 21 distinct rolls and their chances.
ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((high, low), (1.0 if high == low else 2.0) / 36.0)
    for high in range(1, 7)
    for low in range(1, high + 1)
)

KEEP = 5  # plays always looked at 1-ply deep (the 0-ply best first)
MARGIN = 0.1  # and any other within this much cubeless equity of the 0-ply best
LIMIT = 8  # but no more than this many (besides ``include``)


def reply_chances(network: Network, variant: str, position: Position, options: Options) -> Array:
    """The outcome probabilities (3,) of ``position`` for ITS side to move, that side playing
    its best 0-ply play for each roll (or for the dice it owes), averaged over the rolls.
    ``position`` must not be over (a play that ends the game has its result instead)."""
    races = network.races
    if races is not None:
        exact = races.position_chances(variant, position, options)
        if exact is not None:
            return exact  # a race both sides are home in: the tables' chances are exact
    stages: Sequence[tuple[list[int] | None, float]]
    if position.pending:
        stages = ((None, 1.0),)
    else:
        stages = [([high, low], weight) for (high, low), weight in ROLLS]
    lists = [legal_plays(variant, position, dice, options) for dice, _ in stages]
    value, _ = _best_replies(network, variant, position, lists, [w for _, w in stages], options)
    return value


def _best_replies(
    network: Network,
    variant: str,
    position: Position,
    lists: Sequence[Sequence[Outcome]],
    weights: Sequence[float],
    options: Options,
) -> tuple[Array, list[int]]:
    """The weighted average (3,) for the side to move in ``position`` of its best play in each
    of ``lists`` (its legal plays for one roll each) and the index of that best play per list:
    every list's live plays encoded, then one forward pass of them all; a play that leaves a
    race the exact tables answer (``Network.races``) takes their chances, as at 0-ply
    (``player.evaluate_plays``)."""
    side = position.turn
    races = network.races
    exact_leaves = races is not None and races.may_answer(variant, position)
    live: list[Outcome] = []
    chances: list[Array] = []
    places: list[npt.NDArray[np.intp]] = []
    for outcomes in lists:
        values = np.empty((len(outcomes), 3))
        rows = np.full(len(outcomes), -1, dtype=np.intp)
        for index, outcome in enumerate(outcomes):
            if outcome.ends_game:
                result = outcome.result
                assert result is not None
                values[index] = result_chances(result, side)
            else:
                rows[index] = len(live)
                live.append(outcome)
        chances.append(values)
        places.append(rows)
    if live:
        inputs, same = encode_outcomes(variant, side, live, options)
        outputs = network.forward(inputs)
        outputs = np.where(same[:, None], outputs, flip(outputs))
        if exact_leaves:
            assert races is not None
            for row, outcome in enumerate(live):
                exact = exact_after(races, variant, options, outcome, side)
                if exact is not None:
                    outputs[row] = exact
        for values, rows in zip(chances, places, strict=True):
            mask = rows >= 0
            values[mask] = outputs[rows[mask]]
    total = np.zeros(3)
    best: list[int] = []
    for values, weight in zip(chances, weights, strict=True):
        index = int(np.argmax(equity(values)))
        best.append(index)
        total += weight * values[index]
    return total, best


def after_chances(
    network: Network, variant: str, mover: Colour, outcome: Outcome, options: Options
) -> Array:
    """The 1-ply value (3,) of ``mover``'s play ``outcome``, in the mover's view (module doc)."""
    if outcome.ends_game:
        result = outcome.result
        assert result is not None
        return result_chances(result, mover)
    after = outcome.position
    value = reply_chances(network, variant, after, options)
    return value if after.turn == mover else flip(value)


def candidates(
    zero_ply: Array,
    *,
    keep: int = KEEP,
    margin: float = MARGIN,
    limit: int = LIMIT,
    include: Sequence[int] = (),
) -> list[int]:
    """The plays (indices) to look at 1-ply deep, best 0-ply first: the ``keep`` best by 0-ply
    equity, any other within ``margin`` of the best, at most ``limit`` of them, and then the
    ``include`` ones not among them. The 0-ply best is always the first."""
    values = equity(zero_ply)
    order = [int(i) for i in np.argsort(-values, kind="stable")]
    top = values[order[0]]
    chosen = [i for rank, i in enumerate(order) if rank < keep or values[i] >= top - margin]
    chosen = chosen[: max(limit, 1)]
    chosen += [i for i in include if i not in chosen]
    return chosen


@dataclass(slots=True)
class Searched:
    """The plays of one decision: ``chances`` (n, 3) in the mover's view, 1-ply for the plays
    in ``deep`` and 0-ply (``zero_ply``) for the others, which the filter left out (or the
    deadline: then ``complete`` is false). A decision of one play is not searched."""

    outcomes: Sequence[Outcome]
    chances: Array
    zero_ply: Array
    deep: list[int]
    complete: bool = True

    def best(self) -> int:
        """The play of highest 1-ply equity (only the plays looked at 1-ply deep compete)."""
        values = equity(self.chances[self.deep])
        return self.deep[int(np.argmax(values))]


def search_plays(
    network: Network,
    variant: str,
    position: Position,
    outcomes: Sequence[Outcome],
    options: Options,
    *,
    keep: int = KEEP,
    margin: float = MARGIN,
    limit: int = LIMIT,
    include: Sequence[int] = (),
    deadline: float | None = None,
) -> Searched:
    """``outcomes`` (``position.turn``'s legal plays) evaluated at 0-ply, then the filter's
    candidates (``candidates``) at 1-ply, best 0-ply first. With a ``deadline``
    (``time.monotonic()``) the search stops once it has passed: the plays searched by then are
    in ``deep`` (at least the 0-ply best) and ``complete`` is false."""
    evaluated = evaluate_plays(network, variant, position, outcomes, options)
    zero = evaluated.chances
    chances = zero.copy()
    wanted = candidates(zero, keep=keep, margin=margin, limit=limit, include=include)
    if len(outcomes) < 2:
        return Searched(outcomes, chances, zero, wanted)
    deep: list[int] = []
    for index in wanted:
        if deadline is not None and deep and time.monotonic() > deadline:
            return Searched(outcomes, chances, zero, deep, complete=False)
        chances[index] = after_chances(network, variant, position.turn, outcomes[index], options)
        deep.append(index)
    return Searched(outcomes, chances, zero, deep)


__all__ = [
    "KEEP",
    "LIMIT",
    "MARGIN",
    "ROLLS",
    "Searched",
    "after_chances",
    "candidates",
    "reply_chances",
    "search_plays",
]
