"""The channel layer of the pushed updates (common/push.py), picked by ``CHANNEL_LAYER_URL``.

``redis://host:6379/3`` (also ``rediss://`` and ``unix://``) uses channels-redis's pub/sub layer:
a broadcast is one PUBLISH, and each ASGI process that holds sockets of that match or tournament
gets it once and hands it to them (docs/decisions.md D49). Unset, a layer in memory, which
reaches only the sockets of the process that wrote: enough where one process serves the pages
and the sockets (``make run``), useless where gunicorn writes and uvicorn holds the sockets.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

REDIS_SCHEMES = {"redis", "rediss", "unix"}
IN_MEMORY = {"BACKEND": "channels.layers.InMemoryChannelLayer"}
# A dead Redis costs a broadcast half a second at most to find out (common/push.py then skips
# it for a while), never a hang.
CONNECT_TIMEOUT_SECONDS = 0.5


def channel_layer_from_url(url: str) -> dict[str, Any]:
    """Channels' CHANNEL_LAYERS["default"] for CHANNEL_LAYER_URL (empty: in memory)."""
    url = url.strip()
    if not url:
        return dict(IN_MEMORY)
    if urlsplit(url).scheme.lower() not in REDIS_SCHEMES:
        raise ImproperlyConfigured(
            f"CHANNEL_LAYER_URL {url!r}: expected redis://, rediss:// or unix://"
        )
    host = {"address": url, "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS}
    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [host], "prefix": "tabla"},
    }
