"""Signal receivers: a finished games Match is handed to the tournament and rating services."""

from typing import Any

from django.dispatch import receiver

from games.signals import match_finished


@receiver(match_finished, dispatch_uid="tournaments.match_finished")
def on_match_finished(sender: Any, match: Any, **kwargs: Any) -> None:
    # Imported here so that loading the app (ready()) does not import every service module.
    from tournaments import services
    from tournaments.services.ratings import ratings_enqueue

    services.tournament_match_record(match=match)
    ratings_enqueue(full=False)  # rate the new results only (or all again if out of order)
