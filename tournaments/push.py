"""What the WebSocket listeners of a tournament are told, and when (common/push.py sends it once
the write commits; tournaments/consumers.py forwards it): every result, pairing and standings
change, and any other change of what the tournament page shows.

- Results and pairings save tournament match rows, and the tournament's own changes (its start,
  a new round, its end) save its row: the receivers here push for them. So does a games match
  of the tournament that is saved (it started: the page shows it live).
- A result report of one of its matches (reported, confirmed, disputed, overridden) changes
  only what the organiser's desk shows, which follows the same socket: its receiver pushes too
  (kind "report"; the message's version is the page's, the desk fetches its own).
- Standings are stored in bulk, which sends no signals: ``standings_recompute`` calls
  ``tournament_changed(kind="standings")``. So are the matches of a round robin or a Swiss
  round: ``matches_open_many`` (services/common.py) calls ``tournament_changed(kind="pairing")``,
  once for the whole draw (docs/decisions.md D58).

A message is the state endpoint's summary (``TournamentLiveVersion.to_json``: status, current
round, matches, decided and ``version``, the ETag without quotes) with ``type`` and ``at``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import Http404

from common.numbers import ascii_int
from common.push import group_name, push_on_commit
from games.models import Match, ResultReport
from tournaments import web
from tournaments.models import Tournament, TournamentMatch

SLOT_PREFIX = "tournament-"  # Match.tournament_slot of a tournament's match (services/common.py)


def tournament_group(tournament_id: int) -> str:
    return group_name("tournament", tournament_id)


def tournament_changed(*, tournament_id: int, kind: str = "change") -> None:
    """Tell the tournament's listeners, once the current transaction commits, that it changed."""
    push_on_commit(tournament_group(tournament_id), kind, partial(_payload, tournament_id))


def _payload(tournament_id: int) -> dict[str, Any] | None:
    try:
        return web.pages.tournament_live_version(pk=tournament_id).to_json()
    except Http404:  # a draft: nobody may follow it
        return None


@receiver(post_save, sender=Tournament, dispatch_uid="tournaments.push.tournament")
def on_tournament_saved(sender: type[Tournament], instance: Tournament, **kwargs: Any) -> None:
    tournament_changed(tournament_id=instance.pk)


@receiver(post_save, sender=TournamentMatch, dispatch_uid="tournaments.push.match")
def on_tournament_match_saved(
    sender: type[TournamentMatch], instance: TournamentMatch, **kwargs: Any
) -> None:
    kind = "result" if instance.status in web.pages.SETTLED else "pairing"
    tournament_changed(tournament_id=instance.tournament_id, kind=kind)


@receiver(post_save, sender=Match, dispatch_uid="tournaments.push.games_match")
def on_games_match_saved(sender: type[Match], instance: Match, **kwargs: Any) -> None:
    tournament_id = _slot_tournament(instance.tournament_slot)
    if tournament_id is not None:
        tournament_changed(tournament_id=tournament_id)


@receiver(post_save, sender=ResultReport, dispatch_uid="tournaments.push.report")
def on_report_saved(sender: type[ResultReport], instance: ResultReport, **kwargs: Any) -> None:
    slot = Match.objects.filter(pk=instance.match_id).values_list("tournament_slot", flat=True)
    tournament_id = _slot_tournament(next(iter(slot), ""))
    if tournament_id is not None:
        tournament_changed(tournament_id=tournament_id, kind="report")


def _slot_tournament(slot: str) -> int | None:
    return ascii_int(slot.removeprefix(SLOT_PREFIX)) if slot.startswith(SLOT_PREFIX) else None
