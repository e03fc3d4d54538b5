"""A position as the network's input: a float32 vector seen by the side to move.

The vector is two halves of the same layout, the side to move's first and then the opponent's,
each in that side's OWN point numbering (its 24-point is its start), followed by the features
that belong to the decision itself (Gjul Bara's pending dice). A half holds:

- per own point 1..24, TD-Gammon's unary count of the side's free checkers there: four units,
  ``n >= 1``, ``n >= 2``, ``n >= 3`` and ``(n - 3) / 4`` above three (Tesauro used ``/ 2`` for
  backgammon's 15 spread checkers; here a start may hold all 15);
- the side's borne-off checkers / 15;
- Tabla: the side's checkers on the bar / 2;
- Tapa: per own point whether the side's checker there is pinned (24 units), and whether the
  side's mother (the last checker on its own 24-point) stands alone and unpinned, so that a
  single opposing checker landing there wins the game (docs/rules.md §5.4);
- Gjul Bara: whether a double the side rolls now escalates (docs/rules.md §4.4 item 1).

The tail, Gjul Bara only: the dice still owed by the side to move, a count per value 1..6 / 4,
and whether they are a cascade of its own double or a remainder handed over (two units).

A position and the same position with the other side to move encode to the swapped halves
(tests/analysis/test_encode.py). Everything is computed from the engine's mover-view node
(games.engine.board): the opponent's view is the same codes negated, read in its numbering.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from games.engine.board import OPP_BAR, OWN_BAR, OWN_OFF, PIN, ZERO, to_node
from games.engine.generate import Outcome, double_escalates, escalates
from games.engine.options import DEFAULT_OPTIONS, Options
from games.engine.position import BLACK, WHITE, Colour, Position, opponent
from games.engine.variants import find_variant

Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]

COUNT_UNITS = 4
POINT_UNITS = 24 * COUNT_UNITS


@cache
def half_size(variant: str) -> int:
    """Units in one side's half of the vector."""
    extra = {"tabla": 1, "tapa": 24 + 1, "gul_bara": 1}[find_variant(variant).name]
    return POINT_UNITS + 1 + extra


@cache
def tail_size(variant: str) -> int:
    return 8 if find_variant(variant).name == "gul_bara" else 0


@cache
def input_size(variant: str) -> int:
    """The length of every vector of ``variant``: fixed, whatever the position."""
    return 2 * half_size(variant) + tail_size(variant)


@cache
def _opponent_order(variant: str) -> npt.NDArray[np.intp]:
    """``order[q' - 1]`` is the mover's own point (0-based) that is the opponent's point q'."""
    parallel = find_variant(variant).name == "gul_bara"
    own = [((q + 11) % 24 + 1) if parallel else 25 - q for q in range(1, 25)]
    return np.array([point - 1 for point in own], dtype=np.intp)


def _free(codes: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
    """The free checkers of the side whose view ``codes`` is (pinners are free)."""
    free: npt.NDArray[np.int16] = np.where((codes > 0) & (codes < PIN), codes, 0) + np.where(
        codes > PIN, codes - PIN, 0
    )
    return free


@cache
def _tables() -> tuple[Matrix, Matrix, Matrix, Matrix, npt.NDArray[np.int16]]:
    """Every node byte's units, worked out once: its four count units and its pin unit, for the
    mover (the code as it is) and for the opponent (the code negated), and the opponent's
    checkers on the board there. Rows are indexed by the byte (``ZERO + code``)."""
    mine = (np.arange(256, dtype=np.int16) - ZERO).astype(np.int16)
    theirs = (-mine).astype(np.int16)
    counts = []
    for codes in (mine, theirs):
        free = _free(codes)
        units = np.zeros((256, COUNT_UNITS), dtype=np.float32)
        units[:, 0] = free >= 1
        units[:, 1] = free >= 2
        units[:, 2] = free >= 3
        units[:, 3] = np.maximum(free - 3, 0) / 4.0
        counts.append(units)
    pinned_mine = (mine < -PIN).astype(np.float32)
    pinned_theirs = (theirs < -PIN).astype(np.float32)
    their_on_board = (_free(theirs) + (theirs < -PIN)).astype(np.int16)
    return counts[0], counts[1], pinned_mine, pinned_theirs, their_on_board


def encode_nodes(
    variant: str,
    nodes: Sequence[bytes],
    extras: Matrix | None = None,
    tails: Matrix | None = None,
) -> Matrix:
    """Vectors of a batch of mover-view nodes (games.engine.board.Node, the mover to move).

    ``extras`` (n, 2): the variant's one per-side unit not in the node (Tabla: none needed, the
    bars are in the node; Gjul Bara: mover's and opponent's escalation flags); ``tails``
    (n, tail_size): the pending dice features. Missing ones are zero.

    Each point's units come from tables indexed by the node's byte (``_tables``): the same
    numbers as working them out per point (tests/analysis/test_fast_path.py keeps that way as
    the reference), about three times faster.
    """
    name = find_variant(variant).name
    n = len(nodes)
    raw = np.frombuffer(b"".join(node[:27] for node in nodes), dtype=np.uint8).reshape(n, 27)
    mine = raw[:, 1:25]
    theirs = mine[:, _opponent_order(name)]
    count_mine, count_theirs, pinned_mine, pinned_theirs, their_on_board = _tables()
    half = half_size(name)
    out = np.zeros((n, input_size(name)), dtype=np.float32)
    raw16 = raw[:, [OWN_OFF, OWN_BAR, OPP_BAR]].astype(np.int16)
    their_off = 15 - their_on_board[theirs].sum(axis=1, dtype=np.int16) - raw16[:, 2]
    for start, codes, counts, off in (
        (0, mine, count_mine, raw16[:, 0]),
        (half, theirs, count_theirs, their_off),
    ):
        out[:, start : start + POINT_UNITS] = counts[codes].reshape(n, POINT_UNITS)
        out[:, start + POINT_UNITS] = off / 15.0
    first, second = POINT_UNITS + 1, half + POINT_UNITS + 1
    if name == "tapa":
        out[:, first : first + 24] = pinned_mine[mine]
        out[:, first + 24] = mine[:, 23] == ZERO + 1  # the mother alone and free
        out[:, second : second + 24] = pinned_theirs[theirs]
        out[:, second + 24] = theirs[:, 23] == ZERO - 1
    elif name == "tabla":
        out[:, first] = raw16[:, 1] / 2.0
        out[:, second] = raw16[:, 2] / 2.0
    elif extras is not None:
        out[:, first] = extras[:, 0]
        out[:, second] = extras[:, 1]
    if tails is not None and tail_size(name):
        out[:, 2 * half :] = tails
    return out


def _gul_bara_features(
    position: Position, options: Options
) -> tuple[tuple[float, float], tuple[float, ...]]:
    variant = find_variant("gul_bara")
    me = position.turn
    flags = (
        float(escalates(variant, position, options)),
        float(escalates(variant, position.with_turn(opponent(me)), options)),
    )
    tail = [0.0] * 8
    for die in position.pending:
        tail[die - 1] += 0.25
    if position.pending_kind == "cascade":
        tail[6] = 1.0
    elif position.pending_kind == "remainder":
        tail[7] = 1.0
    return flags, tuple(tail)


def encode_positions(
    variant: str, positions: Sequence[Position], options: Options = DEFAULT_OPTIONS
) -> Matrix:
    """Vectors (n, input_size) of ``positions``, each seen by its own side to move."""
    found = find_variant(variant)
    nodes = [to_node(found, position) for position in positions]
    if found.name != "gul_bara":
        return encode_nodes(found.name, nodes)
    features = [_gul_bara_features(position, options) for position in positions]
    extras = np.array([flags for flags, _ in features], dtype=np.float32).reshape(-1, 2)
    tails = np.array([tail for _, tail in features], dtype=np.float32).reshape(-1, 8)
    return encode_nodes(found.name, nodes, extras, tails)


def encode_outcomes(
    variant: str, mover: Colour, outcomes: Sequence[Outcome], options: Options = DEFAULT_OPTIONS
) -> tuple[Matrix, npt.NDArray[np.bool_]]:
    """The vectors of the positions after ``outcomes`` (plays of ``mover`` that do not end the
    game), each seen by its side to move, and whether that side is still the mover.

    Exactly ``encode_positions`` of ``[o.position for o in outcomes]`` (tested), but built from
    the engine's mover-view nodes (``Outcome.node``) without a Position: the vector is
    encoded in the mover's view, and where the other side moves next its two halves are
    swapped (what that side's view of the same board is).
    """
    found = find_variant(variant)
    name = found.name
    n = len(outcomes)
    if n == 0:
        return np.zeros((0, input_size(name)), dtype=np.float32), np.zeros(0, dtype=np.bool_)
    nodes = [outcome.node for outcome in outcomes]
    afters = [outcome.after for outcome in outcomes]
    same = np.array([after.turn == mover for after in afters], dtype=np.bool_)
    if name == "gul_bara":
        them = opponent(mover)
        extras = np.array(
            [
                (
                    float(double_escalates(found, options, after.rolls, mover)),
                    float(double_escalates(found, options, after.rolls, them)),
                )
                for after in afters
            ],
            dtype=np.float32,
        )
        tails = np.zeros((n, 8), dtype=np.float32)
        for row, after in enumerate(afters):
            for die in after.pending:
                tails[row, die - 1] += 0.25
            if after.pending_kind == "cascade":
                tails[row, 6] = 1.0
            elif after.pending_kind == "remainder":
                tails[row, 7] = 1.0
        vectors = encode_nodes(name, nodes, extras, tails)
    else:
        vectors = encode_nodes(name, nodes)
    if not same.all():
        half = half_size(name)
        other = ~same
        mine = vectors[other, :half].copy()
        vectors[other, :half] = vectors[other, half : 2 * half]
        vectors[other, half : 2 * half] = mine
    return vectors, same


def encode(variant: str, position: Position, options: Options = DEFAULT_OPTIONS) -> Vector:
    """The vector of one position, seen by ``position.turn``."""
    vector: Vector = encode_positions(variant, [position], options)[0]
    return vector


def mirrored(variant: str, position: Position) -> Position:
    """The same game with the colours swapped: white's checkers become black's on the points
    black numbers as white did, bar, off and rolls swap, and the other colour is to move."""
    found = find_variant(variant)
    points: list[tuple[tuple[str, int], ...]] = [() for _ in range(24)]
    for q in range(1, 25):  # white's own point q becomes black's own point q, and back
        source, target = found.white_point(q, WHITE) - 1, found.white_point(q, BLACK) - 1
        points[target] = tuple((opponent(c), k) for c, k in position.points[source])
        points[source] = tuple((opponent(c), k) for c, k in position.points[target])
    return Position(
        turn=opponent(position.turn),
        points=tuple(points),
        bar=(position.bar[1], position.bar[0]),
        off=(position.off[1], position.off[0]),
        rolls=(position.rolls[1], position.rolls[0]),
        pending=position.pending,
        pending_kind=position.pending_kind,
    )


__all__ = [
    "encode",
    "encode_nodes",
    "encode_outcomes",
    "encode_positions",
    "half_size",
    "input_size",
    "mirrored",
    "tail_size",
]
