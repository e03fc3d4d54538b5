"""App configuration for tournaments: audit-log registrations, the match_finished receiver, the
event namer of the .mat export (games.exports.events), the finder of a match's tournament, round
and table for its page (games.places), the spectators' chances of its matches (games.chances),
the check that makes a tournament's
organisers the organisers of its matches (games.organisers) and of their players
(players.selectors.organises_player), the receivers of the pushed updates
(tournaments/push.py), and the Celery tasks, registered for the services to enqueue by name."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from auditlog.registry import auditlog

        from games.chances import register_policy_finder
        from games.exports.events import register_event_namer
        from games.organisers import register_organiser_check
        from games.places import register_place_finder
        from players.selectors import register_player_organiser_check
        from tournaments import push, receivers, tasks  # noqa: F401  (receivers; tasks by name)
        from tournaments.models import Entry, Round, Tournament, TournamentMatch
        from tournaments.selectors import (
            match_event_and_round,
            organises_match,
            organises_player,
        )
        from tournaments.web.places import match_chances_policy, match_place

        auditlog.register(Tournament, exclude_fields=["updated_at"], m2m_fields={"organisers"})
        auditlog.register(Entry)
        auditlog.register(Round)
        auditlog.register(TournamentMatch)
        register_event_namer(match_event_and_round)
        register_place_finder(match_place)
        register_policy_finder(match_chances_policy)
        register_organiser_check(organises_match)
        register_player_organiser_check(organises_player)
