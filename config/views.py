"""Operational views that sit outside the versioned API (health check, favicon), and the site's
404 and 500 handlers."""

import math
import sys
from collections.abc import Sequence
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import BadRequest
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseServerError,
    JsonResponse,
)
from django.shortcuts import render
from django.template import loader
from django.urls import reverse
from django.views import defaults
from django.views.decorators.http import require_safe
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from common.api.exceptions import DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS, request_limit_error
from config import login_limits
from tournaments.web.your_matches import landing_url

LOGIN_REFUSED = "Too many failed log-in attempts from this address or for this account."


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer {"status": "ok"} once a trivial query has reached the database, else 503 with
    Retry-After (the driver's message is not shown: it may name the database host)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        response = JsonResponse({"status": "error", "detail": "database unavailable"}, status=503)
        response["Retry-After"] = RETRY_AFTER_SECONDS
        return response
    return JsonResponse({"status": "ok"})


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """/favicon.ico, which browsers and feed readers ask for unprompted: a permanent redirect to
    the site's icon, static/favicon.svg. The unhashed static URL, which stays valid across
    deploys (the manifest storage keeps the original name beside the hashed copy), so the
    cached redirect never points at a removed file."""
    return HttpResponsePermanentRedirect(f"{settings.STATIC_URL}favicon.svg")


@extend_schema(
    request=AuthTokenSerializer,
    responses={
        200: inline_serializer("AuthTokenResponse", {"token": serializers.CharField()}),
        400: OpenApiTypes.OBJECT,
        429: OpenApiTypes.OBJECT,
    },
)
class TokenView(ObtainAuthToken):
    """POST username and password, get the API token for `Authorization: Token <key>`.

    429 with Retry-After past the failed-login limits (config/login_limits.py), and the usual
    anonymous rate (DRF's ObtainAuthToken sets no throttle)."""

    # api_settings imports the classes its settings name (DRF's stubs type them as the names).
    throttle_classes = cast(Sequence[type[BaseThrottle]], api_settings.DEFAULT_THROTTLE_CLASSES)
    # The API's parsers (ObtainAuthToken names DRF's own), so the JSON nesting bound holds here.
    parser_classes = cast(Sequence[type[BaseParser]], api_settings.DEFAULT_PARSER_CLASSES)

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            seconds = login_limits.refused_for(request)
            if seconds:
                raise Throttled(wait=seconds, detail=LOGIN_REFUSED) from None
            raise


class LoginView(auth_views.LoginView):
    """The web log-in form; past the failed-login limits it answers 429 with Retry-After and
    says so on the form. Without a ``next``, an organiser lands on the tournaments list and
    everyone else on the home page (tournaments.web.your_matches.landing_url, D117)."""

    def get_success_url(self) -> str:
        """The ``next`` asked for, but for the home page, which the header's "Log in" names
        from the home page itself: there the user's own landing is what they want."""
        url = self.get_redirect_url()
        if url and url != reverse("web:home"):
            return url
        return landing_url(self.request.user)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        seconds = login_limits.refused_for(self.request)
        if not seconds:
            return super().form_invalid(form)
        context = self.get_context_data(form=form, retry_minutes=math.ceil(seconds / 60))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(seconds)
        return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 for any unknown URL (used when DEBUG is off): JSON like the API's own errors under
    /api/, the site's HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return render(request, "404.html", status=404)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 for what Django refuses outside a view's own error handling (e.g. a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE read by a middleware): JSON under /api/ (413 for a too large
    body, as the API's views answer it), else Django's page."""
    if _is_api(request):
        code, detail = request_limit_error(exception) or (400, "Bad request.")
        return JsonResponse({"detail": detail}, status=code)
    return defaults.bad_request(request, exception)


def input_refused(request: HttpRequest, detail: str, *, field: str | None = None) -> HttpResponse:
    """400 for input refused before any view (config.middleware): JSON naming what is wrong
    under /api/ (and, for one query parameter, that parameter as a field: ``{"search": [...]}``,
    as the API's own validation names it), else Django's 400 page."""
    if _is_api(request):
        body: dict[str, Any] = {"detail": detail}
        if field is not None:
            body[field] = [detail]
        return JsonResponse(body, status=400)
    return defaults.bad_request(request, BadRequest(detail))


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After for a database error (unreachable, or a deadlock): JSON under /api/,
    else the static 503 page, rendered without the request's context (which reads the database).
    The error itself is logged by the caller, never shown."""
    if _is_api(request):
        response: HttpResponse = JsonResponse({"detail": DATABASE_UNAVAILABLE}, status=503)
    else:
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = RETRY_AFTER_SECONDS
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/, else a static HTML page rendered without the request's context
    (the failure may lie in what the context processors read, such as the database). A database
    error raised outside a view (say a session saved by middleware) answers 503 instead: Django
    calls this handler while handling the exception (WSGI), so ``sys.exc_info`` names it."""
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return database_unavailable(request)
    if _is_api(request):
        return JsonResponse({"detail": "Internal server error."}, status=500)
    return HttpResponseServerError(loader.get_template("500.html").render())
