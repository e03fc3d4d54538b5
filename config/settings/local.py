"""Local development: DEBUG on, a throw-away secret key, SQLite unless DATABASE_URL is set;
without a broker (eager tasks, no beat) the server process ends overdue clocks itself every
second (config/lifespan.py)."""

import os

from .base import *

SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-local-development-only"
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "0.0.0.0", "[::1]"])

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# No broker means no beat: the server process sweeps the clocks (docs/decisions.md D96).
CLOCK_SWEEP_IN_PROCESS_SECONDS = env_int(
    "CLOCK_SWEEP_IN_PROCESS_SECONDS", 0 if CELERY_BROKER_URL else 1
)
