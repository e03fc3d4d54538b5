"""Reads for the tournament web pages: the public tournaments, the page's bracket and standings,
and the live version of a tournament that spectators poll. Built on tournaments.selectors."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.brackets import Section
from tournaments.models import Stage, Standing, Tournament, TournamentMatch

STANDING_COLUMNS = [
    "played", "match_wins", "match_losses", "match_points", "games_won", "points_for",
    "points_against", "point_diff", "buchholz", "median_buchholz", "sonneborn_berger",
    "head_to_head", "byes", "forfeits",
]  # fmt: skip


def tournament_public() -> QuerySet[Tournament]:
    """Tournaments anyone may look at: all but drafts."""
    return selectors.tournament_list().exclude(status=Tournament.Status.DRAFT)


def tournament_visible(*, pk: int) -> Tournament:
    return get_object_or_404(tournament_public(), pk=pk)


def tournament_brackets(tournament: Tournament) -> list[dict[str, Any]]:
    """The drawn bracket stages: the main one (elimination formats) and any knock-out stage."""
    stages = [Stage.MAIN, Stage.KNOCKOUT] if tournament.is_elimination else [Stage.KNOCKOUT]
    brackets = [selectors.bracket(tournament, stage) for stage in stages]
    return [bracket for bracket in brackets if bracket["sections"]]


def tournament_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    return [] if tournament.is_elimination else selectors.round_list(tournament)


def section_label(tournament: Tournament, section: str) -> str:
    """The heading of a standings table: "Group 2", "Knock-out", "Main draw", "Consolation
    flight"; the only table of a league or Swiss has the heading "Standings" alone."""
    if section.startswith("group-"):
        return _("Group %(number)s") % {"number": section.removeprefix("group-")}
    names: dict[str, str] = {
        Stage.KNOCKOUT: _("Knock-out"),
        Section.CONSOLATION: _("Consolation flight"),
        Section.MAIN: _("Main draw") if tournament.is_elimination else _("Standings"),
    }
    return str(names.get(section, section))


def tournament_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The stored standings rows with their values in STANDING_COLUMNS order, table after
    table (``section_label`` names each table)."""
    return [
        {
            "rank": row.rank,
            "section": row.section,
            "section_label": section_label(tournament, row.section),
            "entry": row.entry_id,
            "player": row.entry.player,
            "values": [getattr(row, column) for column in STANDING_COLUMNS],
        }
        for row in selectors.standing_list(tournament)
    ]


@dataclass(frozen=True)
class TournamentLiveVersion:
    """What the live part of a tournament page depends on, in a few aggregates; its ``etag``
    changes whenever a match is drawn, filled, decided or corrected, or the standings are
    stored again."""

    tournament: int
    status: str
    current_round: int
    updated_at: datetime
    matches: tuple[tuple[str, Any], ...]
    standings: tuple[tuple[str, Any], ...]

    @property
    def etag(self) -> str:
        digest = hashlib.sha256(repr(self).encode()).hexdigest()[:20]
        return f'"{digest}"'

    def to_json(self) -> dict[str, Any]:
        matches = dict(self.matches)
        return {
            "tournament": self.tournament,
            "status": self.status,
            "current_round": self.current_round,
            "matches": matches["total"],
            "decided": matches["decided"],
            "version": self.etag.strip('"'),
        }


SETTLED = (
    TournamentMatch.Status.DONE,
    TournamentMatch.Status.BYE,
    TournamentMatch.Status.VOID,
    TournamentMatch.Status.MISSED,
)


def tournament_live_version(*, pk: int) -> TournamentLiveVersion:
    """Three narrow queries: the tournament row, an aggregate of its matches and one of its
    stored standings."""
    row = (
        tournament_public()
        .filter(pk=pk)
        .values("pk", "status", "current_round", "updated_at")
        .first()
    )
    if row is None:
        raise Http404("no such tournament")
    matches = TournamentMatch.objects.filter(tournament_id=pk).aggregate(
        total=Count("id"),
        decided=Count("id", filter=Q(status__in=SETTLED)),
        ready=Count("id", filter=Q(status=TournamentMatch.Status.READY)),
        filled=Count("entry_one") + Count("entry_two"),
        winners=Sum("winner_id"),
        score_one=Sum("score_one"),
        score_two=Sum("score_two"),
        finished_at=Max("finished_at"),
    )
    standings = Standing.objects.filter(tournament_id=pk).aggregate(
        rows=Count("id"), computed_at=Max("computed_at")
    )
    return TournamentLiveVersion(
        tournament=row["pk"],
        status=row["status"],
        current_round=row["current_round"],
        updated_at=row["updated_at"],
        matches=tuple(matches.items()),
        standings=tuple(standings.items()),
    )


def tournament_groups(*, limit: int | None = None) -> list[dict[str, Any]]:
    """Running, open-for-registration and finished tournaments (drafts stay private), at most
    ``limit`` of each."""
    tournaments = tournament_public()
    groups = [
        ("running", tournaments.filter(status=Tournament.Status.RUNNING)),
        ("upcoming", tournaments.filter(status=Tournament.Status.REGISTRATION)),
        ("finished", tournaments.filter(status=Tournament.Status.FINISHED)),
    ]
    listed = [(key, list(rows[:limit])) for key, rows in groups]
    return [{"key": key, "items": items} for key, items in listed if items]
