"""The club laptop (``make club``, config/club.py): the embedded defaults served to the club's
network. DEBUG off (an error shows the site's own page, never a traceback), the laptop's network
addresses allowed, a secret key made once and kept in ``.club/secret_key`` outside git, SQLite,
the socket layer in memory and eager tasks, as under ``make run``; plain HTTP, since a club's
Wi-Fi has no certificate. Static files are collected by ``make club`` and served by WhiteNoise.
"""

import os

from config.club import club_dir, lan_addresses, secret_key

from .base import *

DEBUG = False
SECRET_KEY = os.environ.get("SECRET_KEY") or secret_key(club_dir())
ALLOWED_HOSTS = [
    "localhost",
    "127.0.0.1",
    "[::1]",
    *lan_addresses(),
    *env_list("ALLOWED_HOSTS"),
]

# Plain HTTP on the club's network: no secure-only cookies, no redirect to HTTPS.
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_SSL_REDIRECT = False

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
