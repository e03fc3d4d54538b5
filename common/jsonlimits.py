"""Bounds on what a parsed JSON value may hold (pure; no Django).

Depth: Python's decoder recurses once per level of ``[`` or ``{`` and raises RecursionError near
the interpreter's depth limit (about 1,000), and code that walks a parsed value (encoders,
copies, reprs) recurses the same way. No body of the API needs more than a handful of levels, so
anything deeper than MAX_JSON_DEPTH is refused as bad input before it reaches a view.

Text: JSON's ``\\ud800`` escapes may name a lone UTF-16 surrogate, which the decoder turns into a
str that cannot be encoded as UTF-8 (an error answer echoing it failed to render), and
``\\u0000`` a NUL, which PostgreSQL's text and jsonb cannot store. Neither is text anyone
types, so a key or string holding one is refused like a syntax error (docs/decisions.md D61).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

MAX_JSON_DEPTH = 64


class JSONTooDeepError(ValueError):
    """A JSON value nested deeper than the limit."""

    def __init__(self, limit: int = MAX_JSON_DEPTH) -> None:
        super().__init__(f"JSON nested deeper than {limit} levels")
        self.limit = limit


# A str holding one of these cannot be stored (NUL) or encoded as UTF-8 (a lone surrogate; a
# valid pair of \\u escapes decodes to one code point above U+FFFF, never to surrogates).
BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


class JSONBadTextError(ValueError):
    """A JSON key or string holding a lone surrogate or a NUL."""

    def __init__(self, character: str) -> None:
        escape = f"\\u{ord(character):04x}"
        if character == "\x00":
            message = f"the JSON holds a NUL character ({escape}), which text cannot hold"
        else:
            message = f"the JSON holds a lone surrogate ({escape}), which is not valid text"
        super().__init__(message)


def bad_character(text: str) -> str | None:
    """The first lone surrogate or NUL in ``text``, if any.

    >>> bad_character("Ana"), bad_character("a\\x00"), bad_character("\\ud83d\\ude00"[0])
    (None, '\\x00', '\\ud83d')
    """
    found = BAD_CHARACTER.search(text)
    return found.group() if found else None


def check_text(value: Any) -> None:
    """Raise JSONBadTextError if a key or string of ``value`` holds a lone surrogate or a NUL.

    >>> check_text({"name": ["Ana", "😀"]})
    >>> try:
    ...     check_text(json.loads('{"\\\\ud800": 1}'))
    ... except JSONBadTextError as error:
    ...     print(error)
    the JSON holds a lone surrogate (\\ud800), which is not valid text
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts: list[str] = [item]
        elif isinstance(item, dict):
            texts = [key for key in item if isinstance(key, str)]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for text in texts:
            character = bad_character(text)
            if character is not None:
                raise JSONBadTextError(character)


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
        children: Iterable[Any]
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
    as is the decoder's JSONDecodeError) instead of a RecursionError, and a lone surrogate or a
    NUL in a key or string with JSONBadTextError (a ValueError too).

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
    check_text(value)
    return value
