"""Local development: DEBUG on, a throw-away secret key, SQLite unless DATABASE_URL is set."""

import os

from .base import *

SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-local-development-only"
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "0.0.0.0", "[::1]"])

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
