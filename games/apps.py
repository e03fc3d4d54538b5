"""App configuration for games: the engine's errors answer 400 through the shared API handler;
the receivers of the pushed updates (games/push.py) are connected."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from rest_framework import status

        from common.api.exceptions import register_error_status
        from games import push  # noqa: F401  (connects the receivers)
        from games.engine import EngineError

        register_error_status(EngineError, status.HTTP_400_BAD_REQUEST)
