"""Inputs a network derives from the encoding: hand-made race and contact features.

TD-Gammon's raw units (games.analysis.encode) say where every checker is; what a strong
evaluator also reads at a glance (GNU Backgammon's inputs hold many such) it has to learn from
them. A network may add some, computed from its encoding inside ``Network.forward`` (so the
encoding, the collected data and every caller stay as they are); the name of the set is kept
in the weights' metadata (``derived``). A set is a pure function of the vector, so a position
and the same one with the other side to move give the same features with the sides swapped,
as the halves are.

``tabla-1`` (Tabla; docs/analysis.md "Encoding", docs/decisions.md D165), six per side, the
side to move's first, then the opponent's:

- the side's pip count (its checkers' points in its own numbering, 25 on the bar) / 100;
- its exposure: the rolls of 36 on which the other side can hit one of its blots, a checker
  hitting from its point or entering from the bar (and only entering while one is on the bar)
  with one die, or with the sum of both (a double: up to four steps); the points passed on the
  way are not checked for blocks;
- its longest prime: the most consecutive points it holds with two or more / 6;
- its checkers back: on its own points 19-24 (the other side's home) and the bar / 15;
- its blots / 5;
- contact: whether some checker of one side still has one of the other's ahead of it (the same
  in both sides' units).

``gul_bara-1`` (Gjul Bara; docs/decisions.md D167), six per side, the same order. Both sides
run the same way round, so the other side's point q is this side's (q + 11) % 24 + 1, and a lone
checker blocks its point:

- the side's pip count / 200 (the start holds 360);
- its blocked dice: of the six die values, those no checker of its can step by (onto a point
  the other side does not hold, or off when all its checkers are home) / 6;
- its block: the longest run of points it holds (one checker is enough) among those the other
  side's checkers still have to pass, that is below the other side's rearmost checker in that
  side's numbering / 6;
- its checkers still on its 24-point (the start) / 15;
- its checkers in contact: those with one of the other side's checkers ahead of them (on a
  lower point of its numbering), which may still block them / 15;
- its checkers home (own points 1-6) / 15.

Pure numpy, no Django, as the rest of games.analysis.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .encode import POINT_UNITS, half_size

Inputs = npt.NDArray[np.floating]
Counts = npt.NDArray[np.int64]

TABLA_FEATURES = 6
GUL_BARA_FEATURES = 6


def _rolls() -> npt.NDArray[np.intp]:
    """(36, 4): the distances one roll may hit at (0: none), each of the 36 rolls once."""
    rows = []
    for first in range(1, 7):
        for second in range(1, 7):
            if first == second:
                steps = [first * k for k in range(1, 5)]
            else:
                steps = [first, second, first + second, 0]
            rows.append([step if step <= 24 else 0 for step in steps])
    return np.array(rows, dtype=np.intp)


_ROLLS = _rolls()
_POINTS = np.arange(1, 25)


def _counts(x: Inputs, start: int) -> Counts:
    """A half's checkers per own point (n, 24), read back from its units."""
    n = x.shape[0]
    units = x[:, start : start + POINT_UNITS].reshape(n, 24, 4)
    counts = np.rint(units[:, :, 0] + units[:, :, 1] + units[:, :, 2] + 4.0 * units[:, :, 3])
    return counts.astype(np.int64)


def _half_counts(x: Inputs, start: int) -> tuple[Counts, Counts]:
    """A Tabla half's checkers per own point (n, 24) and on the bar (n,)."""
    bar = np.rint(2.0 * x[:, start + POINT_UNITS + 1])
    return _counts(x, start), bar.astype(np.int64)


def _longest_run(held: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The longest run of True along each row."""
    total = np.cumsum(held, axis=1)
    at_last_gap = np.maximum.accumulate(np.where(held, 0, total), axis=1)
    longest: npt.NDArray[np.int64] = (total - at_last_gap).max(axis=1)
    return longest


def _pairs() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Every (source, target) on the line 0..24 with the target above, and (pairs, 25) the
    one-hot of their distance."""
    sources, targets = np.triu_indices(25, k=1)
    distance = np.zeros((len(sources), 25))
    distance[np.arange(len(sources)), targets - sources] = 1.0
    return sources, targets, distance


_SOURCES, _TARGETS, _DISTANCE = _pairs()


def _exposure(blots: npt.NDArray[np.bool_], hitters: Counts, entering: Counts) -> Inputs:
    """The rolls of 36 on which a side's ``blots`` (n, 24, its numbering) can be hit by the
    other side's checkers ``hitters`` (n, 24, in the same numbering, moving up it) or
    ``entering`` from the bar (n,; they enter on point d with a die d, and first)."""
    n = blots.shape[0]
    # Sources on a line 0..24: 0 the bar, p the point p; targets 1..24.
    on_bar = entering > 0
    sources = np.zeros((n, 25))
    sources[:, 0] = on_bar
    sources[:, 1:] = (hitters > 0) & ~on_bar[:, None]
    targets = np.zeros((n, 25))
    targets[:, 1:] = blots
    # reach[:, d]: some source is d below a blot
    reach = ((sources[:, _SOURCES] * targets[:, _TARGETS]) @ _DISTANCE) > 0
    hit = reach[:, _ROLLS].any(axis=2)  # (n, 36)
    exposure: Inputs = hit.sum(axis=1) / 36.0
    return exposure


def tabla_features(x: Inputs) -> Inputs:
    """(n, 12): the ``tabla-1`` features of Tabla vectors ``x`` (n, 196) (module docstring)."""
    half = half_size("tabla")
    mine, my_bar = _half_counts(x, 0)
    theirs, their_bar = _half_counts(x, half)
    # The other side's checkers in each side's numbering: its point q is this side's 25 - q.
    theirs_seen, mine_seen = theirs[:, ::-1], mine[:, ::-1]
    # Contact: my rearmost checker (25 on the bar) is above their rearmost, seen from my side
    # (their bar is my 0).
    my_back = np.where(my_bar > 0, 25, np.max(np.where(mine > 0, _POINTS, 0), axis=1))
    their_back = np.where(their_bar > 0, 0, np.min(np.where(theirs_seen > 0, _POINTS, 25), axis=1))
    contact = (my_back > their_back).astype(np.float64)
    out = np.empty((x.shape[0], 2 * TABLA_FEATURES))
    sides = (
        (0, mine, my_bar, theirs_seen, their_bar),
        (TABLA_FEATURES, theirs, their_bar, mine_seen, my_bar),
    )
    for start, counts, bar, hitters, entering in sides:
        out[:, start] = ((counts * _POINTS).sum(axis=1) + 25 * bar) / 100.0
        out[:, start + 1] = _exposure(counts == 1, hitters, entering)
        out[:, start + 2] = _longest_run(counts >= 2) / 6.0
        out[:, start + 3] = (counts[:, 18:].sum(axis=1) + bar) / 15.0
        out[:, start + 4] = (counts == 1).sum(axis=1) / 5.0
        out[:, start + 5] = contact
    return out


# Gjul Bara: the other side's checkers on this side's point p stand on its point
# (p + 11) % 24 + 1, and the same map takes them back.
_PARALLEL = np.array([(p + 11) % 24 for p in range(1, 25)], dtype=np.intp)


def _blocked_dice(counts: Counts, other: Counts) -> Inputs:
    """How many die values (of 6) a side with ``counts`` (n, 24) can step by with no checker,
    the other side's checkers ``other`` (n, 24) seen in the same numbering."""
    n = counts.shape[0]
    has = counts > 0
    free = other == 0
    all_home = counts[:, 6:].sum(axis=1) == 0
    highest = np.max(np.where(has, _POINTS, 0), axis=1)
    blocked = np.zeros(n)
    for die in range(1, 7):
        # A step from point p (p > die) to p - die, free of the other side.
        steps = (has[:, die:] & free[:, : 24 - die]).any(axis=1)
        # Off, once every checker is home: from the die's point, or the highest below it.
        off = all_home & (has[:, die - 1] | (highest < die))
        blocked += ~(steps | off)
    out: Inputs = blocked / 6.0
    return out


def gul_bara_features(x: Inputs) -> Inputs:
    """(n, 12): the ``gul_bara-1`` features of Gjul Bara vectors ``x`` (module docstring)."""
    half = half_size("gul_bara")
    mine, theirs = _counts(x, 0), _counts(x, half)
    out = np.empty((x.shape[0], 2 * GUL_BARA_FEATURES))
    sides = ((0, mine, theirs), (GUL_BARA_FEATURES, theirs, mine))
    for start, counts, other in sides:
        seen = other[:, _PARALLEL]  # the other side's checkers in this side's numbering
        # The other side's rearmost checker, in its own numbering (0: none left).
        rearmost = np.max(np.where(other > 0, _POINTS, 0), axis=1)
        # This side's points in the other side's numbering, below that rearmost checker.
        held_there = (counts[:, _PARALLEL] > 0) & (_POINTS[None, :] < rearmost[:, None])
        # This side's checkers above the other side's lowest checker (25: none).
        lowest = np.min(np.where(seen > 0, _POINTS, 25), axis=1)
        ahead = _POINTS[None, :] > lowest[:, None]
        out[:, start] = (counts * _POINTS).sum(axis=1) / 200.0
        out[:, start + 1] = _blocked_dice(counts, seen)
        out[:, start + 2] = _longest_run(held_there) / 6.0
        out[:, start + 3] = counts[:, 23] / 15.0
        out[:, start + 4] = (counts * ahead).sum(axis=1) / 15.0
        out[:, start + 5] = counts[:, :6].sum(axis=1) / 15.0
    return out


DERIVED: dict[str, tuple[str, int, Callable[[Inputs], Inputs]]] = {
    "tabla-1": ("tabla", 2 * TABLA_FEATURES, tabla_features),
    "gul_bara-1": ("gul_bara", 2 * GUL_BARA_FEATURES, gul_bara_features),
}
"""A set's name: its variant, how many inputs it adds, and the function."""


def derived_size(name: str | None) -> int:
    return 0 if name is None else DERIVED[name][1]


def with_derived(name: str | None, x: Inputs) -> Inputs:
    """``x`` (n, inputs) or one vector, followed by the set ``name``'s features (none: ``x``)."""
    if name is None:
        return x
    compute = DERIVED[name][2]
    if x.ndim == 1:
        return np.concatenate([x, compute(x[None, :])[0]])
    return np.hstack([x, compute(x)])


__all__ = [
    "DERIVED",
    "derived_size",
    "gul_bara_features",
    "tabla_features",
    "with_derived",
]
