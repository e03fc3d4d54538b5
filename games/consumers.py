"""The WebSocket of a match page (``/ws/matches/{id}/``): its user must see the match as on the
page (private matches only for their players, organiser and staff); it hears every pushed change
of the match (games/push.py)."""

from __future__ import annotations

from typing import Any

from common.sockets import LiveConsumer
from games import web_selectors


class MatchConsumer(LiveConsumer):
    topic = "match"

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        return web_selectors.match_live_version(user=user, pk=pk).to_json()
