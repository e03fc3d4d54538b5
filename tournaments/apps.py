"""App configuration for tournaments: audit-log registrations and the match_finished receiver."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from auditlog.registry import auditlog

        from tournaments import receivers  # noqa: F401  (connects the receiver)
        from tournaments.models import Entry, Round, Tournament, TournamentMatch

        auditlog.register(Tournament, exclude_fields=["updated_at"], m2m_fields={"organisers"})
        auditlog.register(Entry)
        auditlog.register(Round)
        auditlog.register(TournamentMatch)
