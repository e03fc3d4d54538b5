"""The WebSocket of a tournament page (``/ws/tournaments/{id}/``): any tournament but a draft,
as the page; it hears every pushed change of the tournament (tournaments/push.py)."""

from __future__ import annotations

from typing import Any

from common.sockets import LiveConsumer
from tournaments import web


class TournamentConsumer(LiveConsumer):
    topic = "tournament"

    def current(self, user: Any, pk: int) -> dict[str, Any]:
        return web.pages.tournament_live_version(pk=pk).to_json()
