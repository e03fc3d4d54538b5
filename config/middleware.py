"""Middleware of the project itself."""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from config.views import database_unavailable

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
