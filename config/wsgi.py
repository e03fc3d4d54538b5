"""WSGI entry point (`gunicorn config.wsgi`); defaults to production settings."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()

# What is loaded by now (modules, settings, URL patterns, models, the engine's tables) lives as
# long as the process. Freezing it takes it out of the cyclic collector's sight: a full
# collection walked all of it, and paused a worker's threads for 100-190 ms a few times a
# minute under load (bench/api_plays.py p99). With --preload it also keeps forked workers'
# pages shared.
gc.collect()
gc.freeze()
