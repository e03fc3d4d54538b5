"""Failed-login limits per client address, per address and account, and per account, counted in
the shared cache.

Every password log-in (the API token at /api/v1/auth/token/, the web form at /accounts/login/,
the admin's) goes through django.contrib.auth's ``authenticate()``. ``LoginLimitBackend`` comes
first in AUTHENTICATION_BACKENDS: while a limit is reached it refuses at once, before ModelBackend
looks the user up and hashes the password, so a refused attempt costs one cache read. Each
failure that was checked (the ``user_login_failed`` signal) is counted three times:

- per address, any username: ``LOGIN_LIMIT_IP_FAILURES`` in ``LOGIN_LIMIT_IP_SECONDS`` (one
  address guessing many accounts);
- per address and account, the lock-out: ``LOGIN_LIMIT_PAIR_FAILURES`` in
  ``LOGIN_LIMIT_PAIR_SECONDS``. Usernames are public (organisers are named on their tournaments),
  so a lock-out keyed by the account alone let anyone keep an organiser out with ten wrong
  passwords; keyed by the pair, as django-axes does, it locks out the guesser only;
- per account, any address: ``LOGIN_LIMIT_ACCOUNT_FAILURES`` in ``LOGIN_LIMIT_ACCOUNT_SECONDS``, a
  ceiling well above the lock-out against guessing from many addresses (which also means that
  whoever guesses from that many addresses can still keep the account out).

0 failures turns a limit off. Successful log-ins are not counted, and refused attempts are not
counted either, so a limit lifts at the latest one window after the last failure it let through.

The window slides: the cache keeps, per key, the times of the last N failures. Accounts are keyed
by the submitted username, NFKC-normalised and case-folded; addresses by ``client_address``
(IPv6 by its /64, which one client usually holds whole). Reads and writes are not atomic, so
attempts in flight at the same moment in several workers may each pass one check: the overshoot
is at most the number of concurrent requests. While the cache is unreachable (config/cache.py)
the limits fail open: nothing is read, so nothing is refused, and nothing is counted.
"""

from __future__ import annotations

import hashlib
import math
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from common.addresses import client_address

clock = time.time  # tests replace it to let a window pass
REFUSED_ATTR = "login_limit_retry_after"


@dataclass(frozen=True)
class Limit:
    failures: int  # allowed in a window; 0: no limit
    seconds: int


# Pure logic


def retry_after(stamps: Sequence[float], now: float, limit: Limit) -> int:
    """Seconds until this limit lets one more attempt through; 0: it does now."""
    if limit.failures <= 0:
        return 0
    recent = sorted(t for t in stamps if t > now - limit.seconds)
    if len(recent) < limit.failures:
        return 0
    oldest = recent[len(recent) - limit.failures]
    return max(1, math.ceil(oldest + limit.seconds - now))


def with_failure(stamps: Sequence[float], now: float, limit: Limit) -> list[float]:
    """The stamps to keep after a failure at `now`: the last `failures` ones in the window."""
    recent = sorted(t for t in stamps if t > now - limit.seconds)
    recent.append(now)
    return recent[-limit.failures :]


def account_key(username: str) -> str:
    normal = unicodedata.normalize("NFKC", username).casefold().strip()
    return hashlib.sha256(normal.encode()).hexdigest()


# Django around it


def ip_limit() -> Limit:
    return Limit(settings.LOGIN_LIMIT_IP_FAILURES, settings.LOGIN_LIMIT_IP_SECONDS)


def pair_limit() -> Limit:
    return Limit(settings.LOGIN_LIMIT_PAIR_FAILURES, settings.LOGIN_LIMIT_PAIR_SECONDS)


def account_limit() -> Limit:
    return Limit(settings.LOGIN_LIMIT_ACCOUNT_FAILURES, settings.LOGIN_LIMIT_ACCOUNT_SECONDS)


def _http_request(request: Any) -> HttpRequest:
    """Django's request, also under a DRF Request (which authenticate() is given by DRF)."""
    inner: HttpRequest = getattr(request, "_request", request)
    return inner


def _limits(request: Any, username: str | None) -> list[tuple[str, Limit]]:
    meta = _http_request(request).META
    address = client_address(
        meta.get("REMOTE_ADDR", ""),
        meta.get("HTTP_X_FORWARDED_FOR", ""),
        settings.TRUST_X_FORWARDED_FOR,
    )
    limits = [(f"login-failures:ip:{address}", ip_limit())]
    if username:
        account = account_key(username)
        limits.append((f"login-failures:pair:{address}:{account}", pair_limit()))
        limits.append((f"login-failures:account:{account}", account_limit()))
    return [(key, limit) for key, limit in limits if limit.failures > 0]


def seconds_blocked(request: Any, username: str | None) -> int:
    """Seconds until an attempt from this request's address for this username may be checked."""
    limits = _limits(request, username)
    if not limits:
        return 0
    stored = cache.get_many([key for key, _ in limits])
    now = clock()
    return max(retry_after(stored.get(key, ()), now, limit) for key, limit in limits)


def record_failure(request: Any, username: str | None) -> None:
    now = clock()
    for key, limit in _limits(request, username):
        cache.set(key, with_failure(cache.get(key, ()), now, limit), limit.seconds)


def refused_for(request: Any) -> int:
    """Seconds to wait, if authenticate() refused this request because of a limit; else 0."""
    return int(getattr(_http_request(request), REFUSED_ATTR, 0))


def _username(credentials: dict[str, Any]) -> str | None:
    username = credentials.get("username", credentials.get(get_user_model().USERNAME_FIELD))
    return username if isinstance(username, str) else None


class LoginLimitBackend:
    """Authenticates no one: refuses (PermissionDenied stops authenticate() trying the next
    backends) while the request's address, the address with the username, or the username is
    over its limit. It has no
    get_user, so Django never picks it to keep a session (force_login takes the first backend
    with one), and no permission methods."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        if request is None or credentials.get("password") is None:
            return None
        seconds = seconds_blocked(request, _username(credentials))
        if seconds:
            setattr(_http_request(request), REFUSED_ATTR, seconds)
            raise PermissionDenied
        return None


def count_failure(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
) -> None:
    """user_login_failed: count a failure that was checked (not one the limits refused)."""
    if request is None or refused_for(request) or "password" not in credentials:
        return
    record_failure(request, _username(credentials))


user_login_failed.connect(count_failure, dispatch_uid="tabla-count-login-failure")


# Sign-ups and password resets: attempts per address (and resets per e-mail address), counted in
# the same cache with the same sliding window (docs/decisions.md D88).


def signup_limit() -> Limit:
    return Limit(settings.SIGNUP_LIMIT_IP_ATTEMPTS, settings.SIGNUP_LIMIT_IP_SECONDS)


def reset_limit() -> Limit:
    return Limit(
        settings.PASSWORD_RESET_LIMIT_IP_ATTEMPTS, settings.PASSWORD_RESET_LIMIT_IP_SECONDS
    )


def reset_email_limit() -> Limit:
    return Limit(
        settings.PASSWORD_RESET_LIMIT_EMAIL_ATTEMPTS, settings.PASSWORD_RESET_LIMIT_EMAIL_SECONDS
    )


def _address_key(request: Any, kind: str) -> str:
    meta = _http_request(request).META
    address = client_address(
        meta.get("REMOTE_ADDR", ""),
        meta.get("HTTP_X_FORWARDED_FOR", ""),
        settings.TRUST_X_FORWARDED_FOR,
    )
    return f"{kind}:ip:{address}"


def attempt(key: str, limit: Limit) -> int:
    """Count one attempt under ``key`` unless ``limit`` is reached: 0 when it may go on, else
    the seconds until it may (and it is not counted)."""
    if limit.failures <= 0:
        return 0
    stamps = cache.get(key, ())
    now = clock()
    seconds = retry_after(stamps, now, limit)
    if not seconds:
        cache.set(key, with_failure(stamps, now, limit), limit.seconds)
    return seconds


def signup_attempt(request: Any) -> int:
    """Count a sign-up (or sign-up through an invitation) from this request's address: 0, or
    the seconds to wait past SIGNUP_LIMIT_IP_ATTEMPTS."""
    return attempt(_address_key(request, "signups"), signup_limit())


def reset_attempt(request: Any) -> int:
    """Count a password reset asked from this request's address: 0, or the seconds to wait."""
    return attempt(_address_key(request, "password-resets"), reset_limit())


def reset_email_attempt(email: str) -> int:
    """Count a reset mail to ``email``: 0, or, past the limit, the seconds until another may
    go (meanwhile none is sent, and the page says what it always says)."""
    return attempt(f"password-resets:email:{account_key(email)}", reset_email_limit())
