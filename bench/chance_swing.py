"""How the spectators' chance moves from turn to turn, and how much of it is the evaluator's
side-to-move bias (the "odd-even" swing of a 0-ply evaluation) rather than the dice.

The chances bar shows, after each turn, the network's 0-ply P(win) of the position it leaves
(docs/analysis.md "On the site"). A 0-ply evaluation can lean towards the side on roll or away
from it, which would make the bar zig-zag turn after turn even where the game is even; a 1-ply
evaluation (games.analysis.ply.reply_chances: the side on roll's best reply to each of the 21
rolls, averaged) does not have that bias to the same degree. For ``--games`` games of the network
against itself per variant (dice and first mover from ``--seed``), each position a side is to
move in is evaluated both ways, and the script prints, in points of P(win) for White:

- the mean |change| from one position to the next at 0-ply and at 1-ply (what the bar moves);
- the mean zig-zag |x(t) - (x(t-1) + x(t+1)) / 2|, the part of a move that the next move undoes;
- the mean difference 0-ply minus 1-ply for the side on roll (its bias), and its mean size;
- the time of one 1-ply evaluation (median, p99, largest), what using it live would cost.

    .venv/bin/python bench/chance_swing.py [--weights weights/] [--games 20] [--seed 1]
        [--variant tabla --variant gul_bara --variant tapa]
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
from evaluator import self_play_positions  # noqa: E402

from games.analysis.bearoff import RaceTables  # noqa: E402
from games.analysis.net import Network  # noqa: E402
from games.analysis.player import position_chances  # noqa: E402
from games.analysis.ply import reply_chances  # noqa: E402
from games.engine import DEFAULT_OPTIONS, WHITE  # noqa: E402

VARIANTS = ("tabla", "gul_bara", "tapa")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=ROOT / "weights")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=VARIANTS, action="append")
    args = parser.parse_args()
    races = RaceTables.load_from(args.weights)
    print(f"races: {'the exact bear-off tables' if races else 'the network'}")
    print(
        "variant    positions  |change| 0-ply 1-ply   zig-zag 0-ply 1-ply"
        "   bias on roll (|bias|)   1-ply ms median/p99/max"
    )
    for variant in args.variant or VARIANTS:
        network = Network.load(args.weights / f"{variant}.npz")
        network.races = races
        rng = random.Random(args.seed)
        moves: list[list[float]] = [[], []]
        zigzags: list[list[float]] = [[], []]
        bias: list[float] = []
        times: list[float] = []
        count = 0
        for _ in range(args.games):
            positions = self_play_positions(network, variant, rng)
            zero = position_chances(network, variant, positions, DEFAULT_OPTIONS)[:, 0]
            one = np.empty(len(positions))
            for index, position in enumerate(positions):
                start = time.perf_counter()
                one[index] = reply_chances(network, variant, position, DEFAULT_OPTIONS)[0]
                times.append(time.perf_counter() - start)
            bias.extend(zero - one)
            on_roll = np.array([position.turn == WHITE for position in positions])
            for depth, values in enumerate((zero, one)):
                values = np.where(on_roll, values, 1 - values)  # White's P(win)
                moves[depth].extend(np.abs(np.diff(values)))
                zigzags[depth].extend(np.abs(values[1:-1] - (values[:-2] + values[2:]) / 2))
            count += len(positions)
        ms = np.array(times) * 1000
        change = [np.mean(values) * 100 for values in moves]
        print(
            f"{variant:<10} {count:>9}  {change[0]:>13.2f} {change[1]:5.2f}"
            f"   {np.mean(zigzags[0]) * 100:>12.2f} {np.mean(zigzags[1]) * 100:5.2f}"
            f"   {np.mean(bias) * 100:>+12.2f} ({np.mean(np.abs(bias)) * 100:.2f})"
            f"   {np.median(ms):>10.1f}/{np.percentile(ms, 99):.1f}/{ms.max():.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
