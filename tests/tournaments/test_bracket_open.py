"""A result opens the bracket matches it makes ready in bulk (docs/decisions.md D108): the same
rows and games matches, created in the same order, as opening them one at a time did, and each
row opened with one audit entry."""

from __future__ import annotations

from typing import Any

import pytest
from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType

from tests.tournaments.factories import PlayerFactory
from tests.tournaments.test_bulk_draw import snapshot
from tests.tournaments.test_query_budgets import first_player_wins
from tournaments import services
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import common, formats

pytestmark = pytest.mark.django_db


def played(organiser: Any, field: list[Any]) -> Tournament:
    tournament = services.tournament_create(
        user=organiser, name="Same", match_length=3, format="double_elimination"
    )
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=field)
    services.tournament_start(tournament=tournament, user=organiser)
    tournament = Tournament.objects.get(pk=tournament.pk)
    while ready := list(
        tournament.matches.filter(status=TournamentMatch.Status.READY)
        .select_related("entry_one", "match")
        .order_by("id")
    ):
        for row in ready:
            services.tournament_match_record(match=first_player_wins(row))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def test_a_result_opens_what_it_makes_ready_as_match_open_did(organiser, monkeypatch):
    mine = PlayerFactory(user=organiser, rating=1900.0)
    field = [mine, *(PlayerFactory(rating=1800.0 - 10 * i) for i in range(6))]
    bulk = snapshot(played(organiser, field))

    def one_by_one(tournament: Tournament, rows: list[TournamentMatch]) -> None:
        for row in rows:
            common.match_open(tournament, row)

    with monkeypatch.context() as patch:
        patch.setattr(formats, "_bracket_open", one_by_one)
        before = snapshot(played(organiser, field))
    assert bulk["matches"] and len(bulk["matches"]) == len(before["matches"])
    for part in ("rows", "matches", "match_order", "rounds"):
        assert bulk[part] == before[part], part


def test_a_row_made_ready_by_a_result_is_saved_once(organiser):
    field = [PlayerFactory(rating=1800.0 - 10 * i) for i in range(8)]
    tournament = played(organiser, field)
    row_type = ContentType.objects.get_for_model(TournamentMatch)
    later = tournament.matches.exclude(round=1, section="main")
    assert later.exists()
    for row in later.filter(match__isnull=False):
        opened = [
            entry
            for entry in LogEntry.objects.filter(
                content_type=row_type, object_id=row.pk, action=LogEntry.Action.UPDATE
            )
            if "match" in (entry.changes or {})
        ]
        assert len(opened) == 1, row.key
        changed = set(opened[0].changes)
        # its last player, its status and its match together (the first player may have been
        # placed by an earlier result, while the row waited)
        assert {"status", "match"} <= changed and changed & {"entry_one", "entry_two"}, row.key
