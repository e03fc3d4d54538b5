"""Shared steps of the tournament services: permission checks, locking, the audit log, and
opening the games Match of a tournament match."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from auditlog.context import set_actor
from auditlog.models import LogEntry
from django.db import transaction

from common.errors import ConflictError, NotAllowedError
from games import services as games_services
from games.engine import Options
from games.models import Match
from games.selectors import User
from tournaments import selectors
from tournaments.models import Tournament, TournamentMatch

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


def has_started(match: Match | None) -> bool:
    """Whether anything was played or reported in ``match`` (it can then no longer be replaced)."""
    if match is None:
        return False
    return (
        match.status in (Match.Status.FINISHED, Match.Status.FORFEITED)
        or match.games.exists()
        or match.reports.exists()
    )
