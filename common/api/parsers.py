"""The API's JSON parser: DRF's, refusing bodies nested deeper than MAX_JSON_DEPTH, and keys or
strings holding a lone surrogate or a NUL (common.jsonlimits), with a 400.

DRF reads the body through Django's ``request.body``, which enforces
DATA_UPLOAD_MAX_MEMORY_SIZE (RequestDataTooBig: answered 413 by common.api.exceptions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from common.jsonlimits import (
    MAX_JSON_DEPTH,
    JSONBadTextError,
    JSONTooDeepError,
    check_depth,
    check_text,
)

TOO_DEEP = (
    f"JSON parse error - the body is nested deeper than {MAX_JSON_DEPTH} levels "
    "of arrays and objects"
)


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser (strict: no NaN or Infinity), plus a bound on nesting: the decoder's
    RecursionError on ``[[[[...`` and any value deeper than MAX_JSON_DEPTH become a ParseError
    (400) instead of a 500; so does a lone surrogate (``{"\\ud800": 1}``: an answer echoing it
    could not be encoded) or a NUL (which PostgreSQL cannot store) in any key or string."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            check_depth(data)
        except (RecursionError, JSONTooDeepError):
            raise ParseError(TOO_DEEP) from None
        try:
            check_text(data)
        except JSONBadTextError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        return data
