"""The lobby's reads (docs/decisions.md D91-D93): the open challenges, the direct challenges a
player has sent and been sent, what waits for a player (the home page's "Your matches" and the
header's badge), and who is online now.

Who is online is a roster in the shared cache, not a table: each signed-in player's pages ask
``/lobby/ping.json`` when they load and every PING_SECONDS (static/js/awaiting.js), which
stamps the player in the roster (at most once every STAMP_SECONDS) and answers how many
matches wait for them. A player is online while stamped within ONLINE_SECONDS; the roster keeps
at most ROSTER_LIMIT players, the lobby shows ONLINE_SHOWN. Two stamps at the same instant may
lose one of them until its next ping: the roster is a hint, never a permission."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet

from games import clock, selectors
from games.models import Match, OpenChallenge
from games.selectors import Awaiting, User
from players.models import Player

LOBBY_PAGE = 20  # open challenges a page of the lobby
DIRECT_SHOWN = 50  # direct challenges sent and received shown on the lobby, each
PING_SECONDS = 20
STAMP_SECONDS = 30
ONLINE_SECONDS = 120
ROSTER_LIMIT = 200
ONLINE_SHOWN = 50
ROSTER_KEY = "lobby:online"


def challenge_rows() -> QuerySet[OpenChallenge]:
    return OpenChallenge.objects.select_related("created_by", "taken_by")


def open_challenges() -> QuerySet[OpenChallenge]:
    """The open challenges not yet past their time, newest first."""
    return challenge_rows().filter(status=OpenChallenge.Status.OPEN, expires_at__gt=clock.now())


def open_challenges_page(number: int | str | None) -> Page[OpenChallenge]:
    return Paginator(open_challenges(), LOBBY_PAGE).get_page(number)


@dataclass(frozen=True)
class Direct:
    """A player's direct challenges waiting for an answer: ``received`` to accept or decline,
    ``sent`` to withdraw (the first DIRECT_SHOWN of each, oldest first)."""

    received: list[Match]
    sent: list[Match]


def direct_challenges(player: Player | None) -> Direct:
    if player is None:
        return Direct([], [])
    invited = (
        Match.objects.select_related("player_one", "player_two")
        .filter(Q(player_one=player) | Q(player_two=player), status=Match.Status.INVITED)
        .order_by("created_at", "id")
    )
    sent = invited.filter(created_by_id=player.user_id)
    received = invited.exclude(created_by_id=player.user_id)
    return Direct(list(received[:DIRECT_SHOWN]), list(sent[:DIRECT_SHOWN]))


FOLLOWED_LIMIT = 50  # the match groups a user's badge socket follows


def followed_match_ids(user: User) -> list[int]:
    """The matches whose changes may change what waits for ``user``: their challenges and
    matches in progress, the newest FOLLOWED_LIMIT."""
    player = selectors.player_for(user)
    if player is None:
        return []
    return list(
        Match.objects.filter(
            Q(player_one=player) | Q(player_two=player),
            status__in=[Match.Status.INVITED, Match.Status.SCHEDULED, Match.Status.IN_PROGRESS],
        )
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)[:FOLLOWED_LIMIT]
    )


# The order "Your matches" lists what waits: your turn first, then a result to confirm, then a
# challenge to answer.
AWAITING_ORDER = {"turn": 0, "answer_double": 0, "confirm_result": 1, "accept_challenge": 2}


def awaiting_for(user: User) -> tuple[list[Awaiting], int]:
    """What waits for ``user`` (games.selectors.desk_for, behind /api/v1/me/), in the order the
    home page shows it, and how many in all."""
    desk = selectors.desk_for(user)
    items = sorted(desk.awaiting, key=lambda item: AWAITING_ORDER.get(item.reason, 3))
    return items, desk.awaiting_count


# --- the lobby's version: what its socket's messages name (games/push.py lobby_changed) -----

LOBBY_VERSION_KEY = "lobby:version"


def lobby_version() -> str:
    return str(cache.get(LOBBY_VERSION_KEY, 0))


def lobby_version_bump() -> str:
    try:
        return str(cache.incr(LOBBY_VERSION_KEY))
    except ValueError:  # not set yet, or evicted
        cache.set(LOBBY_VERSION_KEY, 1, None)
        return "1"


# --- who is online -------------------------------------------------------------------------


def presence_stamp(player: Player, now: float | None = None) -> bool:
    """Stamp ``player`` as online now (a write to the shared cache only when their stamp is
    older than STAMP_SECONDS): True when they were not online before (the lobby's list
    changes)."""
    now = time.time() if now is None else now
    roster: dict[str, Any] = cache.get(ROSTER_KEY) or {}
    key = str(player.pk)
    seen = roster.get(key)
    if seen is not None and now - seen[0] < STAMP_SECONDS:
        return False
    roster[key] = [now, player.display_name]
    fresh = {k: v for k, v in roster.items() if now - v[0] < ONLINE_SECONDS}
    newest = sorted(fresh.items(), key=lambda item: -item[1][0])[:ROSTER_LIMIT]
    cache.set(ROSTER_KEY, dict(newest), ONLINE_SECONDS)
    return seen is None or now - seen[0] >= ONLINE_SECONDS


@dataclass(frozen=True)
class Online:
    pk: int
    display_name: str


def players_online(now: float | None = None) -> tuple[list[Online], int]:
    """The players seen within ONLINE_SECONDS, the most recently seen first (ONLINE_SHOWN of
    them), and how many in all."""
    now = time.time() if now is None else now
    roster: dict[str, Any] = cache.get(ROSTER_KEY) or {}
    fresh = sorted(
        ((int(k), v) for k, v in roster.items() if now - v[0] < ONLINE_SECONDS),
        key=lambda item: -item[1][0],
    )
    return [Online(pk, seen[1]) for pk, seen in fresh[:ONLINE_SHOWN]], len(fresh)
