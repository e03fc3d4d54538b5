"""A bound on how deeply a parsed JSON value may nest (pure; no Django).

Python's decoder recurses once per level of ``[`` or ``{`` and raises RecursionError near the
interpreter's depth limit (about 1,000), and code that walks a parsed value (encoders, copies,
reprs) recurses the same way. No body of the API needs more than a handful of levels, so
anything deeper than MAX_JSON_DEPTH is refused as bad input before it reaches a view.
"""

from __future__ import annotations

import json
from typing import Any

MAX_JSON_DEPTH = 64


class JSONTooDeepError(ValueError):
    """A JSON value nested deeper than the limit."""

    def __init__(self, limit: int = MAX_JSON_DEPTH) -> None:
        super().__init__(f"JSON nested deeper than {limit} levels")
        self.limit = limit


def check_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise JSONTooDeepError if ``value`` (lists and dicts) nests deeper than ``limit``.

    Walks with an explicit stack, so a deep value cannot exhaust Python's.

    >>> check_depth([[1], {"a": [2]}], limit=3)
    >>> check_depth([[[[]]]], limit=3)
    Traceback (most recent call last):
    ...
    common.jsonlimits.JSONTooDeepError: JSON nested deeper than 3 levels
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise JSONTooDeepError(limit)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def loads(text: str | bytes, limit: int = MAX_JSON_DEPTH, **kwargs: Any) -> Any:
    """json.loads, refusing nesting deeper than ``limit`` with JSONTooDeepError (a ValueError,
    as is the decoder's JSONDecodeError) instead of a RecursionError.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads("[" * 100_000)
    Traceback (most recent call last):
    ...
    common.jsonlimits.JSONTooDeepError: JSON nested deeper than 64 levels
    """
    try:
        value = json.loads(text, **kwargs)
    except RecursionError:
        raise JSONTooDeepError(limit) from None
    check_depth(value, limit)
    return value
