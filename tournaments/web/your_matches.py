"""The home page's "Your matches" for a signed-in player (issue 21 §3; docs/decisions.md D92):
what waits for them (games.lobby.awaiting_for: your turn, a result to confirm, a challenge to
answer), then their next tournament match with its tournament, round and table. A signed-out
visitor, or a user without a player, gets nothing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.urls import reverse

from games import clock, lobby
from games.models import Match
from games.selectors import User, match_clock, player_for
from players.models import Player
from tournaments import selectors
from tournaments.models import TournamentMatch
from tournaments.web.places import row_place

SHOWN = 20  # the waiting matches listed; the badge counts them all


def your_matches(user: User) -> dict[str, Any]:
    player = player_for(user)
    if player is None:
        return {"your_matches": None}
    items, count = lobby.awaiting_for(user)
    now = clock.now()
    rows = [{"item": item, "clock": _clock_left(item.match, player, now)} for item in items[:SHOWN]]
    return {
        "your_matches": {
            "player": player,
            "awaiting": rows,
            "awaiting_count": count,
            "next_tournament_match": next_tournament_match(player),
        }
    }


def landing_url(user: User) -> str:
    """Where ``user`` lands after logging in without a ``next`` (docs/decisions.md D117): an
    organiser (tournaments.selectors.runs_tournaments) on the tournaments list, which starts
    with "Your tournaments", unless something waits for them as a player (their turn, a result
    to confirm, a challenge to answer): then, as everyone else, on the home page, which starts
    with "Your matches"."""
    home = reverse("web:home")
    if not selectors.runs_tournaments(user):
        return home
    if player_for(user) is not None and lobby.awaiting_for(user)[1]:
        return home
    return reverse("tournaments_web:index")


def next_tournament_match(player: Player) -> dict[str, Any] | None:
    """The player's oldest tournament match not yet over, with its tournament, round and
    table (tournaments.web.places), or None."""
    row = (
        TournamentMatch.objects.select_related("tournament", "match")
        .filter(
            Q(match__player_one=player) | Q(match__player_two=player),
            match__status__in=[Match.Status.SCHEDULED, Match.Status.IN_PROGRESS],
        )
        .order_by("match__created_at", "match_id")
        .first()
    )
    return None if row is None else {"match_id": row.match_id, "place": row_place(row)}


def _clock_left(match: Match, player: Player, now: datetime) -> str | None:
    """``player``'s time left on the match clock as m:ss, or None without a clock."""
    if not match.has_clock:
        return None
    state = match_clock(match, now)
    side = "player_one" if match.player_one_id == player.pk else "player_two"
    seconds = int(state["remaining"][side])
    return f"{seconds // 60}:{seconds % 60:02d}"
