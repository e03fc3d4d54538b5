"""Whole numbers in text a client sent (pure; no Django).

``str.isdigit()`` is true of superscripts and other scripts' digits ("²", "٣"), which ``int()``
refuses ("²") or reads as a number nobody typed in ASCII ("٣" is 3), so a check with it let a
``?game=²`` through to a ValueError (a 500). Here only ASCII digits count (docs/decisions.md
D61).
"""

from __future__ import annotations


def is_ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits 0-9 and nothing else.

    >>> is_ascii_digits("12"), is_ascii_digits("²"), is_ascii_digits("٣"), is_ascii_digits("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def ascii_int(text: str, *, max_digits: int = 18) -> int | None:
    """``text`` as a whole number if it is ASCII digits only, at most ``max_digits`` of them
    (18 fit a 64-bit column); else None.

    >>> ascii_int("7"), ascii_int("²"), ascii_int("-1"), ascii_int("1" * 19)
    (7, None, None, None)
    """
    if not is_ascii_digits(text) or len(text) > max_digits:
        return None
    return int(text)
