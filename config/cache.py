"""The cache every worker process shares: DRF's throttles and the login limits count in it.

``CACHE_URL`` picks it (``cache_from_url``): ``redis://host:6379/2`` (also ``rediss://`` and
``unix://``) for Redis, needed when the web processes run on more than one machine;
``file:///path`` for a directory; unset, a directory every process of this machine shares with no
server and no setup step (``default_cache_dir``, created on first use).
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

REDIS_SCHEMES = {"redis", "rediss", "unix"}
FILE_MAX_ENTRIES = 3000
# Redis answers a throttle's read in well under a millisecond; a Redis that does not answer in a
# quarter of a second is taken as down (redis-py's default, 5 s, made every request wait 10 to
# 45 s on a frozen one). After a failure the cache is not asked for PAUSE_SECONDS.
REDIS_TIMEOUT_SECONDS = 0.25
PAUSE_SECONDS = 10.0


def cache_from_url(url: str, default_dir: Path) -> dict[str, Any]:
    """Django's CACHES["default"] for CACHE_URL (empty: a directory under default_dir)."""
    url = url.strip()
    if not url:
        return file_cache(default_dir)
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in REDIS_SCHEMES:
        return {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": url,
            "OPTIONS": {
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
                "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
            },
        }
    if scheme == "file":
        if parts.netloc not in {"", "localhost"} or not parts.path.startswith("/"):
            raise ImproperlyConfigured(f"CACHE_URL {url!r}: give an absolute path, file:///...")
        return file_cache(Path(parts.path))
    raise ImproperlyConfigured(
        f"CACHE_URL {url!r}: expected redis://, rediss://, unix:// or file:///path"
    )


def default_cache_dir(project_dir: Path) -> Path:
    """In RAM where Linux offers it (/dev/shm), else ``.cache/django`` in the project.

    Each cache write replaces a file, and ext4 writes a replaced file's data out at the rename:
    a throttle's read and write took 0.65 to 1.6 ms on this project's disk, 0.15 ms in /dev/shm,
    and DRF's throttles write on every API request. The name is per user and per checkout."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        checkout = hashlib.sha256(str(project_dir).encode()).hexdigest()[:12]
        return shm / f"tabla-cache-{os.getuid()}-{checkout}"
    return project_dir / ".cache" / "django"


def file_cache(directory: Path) -> dict[str, Any]:
    return {
        "BACKEND": "config.cache.FileCache",
        "LOCATION": str(directory),
        "OPTIONS": {"MAX_ENTRIES": FILE_MAX_ENTRIES},
    }


class FileCache(FileBasedCache):
    """Django's file cache, but it counts its files on one write in CULL_EVERY rather than on
    every write: listing the directory made each write 3 times slower (0.4 ms -> 1.2 ms with 300
    files, 11 ms with 3000), and throttles write on every API request. The directory can so
    grow past MAX_ENTRIES by a few dozen files between two counts."""

    CULL_EVERY = 50

    def _cull(self) -> None:
        if random.randrange(self.CULL_EVERY) == 0:
            super()._cull()  # type: ignore[misc]  # private: not in django-stubs


_down_until = 0.0  # time.monotonic() before which this process does not ask Redis


def _down() -> bool:
    return time.monotonic() < _down_until


def _failed(error: RedisError, what: str) -> None:
    """Note a failed call: log it, and skip Redis for PAUSE_SECONDS (as common/push.py skips a
    failed channel layer and games/services/owed.py a failed broker)."""
    global _down_until
    _down_until = time.monotonic() + PAUSE_SECONDS
    logger.warning("cache unreachable, %s; not asked for %s s: %s", what, PAUSE_SECONDS, error)


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache that lets requests through while Redis is unreachable or hung: a
    read answers its default (no count, so no throttle or login limit applies), a write is
    dropped, and a warning is logged. Every call is bounded by REDIS_TIMEOUT_SECONDS (the
    OPTIONS that cache_from_url gives), and after a failure this process skips Redis for
    PAUSE_SECONDS, so a hung Redis costs one request a quarter of a second every ten seconds,
    not every request a wait. The cache only holds throttle and login-limit counts, and a Redis
    outage must not turn every API request into a 500 or a hang; the limits come back with
    Redis."""

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        if _down():
            return default
        try:
            return super().get(key, default, version)
        except RedisError as error:
            _failed(error, "read skipped")
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        if _down():
            return {}
        try:
            return dict(super().get_many(keys, version))
        except RedisError as error:
            _failed(error, "read skipped")
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        if _down():
            return False
        try:
            return bool(super().has_key(key, version))
        except RedisError as error:
            _failed(error, "read skipped")
            return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        if _down():
            return
        try:
            super().set(key, value, timeout, version)
        except RedisError as error:
            _failed(error, "write dropped")

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[Any]:
        if _down():
            return list(data)
        try:
            return list(super().set_many(data, timeout, version))
        except RedisError as error:
            _failed(error, "write dropped")
            return list(data)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        if _down():
            return False
        try:
            return bool(super().add(key, value, timeout, version))
        except RedisError as error:
            _failed(error, "write dropped")
            return False

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        if _down():
            return False
        try:
            return bool(super().touch(key, timeout, version))
        except RedisError as error:
            _failed(error, "write dropped")
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        if _down():
            return False
        try:
            return bool(super().delete(key, version))
        except RedisError as error:
            _failed(error, "delete dropped")
            return False

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        if _down():
            return
        try:
            super().delete_many(keys, version)
        except RedisError as error:
            _failed(error, "delete dropped")
