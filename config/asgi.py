"""ASGI entry point; defaults to production settings. HTTP goes to Django; WebSockets
(``/ws/matches/{id}/``, ``/ws/tournaments/{id}/``) to the consumers, for a browser whose Origin
is one of ALLOWED_HOSTS, logged in by its session cookie (or an API client by its token). Any
other socket path is refused (403). ``SocketGuard`` comes first: the per-address socket limit,
and an outage during the handshake closed with 1013 "try again later" (common/sockets.py). The
lifespan (config/lifespan.py) runs the clock sweep in the process where no beat runs (``make
run``), and nothing in production."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

# Django is set up before the routes import the consumers and their models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from common.sockets import NoRouteConsumer, SocketGuard, TokenAuthMiddleware  # noqa: E402
from config.lifespan import lifespan  # noqa: E402
from games.routing import websocket_urlpatterns as match_sockets  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

# Last, a route for any other path: refused, where URLRouter would raise (a 500).
socket_routes = [*match_sockets, *tournament_sockets, re_path(r"", NoRouteConsumer.as_asgi())]

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "lifespan": lifespan,
        "websocket": SocketGuard(
            AllowedHostsOriginValidator(
                AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(socket_routes)))
            )
        ),
    }
)
