"""The database settings every environment shares: DATABASE_URL's, with bounded waits on
PostgreSQL (config/postgresql_bounded), and SQLite's options."""

from __future__ import annotations

from typing import Any

POSTGRESQL = "django.db.backends.postgresql"
BOUNDED = "config.postgresql_bounded"
DEADLINE_MARGIN_SECONDS = 1.0
SQLITE = "django.db.backends.sqlite3"
# Concurrent requests (gunicorn workers and threads) wait for SQLite's write lock instead of
# failing with "database is locked": a transaction takes it at BEGIN (IMMEDIATE), a writer waits
# for it up to ``timeout`` seconds in SQLite's busy handler, and WAL lets readers go on
# meanwhile (docs/decisions.md D69).
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}


def postgresql_bounded(
    database: dict[str, Any], connect_seconds: int, statement_seconds: int, lock_seconds: int
) -> dict[str, Any]:
    """``database`` (a DATABASES entry) with its waits bounded, if it is PostgreSQL: libpq's
    ``connect_timeout``, and the server's ``statement_timeout`` and ``lock_timeout`` (given as
    startup ``options``, so every connection has them from the start). 0 leaves one unset.
    Another engine is returned as it is."""
    if database.get("ENGINE") not in {POSTGRESQL, BOUNDED}:
        return database
    options = dict(database.get("OPTIONS", {}))
    if connect_seconds > 0:
        options["connect_timeout"] = connect_seconds
    server = [
        f"-c {name}={seconds * 1000}"
        for name, seconds in (
            ("statement_timeout", statement_seconds),
            ("lock_timeout", lock_seconds),
        )
        if seconds > 0
    ]
    if server:
        options["options"] = " ".join([options.get("options", ""), *server]).strip()
    return {**database, "ENGINE": BOUNDED, "OPTIONS": options}


def query_deadline(statement_seconds: int, deadline_seconds: float | None) -> float:
    """Seconds the client waits on the server for one call before it drops the connection:
    ``deadline_seconds`` if given, else a second past the server's statement timeout (0: none)."""
    if deadline_seconds is not None:
        return max(0.0, deadline_seconds)
    return statement_seconds + DEADLINE_MARGIN_SECONDS if statement_seconds > 0 else 0.0
