"""The ASGI lifespan of a server process (config/asgi.py routes the "lifespan" scope here).

Where no Celery beat runs (``make run``: eager tasks, no broker), nothing ends an overdue clock
except a request that reads or plays the match, and the match pages' own ask at 0:00
(static/js/match.js). With ``CLOCK_SWEEP_IN_PROCESS_SECONDS`` above 0 (config/settings/local.py
sets 1 when no broker is configured) each server process also runs the clock sweep
(``games.services.clocks_sweep``, the beat's task) every that many seconds, from startup to
shutdown, so a time-out is pushed to the match's sockets even when no page of it is open, and a
tournament goes on. Production runs the sweep from beat and leaves the setting at 0: no process
sweeps twice (docs/decisions.md D96). A sweep is idempotent (each time-out locks the match and
checks again), so two processes of ``uvicorn --workers 2`` sweeping is harmless, only doubled
work: two small queries a second while no clock is due."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger(__name__)

Message = dict[str, Any]


def sweep_once() -> int:
    """One clock sweep, then the connection given back as a request's would be."""
    from games.services import clocks_sweep  # the apps are ready once the server runs

    try:
        return clocks_sweep()
    finally:
        close_old_connections()


async def sweep_forever(seconds: float) -> None:
    """Sweep every ``seconds`` until cancelled; a failed sweep is logged and the next one runs."""
    sweep = sync_to_async(sweep_once, thread_sensitive=True)
    while True:
        await asyncio.sleep(seconds)
        try:
            ended = await sweep()
        except Exception:
            logger.exception("the in-process clock sweep failed; the next one tries again")
        else:
            if ended:
                logger.info("the in-process clock sweep ended %s match(es) on time", ended)


async def lifespan(
    scope: Message,
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Message], Awaitable[None]],
) -> None:
    """The ASGI lifespan protocol: start the sweep (if configured) at startup, stop it at
    shutdown."""
    task: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            seconds = settings.CLOCK_SWEEP_IN_PROCESS_SECONDS
            if seconds > 0:
                task = asyncio.create_task(sweep_forever(seconds))
                logger.info("ending overdue clocks in this process every %s s", seconds)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await send({"type": "lifespan.shutdown.complete"})
            return
