"""The Celery app "tabla": configured from CELERY_* Django settings, tasks autodiscovered."""

import logging
import os
from typing import Any

from celery import Celery, bootsteps

# Like wsgi.py and asgi.py: processes started outside manage.py default to production settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

logger = logging.getLogger(__name__)

app = Celery("tabla")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class OwedTasksOnConnect(bootsteps.StartStopStep):  # type: ignore[misc]  # celery: untyped
    """A worker consumer step, started each time the worker connects to the broker: at the
    worker's start and again when the broker comes back after an outage. It publishes
    ``owed_tasks_run``, so work owed while the broker was down is caught up at once
    (games/services/owed.py)."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent: Any) -> None:
        try:
            parent.app.send_task("games.tasks.owed_tasks_run")
        except Exception:  # the broker went away again: the next (re)connect or the beat runs it
            logger.exception("could not publish owed_tasks_run")


app.steps["consumer"].add(OwedTasksOnConnect)
