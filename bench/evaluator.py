"""The evaluator's strength: a trained network (0-ply, or 1-ply) against an opponent, per variant.

The opponent (``--opponent``): ``random`` (uniform over the legal plays), ``pubeval``
(Tesauro's public linear evaluator, Tabla only) or ``heuristic`` (a simple player of each game);
both are described in games/analysis/opponents.py. Each game draws its dice and starting side
from a generator seeded by ``(seed, game)``; the network plays white in even games and black in
odd ones. A tie (Tapa, both mothers pinned) counts half a win. Prints the win rate with its 95 %
lower bound (Wilson score interval) and the points a game (mars 2) from the network's side; the
weights' provenance comes from the file. ``--ply 1`` makes the network look one roll ahead
(games/analysis/ply.py, the move filter's candidates against the 21 rolls, docs/decisions.md
D151) and adds the CPU time of its decisions with a choice (median and 90th percentile, ms) and
the 95 % interval of the win rate.

    .venv/bin/python bench/evaluator.py [--weights weights/] [--games 500] [--seed 7]
        [--opponent random|pubeval|heuristic] [--variant tabla] [--ply 0|1]
    .venv/bin/python bench/evaluator.py --calibration [--games 200]

``--calibration`` plays the network against itself instead (seeded apart from training's games:
held out) and measures its P(win) of every position met against the games' results: the
expected calibration error over 10 equal-width bins, and the Brier score beside that of a
logistic model on the pip counts alone (fitted on the even games, both scored on the odd ones).

A variant without weights in the folder is reported as such (``make bench`` runs this too).
GNU Backgammon's comparison and the evaluation latency of issue 23 §4 are not measured yet.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from games.analysis.net import Network  # noqa: E402
from games.analysis.opponents import OPPONENTS, choose, pips  # noqa: E402
from games.analysis.player import evaluate_plays  # noqa: E402
from games.analysis.ply import search_plays  # noqa: E402
from games.engine import (  # noqa: E402
    BLACK,
    DEFAULT_OPTIONS,
    VARIANT_NAMES,
    WHITE,
    find_variant,
    legal_plays,
    start_position,
)
from games.engine.board import to_node  # noqa: E402

MAX_PLIES = 2000


def wilson_lower(wins: float, games: int, z: float = 1.96) -> float:
    """The lower end of the Wilson score interval of a win rate (95 % with z = 1.96)."""
    if games == 0:
        return 0.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


def wilson_upper(wins: float, games: int, z: float = 1.96) -> float:
    """The upper end of the Wilson score interval (the lower one of the losses)."""
    return 1.0 - wilson_lower(games - wins, games, z)


def play(
    network: Network,
    variant: str,
    network_side: str,
    rng: random.Random,
    opponent: str = "random",
    ply: int = 0,
    times: list[float] | None = None,
) -> float:
    """One game; the network's points (negative when it loses, 0 for a tie or an unfinished
    game). At ``ply`` 1 the network searches its plays one roll deep; ``times`` collects the
    CPU seconds of each of its decisions with a choice."""
    found = find_variant(variant)
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        if position.turn == network_side:
            start = time.process_time()
            if ply == 1 and len(outcomes) > 1:
                searched = search_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
                outcome = outcomes[searched.best()]
            else:
                evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
                outcome = outcomes[evaluated.best()]
            if times is not None and len(outcomes) > 1:
                times.append(time.process_time() - start)
        elif opponent == "random":
            outcome = rng.choice(outcomes)
        else:
            before = to_node(found, position)
            outcome = outcomes[choose(opponent, variant, position.turn, before, outcomes, rng)]
        result = outcome.result
        if result is not None:
            if result.winner is None:
                return 0.0
            return float(result.points if result.winner == network_side else -result.points)
        position = outcome.position
    return 0.0


Record = tuple[float, int, int, float]  # P(win) of the mover, its pips, the opponent's, result


def self_play(network: Network, variant: str, rng: random.Random) -> list[Record]:
    """One game of the network against itself: after every play that does not end it, the
    mover's P(win) of the position after, both pip counts, and in the end the mover's result
    (1 won, 0 lost, 0.5 a tie). An unfinished game gives nothing."""
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    seen: list[tuple[str, float, int, int]] = []
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
        index = evaluated.best()
        outcome = outcomes[index]
        result = outcome.result if outcome.ends_game else None
        if result is not None:
            return [
                (p, mine, theirs, 0.5 if result.winner is None else float(result.winner == side))
                for side, p, mine, theirs in seen
            ]
        mine, theirs = pips(variant, outcome.node)
        seen.append((position.turn, float(evaluated.chances[index][0]), mine, theirs))
        position = outcome.position
    return []


def calibration_error(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error: the positions' share in each of ``bins`` equal-width bins
    of P(win) times the gap between the bin's mean P(win) and its mean result."""
    which = np.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += mask.mean() * abs(float(p[mask].mean() - y[mask].mean()))
    return total


def pip_logistic(features: np.ndarray, y: np.ndarray, rounds: int = 25) -> np.ndarray:
    """Weights of a logistic model of the result (Newton's method, a little ridge)."""
    w = np.zeros(features.shape[1])
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-features @ w))
        gradient = features.T @ (p - y) + 1e-6 * w
        hessian = (features * (p * (1 - p))[:, None]).T @ features + 1e-6 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def pip_features(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(len(mine)), (theirs - mine) / 100.0, (theirs + mine) / 100.0])


def calibration(network: Network, variant: str, games: int, seed: int) -> str:
    halves: list[list[Record]] = [[], []]
    for game in range(games):
        rng = random.Random(f"calibration:{seed}:{game}")
        halves[game % 2].extend(self_play(network, variant, rng))
    fit, test = (np.array(half, dtype=np.float64).reshape(-1, 4) for half in halves)
    weights = pip_logistic(pip_features(fit[:, 1], fit[:, 2]), fit[:, 3])
    p, y = test[:, 0], test[:, 3]
    baseline = 1.0 / (1.0 + np.exp(-pip_features(test[:, 1], test[:, 2]) @ weights))
    brier = float(np.mean((p - y) ** 2))
    brier_pips = float(np.mean((baseline - y) ** 2))
    return (
        f"{len(test):>9} {100 * calibration_error(p, y):>7.2f} {brier:>8.4f} {brier_pips:>9.4f} "
        f"{100 * (1 - brier / brier_pips):>8.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--weights", type=Path, default=ROOT / "weights", help="a folder of <variant>.npz"
    )
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", choices=VARIANT_NAMES, action="append")
    parser.add_argument("--opponent", choices=OPPONENTS, default="random")
    parser.add_argument("--calibration", action="store_true", help="self-play calibration")
    parser.add_argument("--ply", type=int, choices=(0, 1), default=0, help="the network's depth")
    args = parser.parse_args()
    variants = args.variant or VARIANT_NAMES
    if args.opponent == "pubeval" and not args.calibration:
        variants = [v for v in variants if find_variant(v).name == "tabla"]
    if args.calibration:
        print(
            f"{'variant':<9} {'trained':>8} {'games':>6} {'positions':>9} {'ECE %':>7} "
            f"{'Brier':>8} {'pips only':>9} {'better %':>8} {'s':>5}"
        )
    else:
        print(
            f"{'variant':<9} {'opponent':<9} {'trained':>8} {'games':>6} {'wins':>6} {'ties':>5} "
            f"{'win %':>6} {'95% low':>8} {'points/game':>12} {'s':>5}"
        )
    for variant in variants:
        path = args.weights / f"{variant}.npz"
        if not path.exists():
            print(f"{variant:<9} no weights at {path}")
            continue
        network = Network.load(path)
        trained = network.metadata.get("games", "?")
        start = time.monotonic()
        if args.calibration:
            row = calibration(network, variant, args.games, args.seed)
            print(
                f"{variant:<9} {trained:>8} {args.games:>6} {row} {time.monotonic() - start:>5.0f}"
            )
            continue
        wins = ties = 0
        points = 0.0
        times: list[float] = []
        for game in range(args.games):
            rng = random.Random(f"evaluator:{args.seed}:{game}")
            side = WHITE if game % 2 == 0 else BLACK
            scored = play(network, variant, side, rng, args.opponent, args.ply, times)
            points += scored
            wins += scored > 0
            ties += scored == 0
        score = wins + ties / 2
        print(
            f"{variant:<9} {args.opponent:<9} {trained:>8} {args.games:>6} {wins:>6} "
            f"{ties:>5} {100 * score / args.games:>6.1f} "
            f"{100 * wilson_lower(score, args.games):>8.1f} {points / args.games:>12.2f} "
            f"{time.monotonic() - start:>5.0f}"
        )
        if times:
            ms = np.array(times) * 1000.0
            print(
                f"{'':<9} {args.ply}-ply: win % 95% interval "
                f"{100 * wilson_lower(score, args.games):.1f}-"
                f"{100 * wilson_upper(score, args.games):.1f}; {len(ms)} decisions with a "
                f"choice, CPU ms median {np.median(ms):.1f}, p90 {np.percentile(ms, 90):.1f}, "
                f"max {ms.max():.1f}"
            )


if __name__ == "__main__":
    main()
