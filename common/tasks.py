"""``shared_task`` for the apps' tasks modules: Celery's, typed. Celery ships no types, so to
mypy a task would be an untyped function; this one keeps the function's signature (the task
object is Celery's own, unchanged)."""

from collections.abc import Callable
from typing import ParamSpec, TypeVar, cast

from celery import shared_task as celery_shared_task

P = ParamSpec("P")
R = TypeVar("R")


def shared_task(func: Callable[P, R]) -> Callable[P, R]:
    return cast(Callable[P, R], celery_shared_task(func))
