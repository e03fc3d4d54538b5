"""Celery tasks: thin interfaces that call the service of the same name."""

from celery import shared_task

from games.services import owed as owed_services
from games.services import ratings as ratings_services


@shared_task
def ratings_recompute() -> int:
    return ratings_services.ratings_recompute()


@shared_task
def ratings_update() -> int:
    return ratings_services.ratings_update()


@shared_task
def owed_tasks_run() -> int:
    return owed_services.owed_tasks_run()
