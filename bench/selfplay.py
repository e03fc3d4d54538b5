"""Self-play rate: random games (uniform over the legal plays) per variant with the engine.

The training of games/analysis plays millions of positions; this measures what the engine alone
gives: games per second and positions (decisions) per second per variant, seeded. With
``--profile`` it also prints where the time goes (cProfile, top functions by own time).

With ``--train`` it measures the training's self-play instead (games.analysis.train: 0-ply play
with TD(lambda) updates, the first games of a fresh network with the default settings, seed 1),
``--repeat`` times, and prints the median rates (the machine is shared: one run is noisy).

    .venv/bin/python bench/selfplay.py [--games 200] [--seed 1] [--profile]
    .venv/bin/python bench/selfplay.py --train [--games 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import VARIANT_NAMES, Options, legal_plays, start_position  # noqa: E402

MAX_DECISIONS = 5000  # a Gjul Bara game can lock up: stop it there


def random_game(variant: str, rng: random.Random, options: Options) -> int:
    """Play one game with uniformly random legal plays; return the decisions made."""
    position = start_position(variant, rng.choice("wb"))
    for decisions in range(1, MAX_DECISIONS + 1):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcome = rng.choice(legal_plays(variant, position, dice, options))
        if outcome.result is not None:
            return decisions
        position = outcome.position
    return MAX_DECISIONS


def measure(variant: str, games: int, seed: int, options: Options) -> tuple[float, float, float]:
    """(games/s, positions/s, mean decisions a game) of ``games`` random games; CPU time."""
    rng = random.Random(seed)
    start = time.process_time()
    decisions = sum(random_game(variant, rng, options) for _ in range(games))
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, decisions / games


def measure_training(variant: str, games: int, seed: int) -> tuple[float, float, float]:
    """(games/s, plies/s, plies a game) of the first ``games`` training games of a fresh network
    (games.analysis.train's defaults, ``seed``); CPU time."""
    from games.analysis.train import Settings, new_network, train

    settings = Settings(variant, seed=seed)
    network = new_network(settings)
    start = time.process_time()
    train(network, settings, games)
    elapsed = time.process_time() - start
    plies = int(network.metadata["plies"])
    return games / elapsed, plies / elapsed, plies / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games a variant (200; --train 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=VARIANT_NAMES, action="append")
    parser.add_argument("--profile", action="store_true", help="print the top functions too")
    parser.add_argument("--train", action="store_true", help="training self-play (TD updates)")
    parser.add_argument("--repeat", type=int, default=3, help="--train: runs, median printed")
    args = parser.parse_args()
    options = Options()
    if args.train:
        print(f"{'variant':<10} {'games/s':>9} {'plies/s':>9} {'plies/game':>11}  (CPU, median)")
        for variant in args.variant or VARIANT_NAMES:
            games = args.games or 30
            runs = [measure_training(variant, games, args.seed) for _ in range(args.repeat)]
            rate, plies, length = (statistics.median(run[i] for run in runs) for i in range(3))
            print(f"{variant:<10} {rate:>9.1f} {plies:>9.0f} {length:>11.1f}")
        return
    print(f"{'variant':<10} {'games/s':>9} {'positions/s':>12} {'plies/game':>11}  (CPU time)")
    for variant in args.variant or VARIANT_NAMES:
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        games_rate, positions_rate, length = measure(variant, args.games or 200, args.seed, options)
        if profiler:
            profiler.disable()
        print(f"{variant:<10} {games_rate:>9.1f} {positions_rate:>12.0f} {length:>11.1f}")
        if profiler:
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(8)
            print(text.getvalue())


if __name__ == "__main__":
    main()
