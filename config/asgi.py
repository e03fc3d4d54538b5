"""ASGI entry point; defaults to production settings. HTTP goes to Django; WebSockets
(``/ws/matches/{id}/``, ``/ws/tournaments/{id}/``) to the consumers, for a browser whose Origin
is one of ALLOWED_HOSTS, logged in by its session cookie (or an API client by its token)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

# Django is set up before the routes import the consumers and their models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from common.sockets import TokenAuthMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns as match_sockets  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(match_sockets + tournament_sockets)))
        ),
    }
)
