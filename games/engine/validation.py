"""Checks that a Position can occur in a given variant (docs/rules.md Appendix B7)."""

from __future__ import annotations

from .errors import InvalidPositionError
from .options import Options
from .position import BLACK, CHECKERS, COLOURS, WHITE, Position
from .variants import Variant


def validate_position(variant: Variant, position: Position, options: Options) -> None:
    """Raise InvalidPositionError naming the first problem; return None for a playable position."""
    for colour in COLOURS:
        total = position.count(colour)
        if total != CHECKERS:
            raise InvalidPositionError(
                f"{colour} has {total} checkers (board + bar + off); each side must have 15"
            )
    for index, stack in enumerate(position.points, start=1):
        _check_stack(variant, stack, index)
    if not variant.has_bar and any(position.bar):
        raise InvalidPositionError(f"there is no bar in {variant.name}; bar must be 0")
    if position.pending and variant.name != "gul_bara":
        raise InvalidPositionError("pending dice exist only in gul_bara")
    if any(off == CHECKERS for off in position.off):
        raise InvalidPositionError("the game is already over: a side has borne off 15 checkers")
    if variant.pins:
        _check_tapa_not_finished(variant, position, options)


def _check_stack(variant: Variant, stack: tuple[tuple[str, int], ...], point: int) -> None:
    if len(stack) <= 1:
        return
    if not variant.pins:
        raise InvalidPositionError(
            f"point {point}: two colours on one point happen only in tapa, got {list(stack)}"
        )
    (bottom, bottom_count), (top, _top_count) = stack[0], stack[1]
    if len(stack) != 2 or bottom == top or bottom_count != 1:
        raise InvalidPositionError(
            f"point {point}: a tapa stack must be one checker pinned under the other colour "
            f"([[X, 1], [Y, k]]), got {[list(pair) for pair in stack]}"
        )


def _check_tapa_not_finished(variant: Variant, position: Position, options: Options) -> None:
    """A Tapa position in which a mother rule has already ended the game (B7)."""
    if options.mother == "off":
        return
    # White's start is white 24, black's is white 1; a mother is pinned under [[X, 1], [Y, k]].
    white_start, black_start = position.points[23], position.points[0]
    white_pinned = len(white_start) == 2 and white_start[0][0] == WHITE
    black_pinned = len(black_start) == 2 and black_start[0][0] == BLACK
    if white_pinned and black_pinned:
        raise InvalidPositionError("the game is already over: both mothers are pinned")
    if options.mother != "auto_win":
        return
    if black_pinned and not any(colour == WHITE for colour, _ in white_start):
        raise InvalidPositionError(
            "the game is already over: w has pinned b's mother with its own start empty"
        )
    if white_pinned and not any(colour == BLACK for colour, _ in black_start):
        raise InvalidPositionError(
            "the game is already over: b has pinned w's mother with its own start empty"
        )
