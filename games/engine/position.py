"""The immutable Position and its JSON codec (docs/rules.md Appendix A, B5, B7).

A Position is stored in WHITE numbering: ``points[0]`` is white's 1-point. Each point is a stack,
bottom to top, of ``(colour, count)`` pairs. This module is the one owner of the JSON shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import InvalidPositionError

Colour = str  # "w" or "b"
Stack = tuple[tuple[Colour, int], ...]
Pair = tuple[int, int]  # (white, black)

WHITE = "w"
BLACK = "b"
COLOURS = (WHITE, BLACK)
CHECKERS = 15
PENDING_KINDS = ("cascade", "remainder")


def opponent(colour: Colour) -> Colour:
    return BLACK if colour == WHITE else WHITE


@dataclass(frozen=True, slots=True)
class Position:
    """A full game state: board, bar, borne-off checkers, roll counters and pending dice.

    ``bar``, ``off`` and ``rolls`` are ``(white, black)`` pairs. ``pending`` holds the Gjul Bara
    dice owed by ``turn`` before it may roll (ascending); ``pending_kind`` is None iff it is empty.
    """

    turn: Colour
    points: tuple[Stack, ...]
    bar: Pair = (0, 0)
    off: Pair = (0, 0)
    rolls: Pair = (0, 0)
    pending: tuple[int, ...] = ()
    pending_kind: str | None = None

    def count(self, colour: Colour) -> int:
        """Checkers of ``colour`` on the board, the bar and borne off (always 15 when valid)."""
        side = COLOURS.index(colour)
        on_board = sum(n for stack in self.points for c, n in stack if c == colour)
        return on_board + self.bar[side] + self.off[side]

    def side_value(self, pair: Pair, colour: Colour) -> int:
        return pair[COLOURS.index(colour)]

    def with_turn(self, colour: Colour) -> Position:
        return replace(self, turn=colour)

    # --- JSON -------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Parse a POSITION object, checking its shape (not yet the rules of a variant).

        Missing ``bar``, ``off``, ``rolls`` and ``pending`` default to zero / empty.
        """
        if not isinstance(data, Mapping):
            raise InvalidPositionError(f"position must be a JSON object, got {_short(data)}")
        turn = data.get("turn")
        if turn not in COLOURS:
            raise InvalidPositionError(f"position turn must be 'w' or 'b', got {turn!r}")
        points = data.get("points")
        if not isinstance(points, list) or len(points) != 24:
            raise InvalidPositionError("position points must be a list of 24 stacks")
        stacks = tuple([_parse_stack(stack, index) for index, stack in enumerate(points, 1)])
        pending = _parse_pending(data.get("pending", []))
        kind = data.get("pending_kind")
        if pending:
            if kind not in PENDING_KINDS:
                raise InvalidPositionError(
                    "pending_kind must be 'cascade' or 'remainder' when pending is set, "
                    f"got {kind!r}"
                )
        else:
            kind = None
        return cls(
            turn=turn,
            points=stacks,
            bar=_parse_pair(data, "bar"),
            off=_parse_pair(data, "off"),
            rolls=_parse_pair(data, "rolls"),
            pending=pending,
            pending_kind=kind,
        )

    def to_json(self) -> dict[str, Any]:
        """The contract's POSITION object; ``pending`` keys appear only when dice are owed."""
        data: dict[str, Any] = {
            "turn": self.turn,
            "points": [[[colour, count] for colour, count in stack] for stack in self.points],
            "bar": {"w": self.bar[0], "b": self.bar[1]},
            "off": {"w": self.off[0], "b": self.off[1]},
            "rolls": {"w": self.rolls[0], "b": self.rolls[1]},
        }
        if self.pending:
            data["pending"] = list(self.pending)
            data["pending_kind"] = self.pending_kind
        return data


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The stacks of one colour, parsed once: most points of a query hold one of these.
_ONE_COLOUR: dict[tuple[str, int], Stack] = {
    (colour, count): ((colour, count),) for colour in COLOURS for count in range(1, CHECKERS + 1)
}


def _parse_stack(stack: Any, point: int) -> Stack:
    if not isinstance(stack, list):
        raise InvalidPositionError(f"point {point}: a stack must be a list, got {_short(stack)}")
    if not stack:
        return ()
    if len(stack) == 1:  # fast path for [[colour, count]] with an exact str and int
        entry = stack[0]
        if type(entry) is list and len(entry) == 2:
            colour, count = entry
            if type(colour) is str and type(count) is int:
                known = _ONE_COLOUR.get((colour, count))
                if known is not None:
                    return known
    pairs = []
    for entry in stack:
        if not isinstance(entry, list | tuple) or len(entry) != 2:
            raise InvalidPositionError(
                f"point {point}: each stack entry must be [colour, count], got {_short(entry)}"
            )
        colour, count = entry
        if colour not in COLOURS:
            raise InvalidPositionError(f"point {point}: colour must be 'w' or 'b', got {colour!r}")
        if not _is_count(count) or count <= 0:
            raise InvalidPositionError(
                f"point {point}: checker count must be a positive integer, got {count!r}"
            )
        pairs.append((colour, count))
    return tuple(pairs)


def _parse_pair(data: Mapping[str, Any], key: str) -> Pair:
    value = data.get(key, {"w": 0, "b": 0})
    if not isinstance(value, Mapping):
        raise InvalidPositionError(f"position {key} must be an object like {{'w': 0, 'b': 0}}")
    result = []
    for colour in COLOURS:
        count = value.get(colour, 0)
        if not _is_count(count) or count < 0:
            raise InvalidPositionError(
                f"position {key}.{colour} must be a non-negative integer, got {count!r}"
            )
        result.append(count)
    return (result[0], result[1])


def _parse_pending(value: Any) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidPositionError(f"pending must be a list of dice, got {_short(value)}")
    for die in value:
        if not _is_count(die) or not 1 <= die <= 6:
            raise InvalidPositionError(f"pending dice must be integers 1-6, got {_short(value)}")
    if list(value) != sorted(value):
        raise InvalidPositionError(f"pending dice must be in ascending order, got {_short(value)}")
    # Dice owed are what is left of one escalating chain: four of each stage value at most, so
    # 24 dice at most (a whole 1-1 chain). A longer list cannot occur, and searching it with
    # cascade_scope=whole_chain would take exponential time.
    for die in set(value):
        if value.count(die) > 4:
            raise InvalidPositionError(
                f"pending dice hold at most four of each value (the stages of one chain), "
                f"got {value.count(die)} of {die}"
            )
    return tuple(value)
