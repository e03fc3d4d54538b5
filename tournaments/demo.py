"""Demo tournaments for `manage.py demo_setup`: an 8-player single elimination half played and
a small Swiss with its first round finished, all run through the services."""

from __future__ import annotations

from typing import Unpack

from django.contrib.auth.models import User

from games import services as games_services
from games.models import Match
from players.models import Player
from tournaments import services
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import TournamentSettings

ELIMINATION = "Demo Club Cup"
SWISS = "Demo Swiss Night"


def demo_tournaments(*, organiser: User, players: list[Player]) -> list[Tournament]:
    """Create the demo tournaments once; later calls return the existing ones."""
    existing = list(Tournament.objects.filter(name__in=[ELIMINATION, SWISS]))
    if existing:
        return existing
    club = players[0].club
    cup = _running(organiser, players[:8], name=ELIMINATION, club=club,
                   format="single_elimination", match_length=3, third_place=True)  # fmt: skip
    for row in cup.matches.filter(round=1, status="ready").order_by("index")[:3]:
        _win_row(organiser, row)
    swiss = _running(organiser, players[:6], name=SWISS, club=club, format="swiss",
                     match_length=3, swiss_rounds=3, rotate_cycle=True)  # fmt: skip
    for row in swiss.matches.filter(round=1, status="ready"):
        _win_row(organiser, row)
    return [cup, swiss]


def _running(
    organiser: User, players: list[Player], **fields: Unpack[TournamentSettings]
) -> Tournament:
    tournament = services.tournament_create(user=organiser, **fields)
    services.registration_open(tournament=tournament, user=organiser)
    for player in players:
        services.entry_register(tournament=tournament, user=organiser, player=player)
    return services.tournament_start(tournament=tournament, user=organiser)


def _win_row(organiser: User, row: TournamentMatch) -> None:
    """Win a ready tournament match (it has its Match and both entries) for its first entry."""
    assert row.match is not None and row.entry_one is not None
    _win(organiser, row.match, row.entry_one.player)


def _win(organiser: User, match: Match, winner: Player) -> None:
    """Report single games for ``winner`` (the organiser's reports count at once)."""
    match.refresh_from_db()
    while match.status == "in_progress":
        games_services.result_report(match=match, user=organiser, winner=winner, points=1)
        match.refresh_from_db()
