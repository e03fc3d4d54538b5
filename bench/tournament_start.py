"""Starting a large tournament and pairing a large Swiss round, through the services, over a
throw-away SQLite file (migrated first; never DATABASE_URL): the time, the number of queries,
the audit rows written and the pushes sent by one request, and the time and queries of the
tournament page afterwards (issue 19).

- a round robin of N players (N(N-1)/2 matches) started by a rated organiser (a user with no
  permission may not create that many at once: docs/decisions.md D57), and a double round
  robin of N players;
- a Swiss of S players: its start (round 1 paired) and the pairing of round 2 after every
  round-1 match was given a result;
- the tournament page of the round robin (GET /tournaments/<pk>/ with the Django test client);
- a double elimination of D players: its start, then results recorded one by one as a finished
  games match is recorded (``tournament_match_record``, the standings task run eagerly as with no
  broker): the median and the slowest result, and the most queries a result ran, over the first
  R results in the order the matches became ready, and the median CPU of the standings task in
  a result (which a worker runs, with a broker) (issue 20).

The pushes are the messages one transaction hands to the channel layer (common/push.py), one
per group; an in-memory layer is set, so nothing leaves the process (nor is any payload built:
nobody listens). "cpu s" is this process's CPU time, database included (SQLite runs in it):
steadier than the wall-clock seconds on a shared machine. Prints one line per
measurement; run with
`.venv/bin/python bench/tournament_start.py [--players N] [--swiss S] [--double D] [--results R]`.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def setup(directory: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("DEBUG", "0")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["CHANNEL_LAYER_URL"] = ""  # in memory
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class Measured:
    """Time, queries, audit rows and pushed groups of what runs inside the ``with``."""

    def __enter__(self) -> Measured:
        from auditlog.models import LogEntry
        from django.db import connection

        from common import push

        self.pushed: list[str] = []
        original = push._Batch.__call__

        def counting(batch: Any) -> None:
            self.pushed.extend(batch.entries)
            original(batch)

        self._restore = lambda: setattr(push._Batch, "__call__", original)
        push._Batch.__call__ = counting  # type: ignore[method-assign]
        self.audit_before = LogEntry.objects.count()
        self.queries = 0

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            self.queries += 1
            return execute(sql, params, many, context)

        self.wrapper = connection.execute_wrapper(count)
        self.wrapper.__enter__()
        # Each measurement starts from a full collection: otherwise whether the collector's
        # full pass over the whole bench's heap (about 0.1 s) falls inside it depends on what ran
        # before, not on the code measured (docs/decisions.md D136).
        gc.collect()
        self.began = time.perf_counter()
        self.cpu_began = time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        from auditlog.models import LogEntry

        self.seconds = time.perf_counter() - self.began
        self.cpu = time.process_time() - self.cpu_began
        self.wrapper.__exit__(*exc)
        self._restore()
        self.audit_rows = LogEntry.objects.count() - self.audit_before

    def line(self, label: str) -> str:
        return (
            f"{label:52} {self.seconds:8.2f} {self.cpu:8.2f} {self.queries:8,} "
            f"{self.audit_rows:8,} {len(self.pushed):6,}"
        )


def tournament_of(size: int, organiser: Any, players: list[Any], **settings: Any) -> Any:
    from tournaments import services
    from tournaments.services.lifecycle import MAX_BULK_ENTRIES

    tournament = services.tournament_create(user=organiser, name=f"Bench {size}", **settings)
    services.registration_open(tournament=tournament, user=organiser)
    for start in range(0, size, MAX_BULK_ENTRIES):
        end = min(size, start + MAX_BULK_ENTRIES)
        services.entries_register_many(
            tournament=tournament, user=organiser, players=players[start:end]
        )
    return tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=60, metavar="N")
    parser.add_argument("--swiss", type=int, default=256, metavar="S")
    parser.add_argument("--double", type=int, default=256, metavar="D")
    parser.add_argument("--results", type=int, default=100, metavar="R")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        setup(directory)
        run(args.players, args.swiss)
        run_double(args.double, args.results)


def run_double(size: int, results: int) -> None:
    """A double elimination of ``size`` players: its start, then ``results`` results."""
    from django.contrib.auth import get_user_model

    from games.models import Match
    from players.models import Player
    from tournaments import services
    from tournaments.models import Tournament, TournamentMatch

    User = get_user_model()
    organiser = User.objects.get(username="bench-organiser")
    players = list(Player.objects.order_by("pk")[:size])
    if len(players) < size:
        users = User.objects.bulk_create(
            User(username=f"bench-de-{i}") for i in range(size - len(players))
        )
        players += Player.objects.bulk_create(
            Player(user=u, display_name=u.username, rating=1000 + i) for i, u in enumerate(users)
        )
    double = tournament_of(size, organiser, players,
                           format=Tournament.Format.DOUBLE_ELIMINATION, match_length=3)  # fmt: skip
    with Measured() as measured:
        services.tournament_start(tournament=double, user=organiser)
    print(measured.line(f"start: double elimination of {size}"))
    times: list[float] = []
    cpus: list[float] = []
    most = 0
    # The standings task's own CPU (run eagerly at the commit, as with no broker; a worker
    # runs it with one): the task calls ``services.standings_recompute``, wrapped here.
    standings: list[float] = []
    recompute = services.standings_recompute

    def timed(**kwargs: Any) -> Any:
        began = time.process_time()
        try:
            return recompute(**kwargs)
        finally:
            standings.append(time.process_time() - began)

    services.standings_recompute = timed  # type: ignore[assignment]
    while len(times) < results:
        ready = list(
            double.matches.filter(status=TournamentMatch.Status.READY)
            .select_related("entry_one", "match")
            .order_by("id")
        )
        if not ready:
            break
        for row in ready[: results - len(times)]:
            match = row.match
            assert match is not None and row.entry_one is not None
            # The first player wins 3-0: the finished games match as the games services leave it.
            Match.objects.filter(pk=match.pk).update(
                status=Match.Status.FINISHED, winner=row.entry_one.player_id, score_one=3
            )
            match.refresh_from_db()
            with Measured() as measured:
                services.tournament_match_record(match=match)
            times.append(measured.seconds)
            cpus.append(measured.cpu)
            most = max(most, measured.queries)
    times.sort()
    cpus.sort()
    print(
        f"{f'double elimination of {size}: a result (median of {len(times)})':52} "
        f"{times[len(times) // 2]:8.3f} {cpus[len(cpus) // 2]:8.3f} {most:8,} (the most)"
    )
    label = f"double elimination of {size}: the slowest result"
    print(f"{label:52} {times[-1]:8.3f} {cpus[-1]:8.3f}")
    services.standings_recompute = recompute  # type: ignore[assignment]
    standings.sort()
    label = f"double elimination of {size}: of a result, the standings"
    print(f"{label:52} {'':8} {standings[len(standings) // 2]:8.3f} (median)")


def run(size: int, swiss_size: int) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import Client

    from players.models import Player
    from tournaments import services
    from tournaments.models import Tournament, TournamentMatch

    User = get_user_model()
    organiser = User.objects.create(username="bench-organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="run_rated_tournament"))
    organiser = User.objects.get(pk=organiser.pk)  # no cached permissions
    count = max(size, swiss_size)
    users = User.objects.bulk_create(User(username=f"bench-{i}") for i in range(count))
    players = Player.objects.bulk_create(
        Player(user=u, display_name=u.username, rating=1500 + i) for i, u in enumerate(users)
    )
    print(
        f"{'measurement':52} {'seconds':>8} {'cpu s':>8} {'queries':>8} {'audit':>8} {'pushes':>6}"
    )
    common = {"format": Tournament.Format.ROUND_ROBIN, "match_length": 3}

    tournament = tournament_of(size, organiser, players, **common)
    with Measured() as measured:
        services.tournament_start(tournament=tournament, user=organiser)
    matches = tournament.matches.count()
    print(measured.line(f"start: round robin of {size} ({matches:,} matches)"))

    client = Client()
    client.force_login(organiser)
    for label in ("tournament page (first)", "tournament page"):
        with Measured() as measured:
            response = client.get(f"/tournaments/{tournament.pk}/")
        assert response.status_code == 200, response.status_code
        print(measured.line(f"{label} ({len(response.content) // 1024} KiB)"))

    double = tournament_of(size, organiser, players, double_round_robin=True, **common)
    with Measured() as measured:
        services.tournament_start(tournament=double, user=organiser)
    matches = double.matches.count()
    print(measured.line(f"start: double round robin of {size} ({matches:,} matches)"))

    swiss = tournament_of(swiss_size, organiser, players, format=Tournament.Format.SWISS,
                          match_length=3, swiss_rounds=8)  # fmt: skip
    with Measured() as measured:
        services.tournament_start(tournament=swiss, user=organiser)
    print(measured.line(f"start: Swiss of {swiss_size} (round 1 paired)"))
    # Every round-1 match won 3-0 by its first player, stored directly (the results are not
    # what is measured), then the standings the pairing reads.
    TournamentMatch.objects.filter(tournament=swiss, status=TournamentMatch.Status.READY).update(
        status=TournamentMatch.Status.DONE, score_one=3
    )
    for row in swiss.matches.filter(status=TournamentMatch.Status.DONE):
        TournamentMatch.objects.filter(pk=row.pk).update(winner=row.entry_one_id)
    services.standings_recompute(tournament=swiss)
    with Measured() as measured:
        services.swiss_round_pair(tournament=swiss, user=organiser)
    print(measured.line(f"Swiss of {swiss_size}: pair round 2"))


if __name__ == "__main__":
    main()
