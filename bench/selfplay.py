"""Self-play rate: random games (uniform over the legal plays) per variant with the engine.

The training of games/analysis plays millions of positions; this measures what the engine alone
gives: games per second and positions (decisions) per second per variant, seeded. With
``--profile`` it also prints where the time goes (cProfile, top functions by own time).

    .venv/bin/python bench/selfplay.py [--games 200] [--seed 1] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=VARIANT_NAMES, action="append")
    parser.add_argument("--profile", action="store_true", help="print the top functions too")
    args = parser.parse_args()
    options = Options()
    print(f"{'variant':<10} {'games/s':>9} {'positions/s':>12} {'plies/game':>11}  (CPU time)")
    for variant in args.variant or VARIANT_NAMES:
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        games_rate, positions_rate, length = measure(variant, args.games, args.seed, options)
        if profiler:
            profiler.disable()
        print(f"{variant:<10} {games_rate:>9.1f} {positions_rate:>12.0f} {length:>11.1f}")
        if profiler:
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(8)
            print(text.getvalue())


if __name__ == "__main__":
    main()
