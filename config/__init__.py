"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app."""

from .celery_app import app as celery_app

__all__ = ("celery_app",)
