"""Where a tournament's match is played (games.places, registered in TournamentsConfig.ready):
the tournament, the round as the round sheets number it (a bracket's play level, with its
rounds' names) and the table (tournaments.draw.tables, as the desk and the slips number it)."""

from __future__ import annotations

from django.urls import reverse

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
