"""Fixtures for the web pages: players, matches with deterministic dice, and a real browser."""

import hashlib
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import dice, services
from tests.games.factories import PlayerFactory, UserFactory

# Playwright's sync API keeps an event loop in the test thread; the ORM calls made from the
# test itself are still synchronous, so Django's async-safety check does not apply.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new game gets a deterministic seed, so the dice of a test are the same each run."""
    counter = itertools.count()
    monkeypatch.setattr(
        dice, "new_seed", lambda: hashlib.sha256(f"web-{next(counter)}".encode()).hexdigest()
    )


@pytest.fixture
def alice(db):
    return PlayerFactory(user=UserFactory(username="alice"), display_name="Alice")


@pytest.fixture
def bob(db):
    return PlayerFactory(user=UserFactory(username="bob"), display_name="Bob")


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


@pytest.fixture
def online_match(alice, bob, organiser):
    return services.match_create(creator=organiser, player_one=alice, player_two=bob)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Debian's chromium driven by Playwright (no browser download). Missing chromium skips
    the browser tests on a developer machine and fails them in CI."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs the chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
