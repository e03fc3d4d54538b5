"""Middleware of the project itself."""

import logging
from collections.abc import Callable, Iterable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from config.views import database_unavailable, input_refused

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """A database error in a view or its template (database down, connection lost, deadlock)
    answers 503 with Retry-After and a static page, not the 500 page: the request may succeed
    when retried. The driver's message names the database host and port, so it is only logged.
    (API views answer their own JSON 503 in common.api.exceptions; this covers the rest.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database error on %s: %s", request.path, exception, exc_info=exception)
        return database_unavailable(request)


NUL_IN_PATH = "the URL path holds a NUL character (%00)"


def nul_refusal(path: str, query: Iterable[tuple[str, list[str]]]) -> str | None:
    """Why a request whose decoded path and query parameters are these is refused, if it is: a
    NUL (``%00``), which PostgreSQL cannot hold in text (a filter on it was a DataError, a 500).

    >>> nul_refusal("/api/v1/tournaments/1/bracket/", [("stage", ["main"])]) is None
    True
    >>> nul_refusal("/", [("stage", ["a\\x00"])])
    'the query parameter "stage" holds a NUL character (%00)'
    """
    if "\x00" in path:
        return NUL_IN_PATH
    for name, values in query:
        if "\x00" in name or any("\x00" in value for value in values):
            shown = name.replace("\x00", "%00")
            return f'the query parameter "{shown}" holds a NUL character (%00)'
    return None


def nul_parameter(query: Iterable[tuple[str, list[str]]]) -> str | None:
    """The first query parameter whose value holds a NUL (its name has none), if any: the API's
    400 names it as a field, as a filter's own validation would."""
    for name, values in query:
        if "\x00" not in name and any("\x00" in value for value in values):
            return name
    return None


class RefuseNulMiddleware:
    """A NUL in the path or a query parameter answers 400 (JSON under /api/) before any view
    reads it. Form fields and JSON bodies are checked where they are parsed: Django's and DRF's
    CharField refuse a NUL, the API's JSON parser refuses one anywhere (common.jsonlimits)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refusal = nul_refusal(request.path, request.GET.lists())
        if refusal is not None:
            return input_refused(request, refusal, field=nul_parameter(request.GET.lists()))
        return self.get_response(request)
