"""SQLite whose write transactions queue in turn for the database.

SQLite has one writer at a time. A connection that finds the write lock taken polls for it,
sleeping 1, 2, 5, ... up to 100 ms between tries, so under concurrent writes (gunicorn workers
and threads playing at once) a few requests lose the race again and again and wait hundreds of
milliseconds while others pass. Here each transaction (``atomic``, which starts with
``BEGIN IMMEDIATE`` in our settings) first takes an exclusive ``flock`` on a file beside the
database, and gives it back when it commits or rolls back: the kernel wakes the next waiter as
soon as the lock is free, across processes and threads (each connection has its own open file),
so writers take turns instead of polling. Single statements outside a transaction are short and
keep SQLite's own waiting. In-memory databases (the tests') have one connection and no file.

Why it stays (``bench/api_plays.py``, 8 clients, two sync workers, 2-core machine, 2026-11):
with the queue 365–449 verified plays/s, p99 41–49 ms; with SQLite's own polling 309–401
plays/s, p99 50–55 ms in every run. Throughput barely moves; the slowest requests do, and the
goal is a p99 under 50 ms.
"""

from __future__ import annotations

import fcntl
import os
from typing import Any

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turn_file: int | None = None
        self._has_turn = False

    def _take_turn(self) -> None:
        if self.is_in_memory_db():
            return
        if self._turn_file is None:
            path = f"{self.settings_dict['NAME']}.writers"
            self._turn_file = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._turn_file, fcntl.LOCK_EX)  # releases the GIL while it waits
        self._has_turn = True

    def _give_turn(self) -> None:
        if self._has_turn and self._turn_file is not None:
            self._has_turn = False
            fcntl.flock(self._turn_file, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self) -> None:
        self._take_turn()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # private: not in django-stubs
        except BaseException:
            self._give_turn()
            raise

    def _commit(self) -> Any:
        try:
            return super()._commit()  # type: ignore[misc]  # private: not in django-stubs
        finally:
            self._give_turn()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()  # type: ignore[misc]  # private: not in django-stubs
        finally:
            self._give_turn()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]  # private: not in django-stubs
        finally:
            self._give_turn()
            if self._turn_file is not None:
                os.close(self._turn_file)
                self._turn_file = None
