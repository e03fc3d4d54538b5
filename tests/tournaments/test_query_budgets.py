"""Query budgets of a tournament's busiest writes (issue 20, docs/decisions.md D73 to D75): a
result in a double elimination updates only the matches it feeds, and a Swiss round is paired
in bulk, so both take the same queries for 16 players as for 64. Each count includes the
standings task the write enqueues, run on commit as it is with no broker."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match
from tests.tournaments.factories import PlayerFactory
from tournaments import services
from tournaments.models import Standing, Tournament, TournamentMatch

pytestmark = pytest.mark.django_db

# The most queries one result takes: the rows locked and stored, the report and games read, the
# matches it feeds and those that feed them, the withdrawn entries, the matches it makes ready
# opened in one INSERT and each row saved once (D108), without auditlog's read of it and with
# the entries of a pass in one INSERT (D141), the rounds closed, the audit trail; then
# the standings task's part update: the results as keys and winners, the stored places, the
# near players' matches and rows, and its UPDATE (D113); the notifications of the matches it
# opens, one INSERT (D115).
QUERIES_FOR_A_RESULT = 33  # 35 before D141
# Pairing a Swiss round: the standings and the earlier rounds read, the round, its matches, rows
# and audit trail stored in an INSERT each, the standings task.
QUERIES_TO_PAIR = 45


def started(organiser: Any, size: int, **settings: Any) -> Tournament:
    players = [PlayerFactory(rating=1500.0 + i) for i in range(size)]
    tournament = services.tournament_create(
        user=organiser, name=f"Budget {size}", match_length=3, **settings
    )
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=players)
    services.tournament_start(tournament=tournament, user=organiser)
    return Tournament.objects.get(pk=tournament.pk)


def first_player_wins(row: TournamentMatch) -> Match:
    """The games match of ``row`` finished, won 3-0 by its first player."""
    assert row.match is not None and row.entry_one is not None
    Match.objects.filter(pk=row.match.pk).update(
        status=Match.Status.FINISHED, winner=row.entry_one.player_id, score_one=3
    )
    row.match.refresh_from_db()
    return row.match


def test_a_double_elimination_result_takes_the_same_queries_for_any_field(
    organiser, django_capture_on_commit_callbacks
):
    most = []
    for size in (16, 64):
        tournament = started(organiser, size, format="double_elimination")
        counts = []
        while ready := list(
            tournament.matches.filter(status=TournamentMatch.Status.READY)
            .select_related("entry_one", "match")
            .order_by("id")
        ):
            for row in ready:
                match = first_player_wins(row)
                with (
                    CaptureQueriesContext(connection) as queries,
                    django_capture_on_commit_callbacks(execute=True),
                ):
                    services.tournament_match_record(match=match)
                counts.append(len(queries))
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert len(counts) == 2 * size - 2  # the reset is not played: the first player won
        assert Standing.objects.filter(tournament=tournament, rank=1).count() == 1
        assert max(counts) <= QUERIES_FOR_A_RESULT, counts
        most.append(max(counts))
    assert most[0] == most[1]


def test_pairing_a_swiss_round_takes_the_same_queries_for_any_field(
    organiser, django_capture_on_commit_callbacks
):
    counts = []
    for size in (16, 64):
        tournament = started(organiser, size, format="swiss", swiss_rounds=4)
        for row in tournament.matches.filter(status=TournamentMatch.Status.READY).select_related(
            "entry_one", "match"
        ):
            with django_capture_on_commit_callbacks(execute=True):
                services.tournament_match_record(match=first_player_wins(row))
        tournament = Tournament.objects.get(pk=tournament.pk)
        user = type(organiser).objects.get(pk=organiser.pk)  # its permissions not cached
        ContentType.objects.clear_cache()  # nor the content types of the audit trail
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            services.swiss_round_pair(tournament=tournament, user=user)
        assert tournament.matches.filter(round=2).count() == size // 2
        assert len(queries) <= QUERIES_TO_PAIR, [q["sql"][:80] for q in queries]
        counts.append(len(queries))
    assert counts[0] == counts[1]
