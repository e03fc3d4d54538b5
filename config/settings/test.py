"""Test settings: fast hashing, in-memory email, eager Celery, throttling out of the way."""

import os

from .base import *

SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-test-only"
DEBUG = False
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Tasks run in-process even if the environment names a broker; CELERY_TEST_REAL_BROKER=1 opts out.
if not env_bool("CELERY_TEST_REAL_BROKER"):
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
    REVIEW_AT_MATCH_END = False

# The review task at 0-ply, as a reader computes it: fast; the tests of 1-ply set it to 1, and
REVIEW_TASK_DEPTH = 0
HINT_SECONDS = 0.0  # so is the hint: a test of the 1-ply hint gives it time

REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        "anon": "100000/second",
        "user": "100000/second",
        "writes": "100000/second",
    },
}

# One cache per test process (config/cache.py's shared default is tested on its own); tests/
# conftest.py clears it before each test, so no test sees another's login failures.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Serve static files through the finders, so tests need no collectstatic.
WHITENOISE_AUTOREFRESH = True

# SQLite: the test database lives in memory in shared-cache mode, where a live-server thread's
# read of a table that the test's thread is writing fails at once with "database table is
# locked" (a browser test's poll then saw a 503). Readers that take no table locks avoid it.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"]["OPTIONS"],
        "init_command": DATABASES["default"]["OPTIONS"]["init_command"]
        + "; PRAGMA read_uncommitted=1",
    }

# No channel layer, whatever the environment names: writes push nothing and pages open no socket
# (the live server speaks WSGI only). The tests of the sockets set a layer of their own, in memory
# or on a Redis they start (tests/games/test_sockets.py, tests/web/test_live_sockets.py).
CHANNEL_LAYERS = {}

# No evaluator unless a test installs one (tests/conftest.py's `weights` fixture writes tiny
# networks, `trained_weights` points at the committed ones): the committed weights/ would
# otherwise put chances on every spectator's page of every test.
ANALYSIS_WEIGHTS_DIR = BASE_DIR / "tests" / "no-weights"
