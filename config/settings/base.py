"""Settings shared by every environment; secrets and service URLs come from the environment."""

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext

from config.cache import cache_from_url, default_cache_dir
from config.database import SQLITE, SQLITE_OPTIONS, postgresql_bounded, query_deadline
from config.layers import channel_layer_from_url

# Django's generic classes (ModelAdmin, ModelForm, Paginator) subscriptable at runtime, as
# django-stubs types them: admin.ModelAdmin[Match] (DRF's and QuerySet already are).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Read a flag such as DEBUG=1 / DEBUG=false; unset or empty gives the default."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Read a comma-separated list; unset or empty gives the default."""
    items = [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]
    return items or list(default or [])


# Core

SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The address players reach the site at, for printed QR codes and invitation links (common/site.py);
# empty: the address of the request. `make club` sets it to the laptop's network address.
SITE_URL = os.environ.get("SITE_URL", "")
# Every wait on the SMTP server bounded (the notifications' e-mails are sent by a task after the
# commit, but run in the request when Celery runs tasks eagerly: docs/decisions.md D116).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "auditlog",
    "players",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A NUL in the path or a query parameter answers 400 before any view (config/middleware.py).
    "config.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The language stored on an account goes into the language cookie at log-in (players.signals).
    "players.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
# A database error in a view answers 503 with Retry-After (config/middleware.py). Last in the
# list, so that its process_exception runs first.
MIDDLEWARE += ["config.middleware.DatabaseUnavailableMiddleware"]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL, e.g. postgres://user:password@host:5432/tabla

# PostgreSQL's waits are bounded (config/postgresql_bounded, docs/decisions.md D52), so a hung
# server answers 503 in seconds like a stopped one: DATABASE_CONNECT_TIMEOUT to connect,
# DATABASE_STATEMENT_TIMEOUT / DATABASE_LOCK_TIMEOUT (the server's statement_timeout and
# lock_timeout), all in seconds, 0: unbounded. The client itself gives up on a call after
# DATABASE_QUERY_DEADLINE seconds (default: the statement timeout plus one) and drops the
# connection; the server may be frozen and never act on its own timeout.
DATABASE_CONNECT_TIMEOUT = env_int("DATABASE_CONNECT_TIMEOUT", 3)
DATABASE_STATEMENT_TIMEOUT = env_int("DATABASE_STATEMENT_TIMEOUT", 5)
DATABASE_LOCK_TIMEOUT = env_int("DATABASE_LOCK_TIMEOUT", 3)
DATABASE_QUERY_DEADLINE = query_deadline(
    DATABASE_STATEMENT_TIMEOUT,
    float(os.environ["DATABASE_QUERY_DEADLINE"])
    if os.environ.get("DATABASE_QUERY_DEADLINE")
    else None,
)


def database_from_env(**defaults: Any) -> dict[str, Any]:
    """DATABASE_URL's database, its PostgreSQL waits bounded as above."""
    return postgresql_bounded(
        dict(
            dj_database_url.config(
                conn_max_age=env_int("CONN_MAX_AGE", 60), conn_health_checks=True, **defaults
            )
        ),
        DATABASE_CONNECT_TIMEOUT,
        DATABASE_STATEMENT_TIMEOUT,
        DATABASE_LOCK_TIMEOUT,
    )


DATABASES = {"default": database_from_env(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == SQLITE:
    DATABASES["default"]["OPTIONS"] = dict(SQLITE_OPTIONS)  # config/database.py

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalization and time

LANGUAGE_CODE = "en"
# The pages' languages, each under its own name (the footer's switch); the catalogues are in
# locale/ (docs/translations.md).
LANGUAGES = [
    ("en", "English"),
    ("mk", "Македонски"),
    ("bg", "Български"),
    ("el", "Ελληνικά"),
    ("tr", "Türkçe"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Web pages: log in and out with django.contrib.auth's views (templates/registration/).

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"

# Static files, served by WhiteNoise

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Django REST framework and the OpenAPI schema

# Seconds a worker remembers which user an API token belongs to (common/api/authentication.py).
TOKEN_CACHE_SECONDS = env_int("TOKEN_CACHE_SECONDS", 30)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first, so an unauthenticated request gets 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "common.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_PAGINATION_CLASS": "common.api.pagination.CappedPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_RATE_ANON", "120/minute"),
        "user": os.environ.get("THROTTLE_RATE_USER", "600/minute"),
        # POST endpoints of the games API (common.api.throttling.WriteRateThrottle).
        "writes": os.environ.get("THROTTLE_RATE_WRITES", "240/minute"),
    },
    "EXCEPTION_HANDLER": "common.api.exceptions.exception_handler",
    # Input limits: JSON bodies nested deeper than common.jsonlimits.MAX_JSON_DEPTH are a 400
    # (not a RecursionError); bodies over DATA_UPLOAD_MAX_MEMORY_SIZE a JSON 413.
    "DEFAULT_PARSER_CLASSES": [
        "common.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

# Shared cache, login limits and the client address (config/cache.py, config/login_limits.py).
# CACHE_URL: redis://host:6379/2 (rediss://, unix://) or file:///path; unset, a directory in
# /dev/shm (else .cache/django in the project), shared by every process of this machine.
CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", ""), default_cache_dir(BASE_DIR))}
# Failed password log-ins allowed per client address, per address and account (username; the
# lock-out), and per account from any address (a higher ceiling), each in a sliding window; past
# that 429 with Retry-After, before the password is hashed. 0 failures: no limit. While the
# cache is unreachable they fail open (docs/decisions.md D51, D53).
LOGIN_LIMIT_IP_FAILURES = env_int("LOGIN_LIMIT_IP_FAILURES", 20)
LOGIN_LIMIT_IP_SECONDS = env_int("LOGIN_LIMIT_IP_SECONDS", 10 * 60)
LOGIN_LIMIT_PAIR_FAILURES = env_int("LOGIN_LIMIT_PAIR_FAILURES", 10)
LOGIN_LIMIT_PAIR_SECONDS = env_int("LOGIN_LIMIT_PAIR_SECONDS", 15 * 60)
LOGIN_LIMIT_ACCOUNT_FAILURES = env_int("LOGIN_LIMIT_ACCOUNT_FAILURES", 100)
LOGIN_LIMIT_ACCOUNT_SECONDS = env_int("LOGIN_LIMIT_ACCOUNT_SECONDS", 15 * 60)
# Sign-ups (also through an invitation) and password resets asked per client address, and reset
# mails per e-mail address, in a sliding window in the same cache: past the address limits 429
# with Retry-After; past the e-mail one no mail, and the same page (docs/decisions.md D88).
SIGNUP_LIMIT_IP_ATTEMPTS = env_int("SIGNUP_LIMIT_IP_ATTEMPTS", 10)
SIGNUP_LIMIT_IP_SECONDS = env_int("SIGNUP_LIMIT_IP_SECONDS", 60 * 60)
PASSWORD_RESET_LIMIT_IP_ATTEMPTS = env_int("PASSWORD_RESET_LIMIT_IP_ATTEMPTS", 5)
PASSWORD_RESET_LIMIT_IP_SECONDS = env_int("PASSWORD_RESET_LIMIT_IP_SECONDS", 60 * 60)
PASSWORD_RESET_LIMIT_EMAIL_ATTEMPTS = env_int("PASSWORD_RESET_LIMIT_EMAIL_ATTEMPTS", 3)
PASSWORD_RESET_LIMIT_EMAIL_SECONDS = env_int("PASSWORD_RESET_LIMIT_EMAIL_SECONDS", 60 * 60)
AUTHENTICATION_BACKENDS = [
    "config.login_limits.LoginLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# The client is REMOTE_ADDR, unless TRUST_X_FORWARDED_FOR=N names the number of proxies in front
# that append to X-Forwarded-For: then the Nth address from its right. Login limits and DRF's
# throttles (NUM_PROXIES) use the same rule; DRF would otherwise believe the client's header.
TRUST_X_FORWARDED_FOR = env_int("TRUST_X_FORWARDED_FOR", 0)
REST_FRAMEWORK["NUM_PROXIES"] = TRUST_X_FORWARDED_FOR

SPECTACULAR_SETTINGS = {
    "TITLE": "Tabla API",
    "DESCRIPTION": "Matches and tournaments of Tabla, Gjul Bara and Tapa.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs load Swagger UI and Redoc from static files (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.Match.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "ReportStatusEnum": "games.models.ResultReport.Status",
        "TurnKindEnum": "games.models.Turn.Kind",
        "ResultKindEnum": "games.models.RESULT_KINDS",
        "SeedMethodEnum": "tournaments.models.Tournament.SeedMethod",
        "AwaitingReasonEnum": "games.selectors.AWAITING_REASONS",
        "ClockSideEnum": "games.models.Match.ClockSide",
        "ClockPresetEnum": "games.clock.PRESETS",
        "MatchEndedByEnum": "games.models.Match.EndedBy",
    },
    # Every operation documents the 400 that a NUL in its path or query answers.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "common.api.schema.document_refused_input",
    ],
}

# Pushed updates (common/push.py, config/asgi.py): the channel layer that carries a commit's news
# from the process that wrote it to the ASGI processes holding the WebSockets. CHANNEL_LAYER_URL,
# e.g. redis://host:6379/3, uses Redis pub/sub (docs/decisions.md D49); unset, a layer in memory,
# which reaches only the sockets of the same process: enough for `make run`, where one uvicorn
# process serves pages and sockets. Redis is given short timeouts, so that a dead one fails a
# broadcast fast (the write stands; pages fall back to polling).
CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL", "")
CHANNEL_LAYERS = {"default": channel_layer_from_url(CHANNEL_LAYER_URL)}
# Socket limits (common/sockets.py, docs/decisions.md D60): open sockets per client address
# (TRUST_X_FORWARDED_FOR's rule) and per logged-in user, counted by each ASGI process (0: no
# limit); past them a handshake answers 403. A socket whose client sent nothing (the pages send
# a heartbeat every 60 s) for SOCKET_IDLE_SECONDS is closed (0: never).
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", 50)
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 20)
SOCKET_IDLE_SECONDS = env_int("SOCKET_IDLE_SECONDS", 5 * 60)

# Celery: with no broker configured, tasks run eagerly in-process.

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
# A match's end queues its review (games.postgame.review_warm) only where a broker runs the tasks:
# run eagerly it would add seconds to the match-ending request (docs/decisions.md D138).
REVIEW_AT_MATCH_END = not CELERY_TASK_ALWAYS_EAGER
# The depth that task reviews at (1: each candidate against the 21 rolls, D151); a reader who
# finds a game not reviewed yet gets it at 0-ply at once (D133).
REVIEW_TASK_DEPTH = env_int("REVIEW_TASK_DEPTH", 1)
# The practice hint looks 1 ply ahead within this many seconds, else it gives the 0-ply best (D151).
HINT_SECONDS = float(os.environ.get("HINT_SECONDS", "0.5"))
# The strongest practice computer plays 1 ply deep (0: its 0-ply best), D151.
PRACTICE_STRONG_DEPTH = env_int("PRACTICE_STRONG_DEPTH", 1)
CELERY_TIMEZONE = TIME_ZONE
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# The beat process (`celery -A config beat`) recomputes everything now and then, as a safety net
# for a lost task; each run is idempotent.
CELERY_BEAT_SCHEDULE = {
    "standings-recompute-all": {
        "task": "tournaments.tasks.standings_recompute_all",
        "schedule": env_int("STANDINGS_RECOMPUTE_SECONDS", 15 * 60),
    },
    # In chunks, outside any request (docs/decisions.md D77); a run still queued when the next
    # is due is dropped, so a busy worker does not pile them up.
    "ratings-recompute": {
        "task": "games.tasks.ratings_recompute",
        "schedule": env_int("RATINGS_RECOMPUTE_SECONDS", 60 * 60),
        "options": {"expires": env_int("RATINGS_RECOMPUTE_SECONDS", 60 * 60)},
    },
    "open-challenges-expire": {
        "task": "games.tasks.open_challenges_expire",
        "schedule": env_int("OPEN_CHALLENGES_EXPIRE_SECONDS", 15 * 60),
    },
}

# Celery when the broker or a worker fails (games/services/owed.py; README, Production).
# - A publish fails fast instead of retrying for seconds while the request waits: no publish
#   retries, one connection attempt, half-second socket timeouts (a broker that swallows
#   packets, or a frozen Redis, costs one timeout, not a hang). The failed task is recorded as
#   owed and run when a worker (re)connects to the broker, or at the beat's owed-tasks run
#   (every OWED_TASKS_SECONDS, default a minute).
# - A task is acknowledged after it ran (late acks; one task reserved at a time), so a worker
#   killed mid-task leaves the task in Redis, which hands it out again once the visibility timeout
#   has passed; when only a pool process dies, reject-on-worker-lost requeues it at once. The
#   recomputes are idempotent, so a second run is harmless. The visibility timeout (five minutes,
#   CELERY_VISIBILITY_TIMEOUT) is far above the longest recompute (seconds), so a task still
#   running is not handed out twice, and short enough that a lost one is soon run again.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 0,  # a publish tries to connect once (the worker's own reconnecting differs)
    # A hung Redis (accepting, never answering) costs a publish this, then the pause above.
    "socket_connect_timeout": 0.5,
    "socket_timeout": 0.5,
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 5 * 60),
}
CELERY_BEAT_SCHEDULE["owed-tasks-run"] = {
    "task": "games.tasks.owed_tasks_run",
    "schedule": env_int("OWED_TASKS_SECONDS", 60),
}

# Match clocks (games/services/clock.py): the beat ends every clock that has run out every
# CLOCK_SWEEP_SECONDS and publishes the deadline task of each clock falling due within
# CLOCK_SCHEDULE_SECONDS (as does a turn that starts with so little time), so a deadline is kept
# to the second while a sweep that was lost or late is covered by the next. A sweep still queued
# when the next is due is dropped (expires).
CLOCK_SWEEP_SECONDS = env_int("CLOCK_SWEEP_SECONDS", 15)
CLOCK_SCHEDULE_SECONDS = 2 * CLOCK_SWEEP_SECONDS
# Where no beat runs, each ASGI process may run the sweep itself (config/lifespan.py): every this
# many seconds; 0, the default and production's, never (local.py turns it on without a broker).
CLOCK_SWEEP_IN_PROCESS_SECONDS = 0
CELERY_BEAT_SCHEDULE["clocks-sweep"] = {
    "task": "games.tasks.clocks_sweep",
    "schedule": CLOCK_SWEEP_SECONDS,
    "options": {"expires": CLOCK_SWEEP_SECONDS},
}

# Challenges waiting for an answer (status "invited"): at most this many sent by one player and
# sent to one player (games.services.match_propose refuses another with 409); GET /me/ embeds
# at most ME_AWAITING_LIMIT of the matches waiting for the user (docs/decisions.md D54).
CHALLENGES_PENDING_PER_CHALLENGER = env_int("CHALLENGES_PENDING_PER_CHALLENGER", 20)
CHALLENGES_PENDING_PER_PLAYER = env_int("CHALLENGES_PENDING_PER_PLAYER", 50)
ME_AWAITING_LIMIT = env_int("ME_AWAITING_LIMIT", 100)
# The lobby (docs/decisions.md D91): the open challenges one player may have posted at once, and
# the hours an open challenge waits for a taker before it expires.
OPEN_CHALLENGES_PER_PLAYER = env_int("OPEN_CHALLENGES_PER_PLAYER", 3)
OPEN_CHALLENGE_HOURS = env_int("OPEN_CHALLENGE_HOURS", 24)

# Tournament bounds (docs/decisions.md D57): the most entries a tournament may have, the most
# matches one start may create (a round robin's whole schedule, a bracket, a Swiss round), and
# the most friendly tournaments one user may have open (not finished) at once. A tournament that
# is rated, or whose creator may run rated ones (staff, "tournaments.run_rated_tournament"), has
# the *_TRUSTED bounds. 0: no bound.
TOURNAMENT_MAX_ENTRIES = env_int("TOURNAMENT_MAX_ENTRIES", 256)
TOURNAMENT_MAX_ENTRIES_TRUSTED = env_int("TOURNAMENT_MAX_ENTRIES_TRUSTED", 1024)
TOURNAMENT_MAX_START_MATCHES = env_int("TOURNAMENT_MAX_START_MATCHES", 2000)
TOURNAMENT_MAX_START_MATCHES_TRUSTED = env_int("TOURNAMENT_MAX_START_MATCHES_TRUSTED", 10_000)
TOURNAMENT_MAX_OPEN_FRIENDLY = env_int("TOURNAMENT_MAX_OPEN_FRIENDLY", 5)
TOURNAMENT_MAX_OPEN_FRIENDLY_TRUSTED = env_int("TOURNAMENT_MAX_OPEN_FRIENDLY_TRUSTED", 50)

# The chances shown to spectators (games/chances.py, docs/analysis.md "On the site"): each
# variant's evaluator is ANALYSIS_WEIGHTS_DIR/<variant>.npz, loaded once per process; a variant
# without its file offers no chances anywhere. Spectators of a rated match, and of a tournament's
# whose organisers keep the default "one move behind", see the chances this many turns behind
# while the match is on (docs/decisions.md D129, D135).
ANALYSIS_WEIGHTS_DIR = Path(os.environ.get("TABLA_WEIGHTS_DIR") or BASE_DIR / "weights")
CHANCES_SPECTATOR_DELAY_TURNS = env_int("CHANCES_SPECTATOR_DELAY_TURNS", 1)
CHANCES_CACHE_SECONDS = env_int("CHANCES_CACHE_SECONDS", 6 * 60 * 60)
CHANCES_MAX_POINTS = env_int("CHANCES_MAX_POINTS", 2000)

# Audit log (django-auditlog): actors are set explicitly by the tournament services (and by the
# games forfeit endpoint, for what a forfeit changes in a tournament).
AUDITLOG_INCLUDE_ALL_MODELS = False

# Logging: everything to the console, level from LOG_LEVEL.

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "console"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}

# Content-Security-Policy on every response (django-csp; Django 5.2 has none built in, 6.0's
# SECURE_CSP takes the same directives). The pages run only scripts and styles from our own
# static files: no inline script, no inline style, no other origin. The API docs relax
# style-src for themselves (config/urls.py).

INSTALLED_APPS += ["csp"]
MIDDLEWARE += ["csp.middleware.CSPMiddleware"]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    },
}
