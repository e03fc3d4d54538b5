"""WebSocket routes of the tournament pages, joined by config/asgi.py."""

from django.conf import settings
from django.urls import URLPattern, path

from tournaments.consumers import TournamentConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tournaments/<int:pk>/", TournamentConsumer.as_asgi()),
]


def tournament_socket_path(pk: int) -> str:
    """The socket a tournament page opens; none ("") without a channel layer: the page polls."""
    return f"/ws/tournaments/{pk}/" if settings.CHANNEL_LAYERS else ""
