"""Celery tasks: thin interfaces that load by id and call the service of the same name."""

from celery import shared_task

from tournaments import services
from tournaments.models import Tournament
from tournaments.services import owed as owed_services
from tournaments.services import ratings as ratings_services


@shared_task
def standings_recompute(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:  # deleted meanwhile: nothing to do
        services.standings_recompute(tournament=tournament)


@shared_task
def standings_recompute_all() -> int:
    return services.standings_recompute_all()


@shared_task
def ratings_recompute() -> int:
    return services.ratings_recompute()


@shared_task
def ratings_update() -> int:
    return ratings_services.ratings_update()


@shared_task
def owed_tasks_run() -> int:
    return owed_services.owed_tasks_run()
