"""Draws stored in bulk (issue 19, docs/decisions.md D58): a round robin or Swiss round stored
in bulk gives the same rows, games matches and audit trail as one row at a time did; one start
pushes once, to its tournament; and starting a round robin takes as many queries for 8 players
as for 4."""

from __future__ import annotations

from typing import Any

import pytest
from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType

from games import push as games_push
from tests.tournaments.factories import PlayerFactory
from tournaments import push as tournaments_push
from tournaments import services
from tournaments.models import Round, Tournament, TournamentMatch
from tournaments.services import common, formats

pytestmark = pytest.mark.django_db

# The queries of starting a round robin of any size (up to ~39 pairs on SQLite): the tournament
# locked, entries and seeds, the bounds (its creator and permissions), rounds, matches, rows
# and their audit trail in an INSERT each, and the players' notifications (docs/decisions.md D115).
QUERIES_TO_START = 26


# --- the bulk draw is the one-by-one draw ------------------------------------------------------


def one_by_one(tournament: Tournament, rows: list[TournamentMatch], user: Any) -> None:
    """The draw as it was stored before D58: each row created, then each opened."""
    for row in rows:
        row.save()
    for row in sorted(rows, key=lambda r: (r.stage, r.round, r.section, r.index)):
        common.match_open(tournament, row)


def one_round_at_a_time(tournament: Tournament, stage: str, numbers: Any, user: Any) -> None:
    for number in numbers:
        formats._round_create(tournament, stage, number)


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """Rows, games matches and audit entries of the draw, ids replaced by what they stand for."""
    seeds = {entry.pk: entry.seed for entry in tournament.entries.all()}
    rows = {row.pk: row for row in tournament.matches.select_related("match")}
    names = {
        "id": {row.pk: row.key for row in rows.values()},
        "tournament": {tournament.pk: "T"},
        "entry_one": seeds,
        "entry_two": seeds,
        "winner": seeds,
        "match": {row.match_id: row.key for row in rows.values()},
    }
    match_fields = (
        "organiser_id",
        "created_by_id",
        "rated",
        "mode",
        "target_score",
        "options",
        "status",
        "is_public",
        "auto_roll",
        "clock_bank_seconds",
        "clock_delay_seconds",
        "clock_one_ms",
        "clock_two_ms",
        "claim_after_hours",
    )

    def name(field: str, value: Any) -> Any:
        if value in (None, "None"):
            return value
        if field == "finished_at":  # a time: only whether there is one
            return "a time"
        return names[field].get(int(value), value) if field in names else value

    def named(changes: dict[str, Any]) -> dict[str, Any]:
        return {field: [name(field, v) for v in values] for field, values in changes.items()}

    tm_type = ContentType.objects.get_for_model(TournamentMatch)
    audit = sorted(
        (
            names["id"][entry.object_id],
            entry.action,
            repr(sorted(named(entry.changes).items())),
            entry.actor_id,
            entry.actor_email,
            entry.object_repr.replace(tournament.name, "T"),
            entry.additional_data == {"tournament": tournament.pk},
        )
        for entry in LogEntry.objects.filter(content_type=tm_type, object_id__in=rows)
    )
    rounds_audit = sorted(
        (entry.action, repr(sorted(entry.changes)), entry.actor_id)
        for entry in LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(Round),
            object_id__in=tournament.rounds.values("pk"),
        )
    )
    return {
        "rows": sorted(
            (
                row.key,
                row.section,
                row.round,
                row.index,
                seeds.get(row.entry_one_id),
                seeds.get(row.entry_two_id),
                row.status,
                row.stage,
                row.bye_points,
            )
            for row in rows.values()
        ),
        "matches": sorted(
            (
                row.key,
                row.match.player_one_id,
                row.match.player_two_id,
                row.match.tournament_slot == f"tournament-{tournament.pk}",
                *(getattr(row.match, name) for name in match_fields),
            )
            for row in rows.values()
            if row.match is not None
        ),
        "match_order": [row.key for row in sorted(rows.values(), key=lambda r: r.match_id or 0)],
        "rounds": sorted(tournament.rounds.values_list("stage", "number", "opening_variant")),
        "audit": audit,
        "rounds_audit": rounds_audit,
    }


def started(organiser: Any, players: list[Any], **fields: Any) -> Tournament:
    tournament = services.tournament_create(user=organiser, name="Same", **fields)
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=players)
    services.entries_seed(tournament=tournament, user=organiser, method="rating")
    return services.tournament_start(tournament=tournament, user=organiser)


@pytest.mark.parametrize(
    "fields",
    [
        {
            "format": "round_robin",
            "groups": 2,
            "double_round_robin": True,
            "rotate_cycle": True,
            "options": {"cycle": ["tabla", "gul_bara", "tapa"]},
        },
        {"format": "round_robin", "match_mode": "over_the_board"},
        {
            "format": "swiss",
            "swiss_rounds": 2,
            "match_mode": "online",
            "clock": {"preset": "standard"},
        },
    ],
    ids=["double-rr-groups-rotated", "rr-over-the-board", "swiss-clock"],
)
def test_a_bulk_draw_stores_what_one_by_one_did(organiser, monkeypatch, fields):
    """The same field drawn in bulk and (patched back) one row at a time: the same rows, games
    matches (created in the same order) and audit entries; the organiser plays in one."""
    mine = PlayerFactory(user=organiser, rating=1900.0)
    field = [mine, *(PlayerFactory(rating=1800.0 - 10 * i) for i in range(6))]
    bulk = snapshot(started(organiser, field, **fields))
    with monkeypatch.context() as patch:
        patch.setattr(formats, "matches_open_many", one_by_one)
        patch.setattr(formats, "_rounds_create_many", one_round_at_a_time)
        before = snapshot(started(organiser, field, **fields))
    assert bulk["rows"] and bulk["audit"]
    assert bulk == before


def test_a_later_swiss_round_is_paired_in_bulk_as_before(org_api, organiser, players, monkeypatch):
    from tests.tournaments.helpers import play_all, tournament_running

    snapshots = []
    for patched in (False, True):
        with monkeypatch.context() as patch:
            if patched:
                patch.setattr(formats, "matches_open_many", one_by_one)
            pk = tournament_running(
                org_api, players[:7], format="swiss", swiss_rounds=2, rated=False
            )["id"]
            play_all(org_api, pk)  # round 1
            org_api.post("tournaments:round-pair", status=201, pk=pk)
            tournament = Tournament.objects.get(pk=pk)
            snapshots.append(snapshot(tournament))
    assert snapshots[0] == snapshots[1]


# --- pushes and queries ------------------------------------------------------------------------


def test_a_start_pushes_once_to_its_tournament_and_to_no_match(organiser, players, monkeypatch):
    pushed: list[tuple[str, str]] = []

    def record(group: str, kind: str, build: Any) -> None:
        pushed.append((group, kind))

    monkeypatch.setattr(tournaments_push, "push_on_commit", record)
    monkeypatch.setattr(games_push, "push_on_commit", record)
    tournament = services.tournament_create(user=organiser, name="Pushed", format="round_robin")
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=players)
    pushed.clear()
    services.tournament_start(tournament=tournament, user=organiser)
    assert tournament.matches.count() == 28
    assert {group for group, _ in pushed} == {f"tournament.{tournament.pk}"}
    assert ("tournament." + str(tournament.pk), "pairing") in pushed


def test_starting_a_round_robin_takes_the_same_queries_for_any_number_of_pairs(
    organiser, django_assert_max_num_queries
):
    """4 players: 6 matches in 3 rounds; 8 players: 28 in 7: the same queries. (SQLite splits an
    INSERT at 999 parameters, about 39 matches, so a far larger field takes a query more for
    each such batch; PostgreSQL does not.)"""
    counts = []
    for size in (4, 8):
        players = [PlayerFactory(rating=1500.0 + i) for i in range(size)]
        tournament = services.tournament_create(user=organiser, name="Pinned", format="round_robin")
        services.registration_open(tournament=tournament, user=organiser)
        services.entries_register_many(tournament=tournament, user=organiser, players=players)
        tournament = Tournament.objects.get(pk=tournament.pk)
        user = type(organiser).objects.get(pk=organiser.pk)  # its permissions not cached
        ContentType.objects.clear_cache()  # nor the content types of the audit trail
        with django_assert_max_num_queries(QUERIES_TO_START) as queries:
            services.tournament_start(tournament=tournament, user=user)
        assert tournament.matches.count() == size * (size - 1) // 2
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_bulk_audit_entry_is_what_auditlog_writes_for_a_save(organiser, players):
    """``audit_bulk`` (its diffs planned once a model, docs/decisions.md D136) writes for a row
    created then opened the entries auditlog's receivers write when that row is saved twice
    under ``set_actor``: the same changes (a time, a JSON list, foreign keys), actor and data."""
    from auditlog.context import set_actor
    from django.utils import timezone

    tournament = started(organiser, players[:6], format="swiss", swiss_rounds=3)
    one, two = tournament.entries.order_by("seed")[:2]
    row = TournamentMatch(
        tournament=tournament,
        key="R3-1",
        round=3,
        index=1,
        sources=["seed:1", "seed:2"],
        entry_one=one,
        entry_two=two,
        finished_at=timezone.now(),
    )
    with set_actor(organiser):
        row.save()
        as_created = TournamentMatch.objects.get(pk=row.pk)
        row.status = TournamentMatch.Status.READY
        row.match_length = 5
        row.save()

    def seen(entries: Any) -> list[tuple[Any, ...]]:
        return [
            (
                entry.content_type_id,
                entry.object_pk,
                entry.object_id,
                entry.object_repr,
                entry.action,
                entry.changes,
                entry.actor_id,
                entry.actor_email,
                entry.additional_data,
            )
            for entry in entries.order_by("pk")
        ]

    saved = seen(LogEntry.objects.get_for_object(row))
    LogEntry.objects.get_for_object(row).delete()
    common.audit_bulk(organiser, created=[as_created], updated=[(as_created, row)])
    written = seen(LogEntry.objects.get_for_object(row))
    assert [entry[4] for entry in saved] == [LogEntry.Action.CREATE, LogEntry.Action.UPDATE]
    assert set(saved[0][5]) >= {"sources", "finished_at", "entry_one", "tournament"}
    assert set(saved[1][5]) == {"status", "match_length"}
    assert written == saved
