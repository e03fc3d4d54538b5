"""Production: DEBUG off; SECRET_KEY and DATABASE_URL must come from the environment."""

from django.core.exceptions import ImproperlyConfigured

from .base import *

DEBUG = False

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set the SECRET_KEY environment variable for production.")

if not os.environ.get("DATABASE_URL"):
    raise ImproperlyConfigured("Set the DATABASE_URL environment variable for production.")
DATABASES = {
    "default": dj_database_url.config(
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    ),
}

# HTTPS. SECURE_COOKIES=0 only for a deployment that is served over plain HTTP.
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    # Only behind a proxy that always sets X-Forwarded-Proto itself.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
