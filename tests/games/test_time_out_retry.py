"""Every open page asks at 0:00 at once: a time-out that finds the match "locked" by a concurrent
one (SQLite's shared cache answers at once instead of waiting) tries again shortly, a bounded
number of times, and never inside a caller's transaction."""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from games.services import clock as clock_services


def test_a_locked_time_out_is_tried_again(monkeypatch):
    calls: list[int] = []

    def locked_once(pk: int) -> None:
        calls.append(pk)
        if len(calls) == 1:
            raise OperationalError("database table is locked")

    monkeypatch.setattr(clock_services, "_time_out", locked_once)
    monkeypatch.setattr(clock_services.time, "sleep", lambda seconds: None)
    assert clock_services.match_time_out(match=7) is None
    assert calls == [7, 7]


def test_the_tries_are_bounded_and_other_errors_are_not_retried(monkeypatch):
    calls: list[str] = []

    def failing(message: str):
        def run(pk: int) -> None:
            calls.append(message)
            raise OperationalError(message)

        return run

    monkeypatch.setattr(clock_services.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(clock_services, "_time_out", failing("database table is locked"))
    with pytest.raises(OperationalError):
        clock_services.match_time_out(match=7)
    assert len(calls) == clock_services.TIME_OUT_TRIES
    calls.clear()
    monkeypatch.setattr(clock_services, "_time_out", failing("disk I/O error"))
    with pytest.raises(OperationalError):
        clock_services.match_time_out(match=7)
    assert calls == ["disk I/O error"]


@pytest.mark.django_db
def test_inside_a_callers_transaction_nothing_is_retried(monkeypatch):
    calls: list[int] = []

    def locked(pk: int) -> None:
        calls.append(pk)
        raise OperationalError("database table is locked")

    monkeypatch.setattr(clock_services, "_time_out", locked)
    with pytest.raises(OperationalError), transaction.atomic():
        clock_services.match_time_out(match=7)
    assert calls == [7]
