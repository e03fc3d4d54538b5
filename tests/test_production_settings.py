"""Production settings: HTTPS on unless turned off, and no start with a weak SECRET_KEY or an
empty ALLOWED_HOSTS. The module is run afresh with a given environment (runpy), as a process
importing it would."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

from config.settings.guards import secret_key_problem

ROOT = Path(__file__).resolve().parent.parent
STRONG_KEY = get_random_secret_key()
ENV = {
    "SECRET_KEY": STRONG_KEY,
    "DATABASE_URL": "postgres://tabla:secret@127.0.0.1:5432/tabla",
    "ALLOWED_HOSTS": "tabla.example.org",
}
FLAGS = ["SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
         "SECURE_HSTS_PRELOAD", "SECURE_COOKIES", "TRUST_X_FORWARDED_PROTO"]  # fmt: skip


def production(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in [*ENV, *FLAGS]:
        monkeypatch.delenv(name, raising=False)
    for name, value in {**ENV, **env}.items():
        monkeypatch.setenv(name, value)
    return runpy.run_module("config.settings.production")


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("", "is not set"),
        ("django-insecure-" + STRONG_KEY, "starts with 'django-insecure-'"),
        ("abcd" * 15, "has only 4 different characters"),
        (STRONG_KEY[:49], "has 49 characters"),
        ("ab" * 40, "has only 2 different characters"),
    ],
)
def test_weak_secret_keys_are_named(key, problem):
    assert problem in (secret_key_problem(key) or "")


def test_a_random_key_is_strong():
    assert secret_key_problem(STRONG_KEY) is None


@pytest.mark.parametrize(
    "key", ["", "short", "django-insecure-" + STRONG_KEY, "0123" * 20, "change-me"]
)
def test_production_refuses_a_weak_secret_key(monkeypatch, key):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        production(monkeypatch, SECRET_KEY=key)


@pytest.mark.parametrize("hosts", ["", " , "])
def test_production_refuses_empty_allowed_hosts(monkeypatch, hosts):
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        production(monkeypatch, ALLOWED_HOSTS=hosts)


def test_production_turns_https_on_by_default(monkeypatch):
    settings = production(monkeypatch)
    assert settings["ALLOWED_HOSTS"] == ["tabla.example.org"]
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] == 31536000
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert settings["SESSION_COOKIE_SECURE"] is True and settings["CSRF_COOKIE_SECURE"] is True
    assert settings["SECURE_REDIRECT_EXEMPT"] == [r"^healthz$"]
    assert set(settings["SILENCED_SYSTEM_CHECKS"]) == {"security.W005", "security.W021"}
    assert "csp.middleware.CSPMiddleware" in settings["MIDDLEWARE"]


def test_production_https_can_be_turned_off(monkeypatch):
    settings = production(monkeypatch, SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")
    assert settings["SECURE_SSL_REDIRECT"] is False and settings["SECURE_HSTS_SECONDS"] == 0


def test_subdomains_and_preload_unsilence_their_checks(monkeypatch):
    settings = production(
        monkeypatch, SECURE_HSTS_INCLUDE_SUBDOMAINS="1", SECURE_HSTS_PRELOAD="1"
    )
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert settings["SILENCED_SYSTEM_CHECKS"] == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "redirected"), [("/healthz", False), ("/", True), ("/api/v1/matches/", True)]
)
def test_ssl_redirect_spares_only_the_health_check(
    client, settings, monkeypatch, path, redirected
):
    """A load balancer may check /healthz over plain HTTP; everything else goes to HTTPS."""
    production_settings = production(monkeypatch)
    settings.SECURE_SSL_REDIRECT = production_settings["SECURE_SSL_REDIRECT"]
    settings.SECURE_REDIRECT_EXEMPT = production_settings["SECURE_REDIRECT_EXEMPT"]
    response = client.get(path)
    if redirected:
        assert response.status_code == 301 and response["Location"].startswith("https://")
    else:
        assert response.status_code != 301


def test_deploy_check_is_clean_with_the_readme_variables():
    """What .ci/run runs: `check --deploy --fail-level WARNING` under production settings, with
    the README's production variables and no database running."""
    env = {**os.environ, **ENV, "DJANGO_SETTINGS_MODULE": "config.settings.production"}
    for name in [*FLAGS, "DJANGO_ALLOW_ASYNC_UNSAFE"]:  # the latter set by tests/web/conftest.py
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
