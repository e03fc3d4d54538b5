"""WebSockets that follow one match or tournament (config/asgi.py routes them): a socket is let in
only where its user may see the page, is told the current version at once, then every pushed
change (common/push.py). An API client logs in with its token, as on the API.

A socket is refused (the handshake answers 403) when there is no channel layer, when the object
does not exist or its user may not see it (a private match of others, a draft tournament), and
when it names a token that the API would refuse (docs/decisions.md D50). Clients only listen:
what they send is ignored.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.middleware import BaseMiddleware
from django.http import Http404
from rest_framework.exceptions import AuthenticationFailed

from common.api.authentication import CachedTokenAuthentication
from common.push import HANDLER, group_name


class LiveConsumer(AsyncWebsocketConsumer):
    """Subclasses name the ``topic`` of the group and read the ``current`` version."""

    topic = ""
    group: str | None = None

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        """The state endpoint's summary for ``user`` (Http404 when they may not see it)."""
        raise NotImplementedError

    async def connect(self) -> None:
        if self.channel_layer is None or self.scope.get("token_refused"):
            await self.close()
            return
        pk = self.scope["url_route"]["kwargs"]["pk"]
        group = group_name(self.topic, pk)
        # Joined before the version is read, so no change can fall between the two.
        await self.channel_layer.group_add(group, self.channel_name)
        try:
            hello = await database_sync_to_async(self.current)(self.scope["user"], pk)
        except Http404:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close()
            return
        self.group = group
        await self.accept()
        await self.send(text_data=json.dumps({"type": "hello", **hello}, separators=(",", ":")))

    async def dispatch(self, message: dict[str, Any]) -> None:
        # A pushed message is forwarded as it came, without the database-connection upkeep
        # Channels does before every handler: the forward reads nothing.
        if message["type"] == HANDLER:
            if self.group is not None:
                await self.send(text_data=message["text"])
            return
        await super().dispatch(message)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)


class TokenAuthMiddleware(BaseMiddleware):
    """``Authorization: Token <key>`` in the handshake logs the socket in as the token's user
    (inside Channels' AuthMiddlewareStack: a session, when there is one, comes first). A token
    the API would refuse (unknown, or its user inactive) refuses the socket."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = _token_key(scope)
        if key is not None and not scope["user"].is_authenticated:
            user = await database_sync_to_async(_token_user)(key)
            refused = {"token_refused": True}
            scope = {**scope, **({"user": user} if user is not None else refused)}
        return await super().__call__(scope, receive, send)


def _token_key(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            keyword, _space, key = value.decode("latin-1").partition(" ")
            if keyword == "Token" and key.strip():
                return key.strip()
    return None


def _token_user(key: str) -> Any:
    try:
        user, _token = CachedTokenAuthentication().authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    return user
