"""Where the exact bear-off tables pay (docs/analysis.md "Bear-off tables").

For each variant: the network plays itself at 0-ply without the tables (games seeded by
``(seed, game)``); every position met that is a pure race with both sides home (the tables
answer it) is evaluated by the network and by the tables, and the mean |difference| of P(win)
and of the two mars chances is printed. Then the first such position of each game is played
out twice with the same dice, the tables' player (the network with ``races`` attached) on each
side in turn against the plain network: its wins out of the pairs show whether 0-ply play with
the tables wins more races, and a pair it wins (or loses) twice is one its play decided.

    .venv/bin/python bench/bearoff.py --weights weights/ --tables weights/ [--games 200]
        [--variant tabla] [--seed 11]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from games.analysis.bearoff import RaceTables  # noqa: E402
from games.analysis.encode import encode_positions  # noqa: E402
from games.analysis.net import Network  # noqa: E402
from games.analysis.player import evaluate_plays  # noqa: E402
from games.engine import (  # noqa: E402
    DEFAULT_OPTIONS,
    VARIANT_NAMES,
    Position,
    legal_plays,
    start_position,
)

MAX_PLIES = 2000


@dataclass
class Seen:
    network: list[np.ndarray]
    exact: list[np.ndarray]
    starts: list[Position]


def self_play(network: Network, races: RaceTables, variant: str, games: int, seed: int) -> Seen:
    seen = Seen([], [], [])
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        position = start_position(variant, rng.choice("wb"))
        first = True
        for _ in range(MAX_PLIES):
            exact = races.position_chances(variant, position, DEFAULT_OPTIONS)
            if exact is not None:
                value = network.forward(encode_positions(variant, [position], DEFAULT_OPTIONS))[0]
                seen.network.append(value)
                seen.exact.append(exact)
                if first:
                    seen.starts.append(position)
                    first = False
            dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
            outcomes = legal_plays(variant, position, dice, DEFAULT_OPTIONS)
            chosen = outcomes[
                evaluate_plays(network, variant, position, outcomes, DEFAULT_OPTIONS).best()
            ]
            if chosen.ends_game:
                break
            position = chosen.position
    return seen


def play_out(
    players: dict[str, Network], variant: str, position: Position, rng: random.Random
) -> str:
    """The winner's colour of a race played out from ``position`` by ``players`` by colour."""
    for _ in range(MAX_PLIES):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        outcomes = legal_plays(variant, position, dice, DEFAULT_OPTIONS)
        mover = players[position.turn]
        chosen = outcomes[
            evaluate_plays(mover, variant, position, outcomes, DEFAULT_OPTIONS).best()
        ]
        if chosen.ends_game:
            result = chosen.result
            assert result is not None and result.winner is not None
            return result.winner
        position = chosen.position
    raise RuntimeError("a race did not end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=ROOT / "weights")
    parser.add_argument("--tables", type=Path, default=ROOT / "weights")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--variant", choices=VARIANT_NAMES, action="append")
    args = parser.parse_args()
    races = RaceTables.load_from(args.tables)
    if races is None:
        print(f"no bear-off tables in {args.tables}: build them first")
        return 1
    for variant in args.variant or VARIANT_NAMES:
        path = args.weights / f"{variant}.npz"
        if not path.exists():
            print(f"{variant}: no weights at {path}")
            continue
        plain = Network.load(path)
        exact_player = Network.load(path)
        exact_player.races = races
        started = time.process_time()
        seen = self_play(plain, races, variant, args.games, args.seed)
        net = np.array(seen.network)
        exact = np.array(seen.exact)
        diff = np.abs(net - exact).mean(axis=0) if len(net) else np.zeros(3)
        worst = float(np.abs(net[:, 0] - exact[:, 0]).max()) if len(net) else 0.0
        wins = both = neither = 0
        for i, position in enumerate(seen.starts):
            won = 0
            for exact_colour in ("w", "b"):
                other = "b" if exact_colour == "w" else "w"
                players = {exact_colour: exact_player, other: plain}
                rng = random.Random(f"{args.seed}:race:{i}")
                won += play_out(players, variant, position, rng) == exact_colour
            wins += won
            both += won == 2
            neither += won == 0
        pairs = len(seen.starts)
        rate = wins / (2 * pairs) if pairs else 0.0
        print(
            f"{variant}: {args.games} games, {len(net)} race positions (both home) in "
            f"{pairs} games; mean |network - exact|: P(win) {100 * diff[0]:.2f} points "
            f"(worst {100 * worst:.1f}), P(win mars) {100 * diff[1]:.2f}, "
            f"P(lose mars) {100 * diff[2]:.2f}; races played out twice with the same dice: "
            f"the tables' player won {wins} of {2 * pairs} ({100 * rate:.1f} %), both games "
            f"of a pair {both} times, neither {neither} times (the other pairs: the dice "
            f"decided); "
            f"{time.process_time() - started:.0f} s CPU"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
