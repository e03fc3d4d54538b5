"""Celery tasks: thin interfaces that load by id and call the service of the same name (the
ratings and owed-task runs are games' tasks: games/tasks.py)."""

from common.tasks import shared_task
from tournaments import services
from tournaments.models import Tournament


@shared_task
def standings_recompute(
    tournament_id: int, stage: str | None = None, entries: list[int] | None = None
) -> None:
    """``stage`` and ``entries``: only a bracket's first results changed, those of these
    entries (``services.standings_recompute``)."""
    tournament = Tournament(pk=tournament_id)  # read and locked by the service
    try:
        if stage is not None and entries:
            services.standings_recompute(tournament=tournament, stage=stage, entries=entries)
        else:
            services.standings_recompute(tournament=tournament)
    except Tournament.DoesNotExist:  # deleted meanwhile: nothing to do
        return


@shared_task
def standings_recompute_all() -> int:
    return services.standings_recompute_all()
