"""Where a tournament's match is played (games.places, registered in TournamentsConfig.ready):
the tournament, the round as the round sheets number it (a bracket's play level, with its
rounds' names) and the table (tournaments.draw.tables, as the desk and the slips number it)."""

from __future__ import annotations

from django.urls import reverse

from games.chances import Policy
from games.models import Match
from games.places import Place
from tournaments import selectors
from tournaments.models import TournamentMatch


def match_place(match: Match) -> Place | None:
    row = TournamentMatch.objects.select_related("tournament").filter(match=match).first()
    return None if row is None else row_place(row)


def row_place(row: TournamentMatch) -> Place:
    tournament = row.tournament
    url = reverse("tournaments_web:tournament", kwargs={"pk": tournament.pk})
    for sheet in selectors.round_sheets(tournament, row.stage):
        for table in sheet["tables"]:
            if table["id"] == row.pk:
                names = ", ".join(str(name) for name in sheet["round_names"])
                return Place(tournament.name, url, sheet["number"], names, table["table"])
    return Place(tournament.name, url, row.round, "", None)


def match_chances_policy(match: Match) -> Policy | None:
    """What spectators see of a tournament match's chances while it is on: its organisers'
    setting (Tournament.spectator_chances; games.chances, registered in
    TournamentsConfig.ready)."""
    row = (
        TournamentMatch.objects.filter(match=match)
        .values_list("tournament__spectator_chances", "tournament__name")
        .first()
    )
    return None if row is None else Policy(row[0], row[1])
