"""Signal receivers: a finished games Match is handed to the tournament services (games rates it
itself: games.services._steps.match_finished_announce)."""

from typing import Any

from django.dispatch import receiver

from games.models import Match
from games.signals import match_finished


@receiver(match_finished, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender: type[Match], match: Match, **kwargs: Any) -> None:
    # Imported here so that loading the app (ready()) does not import every service module.
    from tournaments import services

    services.tournament_match_record(match=match)
