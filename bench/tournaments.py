"""Tournament algorithms: Swiss pairing, standings and double-elimination brackets on big fields.

Swiss rounds are paired after a few simulated rounds (seeded random results), so there are
score groups and rematches to avoid. Prints one line per measurement with its goal; run with
`.venv/bin/python bench/tournaments.py [--seed N]`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.brackets import double_elimination, resolve  # noqa: E402
from tournaments.standings import TIEBREAKS, MatchResult, compute_standings  # noqa: E402
from tournaments.swiss import SwissPlayer, SwissRound, pair_round  # noqa: E402


class SwissSim:
    """A Swiss event with random winners, tracking what pairing and standings need."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.rng = rng
        self.score = dict.fromkeys(range(n), 0.0)
        self.opponents: dict[int, set[int]] = {i: set() for i in range(n)}
        self.byes: set[int] = set()
        self.rating = {i: rng.gauss(1500, 200) for i in range(n)}
        self.results: list[MatchResult] = []

    def players(self) -> list[SwissPlayer]:
        return [
            SwissPlayer(i, s, self.rating[i], frozenset(self.opponents[i]), i in self.byes)
            for i, s in self.score.items()
        ]

    def play(self, round_: SwissRound) -> None:
        number = len({r.round for r in self.results}) + 1
        for a, b in round_.pairs:
            self.opponents[a].add(b)
            self.opponents[b].add(a)
            winner = self.rng.choice((a, b))
            self.score[winner] += 1
            loser_points = self.rng.randint(0, 6)
            score = (7, loser_points) if winner == a else (loser_points, 7)
            self.results.append(MatchResult(number, a, b, winner, *score))
        if round_.bye is not None:
            self.byes.add(round_.bye)
            self.score[round_.bye] += 1
            self.results.append(MatchResult(number, round_.bye, None, round_.bye))


def time_swiss_pairing(n: int, warmup_rounds: int, seed: int) -> float:
    sim = SwissSim(n, random.Random(seed))
    for _ in range(warmup_rounds):
        sim.play(pair_round(sim.players()))
    players = sim.players()
    start = time.perf_counter()
    pair_round(players)
    return time.perf_counter() - start


def time_standings(n: int, rounds: int, seed: int) -> float:
    sim = SwissSim(n, random.Random(seed))
    for _ in range(rounds):
        sim.play(pair_round(sim.players()))
    start = time.perf_counter()
    compute_standings(list(sim.score), sim.results, TIEBREAKS)
    return time.perf_counter() - start


def time_double_elimination(n: int, seed: int) -> tuple[float, float]:
    """Random results come from playing the bracket out wave by wave (resolve, play every ready
    match, repeat). Returns the time of building the bracket and resolving it with all those
    results (what the Django layer does after a result), and the time of the whole play-out."""
    rng = random.Random(seed)
    start = time.perf_counter()
    bracket = double_elimination(n)
    seeding = {s: s for s in range(1, n + 1)}
    results: dict[str, int] = {}
    while True:
        ready = [s for s in resolve(bracket, seeding, results).values() if s.status == "ready"]
        if not ready:
            break
        for state in ready:
            results[state.key] = rng.choice([p for p in state.players if p is not None])
    played_out = time.perf_counter() - start
    start = time.perf_counter()
    resolve(double_elimination(n), seeding, results)
    return time.perf_counter() - start, played_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    rows = [
        ("Swiss: pair round 5 of 1,000 players", time_swiss_pairing(1000, 4, args.seed), 2.0),
        ("Swiss: pair round 5 of 1,001 players (bye)", time_swiss_pairing(1001, 4, args.seed), 2.0),
        ("Swiss: pair round 5 of 10,000 players", time_swiss_pairing(10_000, 4, args.seed), None),
        ("standings, all tie-breaks, 1,000 x 9 rounds", time_standings(1000, 9, args.seed), 0.5),
    ]
    built, played_out = time_double_elimination(1024, args.seed)
    rows += [
        ("double elimination 1,024: build + resolve all", built, 0.5),
        ("double elimination 1,024: play out by waves", played_out, None),
    ]
    print(f"{'measurement':46} {'seconds':>8} {'goal':>6}")
    for label, seconds, goal in rows:
        verdict = "" if goal is None else f"{goal:6.1f} {'ok' if seconds < goal else 'SLOW'}"
        print(f"{label:46} {seconds:8.3f} {verdict}")


if __name__ == "__main__":
    main()
