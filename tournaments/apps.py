"""App configuration for tournaments: audit-log registrations, the match_finished receiver and
the event namer of the .mat export (games.exports.events)."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from auditlog.registry import auditlog

        from games.exports.events import register_event_namer
        from tournaments import receivers  # noqa: F401  (connects the receiver)
        from tournaments.models import Entry, Round, Tournament, TournamentMatch
        from tournaments.selectors import match_event_and_round

        auditlog.register(Tournament, exclude_fields=["updated_at"], m2m_fields={"organisers"})
        auditlog.register(Entry)
        auditlog.register(Round)
        auditlog.register(TournamentMatch)
        register_event_namer(match_event_and_round)
