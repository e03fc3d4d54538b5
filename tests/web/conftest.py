"""Fixtures for the web pages: deterministic dice and a real browser. Alice, Bob, the
organiser and their online match come from tests/fixtures.py."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.helpers import TIMEOUT, Console

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


@pytest.fixture
def dice_prefix() -> str:
    return "web"


@pytest.fixture(autouse=True)
def _dice(seeded_dice: None) -> None:
    """Every game of these tests gets deterministic dice (seeds "web-0", "web-1", ...)."""


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Debian's chromium driven by Playwright (no browser download). Missing chromium skips
    the browser tests on a developer machine and fails them in CI."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs the chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    # expect() waits as long as every other Playwright wait here (its own default is 5 s).
    sync_api.expect.set_options(timeout=TIMEOUT)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def pushed(settings, redis_server, monkeypatch) -> None:
    """A channel layer on the session's redis-server (pages then name their socket)."""
    from common import push
    from config.layers import channel_layer_from_url

    settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(redis_server)}
    monkeypatch.setattr(push, "_down_until", 0.0)


@pytest.fixture
def new_page(browser) -> Iterator:
    """``new_page(width, height)`` gives a page of a fresh browser context and its Console;
    more keywords go to the context (``has_touch=True, is_mobile=True`` for a phone)."""
    contexts = []

    def make(width: int = 1280, height: int = 900, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        return page, Console(page)

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
