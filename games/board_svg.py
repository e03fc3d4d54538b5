"""Board geometry for the web pages: a POSITION (engine JSON) becomes plain drawing primitives.

Pure Python, no Django. The match template draws these primitives as SVG, and static/js/board.js
draws the same primitives while replaying a game, so the layout lives in this one place.

The board is seen from white's side: points 13-24 along the top (left to right), 12-1 along the
bottom, white's home (1-6) bottom right, the bar in the middle, borne-off checkers in the tray on
the right (white's in the bottom half, black's in the top half). The doubling cube sits in the
middle of the tray while nobody owns it, else at its owner's end of the bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MARGIN = 12
POINT_WIDTH = 44
BAR_WIDTH = 44
TRAY_WIDTH = 56
RADIUS = 19
NUMBERS = 22  # the row of point numbers above and below the board
INNER_HEIGHT = 440
POINT_LENGTH = 180
STACK_LENGTH = 5 * 2 * RADIUS  # five checkers touch; more overlap
SEGMENT_VISIBLE = 5  # checkers drawn for one colour on a point; the rest is a count label
DIE_SIZE = 34
CUBE_SIZE = 34

TOP = NUMBERS
BOTTOM = NUMBERS + INNER_HEIGHT
MIDDLE = NUMBERS + INNER_HEIGHT // 2
BOARD_RIGHT = MARGIN + 12 * POINT_WIDTH + BAR_WIDTH
TRAY_LEFT = BOARD_RIGHT + MARGIN
WIDTH = TRAY_LEFT + TRAY_WIDTH + MARGIN
HEIGHT = BOTTOM + NUMBERS
BAR_CENTRE = MARGIN + 6 * POINT_WIDTH + BAR_WIDTH // 2

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)],
}


def point_column(point: int) -> tuple[int, bool]:
    """The column (0-11, left to right) of white's ``point`` and whether it is on the top row.

    >>> point_column(13), point_column(24), point_column(12), point_column(1)
    ((0, True), (11, True), (0, False), (11, False))
    """
    if point >= 13:
        return point - 13, True
    return 12 - point, False


def column_centre(column: int) -> int:
    left = MARGIN + column * POINT_WIDTH + (BAR_WIDTH if column >= 6 else 0)
    return left + POINT_WIDTH // 2


def black_number(variant: str, point: int) -> int:
    """Black's own number for white's ``point`` (docs/rules.md, Appendix A numbering).

    >>> black_number("tabla", 1), black_number("gul_bara", 12), black_number("gul_bara", 13)
    (24, 24, 1)
    """
    if variant == "gul_bara":
        return (point - 13) % 24 + 1
    return 25 - point


def board_frame(variant: str) -> dict[str, Any]:
    """The fixed part of the board: size, the 24 triangles and both players' point numbers."""
    points = []
    for point in range(1, 25):
        column, top = point_column(point)
        x = column_centre(column)
        half = POINT_WIDTH // 2
        base, tip = (TOP, TOP + POINT_LENGTH) if top else (BOTTOM, BOTTOM - POINT_LENGTH)
        points.append(
            {
                "number": point,
                "black_number": black_number(variant, point),
                "triangle": f"{x - half},{base} {x + half},{base} {x},{tip}",
                "shade": "dark" if (column + (0 if top else 1)) % 2 else "light",
                "x": x,
                "number_y": TOP - 7 if top else BOTTOM + 16,
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "top": TOP,
        "inner_height": INNER_HEIGHT,
        "field_width": BOARD_RIGHT - MARGIN,
        "margin": MARGIN,
        "bar_x": MARGIN + 6 * POINT_WIDTH,
        "bar_width": BAR_WIDTH,
        "tray_x": TRAY_LEFT,
        "tray_width": TRAY_WIDTH,
        "middle": MIDDLE,
        "points": points,
    }


def board_geometry() -> dict[str, Any]:
    """The numbers static/js/board.js needs to lay out a position as ``board_pieces`` does (the
    board on which a player moves checkers draws every step in the browser): one source for
    both, and a browser test compares the two layouts."""
    return {
        "radius": RADIUS,
        "top": TOP,
        "bottom": BOTTOM,
        "middle": MIDDLE,
        "stack_length": STACK_LENGTH,
        "segment_visible": SEGMENT_VISIBLE,
        "point_width": POINT_WIDTH,
        "bar_centre": BAR_CENTRE,
        "bar_width": BAR_WIDTH,
        "tray_left": TRAY_LEFT,
        "tray_width": TRAY_WIDTH,
        "width": WIDTH,
        "die_size": DIE_SIZE,
        "pips": PIPS,
        "columns": {point: column_centre(point_column(point)[0]) for point in range(1, 25)},
        "dice_centre": {
            colour: column_centre(9 if colour == "w" else 3) - POINT_WIDTH // 2
            for colour in ("w", "b")
        },
    }


def board_pieces(
    position: dict[str, Any], dice: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """Everything that moves, as primitives: checkers ``{"kind": "checker", "x", "y", "colour",
    "label", "pinned"}``, borne-off ``{"kind": "slab", ...}`` and ``{"kind": "die", ...}``."""
    pieces: list[dict[str, Any]] = []
    for index, stack in enumerate(position["points"]):
        pieces.extend(_stack(index + 1, stack))
    for colour, sign in (("w", -1), ("b", 1)):
        pieces.extend(_bar(colour, int(position["bar"].get(colour, 0)), sign))
        pieces.extend(_off(colour, int(position["off"].get(colour, 0))))
    turn = position.get("turn", "w")
    if dice:
        pieces.extend(_dice(list(dice), turn, pending=False))
    elif position.get("pending"):
        pieces.extend(_dice(list(position["pending"]), turn, pending=True))
    return pieces


def _stack(point: int, stack: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """A point's stack, bottom to top: a colour under another colour is pinned (tapa). The
    pinner half covers the pinned checker, which shows it lying under it."""
    column, top = point_column(point)
    x = column_centre(column)
    shown = [(str(colour), int(count), min(int(count), SEGMENT_VISIBLE)) for colour, count in stack]
    total = sum(visible for _c, _n, visible in shown)
    if total == 0:
        return []
    step = 2 * RADIUS if total <= 5 else (STACK_LENGTH - 2 * RADIUS) / (total - 1)
    direction, edge = (1, TOP) if top else (-1, BOTTOM)
    pieces = []
    offset = 0.0
    for segment, (colour, count, visible) in enumerate(shown):
        pinned = segment < len(shown) - 1
        for i in range(visible):
            label = str(count) if i == visible - 1 and count > visible else ""
            y = edge + direction * (RADIUS + offset)
            pieces.append(_checker(x, y, colour, label, pinned, point))
            offset += step / 2 if pinned else step
    return pieces


def _checker(
    x: float, y: float, colour: str, label: str, pinned: bool, point: int | str
) -> dict[str, Any]:
    return {
        "kind": "checker",
        "x": round(x, 1),
        "y": round(y, 1),
        "r": RADIUS - 1,
        "colour": colour,
        "label": label,
        "pinned": pinned,
        "point": point,
    }


def _bar(colour: str, count: int, sign: int) -> list[dict[str, Any]]:
    """White's bar checkers above the middle, black's below, growing away from it."""
    visible = min(count, 4)
    pieces = []
    for i in range(visible):
        y = MIDDLE + sign * (RADIUS + 6 + i * 2 * RADIUS)
        label = str(count) if i == visible - 1 and count > visible else ""
        pieces.append(_checker(BAR_CENTRE, y, colour, label, False, "bar"))
    return pieces


def _off(colour: str, count: int) -> list[dict[str, Any]]:
    """Borne-off checkers as thin slabs in the tray: white's from the bottom, black's from the
    top, with their count."""
    pieces: list[dict[str, Any]] = []
    for i in range(count):
        y = BOTTOM - 4 - (i + 1) * 11 if colour == "w" else TOP + 4 + i * 11
        slab = {"kind": "slab", "x": TRAY_LEFT + 6, "y": y, "w": TRAY_WIDTH - 12, "h": 9}
        pieces.append({**slab, "colour": colour})
    if count:
        y = BOTTOM - 4 - count * 11 - 8 if colour == "w" else TOP + 4 + count * 11 + 16
        x = TRAY_LEFT + TRAY_WIDTH // 2
        pieces.append({"kind": "text", "x": x, "y": y, "text": str(count), "colour": colour})
    return pieces


def _dice(values: list[int], turn: str, *, pending: bool) -> list[dict[str, Any]]:
    """Dice in the middle of the right half (white to move) or the left half (black to move)."""
    size = DIE_SIZE if len(values) <= 4 else 24
    gap = 8
    total = len(values) * size + (len(values) - 1) * gap
    half_centre = column_centre(9 if turn == "w" else 3) - POINT_WIDTH // 2
    left = half_centre - total / 2
    pieces = []
    for i, value in enumerate(values):
        x = left + i * (size + gap)
        y = MIDDLE - size / 2
        pips = [[round(x + a * size, 1), round(y + b * size, 1)] for a, b in PIPS.get(value, [])]
        pieces.append(
            {
                "kind": "die",
                "x": round(x, 1),
                "y": round(y, 1),
                "size": size,
                "value": value,
                "pips": pips,
                "pip_radius": round(size / 11, 1),
                "colour": turn,
                "pending": pending,
            }
        )
    return pieces


def board_cube(value: int, owner: str = "", *, offered: bool = False) -> dict[str, Any]:
    """The doubling cube as ``{"kind": "cube", "x", "y", "size", "face", "owner", "offered"}``.

    In the middle (``owner`` "") it sits in the tray between the two players' borne-off
    checkers and shows 64 at value 1, as backgammon boards do; an owned cube sits at its owner's
    end of the bar, white's at the bottom, black's at the top (clear of the bar's checkers). An
    offered double shows the value offered.

    >>> board_cube(1)["face"], board_cube(2, "b")["face"], board_cube(2, "w", offered=True)["face"]
    (64, 2, 4)
    """
    face = value * 2 if offered else value
    if owner == "w":
        x, y = BAR_CENTRE - CUBE_SIZE // 2, BOTTOM - 6 - CUBE_SIZE
    elif owner == "b":
        x, y = BAR_CENTRE - CUBE_SIZE // 2, TOP + 6
    else:
        x, y = TRAY_LEFT + (TRAY_WIDTH - CUBE_SIZE) // 2, MIDDLE - CUBE_SIZE // 2
    return {
        "kind": "cube",
        "x": x,
        "y": y,
        "size": CUBE_SIZE,
        "text_x": x + CUBE_SIZE // 2,
        "text_y": y + CUBE_SIZE // 2 + 6,
        "face": 64 if face == 1 else face,
        "owner": owner,
        "offered": offered,
    }


# --- plays drawn as arrows (the review of a match: docs/decisions.md D168) ----------------------

ARROW_STYLES = ("made", "best")  # the play made and the better play, drawn apart
ARROW_SHIFT = {"made": -5, "best": 5}  # a step both plays share gives two arrows side by side
ARROW_HEAD = 18  # the arrowhead's length; its half-width is half that
ARROW_RING = {"made": RADIUS + 2, "best": RADIUS + 6}  # round the checker that moves
ARROW_SPOT = {"made": RADIUS - 9, "best": RADIUS - 3}  # where it lands: the made one's inside


def play_arrows(
    steps: Sequence[tuple[dict[str, Any], dict[str, Any], int | str, int | str]],
    colour: str,
    style: str,
) -> list[dict[str, Any]]:
    """A play's steps as arrows: each step ``(board before, board after, from, to)`` (white
    point numbers, ``"bar"`` or ``"off"``; the boards as ``board_pieces`` takes them) goes from
    ``colour``'s top checker on its point before the step to where that checker stands after it
    (the tray's half of ``colour`` for a bear-off), with a ring round the checker and a spot
    where it lands. ``style`` (``ARROW_STYLES``) names the play; the arrows of the two plays are
    shifted apart across their direction, so that a step both make shows twice.

    Each arrow: ``{"kind": "arrow", "style", "step", "source", "target", "ring": {"x", "y",
    "r"}, "spot": {"x", "y", "r"}, "line": {"x1", "y1", "x2", "y2"} or None, "head": the
    arrowhead's polygon points or ""}``; a step too short to draw a line (never on this board)
    keeps its ring and spot."""
    if style not in ARROW_STYLES:
        raise ValueError(f"an arrow is drawn as {' or '.join(ARROW_STYLES)}, not {style!r}")
    arrows = []
    for number, (before, after, source, target) in enumerate(steps, start=1):
        start = checker_at(before, colour, source)
        end = tray_at(colour) if target == "off" else checker_at(after, colour, target)
        if start is None or end is None:
            continue  # not a step of this board: nothing drawn rather than a wrong arrow
        line, head = _arrow_line(start, end, ARROW_SHIFT[style])
        arrows.append(
            {
                "kind": "arrow",
                "style": style,
                "step": number,
                "source": source,
                "target": target,
                "ring": {"x": start[0], "y": start[1], "r": ARROW_RING[style]},
                "spot": {"x": end[0], "y": end[1], "r": ARROW_SPOT[style]},
                "line": line,
                "head": head,
            }
        )
    return arrows


def checker_at(
    position: dict[str, Any], colour: str, point: int | str
) -> tuple[float, float] | None:
    """Where ``colour``'s top checker on ``point`` (white's number, or ``"bar"``) is drawn by
    ``board_pieces``; None when it has none there.

    >>> board = {"points": [[]] * 23 + [[["w", 2]]], "bar": {}, "off": {}}
    >>> checker_at(board, "w", 24), checker_at(board, "b", 24)
    ((562, 79.0), None)
    """
    found = None
    for piece in board_pieces(position):
        if piece["kind"] == "checker" and piece["colour"] == colour and piece["point"] == point:
            found = (piece["x"], piece["y"])
    return found


def tray_at(colour: str) -> tuple[float, float]:
    """The middle of ``colour``'s half of the tray, where its borne-off checkers go."""
    y = (MIDDLE + BOTTOM) / 2 if colour == "w" else (TOP + MIDDLE) / 2
    return TRAY_LEFT + TRAY_WIDTH / 2, y


def _arrow_line(
    start: tuple[float, float], end: tuple[float, float], shift: float
) -> tuple[dict[str, float] | None, str]:
    """The line from the ring round ``start`` to the spot at ``end``, moved ``shift`` across
    its direction, and its arrowhead's polygon; (None, "") for a step too short to show."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5
    skip = RADIUS + 4
    if length < 2 * skip + ARROW_HEAD:
        return None, ""
    ux, uy = dx / length, dy / length
    nx, ny = -uy * shift, ux * shift
    x1, y1 = start[0] + ux * skip + nx, start[1] + uy * skip + ny
    tip_x, tip_y = end[0] - ux * (skip - 8) + nx, end[1] - uy * (skip - 8) + ny
    base_x, base_y = tip_x - ux * ARROW_HEAD, tip_y - uy * ARROW_HEAD
    half = ARROW_HEAD / 2
    corners = [
        (tip_x, tip_y),
        (base_x - uy * half, base_y + ux * half),
        (base_x + uy * half, base_y - ux * half),
    ]
    line = {"x1": round(x1, 1), "y1": round(y1, 1), "x2": round(base_x, 1), "y2": round(base_y, 1)}
    return line, " ".join(f"{round(x, 1)},{round(y, 1)}" for x, y in corners)
