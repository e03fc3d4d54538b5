"""The three games as narrow descriptions plus one registry: ``VARIANTS["gul_bara"]``.

Each variant says how a side's own points map to white numbering (docs/rules.md §2.1), how a side
may land on a point (hit, blocked by one checker, pin), and where the checkers start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .errors import UnknownVariantError
from .position import BLACK, WHITE, Colour, Position, Stack


class Variant(Protocol):
    """What the generator needs to know of a game; everything else is shared."""

    @property
    def name(self) -> str: ...

    @property
    def has_bar(self) -> bool: ...

    @property
    def hits(self) -> bool: ...

    @property
    def pins(self) -> bool: ...

    @property
    def single_blocks(self) -> bool: ...

    def __hash__(self) -> int: ...

    def white_point(self, point: int, colour: Colour) -> int: ...

    def start_position(self, turn: Colour = WHITE) -> Position: ...


def _contrary(point: int, colour: Colour) -> int:
    return point if colour == WHITE else 25 - point


def _parallel(point: int, colour: Colour) -> int:
    return point if colour == WHITE else (point + 11) % 24 + 1


def _layout(
    white: tuple[tuple[int, int], ...], black: tuple[tuple[int, int], ...], colour_map: int
) -> tuple[Stack, ...]:
    points: list[Stack] = [() for _ in range(24)]
    for point, count in white:
        points[point - 1] = ((WHITE, count),)
    for point, count in black:
        target = 25 - point if colour_map == 0 else (point + 11) % 24 + 1
        points[target - 1] = ((BLACK, count),)
    return tuple(points)


@dataclass(frozen=True, slots=True)
class _Variant:
    name: str
    has_bar: bool
    hits: bool
    pins: bool
    single_blocks: bool
    parallel: bool
    start: tuple[tuple[int, int], ...]  # (own point, checkers), the same for both sides

    def white_point(self, point: int, colour: Colour) -> int:
        """White-numbered point of ``colour``'s own ``point``; the map is its own inverse."""
        return _parallel(point, colour) if self.parallel else _contrary(point, colour)

    def start_position(self, turn: Colour = WHITE) -> Position:
        points = _layout(self.start, self.start, 1 if self.parallel else 0)
        return Position(turn=turn, points=points)


TABLA: Variant = _Variant(
    name="tabla",
    has_bar=True,
    hits=True,
    pins=False,
    single_blocks=False,
    parallel=False,
    start=((24, 2), (13, 5), (8, 3), (6, 5)),
)
GUL_BARA: Variant = _Variant(
    name="gul_bara",
    has_bar=False,
    hits=False,
    pins=False,
    single_blocks=True,
    parallel=True,
    start=((24, 15),),
)
TAPA: Variant = _Variant(
    name="tapa",
    has_bar=False,
    hits=False,
    pins=True,
    single_blocks=False,
    parallel=False,
    start=((24, 15),),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (TABLA, GUL_BARA, TAPA)}


def find_variant(name: object) -> Variant:
    """The registered variant called ``name``, or UnknownVariantError."""
    if isinstance(name, str) and name in VARIANTS:
        return VARIANTS[name]
    raise UnknownVariantError(f"unknown variant {name!r}; expected tabla, gul_bara or tapa")


def start_position(variant: str, turn: Colour = WHITE) -> Position:
    """The starting layout of a game (docs/rules.md Appendix C), ``turn`` to move, nothing
    rolled."""
    return find_variant(variant).start_position(turn)
