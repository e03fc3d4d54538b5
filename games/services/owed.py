"""Follow-up tasks handed to Celery once a write commits, without ever making the request wait on
the broker, and caught up when the broker comes back.

A result write commits first; only then are the standings and ratings recomputes published
(``task_enqueue_on_commit``). When the broker is down or does not answer, the publish fails fast
(settings: no publish retries, one connection attempt, short socket timeouts), and the task is
recorded as an ``OwedTask`` row instead: the write stands and answers at once. After one such
failure this process does not try the broker again for ``BROKER_PAUSE_SECONDS``; it records the
tasks straight away, so that a broker that swallows packets (each try waiting for a timeout) costs
one timeout per pause, not one per write.

Owed tasks are run by ``owed_tasks_run`` (the task of the same name), which is published
- by every worker each time it connects to the broker: at its start and when the broker comes
  back after an outage (the consumer step in config/celery_app.py), and
- by the beat every minute (``OWED_TASKS_SECONDS``): a cheap query while nothing is owed. This
  covers a broker that only the web processes could not reach.
The recomputes are idempotent, so running an owed task late, or twice, is harmless; and the
beat's full recomputes (every 15 minutes and every hour) repair anything else."""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime
from functools import partial
from typing import Any

from celery import current_app
from django.db import DatabaseError, transaction
from kombu.exceptions import OperationalError as BrokerError

from games.models import OwedTask

logger = logging.getLogger(__name__)

BROKER_PAUSE_SECONDS = 10.0
_broker_down_until = 0.0  # time.monotonic() before which this process does not try the broker


def task_named(name: str) -> Any:
    """The Celery task registered as ``name`` ("games.tasks.ratings_update"). Services publish
    their tasks by name, so that no service imports a tasks module (which imports the services):
    a process that has not imported the tasks modules yet (a web process) imports them here,
    once, through Celery's autodiscovery of the installed apps' ``tasks`` modules."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    return tasks[name]


def task_enqueue_on_commit(task: Any, *args: Any, hints: dict[str, Any] | None = None) -> None:
    """Publish ``task(*args)`` once the current transaction commits; if that fails, owe it.
    ``task``: a Celery task or its name; ``hints``: keyword arguments as ``task_publish``'s."""
    if hints:
        transaction.on_commit(partial(task_publish, task, *args, hints=hints), robust=True)
    else:
        transaction.on_commit(partial(task_publish, task, *args), robust=True)


def task_publish(
    task: Any,
    *args: Any,
    eta: datetime | None = None,
    owe: bool = True,
    hints: dict[str, Any] | None = None,
) -> None:
    """Publish ``task(*args)`` now (or run it, when Celery runs tasks eagerly). Never raises and
    never waits on a dead broker: a failure is logged and the task recorded as owed. ``task``: a
    Celery task or its name (``task_named``).

    With ``eta`` the task is to run at that time; it is not run at all when Celery runs tasks
    eagerly (it would run at once, before its time). ``owe=False``: a task that cannot be
    published is only logged, for a task that something else repeats anyway (the clock's
    deadline task, repeated by the clock sweep). ``hints``: keyword arguments that only narrow
    the task's work (a recompute from a point rather than from the start): an owed task is
    recorded and run without them, doing the whole work."""
    global _broker_down_until
    if isinstance(task, str):
        task = task_named(task)
    if eta is not None and task.app.conf.task_always_eager:
        return
    if time.monotonic() < _broker_down_until:
        logger.warning("broker down: %s%s is %s", task.name, args, "owed" if owe else "dropped")
        if owe:
            owed_task_record(task.name, args)
        return
    try:
        task.apply_async(args, kwargs=hints, eta=eta)
    except BrokerError as error:  # refused, timed out, or a lost connection
        _broker_down_until = time.monotonic() + BROKER_PAUSE_SECONDS
        logger.warning("could not publish %s%s (%s)", task.name, args, error)
        if owe:
            owed_task_record(task.name, args)
    except Exception:  # the task ran eagerly (no broker configured) and failed
        logger.exception("task %s%s failed: it is owed", task.name, args)
        owed_task_record(task.name, args)


def owed_task_record(name: str, args: tuple[Any, ...] | list[Any]) -> None:
    try:
        OwedTask.objects.create(task=name, args=list(args))
    except DatabaseError:  # the database went down too: the periodic full recomputes repair it
        logger.exception("could not record the owed task %s%s", name, args)


def owed_tasks_run() -> int:
    """Run every distinct owed task once, here and now, and delete the rows it covered. Rows
    recorded meanwhile are kept for the next run. Returns how many distinct tasks ran."""
    groups: dict[tuple[str, str], list[int]] = {}
    for pk, name, args in OwedTask.objects.values_list("pk", "task", "args"):
        groups.setdefault((name, json.dumps(args)), []).append(pk)
    ran = 0
    for (name, args), pks in groups.items():
        task = current_app.tasks.get(name)
        if task is None:
            logger.error("owed task %s is not a known task: dropped", name)
        else:
            try:
                task(*json.loads(args))
            except Exception:
                logger.exception("owed task %s%s failed: kept for the next run", name, args)
                continue
            ran += 1
        OwedTask.objects.filter(pk__in=pks).delete()
    return ran
