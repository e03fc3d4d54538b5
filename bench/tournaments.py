"""Tournament algorithms: Swiss pairing, standings and double-elimination brackets on big fields,
and the ratings service: one finished match rated incrementally against a full recompute.

Swiss rounds are paired after a few simulated rounds (seeded random results), so there are
score groups and rematches to avoid. The ratings figures need the database: they run over a
throw-away SQLite file (migrated first; never DATABASE_URL, since a recompute rewrites every
rating), with N finished matches of three games each (one per variant) made by bulk_create
and rated once. Prints one line per measurement with its goal; run with
`.venv/bin/python bench/tournaments.py [--seed N] [--rated-matches N]`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw.brackets import double_elimination, resolve  # noqa: E402
from tournaments.draw.standings import TIEBREAKS, MatchResult, compute_standings  # noqa: E402
from tournaments.draw.swiss import SwissPlayer, SwissRound, pair_round  # noqa: E402


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


def time_ratings(n: int, seed: int) -> tuple[float, float]:
    """Returns the time of rating one more finished match incrementally (ratings_update) with
    `n` rated matches stored (median of five), and of a full recompute of those `n` matches
    (what every finished match cost before). Checks that both give the same ratings."""
    with tempfile.TemporaryDirectory() as directory:
        os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
        os.environ.setdefault("DEBUG", "0")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        return _time_ratings(n, random.Random(seed))


def _time_ratings(n: int, rng: random.Random) -> tuple[float, float]:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import VARIANTS, Game, Match, RatingHistory
    from games.services import ratings
    from players.models import Player

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench-{i}") for i in range(max(20, n // 10))
    )
    players = Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
    start = timezone.now() - datetime.timedelta(days=365)

    def finished(count: int, first_minute: int) -> list[Match]:
        matches = []
        for _ in range(count):
            one, two = rng.sample(players, 2)
            winner = rng.choice((one, two))
            matches.append(
                Match(player_one=one, player_two=two, winner=winner, target_score=3,
                      status=Match.Status.FINISHED, mode=Match.Mode.OVER_THE_BOARD, rated=True)
            )  # fmt: skip
        matches = Match.objects.bulk_create(matches)
        games = []
        for index, match in enumerate(matches):
            for number, (variant, _) in enumerate(VARIANTS, start=1):
                at = start + datetime.timedelta(minutes=first_minute + 3 * index + number)
                games.append(
                    Game(match=match, number=number, variant=variant, white=match.player_one,
                         black=match.player_two, position={}, status=Game.Status.FINISHED,
                         result_winner=rng.choice((match.player_one, match.player_two)),
                         finished_at=at)
                )  # fmt: skip
        Game.objects.bulk_create(games)
        return matches

    finished(n, 0)
    ratings.ratings_recompute()  # n matches rated and stored (warm-up of the recompute too)
    began = time.perf_counter()
    ratings.ratings_recompute()
    full = time.perf_counter() - began
    times = []
    for extra in range(5):  # the median of five, each one more finished match
        (match,) = finished(1, 3 * (n + extra) + 10)
        began = time.perf_counter()
        rated = ratings.ratings_update(match_id=match.pk)  # what a match's end enqueues
        times.append(time.perf_counter() - began)
        assert rated == 1 + len(VARIANTS), rated
    incremental = sorted(times)[len(times) // 2]
    stored = sorted(RatingHistory.objects.values_list("variant", "sequence", "player", "rating"))
    ratings.ratings_recompute()
    again = sorted(RatingHistory.objects.values_list("variant", "sequence", "player", "rating"))
    assert stored == again, "the incremental update differs from a full recompute"
    return incremental, full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--rated-matches", type=int, default=2000, metavar="N")
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
    n = args.rated_matches
    incremental, full = time_ratings(n, args.seed)
    rows += [
        (f"ratings: one finished match rated incrementally with {n:,} rated matches", incremental,
         0.1),
        (f"ratings: full recompute of {n:,} matches", full, None),
    ]  # fmt: skip
    width = max(len(label) for label, _, _ in rows)
    print(f"{'measurement':{width}} {'seconds':>8} {'goal':>6}")
    for label, seconds, goal in rows:
        verdict = "" if goal is None else f"{goal:6.1f} {'ok' if seconds < goal else 'SLOW'}"
        print(f"{label:{width}} {seconds:8.3f} {verdict}")


if __name__ == "__main__":
    main()
