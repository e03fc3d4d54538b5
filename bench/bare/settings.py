"""The local settings, with bench/bare/urls.py's endpoint beside the project's."""

from config.settings.local import *  # noqa: F403

ROOT_URLCONF = "bench.bare.urls"
