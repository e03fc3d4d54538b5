"""The Celery app "tabla": configured from CELERY_* Django settings, tasks autodiscovered."""

import os

from celery import Celery

# Like wsgi.py and asgi.py: processes started outside manage.py default to production settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("tabla")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
