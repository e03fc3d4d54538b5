"""The exact match table of the cycling match, and a position's match-winning chance.

A match is played to ``match_length`` points (5 by default) over the cycle of games (Tabla ->
Gjul Bara -> Tapa -> Tabla ...; docs/rules.md §6). Each game's outcome is drawn from its
variant's rates (``games.analysis.rates``: P(the first mover wins 1, 2, 3 points), P(it loses
1, 2, 3), P(a tie)); the winner of a game moves first in the next (``next_starter``), and an
opening roll (each player one die, the higher starts: a fair coin) decides the first game, the
game after a tie and, with ``next_starter=opening_roll``, every game. A tie follows
``tapa_tie``: ``replay`` plays the same game again after an opening roll, ``one_each`` scores a
point each and moves the cycle on, ``zero`` moves the cycle on without points. The first player
to reach the target **and lead** wins the match (§6.5); level at or above the target plays on,
which is the same state as level one point short of it.

A state is (points the first mover still needs, points the other needs, the next game's index in
the cycle); the table holds the probability that the side that moves first wins the match, and
every other question (the other side, a state before an opening roll) follows from it by
symmetry, both players being equal. Every game moves points, except a tie worth nothing, so the
states are solved in order of the points both still need, a small linear system per score for
the ties that leave it unchanged: exact up to floating point.

The table is cubeless: games after the current one are valued without doubling (the networks
are cubeless). The cube of the game being played multiplies its points in ``match_chance``; the
Crawford game (option ``crawford``) is played without doubling, so its cube is always 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from games.engine.options import DEFAULT_OPTIONS, Options

from .rates import Rates

Starter = Literal["self", "other", "roll"]
Array = npt.NDArray[np.float64]

# A value linear in the unknowns of the score being solved: constant + sum(coef * unknown).
_Linear = tuple[float, dict[int, float]]


def _resolve(need: int, other: int) -> tuple[int, int] | float:
    """The state after a game that leaves the two sides needing ``need`` and ``other``: 1.0 or
    0.0 when the match is over (won or lost by the first side), else the needs to play on
    (level at or past the target is the same as level one point short: the next decided game
    wins)."""
    if need > 0 and other > 0:
        return need, other
    if need == other:
        return 1, 1
    return 1.0 if need < other else 0.0


class MatchTable:
    """``first[a, b, k]``: the probability that the side moving first in game ``k`` of the cycle
    (``options.cycle[k]``), needing ``a`` points against ``b``, wins the match (a, b = 1..N;
    row and column 0 unused)."""

    def __init__(self, rates: Rates, options: Options = DEFAULT_OPTIONS) -> None:
        missing = [variant for variant in options.cycle if variant not in rates.variants]
        if missing:
            raise ValueError(f"no outcome rates for {', '.join(sorted(set(missing)))}")
        self.rates = rates
        self.options = options
        self.length = options.match_length
        self.cycle = options.cycle
        size = self.length + 1
        self.first: Array = np.full((size, size, len(self.cycle)), np.nan)
        self._unknowns: dict[tuple[int, int, int], int] = {}  # of the score being solved
        self._solve()

    # --- the questions -----------------------------------------------------------------------

    def chance(self, need: int, other: int, game: int = 0, starter: Starter = "roll") -> float:
        """P(a side needing ``need`` against ``other`` wins the match), the next game being
        ``cycle[game]`` and ``starter`` moving first in it: this side, the other or an opening
        roll. Needs of 0 or less are a finished (or level past the target) match."""
        state = _resolve(need, other)
        if isinstance(state, float):
            return state
        return self._known(self._value(*state, game % len(self.cycle), starter))

    def after(self, need: int, other: int, game: int, points: int) -> float:
        """P(a side needing ``need`` against ``other`` wins the match) after game ``game`` of the
        cycle ends with ``points`` to it: +m it won m (cube included), -m it lost m, 0 a tie."""
        return self._known(self._after(need, other, game % len(self.cycle), points))

    def start(self) -> float:
        """The first mover's chance in the first game of a match (after the opening roll)."""
        return float(self.first[self.length, self.length, 0])

    # --- the solution ------------------------------------------------------------------------

    def _solve(self) -> None:
        scores = sorted(
            ((a, b) for a in range(1, self.length + 1) for b in range(a, self.length + 1)),
            key=lambda pair: (pair[0] + pair[1], pair),
        )
        for low, high in scores:
            self._solve_score(low, high)

    def _solve_score(self, low: int, high: int) -> None:
        """The unknowns first[x, y, k] of both orders of one score, in one linear system (a tie
        worth nothing leaves the score as it was)."""
        games = len(self.cycle)
        orders = [(low, high)] if low == high else [(low, high), (high, low)]
        states = [(x, y, k) for x, y in orders for k in range(games)]
        self._unknowns = {state: index for index, state in enumerate(states)}
        size = len(self._unknowns)
        matrix = np.eye(size)
        constants = np.zeros(size)
        for (x, y, k), row in self._unknowns.items():
            for points, probability in self.rates[self.cycle[k]].outcomes():
                if probability == 0.0:
                    continue
                constant, coefficients = self._after(x, y, k, points)
                constants[row] += probability * constant
                for column, coefficient in coefficients.items():
                    matrix[row, column] -= probability * coefficient
        solution = np.linalg.solve(matrix, constants)
        for (x, y, k), row in self._unknowns.items():
            self.first[x, y, k] = solution[row]
        self._unknowns = {}

    def _after(self, need: int, other: int, game: int, points: int) -> _Linear:
        """The value for the side needing ``need`` after game ``game`` ends with ``points`` to
        it, whoever moved first in that game."""
        options = self.options
        following = (game + 1) % len(self.cycle)
        if points == 0:  # a tie
            if options.tapa_tie == "replay":
                return self._value_or_end(need, other, game, "roll")
            each = 1 if options.tapa_tie == "one_each" else 0
            return self._value_or_end(need - each, other - each, following, "roll")
        previous_winner = options.next_starter == "previous_winner"
        if points > 0:
            return self._value_or_end(
                need - points, other, following, "self" if previous_winner else "roll"
            )
        return self._value_or_end(
            need, other + points, following, "other" if previous_winner else "roll"
        )

    def _value_or_end(self, need: int, other: int, game: int, starter: Starter) -> _Linear:
        state = _resolve(need, other)
        if isinstance(state, float):
            return state, {}
        return self._value(*state, game, starter)

    def _value(self, need: int, other: int, game: int, starter: Starter) -> _Linear:
        """The side's value as a linear form: first[need, other] if it moves first, 1 -
        first[other, need] if the other side does, their mean after an opening roll."""
        if starter == "self":
            return self._first(need, other, game, 1.0)
        if starter == "other":
            return _combine(1.0, self._first(other, need, game, -1.0))
        mine = self._first(need, other, game, 0.5)
        theirs = self._first(other, need, game, -0.5)
        return _combine(0.5, mine, theirs)

    def _first(self, need: int, other: int, game: int, scale: float) -> _Linear:
        index = self._unknowns.get((need, other, game))
        if index is not None:
            return 0.0, {index: scale}
        value = float(self.first[need, other, game])
        if np.isnan(value):  # pragma: no cover - the order of _solve guarantees it
            raise AssertionError(f"state {(need, other, game)} used before it is solved")
        return scale * value, {}

    @staticmethod
    def _known(value: _Linear) -> float:
        constant, coefficients = value
        assert not coefficients
        return constant

    # --- output ------------------------------------------------------------------------------

    def markdown(self, game: int = 0) -> str:
        """The table of game ``game`` of the cycle: rows the first mover's needs, columns the
        other's, in percent."""
        header = "| first mover needs \\ other needs | " + " | ".join(
            str(b) for b in range(1, self.length + 1)
        )
        lines = [header + " |", "| ---: |" + " ---: |" * self.length]
        for a in range(1, self.length + 1):
            cells = " | ".join(
                f"{100 * self.first[a, b, game]:.1f}" for b in range(1, self.length + 1)
            )
            lines.append(f"| {a} | {cells} |")
        return "\n".join(lines)


def _combine(constant: float, *parts: _Linear) -> _Linear:
    coefficients: dict[int, float] = {}
    for part_constant, part_coefficients in parts:
        constant += part_constant
        for index, coefficient in part_coefficients.items():
            coefficients[index] = coefficients.get(index, 0.0) + coefficient
    return constant, coefficients


# --- a position's chance ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameChances:
    """A position's outcome probabilities for the side to move, as the evaluator gives them:
    P(win), P(win a mars or more), P(lose a mars or more), and where a preset scores them the
    3-point results (P(win a triple), P(lose a triple)) and a tie. Each is cumulative like
    the evaluator's (a triple is a mars too). Tapa's mother win (2 points) counts as a mars."""

    win: float
    win_mars: float = 0.0
    lose_mars: float = 0.0
    win_triple: float = 0.0
    lose_triple: float = 0.0
    tie: float = 0.0

    def outcomes(self) -> list[tuple[int, float]]:
        """(points to the side to move before the cube, probability), summing to 1. A network's
        outputs need not be consistent: each chance is clipped to what contains it (a mars
        within the wins, a triple within the mars)."""
        tie = min(max(self.tie, 0.0), 1.0)
        win = min(max(self.win, 0.0), 1.0 - tie)
        lose = 1.0 - tie - win
        win_mars = min(max(self.win_mars, 0.0), win)
        lose_mars = min(max(self.lose_mars, 0.0), lose)
        win_triple = min(max(self.win_triple, 0.0), win_mars)
        lose_triple = min(max(self.lose_triple, 0.0), lose_mars)
        return [
            (1, win - win_mars),
            (2, win_mars - win_triple),
            (3, win_triple),
            (-1, lose - lose_mars),
            (-2, lose_mars - lose_triple),
            (-3, lose_triple),
            (0, tie),
        ]


def match_chance(
    table: MatchTable,
    chances: GameChances,
    need: int,
    other: int,
    game: int,
    *,
    cube: int = 1,
    crawford: bool = False,
) -> float:
    """P(the side to move wins the match): the position's outcome probabilities (game ``game``
    of the cycle, this side needing ``need`` against ``other``) times the table's chance after
    each outcome, a win or loss scoring its points times ``cube``. The Crawford game has no
    doubling, so its cube is 1."""
    if cube < 1 or cube & (cube - 1):
        raise ValueError(f"a cube value is 1, 2, 4, ..., not {cube}")
    if crawford and cube != 1:
        raise ValueError("the Crawford game is played without doubling: its cube is 1")
    return sum(
        probability * table.after(need, other, game, points * cube)
        for points, probability in chances.outcomes()
        if probability > 0.0
    )


@dataclass(frozen=True, slots=True)
class CubeChances:
    """The doubler's match chances (the side to move, before rolling) for a cube action, each
    with the table's cubeless chances for later games: no double, double and take (the cube
    doubled), double and drop (the game won at the cube's value before the double)."""

    no_double: float
    take: float
    drop: float


def cube_chances(
    table: MatchTable, chances: GameChances, need: int, other: int, game: int, *, cube: int = 1
) -> CubeChances:
    return CubeChances(
        no_double=match_chance(table, chances, need, other, game, cube=cube),
        take=match_chance(table, chances, need, other, game, cube=2 * cube),
        drop=table.after(need, other, game, cube),
    )


# --- simulation ------------------------------------------------------------------------------


def simulate(
    rates: Rates,
    options: Options,
    starts: Sequence[tuple[int, int, int]],
    matches: int,
    seed: int | Sequence[int],
) -> Array:
    """Play ``matches`` matches from each state (first mover's needs, the other's, game index)
    with outcomes drawn from ``rates``, all at once with numpy; the share the first mover won,
    one per state. Side 0 moves first in the first game of each."""
    rng = np.random.default_rng(seed)
    cycle = options.cycle
    games = len(cycle)
    # Outcome columns: wins of 1..3, losses of 1..3, a tie (the order of VariantRates.outcomes).
    signed = np.array([points for points, _ in rates[cycle[0]].outcomes()], dtype=np.int64)
    cumulative = np.array(
        [np.cumsum([p for _, p in rates[variant].outcomes()]) for variant in cycle]
    )
    cumulative[:, -1] = 1.0 + 1e-12
    count = len(starts) * matches
    # The live matches only, compacted after every game; ``origin`` is each one's row.
    need = np.repeat([a for a, _, _ in starts], matches).astype(np.int32)
    other = np.repeat([b for _, b, _ in starts], matches).astype(np.int32)
    game = np.repeat([k for _, _, k in starts], matches).astype(np.int32)
    starter = np.zeros(count, dtype=np.int8)  # side 0 or 1 moves first; -1: an opening roll
    origin = np.arange(count)
    won = np.zeros(count, dtype=bool)  # side 0 won the match
    each = np.int32(1 if options.tapa_tie == "one_each" else 0)
    replay = options.tapa_tie == "replay"
    previous_winner = options.next_starter == "previous_winner"
    while need.size:
        first = starter.copy()
        rolled = first < 0
        first[rolled] = rng.integers(0, 2, size=int(rolled.sum()), dtype=np.int8)
        u = rng.random(need.size)
        column = np.empty(need.size, dtype=np.int64)
        for k in range(games):
            here = game == k
            column[here] = np.searchsorted(cumulative[k], u[here], side="right")
        points = signed[column].astype(np.int32)
        tie = points == 0
        zero_won = (points > 0) == (first == 0)  # side 0 won the game (unless a tie)
        gained = np.abs(points)
        need -= np.where(zero_won, gained, 0) + each * tie
        other -= np.where(zero_won, 0, gained) + each * tie
        follows = np.where(zero_won, 0, 1).astype(np.int8) if previous_winner else np.int8(-1)
        starter = np.where(tie, np.int8(-1), follows).astype(np.int8)
        game = np.where(tie & replay, game, (game + 1) % games).astype(np.int32)
        low = np.minimum(need, other)
        level = (low <= 0) & (need == other)
        need[level] = 1
        other[level] = 1
        over = low <= 0
        over &= ~level
        won[origin[over]] = need[over] < other[over]
        keep = ~over
        need, other, game, starter, origin = (
            need[keep],
            other[keep],
            game[keep],
            starter[keep],
            origin[keep],
        )
    shares = won.reshape(len(starts), matches).mean(axis=1)
    return np.asarray(shares, dtype=np.float64)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis.match_table",
        description="Print the match table (first mover's chances) from outcome rates.",
    )
    parser.add_argument("--rates", type=Path, required=True, help="JSON of games.analysis.rates")
    parser.add_argument("--length", type=int, default=DEFAULT_OPTIONS.match_length)
    args = parser.parse_args(argv)
    options = Options.from_json({"match_length": args.length})
    table = MatchTable(Rates.load(args.rates), options)
    out = sys.stdout
    out.write(f"First mover's chance in game 1 of a {args.length}-point match: ")
    out.write(f"{100 * table.start():.2f} %\n")
    for index, variant in enumerate(options.cycle):
        out.write(f"\nNext game {variant} (cycle index {index}), first mover's chance, %:\n\n")
        out.write(table.markdown(index) + "\n")


if __name__ == "__main__":
    main()


__all__ = [
    "CubeChances",
    "GameChances",
    "MatchTable",
    "cube_chances",
    "match_chance",
    "simulate",
]
