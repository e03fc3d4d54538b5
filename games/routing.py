"""WebSocket routes of the match pages, joined by config/asgi.py."""

from django.conf import settings
from django.urls import URLPattern, path

from games.consumers import AwaitingConsumer, LobbyConsumer, MatchConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/matches/<int:pk>/", MatchConsumer.as_asgi()),
    path("ws/users/<int:pk>/", AwaitingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi(), {"pk": 0}),
]


def match_socket_path(pk: int) -> str:
    """The socket a match page opens; none ("") without a channel layer: the page only polls."""
    return f"/ws/matches/{pk}/" if settings.CHANNEL_LAYERS else ""


def user_socket_path(user_id: int) -> str:
    """The socket of a signed-in user's pages (the header's badge); "" without a channel
    layer: the page only polls."""
    return f"/ws/users/{user_id}/" if settings.CHANNEL_LAYERS else ""


def lobby_socket_path() -> str:
    """The lobby page's socket; "" without a channel layer: the page only polls."""
    return "/ws/lobby/" if settings.CHANNEL_LAYERS else ""
