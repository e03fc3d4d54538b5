"""Turns service and engine errors into JSON responses with a clear message, never a 500.

Apps add their own error classes with ``register_error_status`` (games registers the engine's
EngineError as a 400 in GamesConfig.ready), so this module imports no app."""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import ConflictError, InvalidRequestError, NotAllowedError

logger = logging.getLogger(__name__)

# The 503 answer to a database error (also used by config.views for pages and /healthz): no
# driver message, which may name the database host, port or user.
DATABASE_UNAVAILABLE = "the database could not complete the request; retry"
RETRY_AFTER_SECONDS = "1"

STATUS_FOR: list[tuple[type[Exception], int]] = [
    (NotAllowedError, status.HTTP_403_FORBIDDEN),
    (ConflictError, status.HTTP_409_CONFLICT),
    (InvalidRequestError, status.HTTP_400_BAD_REQUEST),
]


def register_error_status(error_class: type[Exception], code: int) -> None:
    """Answer ``error_class`` (and its subclasses) with ``code`` and the error's message, e.g.
    an app's own errors raised below its API. Registering a class twice changes nothing."""
    if (error_class, code) not in STATUS_FOR:
        STATUS_FOR.append((error_class, code))


def request_limit_error(exc: BaseException | None) -> tuple[int, str] | None:
    """Status and message for Django's request limits: 413 for a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE, 400 for a form with more fields or files than
    DATA_UPLOAD_MAX_NUMBER_FIELDS / _FILES. Django raises these while the body is read and would
    otherwise answer its HTML 400 page; None for any other exception."""
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return 413, f"the request body is larger than the limit of {limit} bytes"
    if isinstance(exc, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        return 400, f"the form has more than the limit of {limit} fields"
    if isinstance(exc, TooManyFilesSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        return 400, f"the form has more than the limit of {limit} files"
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus: 403 not allowed, 409 conflict, 400 invalid input or engine error,
    503 (retry) when the database could not complete the request: a deadlock or lock timeout
    between concurrent writes, or the database unreachable. The request's transaction was rolled
    back, so retrying is safe; a stale ``ply`` then answers 409. The 503 body is generic: the
    driver's message (host, port, user) goes to the log, never to the client. Request size
    limits: see request_limit_error."""
    limited = request_limit_error(exc)
    if limited is not None:
        code, detail = limited
        logging.getLogger(f"django.security.{type(exc).__name__}").warning(str(exc))
        return Response({"detail": detail}, status=code)
    for error_class, code in STATUS_FOR:
        if isinstance(exc, error_class):
            # an error may add fields to the answer (e.g. when a refused claim becomes possible)
            return Response({"detail": str(exc), **getattr(exc, "extra", {})}, status=code)
    if isinstance(exc, OperationalError | InterfaceError):
        request = context.get("request")
        logger.warning(
            "database error on %s: %s", getattr(request, "path", "?"), exc, exc_info=exc
        )
        return Response(
            {"detail": DATABASE_UNAVAILABLE},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": RETRY_AFTER_SECONDS},
        )
    return drf_exception_handler(exc, context)
