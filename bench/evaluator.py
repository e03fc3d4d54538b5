"""The evaluator's strength: a trained network (0-ply) against a random player, per variant.

Each game draws its dice and starting side from a generator seeded by ``(seed, game)``; the
network plays white in even games and black in odd ones. A tie (Tapa, both mothers pinned)
counts half a win. Prints the win rate with its 95 % lower bound (Wilson score interval) and
the points a game (mars 2) from the network's side; the weights' provenance comes from the file.

    .venv/bin/python bench/evaluator.py [--weights weights/] [--games 500] [--seed 7]

A variant without weights in the folder is reported as such (``make bench`` runs this too).

Issue 23 §4's full goals (pubeval, a heuristic player, calibration, GNU Backgammon) come later.
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

from games.analysis.net import Network  # noqa: E402
from games.analysis.player import evaluate_plays  # noqa: E402
from games.engine import (  # noqa: E402
    BLACK,
    DEFAULT_OPTIONS,
    VARIANT_NAMES,
    WHITE,
    legal_plays,
    start_position,
)

MAX_PLIES = 2000


def wilson_lower(wins: float, games: int, z: float = 1.96) -> float:
    """The lower end of the Wilson score interval of a win rate (95 % with z = 1.96)."""
    if games == 0:
        return 0.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


def play(network: Network, variant: str, network_side: str, rng: random.Random) -> float:
    """One game; the network's points (negative when it loses, 0 for a tie or an unfinished
    game)."""
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        if position.turn == network_side:
            evaluated = evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS)
            outcome = outcomes[evaluated.best()]
        else:
            outcome = rng.choice(outcomes)
        result = outcome.result
        if result is not None:
            if result.winner is None:
                return 0.0
            return float(result.points if result.winner == network_side else -result.points)
        position = outcome.position
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--weights", type=Path, default=ROOT / "weights", help="a folder of <variant>.npz"
    )
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", choices=VARIANT_NAMES, action="append")
    args = parser.parse_args()
    print(
        f"{'variant':<9} {'trained':>8} {'games':>6} {'wins':>6} {'ties':>5} {'win %':>6} "
        f"{'95% low':>8} {'points/game':>12} {'s':>5}"
    )
    for variant in args.variant or VARIANT_NAMES:
        path = args.weights / f"{variant}.npz"
        if not path.exists():
            print(f"{variant:<9} no weights at {path}")
            continue
        network = Network.load(path)
        start = time.monotonic()
        wins = ties = 0
        points = 0.0
        for game in range(args.games):
            rng = random.Random(f"evaluator:{args.seed}:{game}")
            side = WHITE if game % 2 == 0 else BLACK
            scored = play(network, variant, side, rng)
            points += scored
            wins += scored > 0
            ties += scored == 0
        score = wins + ties / 2
        print(
            f"{variant:<9} {network.metadata.get('games', '?'):>8} {args.games:>6} {wins:>6} "
            f"{ties:>5} {100 * score / args.games:>6.1f} "
            f"{100 * wilson_lower(score, args.games):>8.1f} {points / args.games:>12.2f} "
            f"{time.monotonic() - start:>5.0f}"
        )


if __name__ == "__main__":
    main()
