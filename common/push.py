"""Pushed updates: once a write commits, tell the WebSocket listeners of what it changed.

A write calls ``push_on_commit(group, kind, build)`` inside its transaction (games/push.py for a
match, tournaments/push.py for a tournament). When the transaction commits, ``build()`` reads the
new state (its own query, after the commit, never inside the transaction) and the message goes to
the group through the channel layer (config/layers.py); the consumers of the group forward it to
their sockets (games/consumers.py, tournaments/consumers.py). A transaction that rolls back sends
nothing, and several writes to one group in one transaction send one message, of the most telling
kind among them (``KINDS``).

A broadcast never fails the write and never makes its request wait on Redis:
- With Redis, the message is handed to this process's sender thread, which keeps one event loop
  and one connection and sends in order; the request goes on at once. A send that fails or takes
  over ``SEND_TIMEOUT_SECONDS`` is logged, and the process then skips broadcasts (builds and
  sends nothing) for ``PAUSE_SECONDS``, as the Celery follow-ups skip a dead broker
  (games/services/owed.py). At most ``MAX_QUEUED`` messages wait; more are dropped and logged.
- In memory (``make run``, tests), the message is sent at once on the server's event loop
  (asgiref's ``async_to_sync`` from the view's thread), the only loop whose sockets it can reach;
  nothing is read or sent for a group without a socket in this process (gunicorn's workers, a
  command).
- Without a channel layer (production without ``CHANNEL_LAYER_URL``) nothing is built or sent.
A lost message costs a page nothing worse than a stale view until the next change, or until its
socket reconnects and is told the current version (the consumers' hello).

Measured (2-core machine): the sender thread spends about 0.17 ms of CPU a message;
``async_to_sync`` from a request thread without an event loop (gunicorn) would start a loop, a
thread and a Redis connection for each message, 1.8 ms. In ``bench/api_plays.py`` a play's
server CPU went from 3.4 to 4.4 ms with ``CHANNEL_LAYER_URL`` set (reading the version, the
hand-over and the thread's wake-ups).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

# Message kinds, from the least to the most telling: a transaction's message has the last one
# of them that any of its writes named.
KINDS = ("change", "standings", "pairing", "report", "clock", "turn", "result")
HANDLER = "push.message"  # the consumers' method push_message forwards the text
SEND_TIMEOUT_SECONDS = 1.0
PAUSE_SECONDS = 10.0
MAX_QUEUED = 1000

Build = Callable[[], dict[str, Any] | None]

_local = threading.local()  # the open transaction's batch; connections are per thread too
_down_until = 0.0  # time.monotonic() before which broadcasts are skipped


def group_name(topic: str, pk: int) -> str:
    """The channel-layer group of one match or tournament: ``match.12``, ``tournament.3``."""
    return f"{topic}.{pk}"


def push_on_commit(group: str, kind: str, build: Build) -> None:
    """Once the current transaction commits (at once outside one), send ``group`` the payload
    ``build()`` returns then (None: nothing), with ``"type": kind`` and ``"at"``, the server's
    time of the commit in seconds since the epoch."""
    if not settings.CHANNEL_LAYERS or time.monotonic() < _down_until:
        return
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        _Batch({group: (kind, build)})()
        return
    batch = getattr(_local, "batch", None)
    if batch is None or not any(entry[1] is batch for entry in connection.run_on_commit):
        batch = _local.batch = _Batch({})  # the first push of this transaction
        transaction.on_commit(batch, robust=True)
    batch.add(group, kind, build)


class _Batch:
    """The groups one transaction pushes to, sent when it commits."""

    def __init__(self, entries: dict[str, tuple[str, Build]]) -> None:
        self.entries = entries

    def add(self, group: str, kind: str, build: Build) -> None:
        known = self.entries.get(group)
        if known is None or KINDS.index(kind) > KINDS.index(known[0]):
            self.entries[group] = (kind, build)

    def __call__(self) -> None:
        at = time.time()
        layer = get_channel_layer()
        for group, (kind, build) in self.entries.items():
            if isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(group):
                continue  # nobody listens in this process (in memory, nobody else can)
            try:
                payload = build()
            except Exception:  # the database went away after the commit: nothing to say
                logger.exception("could not read what to push to %s", group)
                continue
            if payload is not None:
                message = {"type": kind, **payload, "at": round(at, 3)}
                send_to_group(group, json.dumps(message, separators=(",", ":")))


def send_to_group(group: str, text: str) -> None:
    """Send ``text`` to the sockets of ``group``, as the module docstring says; never raises."""
    layer = get_channel_layer()
    if layer is None:
        return
    event = {"type": HANDLER, "text": text}
    if isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(layer.group_send)(group, event)
        except Exception:
            logger.exception("could not push to %s", group)
        return
    _sender().put(group, event)


def _pause(error: BaseException | str) -> None:
    global _down_until
    _down_until = time.monotonic() + PAUSE_SECONDS
    logger.warning("channel layer failed (%s): no pushes for %s s", error, PAUSE_SECONDS)


class _Sender:
    """This process's sender: a daemon thread running an event loop that sends the queued
    messages one after another, so they leave in the order of their commits."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.queued = 0
        self.lock = threading.Lock()
        threading.Thread(target=self.loop.run_forever, name="tabla-push", daemon=True).start()
        self.loop.call_soon_threadsafe(self.loop.create_task, self._drain())

    def put(self, group: str, event: dict[str, Any]) -> None:
        with self.lock:
            if self.queued >= MAX_QUEUED:
                logger.warning("%s pushes waiting: the one to %s is dropped", self.queued, group)
                return
            self.queued += 1
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (group, event))

    async def _drain(self) -> None:
        while True:
            group, event = await self.queue.get()
            try:
                layer = get_channel_layer()
                if layer is not None and time.monotonic() >= _down_until:
                    await asyncio.wait_for(layer.group_send(group, event), SEND_TIMEOUT_SECONDS)
            except Exception as error:
                _pause(repr(error))
            finally:
                with self.lock:
                    self.queued -= 1

    def wait_until_sent(self, seconds: float) -> None:
        """Give the queued messages up to ``seconds`` to leave (at exit, and in tests)."""
        deadline = time.monotonic() + seconds
        while self.queued and time.monotonic() < deadline:
            time.sleep(0.01)


_process_sender: _Sender | None = None
_sender_lock = threading.Lock()


def _sender() -> _Sender:
    """The sender of this process, started on first use (again in a forked child)."""
    global _process_sender
    with _sender_lock:
        if _process_sender is None or _process_sender.pid != os.getpid():
            _process_sender = _Sender()
            atexit.register(_process_sender.wait_until_sent, 1.0)
        return _process_sender


def pushes_wait_until_sent(seconds: float = 2.0) -> None:
    """Wait up to ``seconds`` for this process's queued pushes to leave."""
    if _process_sender is not None and _process_sender.pid == os.getpid():
        _process_sender.wait_until_sent(seconds)
