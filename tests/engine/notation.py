"""The case notation of docs/rules.md §9, turned into contract POSITION dicts (a test helper).

    >>> case_position("W 13, 1×14 | B 2×2, 24×13")["off"]
    {'w': 0, 'b': 0}

Grammar: ``W items [(off n)] | B items [(off n)]``. Items are white-numbered points:
``13`` (one checker), ``1×14`` (or ``1x14``), ``bar 1`` (checkers on the bar) and pin
stacks ``[w/b]@5`` (a white checker pinned under one black on white's 5-point) or ``[b/w2]@10``.
A pin stack counts for both colours whichever side lists it. ``off`` defaults to 15 minus the
checkers shown. A trailing ``(Black to move)`` sets the turn. Unless told otherwise: White to
move, ``rolls`` 5/5, nothing pending (§9).
"""

from __future__ import annotations

import re
from typing import Any

_PIN = re.compile(r"^\[([wb])/([wb])(\d*)\]@(\d+)$")
_POINT = re.compile(r"^(\d+)(?:[×x](\d+))?$")
_BAR = re.compile(r"^bar\s+(\d+)$")
_OFF = re.compile(r"\(off\s+(\d+)\)\s*$")
_BLACK_TO_MOVE = re.compile(r"[,;(\s]*black to move\)?\s*$", re.IGNORECASE)


class CaseNotationError(ValueError):
    pass


def case_position(
    text: str,
    *,
    turn: str = "w",
    rolls: tuple[int, int] = (5, 5),
    pending: list[int] | None = None,
    pending_kind: str | None = None,
) -> dict[str, Any]:
    """The POSITION dict for a §9 case description such as ``W 4, 2 (off 13) | B 24×10 (off 5)``."""
    if _BLACK_TO_MOVE.search(text):
        text, turn = _BLACK_TO_MOVE.sub("", text), "b"
    stacks: list[list[list[Any]]] = [[] for _ in range(24)]
    bar = {"w": 0, "b": 0}
    off: dict[str, int | None] = {"w": None, "b": None}
    seen = set()
    for part in text.split("|"):
        part = part.strip()
        colour = {"W": "w", "B": "b"}.get(part[:1])
        if colour is None or colour in seen:
            raise CaseNotationError(f"each side starts with W or B once: {part!r}")
        seen.add(colour)
        body = part[1:].strip()
        match = _OFF.search(body)
        if match:
            off[colour] = int(match.group(1))
            body = body[: match.start()].strip()
        for item in filter(None, (word.strip() for word in body.split(","))):
            _add_item(item, colour, stacks, bar)
    position: dict[str, Any] = {
        "turn": turn,
        "points": stacks,
        "bar": bar,
        "off": {},
        "rolls": {"w": rolls[0], "b": rolls[1]},
    }
    for colour in ("w", "b"):
        shown = _shown(position, colour)
        explicit = off[colour]
        position["off"][colour] = 15 - shown if explicit is None else explicit
        if shown + position["off"][colour] != 15:
            raise CaseNotationError(f"{colour}: {shown} shown + {explicit} off is not 15 checkers")
    if pending:
        position["pending"] = list(pending)
        position["pending_kind"] = pending_kind
    return position


def _add_item(item: str, colour: str, stacks: list[list[list[Any]]], bar: dict[str, int]) -> None:
    if match := _BAR.match(item):
        bar[colour] += int(match.group(1))
        return
    if match := _PIN.match(item):
        bottom, top, count, point = match.groups()
        if bottom == top:
            raise CaseNotationError(f"a pin stack has two colours: {item!r}")
        _place(stacks, int(point), [[bottom, 1], [top, int(count or 1)]], item)
        return
    if match := _POINT.match(item):
        point, count = match.groups()
        _place(stacks, int(point), [[colour, int(count or 1)]], item)
        return
    raise CaseNotationError(f"cannot read {item!r}")


def _place(stacks: list[list[list[Any]]], point: int, stack: list[list[Any]], item: str) -> None:
    if not 1 <= point <= 24:
        raise CaseNotationError(f"point out of range in {item!r}")
    if stacks[point - 1]:
        raise CaseNotationError(f"point {point} given twice ({item!r})")
    stacks[point - 1] = stack


def _shown(position: dict[str, Any], colour: str) -> int:
    on_board = sum(n for stack in position["points"] for c, n in stack if c == colour)
    return on_board + position["bar"][colour]


def case_text(position: dict[str, Any]) -> str:
    """The §9 notation of a POSITION (board, bar and off; not turn, rolls or pending)."""
    parts = []
    for colour in ("w", "b"):
        items = []
        if position.get("bar", {}).get(colour):
            items.append(f"bar {position['bar'][colour]}")
        for index in range(23, -1, -1):
            stack = position["points"][index]
            if len(stack) == 2 and stack[1][0] == colour:
                (bottom, _), (top, count) = stack
                suffix = "" if count == 1 else str(count)
                items.append(f"[{bottom}/{top}{suffix}]@{index + 1}")
            elif len(stack) == 1 and stack[0][0] == colour:
                count = stack[0][1]
                items.append(f"{index + 1}" if count == 1 else f"{index + 1}×{count}")
        off = position.get("off", {}).get(colour, 0)
        text = f"{colour.upper()} {', '.join(items)}"
        parts.append(f"{text} (off {off})" if off else text)
    return " | ".join(parts)
