"""Web page of a tournament: its bracket (elimination formats), rounds and standings. Reads only."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tournaments import selectors
from tournaments.models import Tournament

STANDING_COLUMNS = [
    "played", "match_wins", "match_losses", "match_points", "games_won", "points_for",
    "points_against", "point_diff", "buchholz", "median_buchholz", "sonneborn_berger",
    "head_to_head", "byes", "forfeits",
]  # fmt: skip


@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(
        selectors.tournament_list().exclude(status=Tournament.Status.DRAFT), pk=pk
    )
    stages = ["main", "knockout"] if tournament.is_elimination else ["knockout"]
    brackets = [selectors.bracket(tournament, stage) for stage in stages]
    standings = [
        {
            "rank": row.rank,
            "section": row.section,
            "entry": row.entry_id,
            "player": row.entry.player,
            "values": [getattr(row, column) for column in STANDING_COLUMNS],
        }
        for row in selectors.standing_list(tournament)
    ]
    context = {
        "tournament": tournament,
        "brackets": [b for b in brackets if b["sections"]],
        "rounds": [] if tournament.is_elimination else selectors.round_list(tournament),
        "standings": standings,
        "columns": STANDING_COLUMNS,
    }
    return render(request, "tournaments/tournament.html", context)
