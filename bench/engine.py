"""Engine throughput: positions answered per second and random games per second, per variant.

Positions and dice are drawn from random self-play (seeded), then every query is answered again
in a timed loop in this one process. "JSON answers/s" answers parsed JSON lines and encodes the
answers; "CLI loop/s" runs the batch CLI's own loop (`run_plays`: query line in, answer line
out, every play with its POSITION_AFTER); "CLI process/s" pipes the same lines through
`python -m games.engine plays` (start-up included). Prints a table; run with `make bench` or
`.venv/bin/python bench/engine.py [--positions N] [--games N]`.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import VARIANT_NAMES, Options, Position, legal_plays, start_position  # noqa: E402
from games.engine.__main__ import run_plays  # noqa: E402
from games.engine.query import answer_line  # noqa: E402

Query = tuple[Position, list[int] | None]


def play_random_game(
    variant: str, rng: random.Random, options: Options, record: list[Query]
) -> int:
    """Play one game with random legal plays; return the number of decisions made."""
    position = start_position(variant, rng.choice("wb"))
    for decisions in range(1, 5000):
        dice = None if position.pending else [rng.randint(1, 6), rng.randint(1, 6)]
        record.append((position, dice))
        outcome = rng.choice(legal_plays(variant, position, dice, options))
        if outcome.result is not None:
            return decisions
        position = outcome.position
    return decisions  # a Gjul Bara game can lock up; stop it there


def sample_queries(variant: str, count: int, rng: random.Random, options: Options) -> list[Query]:
    record: list[Query] = []
    while len(record) < count * 4:
        play_random_game(variant, rng, options, record)
    return rng.sample(record, count)


def time_queries(variant: str, queries: list[Query], options: Options) -> tuple[float, list[float]]:
    """All legal plays per query (positions after each play are built on demand)."""
    latencies = []
    start = time.perf_counter()
    for position, dice in queries:
        t0 = time.perf_counter()
        legal_plays(variant, position, dice, options)
        latencies.append(time.perf_counter() - t0)
    return time.perf_counter() - start, latencies


def time_json_answers(variant: str, queries: list[Query], options: Options) -> float:
    """The CLI's work without the I/O: JSON in, every play with its POSITION_AFTER JSON out."""
    lines = [
        json.dumps({"variant": variant, "position": p.to_json(), "dice": d}) for p, d in queries
    ]
    start = time.perf_counter()
    for line in lines:
        json.dumps(answer_line(line))
    return len(lines) / (time.perf_counter() - start)


def query_lines(variant: str, queries: list[Query]) -> list[str]:
    """The queries as the batch CLI reads them: one JSON object per line."""
    return [
        json.dumps({"variant": variant, "position": p.to_json(), "dice": d}) + "\n"
        for p, d in queries
    ]


def time_cli_in_process(lines: list[str]) -> float:
    """The CLI's own loop (``run_plays``) from query line in to answer line out, every play with
    its POSITION_AFTER, into an in-memory stream: queries/s."""
    start = time.perf_counter()
    run_plays(lines, io.StringIO())
    return len(lines) / (time.perf_counter() - start)


def time_cli_process(lines: list[str]) -> float:
    """``python -m games.engine plays < queries > /dev/null`` end to end (start-up included)."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryFile("w+") as source:
        source.writelines(lines)
        source.seek(0)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "games.engine", "plays"],
            stdin=source,
            stdout=subprocess.DEVNULL,
            cwd=root,
            check=True,
        )
        return len(lines) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--variants", nargs="+", choices=VARIANT_NAMES, default=VARIANT_NAMES)
    args = parser.parse_args()
    options = Options()
    print(
        f"{'variant':9} {'positions/s':>12} {'mean ms':>8} {'p99 ms':>8} {'max ms':>8}"
        f" {'JSON answers/s':>15} {'CLI loop/s':>11} {'CLI process/s':>14} {'games/s':>8}"
    )
    for variant in args.variants:
        rng = random.Random(args.seed)
        queries = sample_queries(variant, args.positions, rng, options)
        elapsed, latencies = time_queries(variant, queries, options)
        latencies.sort()
        p99 = latencies[int(len(latencies) * 0.99)]
        start = time.perf_counter()
        for _ in range(args.games):
            play_random_game(variant, rng, options, [])
        games_per_second = args.games / (time.perf_counter() - start)
        answers = time_json_answers(variant, queries, options)
        lines = query_lines(variant, queries)
        cli_loop = time_cli_in_process(lines)
        cli_process = time_cli_process(lines)
        print(
            f"{variant:9} {len(queries) / elapsed:12,.0f} {statistics.mean(latencies) * 1e3:8.3f}"
            f" {p99 * 1e3:8.2f} {latencies[-1] * 1e3:8.2f} {answers:15,.0f}"
            f" {cli_loop:11,.0f} {cli_process:14,.0f} {games_per_second:8.1f}"
        )


if __name__ == "__main__":
    main()
