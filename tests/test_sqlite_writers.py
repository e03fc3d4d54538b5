"""SQLite's writers wait for each other (config/database.py, docs/decisions.md D69): with the
settings' options a second writer waits in SQLite's busy handler until the first commits,
instead of failing with "database is locked", and readers go on meanwhile (WAL)."""

import threading
import time

import pytest
from django.db.utils import ConnectionHandler

from config.database import SQLITE, SQLITE_OPTIONS


@pytest.fixture
def two_connections(tmp_path, django_db_blocker):
    database = {
        "ENGINE": SQLITE,
        "NAME": str(tmp_path / "writers.sqlite3"),
        "OPTIONS": SQLITE_OPTIONS,
    }
    handlers = [ConnectionHandler({"default": dict(database)}) for _ in range(2)]
    with django_db_blocker.unblock():  # a database of its own, not the tests' one
        yield handlers  # a handler's connections are per thread, as Django's are
        for handler in handlers:
            handler.close_all()


def test_a_second_writer_waits_for_the_first(two_connections):
    one = two_connections[0]["default"]
    with one.cursor() as cursor:
        cursor.execute("CREATE TABLE t (x INTEGER)")
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    outcome: dict[str, object] = {}

    def second_writer() -> None:
        two = two_connections[1]["default"]
        started = time.monotonic()
        try:
            with two.cursor() as cursor:
                cursor.execute("BEGIN IMMEDIATE")
                outcome["waited"] = time.monotonic() - started
                cursor.execute("INSERT INTO t VALUES (2)")
                cursor.execute("COMMIT")
        except Exception as error:  # reported below
            outcome["error"] = error
        finally:
            two.close()

    with one.cursor() as cursor:
        cursor.execute("BEGIN IMMEDIATE")
        cursor.execute("INSERT INTO t VALUES (1)")
        thread = threading.Thread(target=second_writer)
        thread.start()
        time.sleep(0.5)
        assert "waited" not in outcome and "error" not in outcome  # still waiting
        cursor.execute("COMMIT")
    thread.join(timeout=30)
    assert "error" not in outcome, outcome
    assert outcome["waited"] >= 0.4
    with one.cursor() as cursor:
        cursor.execute("SELECT x FROM t ORDER BY x")
        assert [row[0] for row in cursor.fetchall()] == [1, 2]


def test_a_reader_is_not_blocked_by_a_writer(two_connections):
    one, two = (handler["default"] for handler in two_connections)
    with one.cursor() as cursor:
        cursor.execute("CREATE TABLE t (x INTEGER)")
        cursor.execute("INSERT INTO t VALUES (1)")
        cursor.execute("BEGIN IMMEDIATE")
        cursor.execute("INSERT INTO t VALUES (2)")
        started = time.monotonic()
        with two.cursor() as reader:
            reader.execute("SELECT count(*) FROM t")
            assert reader.fetchone()[0] == 1  # the committed row only, at once
        assert time.monotonic() - started < 1
        cursor.execute("COMMIT")
