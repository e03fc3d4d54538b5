"""Fixtures shared by the games and web tests (a pytest plugin listed in tests/conftest.py):
the players Alice and Bob, an organiser, a match between them, deterministic dice, and a clock
the tests move by hand.

A package opts in to the dice with an autouse fixture that asks for ``seeded_dice``, and may
name its own ``dice_prefix`` so its games get seeds of their own. Django and the factories are
imported inside the fixtures, so the engine tests still run without Django.
"""

import datetime
import hashlib
import itertools
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
