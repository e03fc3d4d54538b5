"""App configuration for games: the engine's errors answer 400 through the shared API handler."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from rest_framework import status

        from common.api.exceptions import register_error_status
        from games.engine import EngineError

        register_error_status(EngineError, status.HTTP_400_BAD_REQUEST)
