"""The ASGI lifespan (config/lifespan.py): where no beat runs, the server process ends overdue
clocks itself, and pushes the time-out like any other (docs/decisions.md D96); it starts nothing
where the setting is 0 (production, the tests), and stops at shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from config import lifespan as lifespan_module
from config.settings import base, local
from games import services
from games.models import Match

CLOCK = {"per_point_seconds": 90, "delay_seconds": 5}


def run_async(main: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """``asyncio.run(main())`` in a thread of its own: the browser tests leave an event loop
    running in the test thread (Playwright's sync API)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


def closing(check: Callable[[], bool]) -> Callable[[], bool]:
    """``check`` run in a worker thread that gives its database connection back after."""

    def run() -> bool:
        try:
            return check()
        finally:
            connections.close_all()

    return run


def run_lifespan(until: Any = None) -> list[dict[str, Any]]:
    """Drive the project's ASGI application through startup, wait until ``until()`` is true
    (a sync check, at most 10 s), then shut down. Returns what the application sent."""
    from config.asgi import application

    async def main() -> list[dict[str, Any]]:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await inbox.put({"type": "lifespan.startup"})
        app = asyncio.create_task(application({"type": "lifespan"}, inbox.get, send))
        if until is not None:
            check = sync_to_async(closing(until), thread_sensitive=False)
            async with asyncio.timeout(10):
                while not await check():
                    await asyncio.sleep(0.02)
        await inbox.put({"type": "lifespan.shutdown"})
        async with asyncio.timeout(10):
            await app
        # The sweep's thread gives its connection back, so the test database can be flushed.
        await sync_to_async(connections.close_all, thread_sensitive=True)()
        return sent

    return run_async(main)


DONE = [{"type": "lifespan.startup.complete"}, {"type": "lifespan.shutdown.complete"}]


@pytest.mark.django_db(transaction=True)
def test_the_server_process_ends_an_overdue_clock_without_a_beat(
    settings, fake_clock, alice, bob, organiser
):
    settings.CLOCK_SWEEP_IN_PROCESS_SECONDS = 0.05
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=1, clock=CLOCK
    )
    fake_clock.advance(5 + 90)  # nobody reads the match: only the sweep can end it

    def ended() -> bool:
        return Match.objects.get(pk=match.pk).status == Match.Status.FINISHED

    assert run_lifespan(until=ended) == DONE
    assert Match.objects.get(pk=match.pk).ended_by == Match.EndedBy.TIME


def test_nothing_sweeps_where_the_setting_is_zero(settings, monkeypatch):
    settings.CLOCK_SWEEP_IN_PROCESS_SECONDS = 0
    started: list[float] = []

    async def record(seconds: float) -> None:
        started.append(seconds)

    monkeypatch.setattr(lifespan_module, "sweep_forever", record)
    assert run_lifespan() == DONE
    assert started == []


def test_only_the_local_settings_without_a_broker_sweep_in_process():
    assert base.CLOCK_SWEEP_IN_PROCESS_SECONDS == 0  # production and the tests: beat's sweep
    assert local.CLOCK_SWEEP_IN_PROCESS_SECONDS == (0 if base.CELERY_BROKER_URL else 1)


def test_a_failed_sweep_is_logged_and_the_next_one_runs(monkeypatch, caplog):
    calls: list[int] = []

    def flaky() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database blinked")
        return 0

    monkeypatch.setattr(lifespan_module, "sweep_once", flaky)

    async def main() -> None:
        task = asyncio.create_task(lifespan_module.sweep_forever(0.01))
        async with asyncio.timeout(10):
            while len(calls) < 2:
                await asyncio.sleep(0.01)
        task.cancel()

    run_async(main)
    assert "the in-process clock sweep failed" in caplog.text
