"""PostgreSQL whose every wait on the server is bounded, also when the server hangs.

A server that is stopped, or gone, refuses or drops the connection, and the request answers 503
at once (config/middleware.py). A *hung* server (frozen, swapped out, a network that drops
packets) is worse: its kernel accepts the connection and acknowledges what is sent, and nothing
ever answers, so a query waited for gunicorn's worker timeout and ended in a raw 500.
``statement_timeout`` cannot help (the server itself would have to act on it), nor can TCP
keepalives or ``tcp_user_timeout`` (the server's kernel still answers them), and
``connection.cancel()`` sends its request to the frozen server too. So the client bounds itself:

- connecting: libpq's ``connect_timeout`` (settings ``DATABASE_CONNECT_TIMEOUT``);
- every statement, fetch from a server-side cursor, commit and rollback: a deadline kept by one
  watchdog thread of the process. When a call is still waiting at its deadline, the watchdog shuts
  the connection's socket down; the waiting driver then fails at once with OperationalError (which
  Django turns into its own, and the project into a 503), and Django drops the connection.
  ``DATABASE_QUERY_DEADLINE`` seconds: the server's ``statement_timeout`` plus a second, so a
  slow statement is cancelled cleanly by the server first and only a hung server meets this;
- Django's health check of a kept connection (``conn_health_checks``): ``SELECT 1`` within
  ``HEALTH_CHECK_SECONDS``, else the connection is replaced.

Arming and disarming a deadline is a dictionary write under a lock (about a microsecond); the
watchdog wakes every ``TICK_SECONDS`` only while some call is armed.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.conf import settings
from django.db import OperationalError
from django.db.backends.postgresql import base
from django.db.backends.utils import CursorWrapper

logger = logging.getLogger(__name__)

HEALTH_CHECK_SECONDS = 1.0
TICK_SECONDS = 0.1


class Watchdog:
    """Shuts down the sockets of calls that outlive their deadline."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.armed: dict[int, tuple[float, int]] = {}  # token -> (deadline, socket fd)
        self.fired: set[int] = set()
        self.tokens = itertools.count()
        threading.Thread(target=self.run, name="tabla-db-watchdog", daemon=True).start()

    def arm(self, fd: int, seconds: float) -> int:
        with self.lock:
            token = next(self.tokens)
            self.armed[token] = (time.monotonic() + seconds, fd)
            if len(self.armed) == 1:
                self.wake.notify()
            return token

    def disarm(self, token: int) -> bool:
        """Forget the call; True if the watchdog cut it off."""
        with self.lock:
            self.armed.pop(token, None)
            if token in self.fired:
                self.fired.discard(token)
                return True
            return False

    def run(self) -> None:
        while True:
            with self.lock:
                while not self.armed:
                    self.wake.wait()
                now = time.monotonic()
                for token, (deadline, fd) in list(self.armed.items()):
                    if now >= deadline:
                        del self.armed[token]
                        self.fired.add(token)
                        shut_down(fd)
            time.sleep(TICK_SECONDS)


def shut_down(fd: int) -> None:
    """End the TCP connection under ``fd`` for whoever waits on it (the fd stays open: the
    driver closes it as usual)."""
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


_watchdog: Watchdog | None = None
_watchdog_lock = threading.Lock()


def watchdog() -> Watchdog:
    """This process's watchdog, started on first use (again in a forked child)."""
    global _watchdog
    if _watchdog is None or _watchdog.pid != os.getpid():
        with _watchdog_lock:
            if _watchdog is None or _watchdog.pid != os.getpid():
                _watchdog = Watchdog()
    return _watchdog


class DatabaseWrapper(base.DatabaseWrapper):
    @contextmanager
    def deadline(self, seconds: float | None = None) -> Iterator[None]:
        """Bound the wait for the server inside the block (``DATABASE_QUERY_DEADLINE`` unless
        ``seconds``; 0 or no connection: unbounded)."""
        if seconds is None:
            seconds = float(getattr(settings, "DATABASE_QUERY_DEADLINE", 0))
        connection = self.connection
        if seconds <= 0 or connection is None or connection.closed:
            yield
            return
        dog = watchdog()
        token = dog.arm(connection.fileno(), seconds)
        # A call that returns although it was cut off (the answer came in that very tick, or
        # the caller swallowed the error, as is_usable does) keeps its result; the connection
        # is gone all the same, and its next use fails at once.
        try:
            yield
        except (OperationalError, psycopg.OperationalError) as error:
            if dog.disarm(token):
                raise OperationalError(
                    f"the database did not answer within {seconds:g} s"
                ) from error
            raise
        finally:
            dog.disarm(token)

    def is_usable(self) -> bool:
        with self.deadline(HEALTH_CHECK_SECONDS):
            return bool(super().is_usable())

    def init_connection_state(self) -> None:
        with self.deadline():
            super().init_connection_state()

    def _commit(self) -> None:
        with self.deadline():
            super()._commit()  # type: ignore[misc]  # private: not in django-stubs

    def _rollback(self) -> None:
        with self.deadline():
            super()._rollback()  # type: ignore[misc]  # private: not in django-stubs

    def _set_autocommit(self, autocommit: bool) -> None:
        with self.deadline():
            super()._set_autocommit(autocommit)  # type: ignore[misc]  # private: not in django-stubs

    def make_cursor(self, cursor: Any) -> CursorWrapper:
        return BoundedCursorWrapper(cursor, self)

    def make_debug_cursor(self, cursor: Any) -> base.CursorDebugWrapper:
        return BoundedCursorDebugWrapper(cursor, self)


class BoundedCursor:
    """Each call that waits on the server under the connection's deadline."""

    db: DatabaseWrapper
    cursor: Any

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.db.deadline():
            return super().execute(sql, params)  # type: ignore[misc]

    def executemany(self, sql: Any, param_list: Any) -> Any:
        with self.db.deadline():
            return super().executemany(sql, param_list)  # type: ignore[misc]

    def callproc(self, procname: Any, params: Any = None, kparams: Any = None) -> Any:
        with self.db.deadline():
            return super().callproc(procname, params, kparams)  # type: ignore[misc]

    # Client-side cursors hold their rows after execute; a server-side one (QuerySet.iterator)
    # fetches from the server.
    def fetchone(self) -> Any:
        with self._fetching():
            return self.cursor.fetchone()

    def fetchmany(self, size: int | None = None) -> Any:
        with self._fetching():
            return self.cursor.fetchmany(size) if size is not None else self.cursor.fetchmany()

    def fetchall(self) -> Any:
        with self._fetching():
            return self.cursor.fetchall()

    @contextmanager
    def _fetching(self) -> Iterator[None]:
        if isinstance(self.cursor, psycopg.ServerCursor):
            with self.db.deadline(), self.db.wrap_database_errors:
                yield
        else:
            with self.db.wrap_database_errors:
                yield


class BoundedCursorWrapper(BoundedCursor, CursorWrapper):
    pass


class BoundedCursorDebugWrapper(BoundedCursor, base.CursorDebugWrapper):
    pass
