"""The API's JSON parser: DRF's, refusing bodies nested deeper than MAX_JSON_DEPTH with a 400.

DRF reads the body through Django's ``request.body``, which enforces
DATA_UPLOAD_MAX_MEMORY_SIZE (RequestDataTooBig: answered 413 by common.api.exceptions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from common.jsonlimits import MAX_JSON_DEPTH, JSONTooDeepError, check_depth

TOO_DEEP = (
    f"JSON parse error - the body is nested deeper than {MAX_JSON_DEPTH} levels "
    "of arrays and objects"
)


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser (strict: no NaN or Infinity), plus a bound on nesting: the decoder's
    RecursionError on ``[[[[...`` and any value deeper than MAX_JSON_DEPTH become a ParseError
    (400) instead of a 500."""

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
        return data
