"""Routes of the tournaments API, mounted under /api/v1/ with the namespace "tournaments"."""

from django.urls import URLPattern, URLResolver

app_name = "tournaments"

urlpatterns: list[URLPattern | URLResolver] = []
