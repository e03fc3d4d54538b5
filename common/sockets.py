"""WebSockets that follow one match or tournament (config/asgi.py routes them): a socket is let in
only where its user may see the page, is told the current version at once, then every pushed
change (common/push.py). An API client logs in with its token, as on the API.

A socket is refused (the handshake answers 403) when there is no channel layer, when the object
does not exist or its user may not see it (a private match of others, a draft tournament), and
when it names a token that the API would refuse (docs/decisions.md D50); so is a socket to a path
that names no route, and one past the limits (D60): SOCKETS_PER_ADDRESS open sockets per client
address (``SocketGuard``, before the session or token is even read) and SOCKETS_PER_USER per
logged-in user. Each ASGI process counts its own sockets, so with N processes behind one proxy a
client may hold up to N times the limit; the proxy's per-address limit (README, "Production")
bounds the whole.

Clients only listen: what they send is not read, only taken as a sign of life. A socket whose
client sent nothing for SOCKET_IDLE_SECONDS is closed with IDLE_CLOSE_CODE (the pages' live.js
sends a heartbeat every minute; a page that stopped, e.g. frozen in a background tab, reconnects
when it wakes). A handshake that meets a database or channel-layer outage is accepted and closed
at once with 1013 "try again later" instead of failing with a 500 (the pages retry, backing off).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework.exceptions import AuthenticationFailed

from common.addresses import client_address
from common.api.authentication import CachedTokenAuthentication
from common.push import HANDLER, group_name

logger = logging.getLogger(__name__)

IDLE_CLOSE_CODE = 4408  # the application's range (4000-4999); 408 as HTTP's Request Timeout
RETRY_CLOSE_CODE = 1013  # RFC 6455 registry: "Try Again Later"
clock = time.monotonic

try:  # the errors of a Redis channel layer that cannot reach Redis
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - channels-redis is a dependency
    RedisError = OSError  # type: ignore[assignment,misc]

# A handshake failing with one of these may succeed when retried: the database or the channel
# layer was unreachable, or timed out.
RETRYABLE: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    RedisError,
    OSError,
    TimeoutError,
)


# Pure logic


class OpenCounts:
    """How many sockets each key (an address, a user) holds open in this process. ``take``
    and ``give_back`` run on the event loop without awaiting between check and count, so no
    two handshakes can both take the last place. ``refusing`` holds the keys refused since they
    last gave a socket back, so that a flood is logged once, not once a handshake."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.refusing: set[str] = set()

    def take(self, key: str, limit: int) -> bool:
        """Count one more socket for ``key`` unless it holds ``limit`` already (0: no limit)."""
        held = self.counts.get(key, 0)
        if limit > 0 and held >= limit:
            return False
        self.counts[key] = held + 1
        return True

    def first_refusal(self, key: str) -> bool:
        """Whether this refusal of ``key`` is the first since it last gave a socket back."""
        if key in self.refusing:
            return False
        self.refusing.add(key)
        return True

    def give_back(self, key: str) -> None:
        self.refusing.discard(key)
        held = self.counts.get(key, 0) - 1
        if held > 0:
            self.counts[key] = held
        else:
            self.counts.pop(key, None)


def scope_address(scope: dict[str, Any], trusted_proxies: int) -> str:
    """The client address of a socket's scope, by login_limits.client_address's rule."""
    client = scope.get("client") or ("", 0)
    forwarded = ",".join(
        value.decode("latin-1")
        for name, value in scope.get("headers", [])
        if name == b"x-forwarded-for"
    )
    return client_address(str(client[0] or ""), forwarded, trusted_proxies)


def idle_seconds_left(last_heard: float, now: float, idle_limit: float) -> float:
    """Seconds until a socket last heard from at ``last_heard`` has been idle ``idle_limit``."""
    return max(0.0, last_heard + idle_limit - now)


by_address = OpenCounts()
by_user = OpenCounts()


# Channels around it


Send = Callable[[dict[str, Any]], Awaitable[None]]


class SocketGuard:
    """The outermost layer of every socket (config/asgi.py): refuses a handshake past
    SOCKETS_PER_ADDRESS for its client address, and turns an outage met before the handshake
    was answered (the session's or token's user not read, the channel layer unreachable) into
    an accepted socket closed at once with RETRY_CLOSE_CODE, not a 500."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Send) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        address = scope_address(scope, settings.TRUST_X_FORWARDED_FOR)
        if not by_address.take(address, settings.SOCKETS_PER_ADDRESS):
            if by_address.first_refusal(address):
                logger.warning(
                    "sockets refused: %s holds %s open", address, by_address.counts[address]
                )
            await send({"type": "websocket.close"})
            return None
        answered = False

        async def watched(message: dict[str, Any]) -> None:
            nonlocal answered
            answered = answered or message["type"] in ("websocket.accept", "websocket.close")
            await send(message)

        try:
            return await self.inner(scope, receive, watched)
        except RETRYABLE as error:
            if answered:
                raise
            logger.warning("socket on %s closed to retry: %r", scope.get("path"), error)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": RETRY_CLOSE_CODE})
            return None
        finally:
            by_address.give_back(address)


class NoRouteConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels: untyped
    """A socket to a path no route names: refused (403), as an unknown page is a 404."""

    async def connect(self) -> None:
        await self.close()


class LiveConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels: untyped
    """Subclasses name the ``topic`` of the group and read the ``current`` version."""

    topic = ""
    group: str | None = None
    user_key: str | None = None  # the key this socket is counted under in by_user
    last_heard = 0.0
    watchdog: asyncio.Task[None] | None = None

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        """The state endpoint's summary for ``user`` (Http404 when they may not see it)."""
        raise NotImplementedError

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        try:
            return await super().__call__(scope, receive, send)
        finally:  # however the socket ends, even by an error in connect
            if self.watchdog is not None:
                self.watchdog.cancel()
            if self.user_key is not None:
                by_user.give_back(self.user_key)
                self.user_key = None

    async def connect(self) -> None:
        if self.channel_layer is None or self.scope.get("token_refused"):
            await self.close()
            return
        user = self.scope["user"]
        if user.is_authenticated:
            key = f"user:{user.pk}"
            if not by_user.take(key, settings.SOCKETS_PER_USER):
                if by_user.first_refusal(key):
                    logger.warning(
                        "socket refused: user %s holds %s open", user.pk, by_user.counts[key]
                    )
                await self.close()
                return
            self.user_key = key
        pk = self.scope["url_route"]["kwargs"]["pk"]
        group = group_name(self.topic, pk)
        # Joined before the version is read, so no change can fall between the two.
        await self.channel_layer.group_add(group, self.channel_name)
        try:
            hello = await database_sync_to_async(self.current)(user, pk)
        except Http404:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close()
            return
        except BaseException:
            await self._leave_quietly(group)
            raise
        self.group = group
        await self.accept()
        self.last_heard = clock()
        if settings.SOCKET_IDLE_SECONDS > 0:
            self.watchdog = asyncio.ensure_future(self._close_when_idle())
        await self.send(text_data=json.dumps({"type": "hello", **hello}, separators=(",", ":")))

    async def _leave_quietly(self, group: str) -> None:
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:  # the layer may be what failed; the error raised after this tells
            logger.debug("group_discard failed", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Whatever the client sends (the pages' heartbeat) only shows it is still there."""
        self.last_heard = clock()

    async def _close_when_idle(self) -> None:
        limit = settings.SOCKET_IDLE_SECONDS
        while True:
            left = idle_seconds_left(self.last_heard, clock(), limit)
            if left <= 0:
                await self.close(code=IDLE_CLOSE_CODE)
                return
            await asyncio.sleep(left)

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


class TokenAuthMiddleware(BaseMiddleware):  # type: ignore[misc]  # channels: untyped
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
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
    for name, value in headers:
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
