"""The mover's view of a position: a short ``bytes`` value the generator can copy and hash fast.

Layout of a ``Node`` (all in the MOVER's own numbering):

    [0]      own checkers borne off
    [1..24]  point codes (below)
    [25]     own checkers on the bar
    [26]     opponent checkers on the bar
    [27]     steps taken from the own 24-point in this play (head rule)
    [28]     bit mask of points holding a checker that may not move again this play
             (a tabla checker that hit in the home board when hit-and-run there is off)

Point codes, stored as ``ZERO + code`` to fit in a byte: ``0`` empty, ``n`` (1..15) own
checkers, ``-n`` opposing checkers, ``PIN + k`` an opposing checker pinned under k own (Tapa),
``-(PIN + k)`` an own checker pinned under k opposing (k = 1..15: a pin stack holds up to 16
checkers). So "the mover may land here" is simply ``code >= -1`` in Tabla and Tapa (a blot to
hit or pin) and ``code >= 0`` in Gjul Bara.
"""

from __future__ import annotations

from functools import cache

from .position import CHECKERS, COLOURS, Colour, Position, Stack, opponent
from .variants import Variant

Node = bytes

ZERO = 64  # the byte that stores point code 0
PIN = 32
OWN_OFF = 0
OWN_BAR = 25
OPP_BAR = 26
HEAD = 27
FROZEN = 28
NODE_SIZE = 29


@cache
def point_map(variant: Variant, colour: Colour) -> tuple[int, ...]:
    """``result[q]`` is the white 0-based index of the mover's own point q (index 0 unused)."""
    return (0, *(variant.white_point(q, colour) - 1 for q in range(1, 25)))


@cache
def _white_order(variant: Variant, colour: Colour) -> tuple[int, ...]:
    """``result[i]`` is the mover's own point at white index i (the inverse of point_map)."""
    mapping = point_map(variant, colour)
    return tuple(mapping.index(i, 1) for i in range(24))


@cache
def _stacks(me: Colour) -> dict[int, Stack]:
    """Every point code the mover can meet, decoded once: 0 to 15 checkers of either colour,
    and a pin under 1 to 15 checkers (a Tapa stack of 16 when all 15 pinners stand on it)."""
    them = opponent(me)
    pins = range(PIN + 1, PIN + CHECKERS + 1)
    codes = [*range(-CHECKERS, CHECKERS + 1), *pins, *(-code for code in pins)]
    return {ZERO + code: decode_code(code, me, them) for code in codes}


def encode_stack(stack: Stack, me: Colour) -> int:
    if not stack:
        return 0
    if len(stack) == 1:
        colour, count = stack[0]
        return count if colour == me else -count
    top, count = stack[1]
    return PIN + count if top == me else -(PIN + count)


def decode_code(code: int, me: Colour, them: Colour) -> Stack:
    if code == 0:
        return ()
    if 0 < code < PIN:
        return ((me, code),)
    if -PIN < code < 0:
        return ((them, -code),)
    if code > PIN:
        return ((them, 1), (me, code - PIN))
    return ((me, 1), (them, -code - PIN))


def to_node(variant: Variant, position: Position) -> Node:
    """The mover's (``position.turn``'s) view of ``position``."""
    me = position.turn
    side = COLOURS.index(me)
    mapping = point_map(variant, me)
    codes = [ZERO + encode_stack(position.points[mapping[q]], me) for q in range(1, 25)]
    return bytes((position.off[side], *codes, position.bar[side], position.bar[1 - side], 0, 0))


def board_points(variant: Variant, node: Node, me: Colour) -> tuple[Stack, ...]:
    """The white-numbered stacks of a node seen by ``me``."""
    stacks = _stacks(me)
    return tuple([stacks[node[q]] for q in _white_order(variant, me)])


def highest_own_point(node: Node) -> int:
    """The mover's highest occupied point, pinned checkers included (25: on the bar)."""
    if node[OWN_BAR]:
        return 25
    for q in range(24, 0, -1):
        code = node[q] - ZERO
        if 0 < code < PIN or code > PIN or code < -PIN:
            return q
    return 0
