"""What the WebSocket listeners of a match are told, and when (common/push.py sends it once the
write commits; games/consumers.py forwards it): every turn, every clock charge and result, and any
other change of what the match page shows.

- The play services (roll, play, cube actions, resignation: games/services/play.py) call
  ``match_changed(kind="turn")`` once per write, where they lock the game: their writes go
  through plain SQL (games/sql.py), which sends no model signals.
- Every other write saves a row of the match, of one of its games or of a result report (a
  match started, accepted or forfeited, a game started or finished, a report entered or
  answered): the receivers here push for it, so a new write path is covered without a call.
  Matches created in bulk (``matches_create_many``: a tournament's draw) send no signal and push
  nothing: nobody can follow a match before it exists (docs/decisions.md D58).

A message is the state endpoint's summary (``LiveVersion.to_json``: status, score, game, ply,
dice and ``version``, the ETag without quotes) with ``type`` and ``at``, e.g. ``{"type": "turn",
"match": 12, "game": 30, "ply": 8, ..., "version": "3f2a…", "at": 1767225600.123}``. A page
fetches its fragment once when the version is new to it, as polling does after a 200.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from common.push import group_name, push_on_commit
from games import web_selectors
from games.models import Game, Match, ResultReport

OVER = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.DECLINED)


def match_group(match_id: int) -> str:
    return group_name("match", match_id)


def match_changed(*, match_id: int, kind: str = "change") -> None:
    """Tell the match's listeners, once the current transaction commits, that it changed."""
    push_on_commit(match_group(match_id), kind, partial(_payload, match_id))


def _payload(match_id: int) -> dict[str, Any] | None:
    version = web_selectors.match_version(pk=match_id)
    return None if version is None else version.to_json()


@receiver(post_save, sender=Match, dispatch_uid="games.push.match")
def on_match_saved(sender: type[Match], instance: Match, **kwargs: Any) -> None:
    match_changed(match_id=instance.pk, kind="result" if instance.status in OVER else "change")


@receiver(post_save, sender=Game, dispatch_uid="games.push.game")
def on_game_saved(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    match_changed(match_id=instance.match_id, kind="result" if instance.is_over else "change")


@receiver(post_save, sender=ResultReport, dispatch_uid="games.push.report")
def on_report_saved(sender: type[ResultReport], instance: ResultReport, **kwargs: Any) -> None:
    match_changed(match_id=instance.match_id, kind="report")
