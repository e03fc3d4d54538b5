"""The match table against simulated matches (issue 23 §4: within 0.3 percentage points).

From every tabulated state of the match (the first mover's needs, the other's, the next game of
the cycle) ``--matches`` matches are played with numpy, each game's outcome drawn from the same
outcome rates as the table; the share the first mover wins is compared with the table's exact
chance. Prints the largest difference, where it is, and the standard error of one state's share.

    .venv/bin/python bench/match_table.py [--rates games/analysis/rates.json] \\
        [--matches 1000000] [--length 5] [--seed 1]

The matches of a state are played in chunks (``--chunk`` a state at a time, all states at once)
so that memory stays small; chunk ``i`` draws from a generator seeded by ``(seed, i)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.analysis.match_table import MatchTable, simulate  # noqa: E402
from games.analysis.rates import RATES_FILE, Rates  # noqa: E402
from games.engine import Options  # noqa: E402

GOAL = 0.003  # 0.3 percentage points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=Path, default=RATES_FILE)
    parser.add_argument("--matches", type=int, default=1_000_000, help="matches per state")
    parser.add_argument("--chunk", type=int, default=20_000, help="matches per state a chunk")
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    options = Options.from_json({"match_length": args.length})
    rates = Rates.load(args.rates)
    table = MatchTable(rates, options)
    length, games = options.match_length, len(options.cycle)
    starts = [
        (a, b, k) for a in range(1, length + 1) for b in range(1, length + 1) for k in range(games)
    ]
    exact = np.array([table.first[state] for state in starts])
    won = np.zeros(len(starts))
    played = 0
    began = time.monotonic()
    chunk = 0
    while played < args.matches:
        size = min(args.chunk, args.matches - played)
        won += size * simulate(rates, options, starts, size, seed=(args.seed, chunk))
        played += size
        chunk += 1
        print(
            f"\r{played:,}/{args.matches:,} matches a state, {time.monotonic() - began:.0f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    simulated = won / played
    difference = np.abs(simulated - exact)
    worst = int(np.argmax(difference))
    a, b, k = starts[worst]
    error = float(np.sqrt(np.max(exact * (1 - exact)) / played))
    print(f"rates: {args.rates}")
    print(
        f"{len(starts)} states of the {length}-point match, {played:,} simulated matches each "
        f"({len(starts) * played:,} in all), seed {args.seed}, {time.monotonic() - began:.0f} s"
    )
    print(f"first mover's chance in game 1: table {100 * table.start():.3f} %, ", end="")
    start = starts.index((length, length, 0))
    print(f"simulated {100 * simulated[start]:.3f} %")
    print(
        f"largest difference: {100 * difference[worst]:.3f} percentage points at "
        f"{a} against {b}, next game {options.cycle[k]} (table {100 * exact[worst]:.3f} %, "
        f"simulated {100 * simulated[worst]:.3f} %); mean {100 * difference.mean():.3f}"
    )
    print(f"one state's standard error at most {100 * error:.3f} percentage points")
    verdict = "met" if difference[worst] <= GOAL else "NOT met"
    print(f"goal: every state within {100 * GOAL:.1f} percentage points: {verdict}")


if __name__ == "__main__":
    main()
