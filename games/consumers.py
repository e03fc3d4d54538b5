"""The WebSocket of a match page (``/ws/matches/{id}/``): its user must see the match as on the
page (private matches only for their players, organiser and staff); it hears every pushed change
of the match (games/push.py).

The socket of a signed-in user's pages (``/ws/users/{id}/``, only for that user: the header's
badge, static/js/awaiting.js): it hears the user's group (a new match or challenge of theirs,
games/push.py) and the groups of their open matches (games.lobby.followed_match_ids), joined when
it opens and as new matches are pushed; any message makes the page ask how many matches wait
(docs/decisions.md D92). A play pushes nothing more than it did: the badge rides on the match
groups' messages."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from django.http import Http404

from common.push import HANDLER
from common.sockets import LiveConsumer
from games import lobby, selectors, web_selectors
from games.push import match_group


class MatchConsumer(LiveConsumer):
    topic = "match"

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        return web_selectors.match_live_version(user=user, pk=pk).to_json()


class LobbyConsumer(LiveConsumer):
    """The lobby page's socket (``/ws/lobby/``, open to anyone, as the page): told when an open
    challenge is posted, taken or withdrawn, or a player comes online (games/push.py)."""

    topic = "lobby"

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        return {"version": lobby.lobby_version()}


class AwaitingConsumer(LiveConsumer):
    topic = "user"
    followed: list[str] | None = None

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        if not user.is_authenticated or user.pk != pk:
            raise Http404
        _items, count = lobby.awaiting_for(user)
        unread = selectors.notifications_unread_count(user)
        return {"version": f"awaiting-{count}-{unread}", "awaiting": count, "unread": unread}

    async def connect(self) -> None:
        await super().connect()
        if self.group is None:
            return
        self.followed = []
        ids = await database_sync_to_async(lobby.followed_match_ids)(self.scope["user"])
        for match_id in ids:
            await self._follow(match_id)

    async def _follow(self, match_id: int) -> None:
        group = match_group(match_id)
        if self.followed is None or group in self.followed:
            return
        if len(self.followed) >= lobby.FOLLOWED_LIMIT:
            await self.channel_layer.group_discard(self.followed.pop(0), self.channel_name)
        self.followed.append(group)
        await self.channel_layer.group_add(group, self.channel_name)

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message["type"] == HANDLER and self.group is not None:
            new_match = json.loads(message["text"]).get("new_match")
            if isinstance(new_match, int):
                await self._follow(new_match)
        await super().dispatch(message)

    async def disconnect(self, code: int) -> None:
        for group in self.followed or []:
            await self.channel_layer.group_discard(group, self.channel_name)
        await super().disconnect(code)
