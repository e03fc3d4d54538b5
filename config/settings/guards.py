"""Startup guards of the production settings, as plain functions so tests can call them."""

from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

MAKE_A_KEY = (
    "python -c 'from django.core.management.utils import get_random_secret_key; "
    "print(get_random_secret_key())'"
)


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` is too weak for production, by the criteria of Django's own deploy check
    (security.W009), or None for a good key."""
    if not key:
        return "is not set"
    if key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return f"starts with {SECRET_KEY_INSECURE_PREFIX!r}, the mark of a development key"
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"has {len(key)} characters; it needs at least {SECRET_KEY_MIN_LENGTH}"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return (
            f"has only {len(set(key))} different characters; "
            f"it needs at least {SECRET_KEY_MIN_UNIQUE_CHARACTERS}"
        )
    return None


def require_strong_secret_key(key: str) -> None:
    if problem := secret_key_problem(key):
        raise ImproperlyConfigured(
            f"The SECRET_KEY environment variable {problem}. Make a random one with: {MAKE_A_KEY}"
        )


def require_allowed_hosts(hosts: list[str]) -> None:
    if not hosts:
        raise ImproperlyConfigured(
            "Set the ALLOWED_HOSTS environment variable for production: the comma-separated "
            "host names the service answers to, e.g. tabla.example.org."
        )
