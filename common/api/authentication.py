"""Token authentication that remembers, for a few seconds, which user a token belongs to.

DRF's TokenAuthentication reads the token and its user from the database on every request; on
the play path that query cost more than checking the play. Here a worker process keeps the
answer for ``TOKEN_CACHE_SECONDS`` (default 30; 0 turns the cache off). A deleted token or a
changed user is dropped from this process's cache at once; other worker processes may still
accept a revoked token, or a deactivated user, for at most that long.

Why it stays (``bench/api_plays.py``, 8 clients, two sync workers, 2-core machine, 2026-11):
with the cache 365–449 verified plays/s on SQLite and 222–319 on PostgreSQL; without it
254–398 and 159–255, with 0.6–2 ms more server CPU a play (the token query and the user
query). A deployment that must refuse a revoked token at once sets ``TOKEN_CACHE_SECONDS=0``.
"""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models.signals import post_delete, post_save
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

_cache: dict[str, tuple[float, AbstractBaseUser, Token]] = {}  # key -> (expires, user, token)
_lock = threading.Lock()
_MAX_ENTRIES = 10_000


def _seconds() -> float:
    return float(getattr(settings, "TOKEN_CACHE_SECONDS", 30))


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, Token]:
        now = time.monotonic()
        entry = _cache.get(key)
        if entry is not None and entry[0] > now:
            # A copy per request: request.user is never shared between threads.
            return copy.copy(entry[1]), entry[2]
        user, token = super().authenticate_credentials(key)  # 401 for a bad or inactive one
        seconds = _seconds()
        if seconds > 0:
            with _lock:
                if len(_cache) >= _MAX_ENTRIES:
                    _cache.clear()
                _cache[key] = (now + seconds, copy.copy(user), token)
        return user, token


def forget_token(sender: type, instance: Token, **kwargs: Any) -> None:
    with _lock:
        _cache.pop(instance.key, None)


def forget_user(sender: type, instance: AbstractBaseUser, **kwargs: Any) -> None:
    with _lock:
        for key in [key for key, entry in _cache.items() if entry[1].pk == instance.pk]:
            del _cache[key]


post_delete.connect(forget_token, sender=Token, dispatch_uid="tabla-forget-token")
post_save.connect(forget_user, sender=get_user_model(), dispatch_uid="tabla-forget-user")
