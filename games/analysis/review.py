"""A game's plays against the evaluator's best (issue 23 §3, docs/analysis.md "After the game").

For each decision of a game (a roll, or a later stage of a Gjul Bara cascade: a decision of its
own, as the engine models it) with more than one legal play, the play made and the best play by
0-ply evaluation (games.analysis.player.evaluate_plays), each with its cubeless equity for the
mover, and the error: best minus made, never below 0. Plays that reach the same state are one
play (the engine lists one play per end state), so a play is "forced" when every legal way of
playing the dice ends in the same state; forced decisions are skipped.

``depth`` 0 judges at 0-ply (docs/decisions.md D133); 1 at 1-ply (games.analysis.ply, D151): the
move filter's candidates and the play made, each against the 21 rolls and the best reply; the
best play is the best of them at 1-ply, the error the difference of the two 1-ply equities.

No Django: the caller replays the game's turn log (games.replay) and hands the positions in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine import Options, Play, Position, check_play, legal_plays
from games.engine.generate import Outcome

from .net import Network, equity
from .player import evaluate_plays
from .ply import search_plays

DEPTHS = (0, 1)

# The rating band of a player's average error (docs/decisions.md D169, docs/analysis.md "After
# the game"): each band's upper bound, in the review's cubeless points per decision with a
# choice, as this evaluator judges at each depth; GNU Backgammon's bands of the same names,
# carried over to this judge by bench/review_bands.py. A review of both depths is read on
# 0-ply's, the less flattering (games/postgame.py).
BANDS: dict[int, tuple[tuple[str, float], ...]] = {
    0: (
        ("world_class", 0.027),
        ("expert", 0.030),
        ("advanced", 0.035),
        ("intermediate", 0.041),
        ("casual", 0.050),
        ("beginner", float("inf")),
    ),
    1: (
        ("world_class", 0.018),
        ("expert", 0.021),
        ("advanced", 0.025),
        ("intermediate", 0.031),
        ("casual", 0.039),
        ("beginner", float("inf")),
    ),
}


def band_of(average: float, depth: int = 0) -> str:
    """The band of an average error judged at ``depth``: the first of its ``BANDS`` whose
    bound is above it.

    >>> band_of(0.0), band_of(0.027), band_of(0.049), band_of(1.0)
    ('world_class', 'expert', 'casual', 'beginner')
    """
    return next(name for name, bound in BANDS[depth] if average < bound)


@dataclass(frozen=True, slots=True)
class Played:
    """One decision as it was played: the position before it (its side to move made the play),
    the dice (None for a pending cascade stage, which the position names) and the play."""

    position: Position
    dice: Sequence[int] | None
    play: Play


@dataclass(frozen=True, slots=True)
class Reviewed:
    """One decision with a choice: ``index`` is its place in the sequence given."""

    index: int
    mover: str  # "w" or "b"
    choices: int  # legal plays (distinct end states)
    made: Outcome
    best: Outcome
    made_equity: float  # cubeless, the mover's view
    best_equity: float

    @property
    def error(self) -> float:
        return max(0.0, self.best_equity - self.made_equity)


def review_plays(
    network: Network,
    variant: str,
    options: Options,
    plays: Iterable[Played],
    *,
    depth: int = 0,
) -> list[Reviewed]:
    """Every decision of ``plays`` with more than one legal play, compared with the best one
    at ``depth`` (0 or 1). Raises the engine's IllegalPlayError for a play that is not legal in
    its position."""
    if depth not in DEPTHS:
        raise ValueError(f"a review looks 0 or 1 ply ahead, not {depth}")
    reviewed = []
    for index, played in enumerate(plays):
        dice = None if played.dice is None else list(played.dice)
        outcomes = legal_plays(variant, played.position, dice, options)
        if len(outcomes) < 2:
            continue
        made = check_play(variant, played.position, dice, played.play, options)
        made_index = next(i for i, o in enumerate(outcomes) if o.node == made.node)
        if depth == 1:
            searched = search_plays(
                network, variant, played.position, outcomes, options, include=[made_index]
            )
            equities = equity(searched.chances)
            best_index = searched.best()
        else:
            evaluated = evaluate_plays(network, variant, played.position, outcomes, options)
            equities = equity(evaluated.chances)
            best_index = evaluated.best()
        if equities[made_index] >= equities[best_index]:
            best_index = made_index  # a tie with the best is no mistake, and shows the play made
        reviewed.append(
            Reviewed(
                index=index,
                mover=played.position.turn,
                choices=len(outcomes),
                made=outcomes[made_index],
                best=outcomes[best_index],
                made_equity=float(equities[made_index]),
                best_equity=float(equities[best_index]),
            )
        )
    return reviewed
