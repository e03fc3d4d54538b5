"""A result saves its bracket rows without auditlog's read of each row before the save, their
audit entries written together (``RowSaves``, docs/decisions.md D141): the audit trail, the
rows and the pushes are those of saving each row with ``save()`` under auditlog's receivers."""

from __future__ import annotations

import random
from contextlib import nullcontext
from typing import Any

import pytest
from auditlog.context import set_actor
from auditlog.models import LogEntry
from django.contrib.contenttypes.models import ContentType

from tests.tournaments.factories import PlayerFactory
from tests.tournaments.test_standings_update import play
from tournaments import push, services
from tournaments.models import Entry, Round, Tournament, TournamentMatch
from tournaments.services import common

pytestmark = pytest.mark.django_db


def played(organiser: Any, field: list[Any], capture: Any, seed: int) -> Tournament:
    """A double elimination of ``field`` (13: byes) played with random winners; the organiser
    records every third result under their audit context, and withdraws an entry after six
    results (their later matches then become forfeits as the bracket reaches them)."""
    tournament = services.tournament_create(
        user=organiser, name="Saves", match_length=3, format="double_elimination"
    )
    services.registration_open(tournament=tournament, user=organiser)
    services.entries_register_many(tournament=tournament, user=organiser, players=field)
    services.tournament_start(tournament=tournament, user=organiser)
    tournament = Tournament.objects.get(pk=tournament.pk)
    rng = random.Random(seed)
    results = 0
    while ready := list(
        tournament.matches.filter(status=TournamentMatch.Status.READY)
        .select_related("entry_one", "entry_two", "match")
        .order_by("id")
    ):
        row = rng.choice(ready)
        match = play(row, rng)
        with capture(execute=True), set_actor(organiser) if results % 3 == 0 else nullcontext():
            services.tournament_match_record(match=match)
        results += 1
        if results == 6:
            entry = tournament.entries.filter(status="active").order_by("seed")[5]
            with capture(execute=True):
                services.entry_withdraw(entry=entry, user=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def trail(tournament: Tournament) -> list[tuple[Any, ...]]:
    """The tournament's audit trail in the order written, ids replaced by what they stand for
    (rows by key, entries by seed, rounds by number) and times by whether there is one."""
    seeds = {entry.pk: entry.seed for entry in tournament.entries.all()}
    rows = list(tournament.matches.all())
    keys = {row.pk: row.key for row in rows}
    names: dict[str, dict[int, Any]] = {
        "entry_one": seeds,
        "entry_two": seeds,
        "winner": seeds,
        "match": {row.match_id: row.key for row in rows if row.match_id},
        "tournament": {tournament.pk: "T"},
    }
    objects = {
        TournamentMatch: keys,
        Tournament: {tournament.pk: "T"},
        Round: {r.pk: f"{r.stage} {r.number}" for r in tournament.rounds.all()},
        Entry: seeds,
    }
    types = {ContentType.objects.get_for_model(model): model for model in objects}

    def value(model: type[Any], field: str, value: Any) -> Any:
        if value in (None, "None"):
            return value
        if field.endswith("_at"):  # a time: only whether there is one
            return "a time"
        if field == "brackets":  # the draw's seeds, by entry id (the start: not at issue)
            return "a draw"
        if field == "id":
            return objects[model].get(int(value), value)
        if field in names:
            return names[field].get(int(value), value)
        if field in keys.values() and isinstance(value, list):  # a result: [winner, s1, s2]
            return [seeds.get(value[0], value[0]), *value[1:]]
        return value

    written = []
    for entry in LogEntry.objects.filter(content_type__in=types).order_by("pk"):
        model = types[entry.content_type]
        if entry.object_id not in objects[model]:
            continue
        changes = {
            field: [value(model, field, v) for v in values]
            for field, values in (entry.changes or {}).items()
        }
        data = dict(entry.additional_data or {})
        data["tournament"] = data.get("tournament") == tournament.pk
        written.append(
            (
                model.__name__,
                objects[model][entry.object_id],
                entry.action,
                changes,
                entry.actor_id,
                entry.actor_email,
                entry.object_repr.replace(tournament.name, "T"),
                data,
                entry.cid,
            )
        )
    return written


def stored(tournament: Tournament) -> list[tuple[Any, ...]]:
    seeds = {entry.pk: entry.seed for entry in tournament.entries.all()}
    return [
        (
            row.key,
            seeds.get(row.entry_one_id),
            seeds.get(row.entry_two_id),
            seeds.get(row.winner_id),
            row.status,
            row.score_one,
            row.score_two,
            row.games_one,
            row.games_two,
            row.is_forfeit,
            row.finished_at is not None,
            row.match_id is not None,
        )
        for row in tournament.matches.order_by("id")
    ]


def test_a_result_writes_the_trail_rows_and_pushes_that_saving_each_row_did(
    organiser, django_capture_on_commit_callbacks, monkeypatch
):
    mine = PlayerFactory(user=organiser, rating=1900.0)
    field = [mine, *(PlayerFactory(rating=1800.0 - 10 * i) for i in range(12))]
    pushed: list[str] = []
    monkeypatch.setattr(push, "push_on_commit", lambda group, kind, build: pushed.append(kind))

    bulk = played(organiser, field, django_capture_on_commit_callbacks, seed=5)
    bulk_pushes, pushed[:] = list(pushed), []

    def plain_save(
        saves: common.RowSaves, row: TournamentMatch, *, update_fields: Any = None
    ) -> None:
        row.save(update_fields=update_fields)  # auditlog's receivers: the read, the entry

    with monkeypatch.context() as patch:
        patch.setattr(common.RowSaves, "save", plain_save)
        patch.setattr(common.RowSaves, "write", lambda saves: None)
        one_by_one = played(organiser, field, django_capture_on_commit_callbacks, seed=5)

    assert stored(bulk) == stored(one_by_one)
    forfeits = [row for row in stored(bulk) if row[9]]
    assert forfeits, "the withdrawal forfeits matches"
    new, old = trail(bulk), trail(one_by_one)
    assert len(new) > 100
    assert new == old
    assert bulk_pushes == pushed
