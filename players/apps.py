"""App configuration for players: players, clubs and their ratings."""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"

    def ready(self) -> None:
        from players import signals  # noqa: F401  (connects the log-in receiver)
