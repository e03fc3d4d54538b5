"""Fixtures shared by the games and web tests (a pytest plugin listed in tests/conftest.py):
the players Alice and Bob, an organiser, a match between them, deterministic dice, a clock
the tests move by hand, and a redis-server of the test session's own (for the pushed updates on
Redis).

A package opts in to the dice with an autouse fixture that asks for ``seeded_dice``, and may
name its own ``dice_prefix`` so its games get seeds of their own. Django and the factories are
imported inside the fixtures, so the engine tests still run without Django.
"""

import datetime
import hashlib
import itertools
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def dice_prefix() -> str:
    """The text the deterministic dice seeds start with (see ``seeded_dice``)."""
    return "test"


@pytest.fixture
def seeded_dice(monkeypatch: pytest.MonkeyPatch, dice_prefix: str) -> None:
    """Every new game gets a deterministic seed, so the dice of a test are the same each run."""
    from games import dice

    counter = itertools.count()
    monkeypatch.setattr(
        dice,
        "new_seed",
        lambda: hashlib.sha256(f"{dice_prefix}-{next(counter)}".encode()).hexdigest(),
    )


class FakeClock:
    """``games.clock.now`` under a test's control: it starts at the real time (rows stamp their
    own created_at with it) and moves only with ``advance``."""

    def __init__(self, at: datetime.datetime) -> None:
        self.at = at

    def __call__(self) -> datetime.datetime:
        return self.at

    def advance(self, seconds: float) -> datetime.datetime:
        self.at += datetime.timedelta(seconds=seconds)
        return self.at


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The time the clock and claim services see (games/clock.py ``now``), moved by hand."""
    from games import clock

    fake = FakeClock(clock.now())
    monkeypatch.setattr(clock, "now", fake)
    return fake


@pytest.fixture
def alice(db: Any) -> Any:
    from tests.games.factories import PlayerFactory, UserFactory

    return PlayerFactory(user=UserFactory(username="alice"), display_name="Alice")


@pytest.fixture
def bob(db: Any) -> Any:
    from tests.games.factories import PlayerFactory, UserFactory

    return PlayerFactory(user=UserFactory(username="bob"), display_name="Bob")


@pytest.fixture
def organiser(db: Any) -> Any:
    """A plain user who creates matches (tests/tournaments overrides it with a trusted one)."""
    from tests.games.factories import UserFactory

    return UserFactory(username="organiser")


@pytest.fixture
def online_match(alice: Any, bob: Any, organiser: Any) -> Any:
    from games import services

    return services.match_create(creator=organiser, player_one=alice, player_two=bob)


@pytest.fixture
def gnubg() -> Any:
    """GNU Backgammon's Python module; the test is skipped where it is not installed."""
    return pytest.importorskip(
        "gnubg", reason="GNU Backgammon's Python package is not installed (pip install gnubg)"
    )


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a redis-server started for this test session on a free port. Skipped where
    redis-server is missing, except in CI (.ci/run installs it)."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing: .ci/run installs the redis-server package")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path_factory.mktemp("redis"))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)
