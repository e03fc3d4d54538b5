"""Move and Play values with the notation of docs/rules.md §2.1: ``24/18``, ``bar/20``, ``6/off``.

Points are in the mover's own numbering; the bar is point 25 and "off" is point 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import InvalidNotationError

BAR = 25
OFF = 0


def _parse_point(text: str, *, source: str, allowed: str) -> int:
    word = text.strip().lower()
    if word == allowed:
        return BAR if allowed == "bar" else OFF
    if not (word.isascii() and word.isdigit()):  # "²".isdigit() too
        raise InvalidNotationError(f"bad point {text!r} in move {source!r}")
    point = int(word)
    if not 1 <= point <= 24:
        raise InvalidNotationError(f"point {point} out of range 1-24 in move {source!r}")
    return point


@dataclass(frozen=True, slots=True)
class Move:
    """One checker step from ``source`` to ``target`` in the mover's numbering.

    >>> Move.parse("bar/20")
    Move(source=25, target=20)
    >>> str(Move(6, 0))
    '6/off'
    """

    source: int
    target: int

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``from/to``; a trailing hit marker ``*`` is tolerated and ignored."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"a move must be a string like '24/18', got {text!r}")
        body = text.strip().rstrip("*")
        parts = body.split("/")
        if len(parts) != 2:
            raise InvalidNotationError(f"a move is 'from/to' like '24/18', got {text!r}")
        source = _parse_point(parts[0], source=text, allowed="bar")
        target = _parse_point(parts[1].rstrip("*"), source=text, allowed="off")
        if target != OFF and target >= source:
            raise InvalidNotationError(
                f"move {text!r} does not go forward (from {source} to {target})"
            )
        if source - target > 6 and not (source == BAR and target >= 19):
            if target != OFF:
                raise InvalidNotationError(f"move {text!r} is longer than one die (6)")
        return cls(source, target)

    @property
    def is_bear_off(self) -> bool:
        return self.target == OFF

    @property
    def is_entry(self) -> bool:
        return self.source == BAR

    def __str__(self) -> str:
        source = "bar" if self.source == BAR else str(self.source)
        target = "off" if self.target == OFF else str(self.target)
        return f"{source}/{target}"


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn (or one cascade stage): the steps in the order played.

    >>> str(Play.parse("24/18 13/8"))
    '24/18 13/8'
    """

    moves: tuple[Move, ...] = ()

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Play:
        """Parse a space- or comma-separated string, or a list of move strings."""
        if isinstance(text, str):
            words = text.replace(",", " ").split()
        else:
            try:
                words = list(text)
            except TypeError:
                raise InvalidNotationError(
                    f"moves must be a string or a list of strings, got {text!r}"
                ) from None
        return cls(tuple(Move.parse(word) for word in words))

    def __str__(self) -> str:
        return " ".join(str(move) for move in self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def to_json(self) -> list[str]:
        return [str(move) for move in self.moves]
