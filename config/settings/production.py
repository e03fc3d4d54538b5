"""Production: DEBUG off; SECRET_KEY, DATABASE_URL and ALLOWED_HOSTS must come from the
environment, and HTTPS (redirect, HSTS, secure cookies) is on unless turned off."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *
from .guards import require_allowed_hosts, require_strong_secret_key

DEBUG = False

# Startup fails on a missing or weak key (Django's W009 criteria: under 50 characters, under 5
# different ones, or "django-insecure-...") and on an empty ALLOWED_HOSTS.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
require_strong_secret_key(SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
require_allowed_hosts(ALLOWED_HOSTS)

if not os.environ.get("DATABASE_URL"):
    raise ImproperlyConfigured("Set the DATABASE_URL environment variable for production.")
DATABASES = {"default": database_from_env()}

# HTTPS. SECURE_COOKIES=0 only for a deployment that is served over plain HTTP.
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Plain HTTP is redirected to HTTPS and browsers are told (HSTS) to use HTTPS for a year, unless
# SECURE_SSL_REDIRECT=0 / SECURE_HSTS_SECONDS=0. /healthz stays reachable over plain HTTP, for a
# load balancer's health check.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 60 * 60)
# Off by default: on an apex domain they would bind every other subdomain (and, preloaded, every
# browser for months) to HTTPS, which is not this service's call. The deploy check's warnings
# about them (security.W005, W021) are silenced while they are off.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [
    *(["security.W005"] if not SECURE_HSTS_INCLUDE_SUBDOMAINS else []),
    *(["security.W021"] if not SECURE_HSTS_PRELOAD else []),
]
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    # Only behind a proxy that always sets X-Forwarded-Proto itself.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Pushed updates need Redis here: gunicorn's processes write, uvicorn's hold the sockets, and a
# layer in memory would join nothing. Without CHANNEL_LAYER_URL there is no layer: the sockets
# are refused and the pages poll, as they did before them.
if not CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {}

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Mail (password resets): SMTP with the server from the environment; without EMAIL_HOST the
# mails are not sent but written to the log (console backend), so a reset asked on a server
# with no mail set up is seen by its operator.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tabla <noreply@localhost>")
