"""Fixtures shared by every test package."""

from collections.abc import Iterator
from typing import Any

import pytest

pytest_plugins = ["tests.fixtures"]  # alice, bob, organiser, online_match, seeded_dice


@pytest.fixture
def weights(tmp_path: Any, settings: Any) -> Any:
    """A tiny evaluator per variant (tests/networks.py), where the site reads them."""
    from tests.networks import write_networks

    settings.ANALYSIS_WEIGHTS_DIR = tmp_path
    return write_networks(tmp_path)


@pytest.fixture
def trained_weights(settings: Any) -> Any:
    """The committed, trained evaluator (weights/, docs/analysis.md "Provenance")."""
    folder = settings.BASE_DIR / "weights"
    missing = [v for v in ("tabla", "gul_bara", "tapa") if not (folder / f"{v}.npz").is_file()]
    assert not missing, f"the committed weights are missing: {missing}"
    settings.ANALYSIS_WEIGHTS_DIR = folder
    return folder


@pytest.fixture
def no_weights(tmp_path: Any, settings: Any) -> None:
    """No evaluator installed."""
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"


@pytest.fixture
def api_client() -> Any:
    """An unauthenticated DRF client; call `force_authenticate(user=...)` to log in.

    Imported here, not at module level, so the engine tests also run without Django."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def _clear_cache() -> None:
    """Each test starts with an empty cache: no throttle history or login failures of another."""
    try:
        from django.conf import settings
        from django.core.cache import cache
    except ImportError:  # the engine tests without Django
        return
    if settings.configured:
        cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language: a request with another language's
    cookie leaves it active in the thread (LocaleMiddleware does not put it back), and a later
    test's English message would then be read in Macedonian."""
    yield
    try:
        from django.conf import settings
        from django.utils import translation
    except ImportError:  # the engine tests without Django
        return
    if settings.configured:
        translation.activate(settings.LANGUAGE_CODE)


def pytest_report_header(config: pytest.Config) -> str:
    """Name the database in the header, so a run on PostgreSQL can be told from one on SQLite."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    where = f" at {database['HOST']}:{database['PORT']}" if database.get("HOST") else ""
    return f"database: {database['ENGINE']}{where}"
