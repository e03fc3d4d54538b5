"""The SQLite backend's queue for writers (config/sqlite_fair): a write transaction holds the
turn file's lock from BEGIN to COMMIT or ROLLBACK, so other writers wait in the kernel's queue."""

import fcntl
import os

import pytest
from django.db.utils import ConnectionHandler


@pytest.fixture
def sqlite_file(tmp_path, django_db_blocker):
    name = tmp_path / "fair.sqlite3"
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "config.sqlite_fair",
                "NAME": str(name),
                "OPTIONS": {"transaction_mode": "IMMEDIATE"},
            }
        }
    )
    connection = handler["default"]
    with django_db_blocker.unblock():  # a database of its own, not the tests' one
        yield connection, f"{name}.writers"
        connection.close()


def turn_is_free(path: str) -> bool:
    """Whether another writer could take the turn now (a separate open file, as in another
    connection or process)."""
    descriptor = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)
    return True


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_a_write_transaction_holds_the_turn_until_it_ends(sqlite_file, end):
    connection, turn_file = sqlite_file
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE t (x INTEGER)")

    connection._start_transaction_under_autocommit()
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO t VALUES (1)")
    assert not turn_is_free(turn_file)
    getattr(connection, end)()
    assert turn_is_free(turn_file)

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM t")
        assert cursor.fetchone()[0] == (1 if end == "commit" else 0)


def test_closing_a_connection_gives_the_turn_back(sqlite_file):
    connection, turn_file = sqlite_file
    connection.ensure_connection()
    connection._start_transaction_under_autocommit()
    assert not turn_is_free(turn_file)
    connection.close()
    assert turn_is_free(turn_file)
