"""A Tabla position in GNU Backgammon's board layout, for the outside check of the evaluator
(``bench/evaluator.py --gnubg``, docs/analysis.md; docs/decisions.md D143).

gnubg's Python module (a dev-only extra: GPL, never imported by the site) takes a board as two
sequences of 25 counts: the side NOT on roll first, then the side on roll, each indexed by that
side's own point numbering (index 0 is its 1-point, 23 its 24-point, 24 its bar); the borne-off
checkers are what is missing of 15. Its evaluation is of the side on roll, before it rolls:
what the network gives for ``position.turn``. Nothing here imports gnubg.
"""

from __future__ import annotations

from games.engine.position import COLOURS, Colour, Position, opponent
from games.engine.variants import find_variant

Board = tuple[tuple[int, ...], tuple[int, ...]]

_TABLA = find_variant("tabla")


def side_counts(position: Position, colour: Colour) -> tuple[int, ...]:
    """``colour``'s checkers on its own points 1..24 and on the bar: 25 counts."""
    own = [
        sum(n for c, n in position.points[_TABLA.white_point(q, colour) - 1] if c == colour)
        for q in range(1, 25)
    ]
    return (*own, position.bar[COLOURS.index(colour)])


def gnubg_board(position: Position) -> Board:
    """gnubg's board of a Tabla ``position``: (the opponent's counts, the side to move's)."""
    return side_counts(position, opponent(position.turn)), side_counts(position, position.turn)


def in_contact(position: Position) -> bool:
    """Whether the sides can still hit or block each other: the side to move's rearmost checker
    (the bar is its 25-point) is behind the opponent's rearmost one, in the mover's numbering
    (the opponent's own point p is the mover's 25 - p, its bar the mover's 0). Otherwise the
    game is a race."""
    mine, theirs = gnubg_board(position)
    my_back = max((q + 1 for q in range(25) if mine[q]), default=0)
    their_back = min((25 - (p + 1) for p in range(25) if theirs[p]), default=25)
    return my_back > their_back


__all__ = ["Board", "gnubg_board", "in_contact", "side_counts"]
