"""Shared steps of the tournament services: permission checks, locking, the audit log, and
opening the games Match of a tournament match (one at a time, or a whole draw in bulk)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from itertools import groupby
from typing import Any

from auditlog.cid import get_cid
from auditlog.context import auditlog_value, disable_auditlog, set_actor
from auditlog.diff import (
    get_field_value,
    get_fields_in_model,
    get_mask_function,
    is_primitive,
    model_instance_diff,
)
from auditlog.models import LogEntry
from auditlog.registry import auditlog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import router, transaction
from django.db.models import F, Model
from django.db.models.signals import pre_save
from django.utils.encoding import smart_str

from common.errors import ConflictError, NotAllowedError
from games import services as games_services
from games.engine import Options
from games.models import Match
from games.selectors import User
from players.models import Player
from tournaments import selectors
from tournaments.models import Tournament, TournamentMatch
from tournaments.push import tournament_changed

SETTLED = (
    TournamentMatch.Status.DONE,
    TournamentMatch.Status.BYE,
    TournamentMatch.Status.VOID,
    TournamentMatch.Status.MISSED,
)


def check_organiser(tournament: Tournament, user: User) -> None:
    if not selectors.is_organiser(user, tournament):
        raise NotAllowedError("only the tournament's organisers may do this")


# A status as a refusal says it: "the tournament is finished; ... while it is a draft".
STATUS_WORDS: dict[str, str] = {
    Tournament.Status.DRAFT: "a draft",
    Tournament.Status.REGISTRATION: "in registration",
    Tournament.Status.RUNNING: "running",
    Tournament.Status.FINISHED: "finished",
}


def check_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        words = [STATUS_WORDS.get(status, status) for status in allowed]
        needed = " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)
        raise ConflictError(
            f"the tournament is {STATUS_WORDS.get(tournament.status, tournament.status)}; "
            f"this can be done only while it is {needed}"
        )


def locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked for the rest of the transaction (one writer at a time)."""
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


@contextmanager
def organiser_action(tournament: Tournament, user: User) -> Iterator[Tournament]:
    """Check the organiser, lock the tournament and record row changes under ``user``."""
    with transaction.atomic(), set_actor(user):
        tournament = locked(tournament)
        check_organiser(tournament, user)
        yield tournament


def ambient_actor() -> User | None:
    """The user that rows saved now are recorded under (``set_actor`` of the caller), for an
    audit trail written in bulk (``audit_bulk``) where auditlog's receivers would have used it."""
    actor = auditlog_value.get({}).get("actor")
    return actor if isinstance(actor, get_user_model()) else None


def audit(
    tournament: Tournament, user: User | None, action: str, **changes: tuple[Any, Any]
) -> None:
    """Record an organiser action in the audit log: ``changes`` maps a name to (before, after)."""
    LogEntry.objects.log_create(
        tournament,
        force_log=True,
        action=LogEntry.Action.UPDATE,
        changes={name: [_text(old), _text(new)] for name, (old, new) in changes.items()},
        actor=user if getattr(user, "is_authenticated", False) else None,
        additional_data={"tournament": tournament.pk, "action": action},
    )


def _text(value: Any) -> Any:
    return value if value is None or isinstance(value, (int, float, bool, list)) else str(value)


def rotated_options(tournament: Tournament, round_number: int) -> dict[str, Any]:
    """The tournament's options; with ``rotate_cycle``, round N opens with game N of the cycle."""
    options = Options.from_json(tournament.options).to_json()
    if tournament.rotate_cycle:
        cycle = list(options["cycle"])
        shift = (round_number - 1) % len(cycle)
        options["cycle"] = cycle[shift:] + cycle[:shift]
    return options


def opening_variant(tournament: Tournament, round_number: int) -> str:
    return str(rotated_options(tournament, round_number)["cycle"][0])


def match_open(tournament: Tournament, tournament_match: TournamentMatch) -> Match:
    """Create the games Match for a tournament match whose two players are known (saved)."""
    one, two = tournament_match.entry_one, tournament_match.entry_two
    assert one is not None and two is not None
    organiser = tournament.created_by
    match = games_services.match_create(
        creator=organiser,
        player_one=one.player,
        player_two=two.player,
        target_score=tournament_match.match_length or tournament.match_length,
        options=rotated_options(tournament, tournament_match.round),
        mode=tournament.match_mode,
        tournament_slot=f"tournament-{tournament.pk}",
        start=False,
        rated=tournament.rated,
        clock=tournament.clock,
        claim_after_hours=tournament.claim_after_hours,
    )
    if match.organiser_id is None:  # the organiser plays in it: still the one who may forfeit
        match.organiser = organiser
        match.save(update_fields=["organiser", "updated_at"])
    tournament_match.match = match
    tournament_match.status = TournamentMatch.Status.READY
    tournament_match.save()
    return match


def matches_open_many(
    tournament: Tournament,
    rows: list[TournamentMatch],
    user: User | None,
    *,
    opened: Collection[str] | None = None,
) -> list[TournamentMatch]:
    """Store ``rows`` (new, unsaved, both players known) each with its games Match, as
    ``TournamentMatch.objects.create`` then ``match_open`` would one row at a time, in a few
    queries whatever their number (docs/decisions.md D58): the games matches in one INSERT for
    each set of options (one a round with ``rotate_cycle``), in the order ``match_open`` took
    them (the rows' ordering); the rows in one; and in one, the audit trail the one-by-one
    saves would have written under ``user`` (``audit_bulk``). Bulk inserts send no signals:
    the tournament's listeners are told once, and nobody listens to a match that did not
    exist. With ``opened``, only the rows of those keys are opened; the others (a bracket's
    later slots, its byes) are stored as they are, in the same INSERT, in the given order."""
    players: dict[int, Player] = {
        player.entry_id: player  # the players alone, each once: no Entry rows are built
        for player in Player.objects.filter(entries__tournament=tournament).annotate(
            entry_id=F("entries__pk")
        )
    }
    opening = [row for row in rows if opened is None or row.key in opened]
    in_order = sorted(opening, key=lambda row: (row.stage, row.round, row.section, row.index))
    games_matches_create(tournament, in_order, players)
    first_status = {}
    for row in rows:
        row.tournament = tournament
        first_status[id(row)] = row.status
    for row in opening:
        row.status = TournamentMatch.Status.READY
    created = TournamentMatch.objects.bulk_create(rows)
    waiting = {id(row): _as_created(row, first_status[id(row)]) for row in created}
    audit_bulk(
        user,
        created=[waiting[id(row)] for row in created],
        updated=[(waiting[id(row)], row) for row in in_order],
    )
    tournament_changed(tournament_id=tournament.pk, kind="pairing")
    return created


def games_matches_create(
    tournament: Tournament, rows: list[TournamentMatch], players: dict[int, Player]
) -> None:
    """Give each of ``rows`` (both players known, in play order; ``players`` by entry id) its
    games Match, created in one INSERT for each run of rows with the same match length and
    options (one a round with ``rotate_cycle``): ``matches_create_many``, the rows
    ``match_create`` stores (docs/decisions.md D58). The rows themselves are not saved."""
    organiser = tournament.created_by
    options_of: dict[int, str] = {}  # a round's options, as JSON text to compare

    def rules(row: TournamentMatch) -> tuple[int, str]:
        if row.round not in options_of:
            options = rotated_options(tournament, row.round)
            options_of[row.round] = json.dumps(options, sort_keys=True)
        return row.match_length or tournament.match_length, options_of[row.round]

    for (length, options), grouped in groupby(rows, key=rules):
        same = list(grouped)
        matches = games_services.matches_create_many(
            creator=organiser,
            organiser=organiser,
            pairs=[_pair(players, row) for row in same],
            target_score=length,
            options=json.loads(options),
            mode=tournament.match_mode,
            tournament_slot=f"tournament-{tournament.pk}",
            rated=tournament.rated,
            clock=tournament.clock,
            claim_after_hours=tournament.claim_after_hours,
        )
        for row, match in zip(same, matches, strict=True):
            row.match = match


def _pair(players: dict[int, Player], row: TournamentMatch) -> tuple[Player, Player]:
    """The two players of a drawn row (a row with a match always has both entries)."""
    assert row.entry_one_id is not None and row.entry_two_id is not None, row.key
    return players[row.entry_one_id], players[row.entry_two_id]


def _as_created(row: TournamentMatch, status: str) -> TournamentMatch:
    """A copy of the stored ``row`` as one-by-one creation saved it first: no match yet."""
    fields = {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}
    copy = TournamentMatch(**{**fields, "match_id": None, "status": status})
    copy.tournament = row.tournament
    return copy


def audit_bulk(
    user: User | None, *, created: Sequence[Model] = (), updated: Sequence[tuple[Model, Model]] = ()
) -> None:
    """The audit trail of rows written in bulk, which auditlog's receivers do not see: for each
    of ``created`` the entry of its creation, then for each (before, after) of ``updated`` the
    entry of that change, with the changes, actor and data the receivers record when such a row
    is saved under ``set_actor(user)``, in one INSERT (docs/decisions.md D58). The changes are
    auditlog's own (``model_instance_diff``), computed once a model rather than once a row where
    that gives the same (docs/decisions.md D136)."""
    LogEntry.objects.bulk_create(_audit_entries(user, created=created, updated=updated))


def _audit_entries(
    user: User | None,
    *,
    created: Sequence[Model] = (),
    updated: Sequence[tuple[Model, Model]] = (),
    fields: Collection[str] | None = None,
) -> list[LogEntry]:
    """``audit_bulk``'s entries, not yet stored; ``fields``: the changes of ``updated`` only
    among these fields (a save with ``update_fields``)."""
    actor = user if getattr(user, "is_authenticated", False) else None
    cid = get_cid()
    content_types: dict[type[Model], ContentType] = {}

    def entry(row: Model, action: int, changes: dict[str, Any] | None) -> LogEntry:
        model = type(row)
        if model not in content_types:
            content_types[model] = ContentType.objects.get_for_model(row)
        additional = getattr(row, "get_additional_data", None)
        return LogEntry(
            content_type=content_types[model],
            object_pk=str(row.pk),
            object_id=row.pk,
            object_repr=str(row),
            action=action,
            changes=changes,
            actor=actor,
            actor_email=getattr(actor, "email", None),
            additional_data=additional() if additional else None,
            cid=cid,
        )

    entries = [
        entry(row, LogEntry.Action.CREATE, changes)
        for row, changes in zip(created, _creation_diffs(created), strict=True)
    ]
    for old, new in updated:
        if changes := _change_diff(old, new, fields):
            entries.append(entry(new, LogEntry.Action.UPDATE, changes))
    return entries


class RowSaves:
    """Saves of tournament match rows read in the current transaction, under the tournament's
    lock, each recorded in the audit log as auditlog's receivers record a save, without their
    read of the stored row before it: the row as read (``read``, or as last saved here) is the
    stored row. The entries are written in one INSERT by ``write`` (called before anything else
    writes to the audit log, so that the entries keep the order of the saves); each save sends
    ``post_save`` as before (the page's listeners are told of it: tournaments/push.py).
    (docs/decisions.md D141)"""

    def __init__(self) -> None:
        self._stored: dict[int, TournamentMatch] = {}
        self._entries: list[LogEntry] = []

    def read(self, row: TournamentMatch) -> None:
        """``row`` is as stored (just read, unchanged): the state its next save is compared to."""
        self._stored[row.pk] = _row_copy(row)

    def save(self, row: TournamentMatch, *, update_fields: Collection[str] | None = None) -> None:
        """``row.save(update_fields=...)`` and its audit entry (kept for ``write``). Only the
        fields that differ from the stored row are written (all of them when none does: the
        save is still sent, as before)."""
        before = self._stored[row.pk]
        differing = _differing(before, row)
        if update_fields is not None:
            differing = [name for name in differing if name in update_fields]
        with disable_auditlog():
            row.save(update_fields=differing or update_fields)
        entries = _audit_entries(None, updated=[(before, row)], fields=update_fields)
        for entry in entries:
            # What saving the entry would send now: auditlog's ``set_actor``, when one is
            # active, gives it its actor here, as it does to the entries its receivers write.
            pre_save.send(
                sender=LogEntry,
                instance=entry,
                raw=False,
                using=router.db_for_write(LogEntry),
                update_fields=None,
            )
        self._entries += entries
        self._stored[row.pk] = _row_copy(row)

    def write(self) -> None:
        """Store the audit entries of the saves so far, in one INSERT."""
        if self._entries:
            LogEntry.objects.bulk_create(self._entries)
            self._entries = []


def _row_copy(row: TournamentMatch) -> TournamentMatch:
    """A copy of ``row``'s stored values (what a change's diff compares)."""
    return TournamentMatch(
        **{field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}
    )


def _creation_diffs(rows: Sequence[Model]) -> list[dict[str, Any] | None]:
    """``model_instance_diff(None, row)`` for each of ``rows``: the fields it compares, their
    value before creation (the same for every row) and the masking it applies are looked up
    once a model; each row's values with auditlog's own ``get_field_value``."""
    use_json = bool(getattr(settings, "AUDITLOG_STORE_JSON_CHANGES", False))
    plans: dict[type[Model], tuple[list[Any], list[Any], dict[str, Any] | None]] = {}
    diffs: list[dict[str, Any] | None] = []
    for row in rows:
        model = type(row)
        if model not in plans:
            plans[model] = _creation_plan(row, use_json)
        fields, befores, model_fields = plans[model]
        diff: dict[str, Any] = {}
        for field, before in zip(fields, befores, strict=True):
            after = get_field_value(row, field, use_json)
            if before != after:
                diff[field.name] = _change(field.name, before, after, model_fields, use_json)
        diffs.append(diff or None)
    return diffs


def _creation_plan(
    row: Model, use_json: bool
) -> tuple[list[Any], list[Any], dict[str, Any] | None]:
    """The fields ``model_instance_diff(None, row)`` compares (auditlog's choice: the tracked
    fields, filtered by the model's ``include_fields`` and ``exclude_fields``), each field's
    value before creation, and the model's auditlog settings."""
    fields = list(set(get_fields_in_model(row)))
    model_fields = auditlog.get_model_fields(type(row))
    if model_fields and model_fields["include_fields"]:
        fields = [field for field in fields if field.name in model_fields["include_fields"]]
    if model_fields and model_fields["exclude_fields"]:
        fields = [field for field in fields if field.name not in model_fields["exclude_fields"]]
    return fields, [get_field_value(None, field, use_json) for field in fields], model_fields


def _change(
    name: str, before: Any, after: Any, model_fields: dict[str, Any] | None, use_json: bool
) -> tuple[Any, Any]:
    """A changed field's entry in the changes, as ``model_instance_diff`` writes it."""
    if model_fields and name in model_fields["mask_fields"]:
        mask = get_mask_function(model_fields.get("mask_callable"))
        return mask(smart_str(before)), mask(smart_str(after))
    if not use_json:
        return smart_str(before), smart_str(after)
    return (
        before if is_primitive(before) else smart_str(before),
        after if is_primitive(after) else smart_str(after),
    )


def _differing(old: Model, new: Model) -> list[str]:
    """The names of the fields whose stored values differ between ``old`` and ``new``."""
    return [
        field.name
        for field in new._meta.concrete_fields
        if getattr(old, field.attname) != getattr(new, field.attname)
    ]


def _change_diff(
    old: Model, new: Model, fields: Collection[str] | None = None
) -> dict[str, Any] | None:
    """``model_instance_diff(old, new, fields_to_check=fields)``, computed over the fields whose
    stored values differ (equal stored values give equal values in the diff, so the others never
    appear in it)."""
    differing = _differing(old, new)
    if fields is not None:
        differing = [name for name in differing if name in fields]
    if not differing:
        return None
    changes: dict[str, Any] | None = model_instance_diff(old, new, fields_to_check=differing)
    return changes


def has_started(match: Match | None) -> bool:
    """Whether anything was played or reported in ``match`` (it can then no longer be replaced)."""
    if match is None:
        return False
    return (
        match.status in (Match.Status.FINISHED, Match.Status.FORFEITED)
        or match.games.exists()
        or match.reports.exists()
    )
