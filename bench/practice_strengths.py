"""The practice computers against each other: does ``strong`` beat ``club``, and ``club``
``beginner``, in each game of the match (docs/decisions.md D170)?

Each pair of strengths plays ``--games`` single games of each variant (the default options, no
cube, the first mover and the dice from a generator seeded by ``(seed, variant, pair, game)``,
the two computers swapping sides from game to game), each side choosing as the site's practice
computer does (games.analysis.computer.computer_play; the strong one looking ``--depth`` rolls
ahead, 1 as on the site, its draws seeded per game; ``strong@0`` names it at 0-ply, to play the
two depths against each other). Prints per variant and pair the first
strength's games won with the 95 % interval (Wilson), its points a game (a mars 2) and the
seconds taken.

    .venv/bin/python bench/practice_strengths.py [--weights weights/] [--games 400] [--seed 1]
        [--variant tabla ...] [--pairs club:beginner,strong:club,strong:beginner,strong:strong@0]
        [--depth 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from evaluator import wilson_lower, wilson_upper  # noqa: E402

from games.analysis.bearoff import RaceTables  # noqa: E402
from games.analysis.computer import computer_play  # noqa: E402
from games.analysis.net import Network  # noqa: E402
from games.analysis.player import TEMPERATURES  # noqa: E402
from games.engine import BLACK, DEFAULT_OPTIONS, WHITE, legal_plays, start_position  # noqa: E402

VARIANTS = ("tabla", "gul_bara", "tapa")
MAX_PLIES = 2000


def computer(name: str, depth: int) -> tuple[str, int]:
    """A computer of ``--pairs``: its strength and the strong one's depth (``strong@0``)."""
    strength, _, given = name.partition("@")
    return strength, int(given) if given else depth


def game(
    network: Network, variant: str, sides: dict[str, tuple[str, int]], rng: random.Random
) -> tuple[str | None, int]:
    """One game between the computers of ``sides`` (colour -> strength and depth): the winning
    colour (None for a tie or a game not over in MAX_PLIES) and the points it scored."""
    draws = np.random.default_rng(rng.getrandbits(64))
    position = start_position(variant, rng.choice((WHITE, BLACK)))
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice)
        index = computer_play(
            network,
            variant,
            position,
            outcomes,
            DEFAULT_OPTIONS,
            strength=sides[position.turn][0],
            depth=sides[position.turn][1],
            rng=draws,
        )
        outcome = outcomes[index]
        if outcome.ends_game:
            result = outcome.result
            assert result is not None
            return result.winner, result.points
        position = outcome.position
    return None, 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=ROOT / "weights")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=VARIANTS, action="append")
    parser.add_argument("--pairs", default="club:beginner,strong:club,strong:beginner")
    parser.add_argument("--depth", type=int, choices=(0, 1), default=1)
    args = parser.parse_args()
    races = RaceTables.load_from(args.weights)
    pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",")]
    for pair in pairs:
        for name in pair:
            strength, depth = computer(name, args.depth)
            if strength not in TEMPERATURES or depth not in (0, 1):
                sys.exit(f"--pairs: strengths are {', '.join(TEMPERATURES)} (strong@0 or @1)")
    print(f"races: {'the exact bear-off tables' if races else 'the network'}")
    print(
        "temperatures: "
        + ", ".join(f"{name} {value}" for name, value in TEMPERATURES.items())
        + f"; strong at {args.depth}-ply"
    )
    print("variant    pair                games   won (95 %)               points a game   s")
    for variant in args.variant or VARIANTS:
        network = Network.load(args.weights / f"{variant}.npz")
        network.races = races
        for first, second in pairs:
            started = time.perf_counter()
            won = points = 0.0
            for number in range(args.games):
                rng = random.Random(f"practice:{args.seed}:{variant}:{first}:{second}:{number}")
                mine = WHITE if number % 2 == 0 else BLACK
                theirs = BLACK if mine == WHITE else WHITE
                sides = {mine: computer(first, args.depth), theirs: computer(second, args.depth)}
                winner, scored = game(network, variant, sides, rng)
                if winner is None:
                    won += 0.5
                else:
                    won += winner == mine
                    points += scored if winner == mine else -scored
            low = wilson_lower(won, args.games)
            high = wilson_upper(won, args.games)
            print(
                f"{variant:<10} {first + ' v ' + second:<18} {args.games:>6}"
                f"   {won / args.games * 100:5.1f} % ({low * 100:.1f}-{high * 100:.1f})"
                f"   {points / args.games:>+13.2f}   {time.perf_counter() - started:.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
