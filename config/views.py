"""Operational views that sit outside the versioned API."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer {"status": "ok"} once a trivial query has reached the database, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "detail": "database unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


@extend_schema(
    request=AuthTokenSerializer,
    responses={
        200: inline_serializer("AuthTokenResponse", {"token": serializers.CharField()}),
        400: OpenApiTypes.OBJECT,
    },
)
class TokenView(ObtainAuthToken):
    """POST username and password, get the API token for `Authorization: Token <key>`."""


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """404 for any unknown URL as JSON, like the API's own errors (used when DEBUG is off)."""
    return JsonResponse({"detail": "Not found."}, status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"detail": "Internal server error."}, status=500)
