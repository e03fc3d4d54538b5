"""Exact one-sided bear-off tables: a pure race's chances without the network (issue 23 §1).

A side's position in a bear-off is its checkers on its own points 1-6 (up to 15 of them; the
rest borne off). For each such position the table holds the probability distribution of the
number of turns the side needs to bear all of them off, playing every roll to minimise the
expected number of turns (the one-sided approach of GNU Backgammon), and of the number of turns
it needs to bear off its first checker, playing to minimise that (for the mars chances, the
side that has borne off none).

Two tables cover the three games (docs/decisions.md D147). Bearing off is §2.6 in every game,
and in a race no opposing checker can stand in a home board, so Tabla's hitting, Gjul Bara's
single-checker blocks and Tapa's pins change nothing: ``standard`` is the table of Tabla, Tapa
and Gjul Bara without the cascade (the greek_tavli preset's Fevga). ``cascade`` is Gjul Bara's:
a double escalates (§4.4) to the stages n, n+1, ... 6 of four dice each, all in one turn. In a
bear-off every die can be played while a checker is left (a die above the highest point bears
that checker off, any other moves or bears off one), so a chain never stops early and nothing
ever passes to the opponent. Each stage is its own decision; the table plays the chain that
minimises the expected turns of the position it leaves, which is the best sequence of stage
plays (every later stage is known when the first is chosen).

The chances of a race where both sides are home (``race_chances``): with A to move needing
``a`` turns and B ``b``, A wins when ``a <= b``; A wins a mars when it is done before B's first
checker is off, and loses one when B is done before A's first checker is. Each side's two
distributions are independent, so these are sums over the tables' rows.

Built by ``python -m games.analysis.bearoff build --variant V --out DIR`` (DIR: the folder of
the weights, ``settings.ANALYSIS_WEIGHTS_DIR``), files ``bearoff-standard.npz`` and
``bearoff-cascade.npz``; not committed (docs/analysis.md "Bear-off tables").
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from games.engine.board import OPP_BAR, OWN_BAR, PIN, ZERO, Node, to_node
from games.engine.generate import double_escalates
from games.engine.options import Options
from games.engine.position import Colour, Position, opponent
from games.engine.variants import find_variant

from .net import Array, save_npz

Counts = tuple[int, int, int, int, int, int]  # checkers on own points 1..6
Ints = npt.NDArray[np.int64]

KINDS = ("standard", "cascade")
FORMAT = 1
CHECKERS = 15
TURNS = 48  # the distribution's length while building; trimmed to the longest one met


def kind_of(variant: str, options: Options) -> str:
    """Which table a variant's race uses under ``options``."""
    return "cascade" if find_variant(variant).name == "gul_bara" and options.cascade else "standard"


def file_name(kind: str) -> str:
    return f"bearoff-{kind}.npz"


# --- positions ------------------------------------------------------------------------------


@cache
def positions(checkers: int) -> tuple[Counts, ...]:
    """Every one-sided position of at most ``checkers`` checkers, by pip count then counts: a
    play always lowers the pip count, so a position's successors all come before it. Index 0
    is the empty position (all borne off)."""
    found: list[tuple[int, Counts]] = []
    for a in range(checkers + 1):
        for b in range(checkers + 1 - a):
            for c in range(checkers + 1 - a - b):
                for d in range(checkers + 1 - a - b - c):
                    for e in range(checkers + 1 - a - b - c - d):
                        left = checkers - a - b - c - d - e
                        base = a + 2 * b + 3 * c + 4 * d + 5 * e
                        found.extend((base + 6 * f, (a, b, c, d, e, f)) for f in range(left + 1))
    found.sort()
    return tuple(counts for _, counts in found)


@cache
def index_of(checkers: int) -> dict[Counts, int]:
    return {counts: i for i, counts in enumerate(positions(checkers))}


def pips(counts: Sequence[int]) -> int:
    return sum(point * n for point, n in enumerate(counts, start=1))


def steps(counts: Counts, die: int) -> list[Counts]:
    """Every position one step of ``die`` leads to, by §2.6: a checker moves ``die`` points
    down, or is borne off from point ``die``, or from a lower point when it is the highest."""
    highest = max((q for q in range(6, 0, -1) if counts[q - 1]), default=0)
    found = []
    for source in range(highest, 0, -1):
        if not counts[source - 1]:
            continue
        after = list(counts)
        after[source - 1] -= 1
        target = source - die
        if target >= 1:
            after[target - 1] += 1
        elif target < 0 and source != highest:
            continue
        found.append((after[0], after[1], after[2], after[3], after[4], after[5]))
    return found


# --- the table ------------------------------------------------------------------------------


@dataclass(slots=True)
class Table:
    """One kind's table for positions of up to ``checkers`` checkers (``positions``' order).

    ``turns[i, t]``: P(position i needs exactly t more turns to bear all off), t = 0 for the
    empty position only; ``first[r, t]``: the same for bearing off a first checker, for the
    positions of exactly ``checkers`` checkers (row ``first_row[i]``); ``expected[i]``: the mean
    of ``turns[i]``; ``chain[i, n - 1]`` (cascade only): the position a chain of stages n..6
    played from i leaves, as ``turns``' best play chooses it.
    """

    kind: str
    checkers: int
    turns: npt.NDArray[np.float32]
    first: npt.NDArray[np.float32]
    expected: Array
    chain: npt.NDArray[np.int32] | None
    metadata: dict[str, Any] = field(default_factory=dict)
    first_row: Ints = field(init=False)

    def __post_init__(self) -> None:
        full = np.array([sum(c) == self.checkers for c in positions(self.checkers)])
        self.first_row = np.where(full, np.cumsum(full) - 1, -1).astype(np.int64)

    def index(self, counts: Counts) -> int | None:
        if sum(counts) > self.checkers:
            return None
        return index_of(self.checkers)[counts]

    def save(self, path: str | Path, **metadata: Any) -> None:
        """Write the table as a compressed .npz, atomically."""
        self.metadata.update(metadata)
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT),
            "kind": np.array(self.kind),
            "checkers": np.array(self.checkers),
            "turns": self.turns,
            "first": self.first,
            "expected": self.expected,
            "metadata": np.array(json.dumps(self.metadata, sort_keys=True)),
        }
        if self.chain is not None:
            arrays["chain"] = self.chain
        save_npz(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Table:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT:
                raise ValueError(f"{path}: a bear-off table of format {int(data['format'])}")
            checkers = int(data["checkers"])
            if not 1 <= checkers <= CHECKERS:
                raise ValueError(f"{path}: a bear-off table of {checkers} checkers")
            table = cls(
                kind=str(data["kind"]),
                checkers=checkers,
                turns=data["turns"].astype(np.float32),
                first=data["first"].astype(np.float32),
                expected=data["expected"].astype(np.float64),
                chain=data["chain"].astype(np.int32) if "chain" in data else None,
                metadata=json.loads(str(data["metadata"])),
            )
        if table.kind not in KINDS or table.turns.shape[0] != len(positions(checkers)):
            raise ValueError(f"{path}: not a bear-off table of {checkers} checkers")
        return table


def build(kind: str, checkers: int = CHECKERS) -> Table:
    """The table of ``kind`` for up to ``checkers`` checkers, by dynamic programming over the
    positions in pip order, one pip count at a time with numpy (docs/analysis.md)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    cascade = kind == "cascade"
    every = positions(checkers)
    index = index_of(checkers)
    n = len(every)
    # successors[d, i]: the positions one step of d leads to from i, padded with n (a sentinel
    # whose expected turns are infinite).
    successors = np.full((7, n + 1, 6), n, dtype=np.int64)
    for i, counts in enumerate(every):
        for die in range(1, 7):
            for j, after in enumerate(steps(counts, die)):
                successors[die, i, j] = index[after]
    levels: dict[int, list[int]] = {}
    for i, counts in enumerate(every):
        levels.setdefault(pips(counts), []).append(i)
    size = np.array([sum(c) for c in every])

    expected, turns, chain = _solve(successors, levels, size > 0, cascade)
    # The first checker off: every position with fewer checkers is done (0 turns).
    full = size == checkers
    _, first_turns, _ = _solve(successors, levels, full, cascade)
    length = max(_length(turns), _length(first_turns[:n][full]))
    return Table(
        kind=kind,
        checkers=checkers,
        turns=turns[:n, :length].astype(np.float32),
        first=first_turns[:n][full][:, :length].astype(np.float32),
        expected=expected[:n],
        chain=chain if cascade else None,
    )


def _length(distributions: Array) -> int:
    used = np.nonzero(distributions.max(axis=0) > 0)[0]
    return int(used[-1]) + 1 if used.size else 1


def _solve(
    successors: Ints, levels: dict[int, list[int]], todo: npt.NDArray[np.bool_], cascade: bool
) -> tuple[Array, Array, npt.NDArray[np.int32]]:
    """Expected turns, their distribution and the cascade chains' ends, for the positions of
    ``todo`` (the others are done: 0 turns). The finals are tracked, not values: ``one[d][i]``
    is where the best single step of d from i leads, ``stage[d][k][i]`` where the best k steps
    of d lead (from k = 0, where a chain's next stage starts: the position itself, or in a
    cascade the end of the stages d+1..6 played from it)."""
    n = successors.shape[1] - 1
    identity = np.arange(n + 1, dtype=np.int64)
    expected = np.where(todo, np.inf, 0.0)
    expected = np.append(expected, np.inf)  # the sentinel
    turns = np.zeros((n + 1, TURNS))
    turns[:n][~todo, 0] = 1.0
    one = np.tile(identity, (7, 1))
    stage = np.tile(identity, (7, 5, 1))
    for level in sorted(levels):
        rows = np.array([i for i in levels[level] if todo[i]], dtype=np.int64)
        if rows.size == 0:
            continue
        take = np.arange(rows.size)

        def best(finals: Ints, take: Ints = take) -> Ints:
            chosen: Ints = finals[take, np.argmin(expected[finals], axis=1)]
            return chosen

        for die in range(1, 7):
            after = successors[die, rows]
            one[die, rows] = best(after)
            for k in range(1, 5):
                stage[die, k, rows] = best(stage[die, k - 1][after])
        finals = []
        weights = []
        for high in range(1, 7):
            for low in range(1, high):
                either = np.concatenate(
                    [one[low][successors[high, rows]], one[high][successors[low, rows]]], axis=1
                )
                finals.append(best(either))
                weights.append(2 / 36)
            finals.append(stage[high, 4, rows])
            weights.append(1 / 36)
        ends = np.stack(finals, axis=1)  # (rows, 21)
        w = np.array(weights)
        expected[rows] = 1.0 + expected[ends] @ w
        turns[rows, 1:] = np.einsum("r,nrt->nt", w, turns[ends][:, :, :-1])
        stage[6, 0, rows] = rows
        for die in range(1, 6):
            stage[die, 0, rows] = stage[die + 1, 4, rows] if cascade else rows
    chain = np.stack([stage[die, 4, :n] for die in range(1, 7)], axis=1).astype(np.int32)
    return expected[:n], turns, chain


# --- a race's chances -------------------------------------------------------------------------


def _win(mine: npt.NDArray[np.float32], theirs: npt.NDArray[np.float32], lead: int) -> float:
    """P(a side needing ``mine`` turns is done before the other needs ``theirs``): with the
    first side on roll (``lead`` 0) that is P(a <= b); ``lead`` 1 asks P(a < b)."""
    at_least = np.cumsum(theirs[::-1], dtype=np.float64)[::-1]  # at_least[t] = P(b >= t)
    shifted = np.zeros(mine.size)
    span = min(mine.size, at_least.size - lead)
    shifted[:span] = at_least[lead : lead + span]
    return float(np.dot(mine.astype(np.float64), shifted))


def _value(
    table: Table, me: int, them: int, on_roll: bool, *, marses: tuple[bool, bool] = (True, True)
) -> Array:
    """P(win), P(win mars), P(lose mars) of the side with position ``me`` against ``them``,
    ``on_roll`` when it rolls next (else the other side does). ``marses``: whether each side
    (me, them) has borne off none, so that it can lose a mars (the table's first-off rows are
    those of its full positions)."""
    lead = 0 if on_roll else 1
    mine, theirs = table.turns[me], table.turns[them]
    win = _win(mine, theirs, lead)
    win_mars = lose_mars = 0.0
    if marses[1] and table.first_row[them] >= 0:
        win_mars = _win(mine, table.first[table.first_row[them]], lead)
    if marses[0] and table.first_row[me] >= 0:
        lose_mars = _win(theirs, table.first[table.first_row[me]], 1 - lead)
    return np.array([win, win_mars, lose_mars])


def race_counts(variant: str, node: Node) -> tuple[Counts, Counts] | None:
    """The home-board counts of the node's mover and of the opponent (each on its own points
    1-6) when both have every checker in play at home (a race nobody can touch any more: no
    bar, no pin, no checker outside its home board), else None."""
    if node[OWN_BAR] or node[OPP_BAR]:
        return None
    parallel = find_variant(variant).name == "gul_bara"
    mine = [0] * 6
    theirs = [0] * 6
    for point in range(1, 25):
        code = node[point] - ZERO
        if code == 0:
            continue
        if code >= PIN or code <= -PIN:
            return None
        if code > 0:
            if point > 6:
                return None
            mine[point - 1] = code
        else:
            own = (point + 11) % 24 + 1 if parallel else 25 - point
            if own > 6:
                return None
            theirs[own - 1] = -code
    return (
        (mine[0], mine[1], mine[2], mine[3], mine[4], mine[5]),
        (theirs[0], theirs[1], theirs[2], theirs[3], theirs[4], theirs[5]),
    )


@dataclass(slots=True)
class RaceTables:
    """The tables at hand, by kind; a kind without its table answers no race of its games."""

    tables: Mapping[str, Table]
    version: str = ""

    @classmethod
    def load_from(cls, directory: str | Path) -> RaceTables | None:
        """The tables found in ``directory`` (``file_name(kind)``), None when there is none;
        an unreadable file counts as missing."""
        found: dict[str, Table] = {}
        stamps = []
        for kind in KINDS:
            path = Path(directory) / file_name(kind)
            try:
                stat = path.stat()
                table = Table.load(path)
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
                continue
            if table.kind == kind:
                found[kind] = table
                stamps.append(f"{kind}-{stat.st_size}-{stat.st_mtime_ns}")
        return cls(found, ":".join(stamps)) if found else None

    def chances(
        self,
        variant: str,
        options: Options,
        node: Node,
        mover: Colour,
        *,
        turn: Colour,
        rolls: tuple[int, int],
        pending: tuple[int, ...] = (),
        pending_kind: str | None = None,
    ) -> Array | None:
        """The exact P(win), P(win mars), P(lose mars) of the side to move (``turn``) in the
        position whose mover-view node is ``node`` (``mover``'s view), or None when it is not
        a race both sides are home in or no table answers it."""
        table = self.tables.get(kind_of(variant, options))
        if table is None:
            return None
        counts = race_counts(variant, node)
        if counts is None:
            return None
        mine, theirs = (table.index(c) for c in counts)
        if mine is None or theirs is None:
            return None
        found = find_variant(variant)
        if table.kind == "cascade" and not all(
            double_escalates(found, options, rolls, side) for side in (mover, opponent(mover))
        ):
            return None  # a double would not escalate yet: not this table's game
        full = (sum(counts[0]) == CHECKERS, sum(counts[1]) == CHECKERS)  # none borne off
        if turn != mover:
            if pending:
                return None
            return _value(table, theirs, mine, on_roll=True, marses=(full[1], full[0]))
        if not pending:
            return _value(table, mine, theirs, on_roll=True, marses=full)
        # The rest of the mover's own chain (stages n..6, four dice each), then the opponent
        # rolls. A remainder (dice handed over) never arises in a race: not answered.
        start = pending[0]
        whole = tuple(value for value in range(start, 7) for _ in range(4))
        if pending_kind != "cascade" or pending != whole or table.chain is None:
            return None
        after = int(table.chain[mine, start - 1])
        return _value(table, after, theirs, on_roll=False, marses=full)

    def may_answer(self, variant: str, position: Position) -> bool:
        """Whether a play from ``position`` may leave a race these tables answer: the side not
        to move (which a play does not move) has every checker left at home, none pinned or on
        the bar. A cheap test that spares every play's race test in all other decisions."""
        found = find_variant(variant)
        them = opponent(position.turn)
        if position.bar != (0, 0):
            return False
        for white, stack in enumerate(position.points, start=1):
            for colour, _ in stack:
                if colour == them and (len(stack) > 1 or found.white_point(white, them) > 6):
                    return False
        return True

    def position_chances(self, variant: str, position: Position, options: Options) -> Array | None:
        """``chances`` of a Position, for its side to move."""
        found = find_variant(variant)
        return self.chances(
            variant,
            options,
            to_node(found, position),
            position.turn,
            turn=position.turn,
            rolls=position.rolls,
            pending=position.pending,
            pending_kind=position.pending_kind,
        )


# --- the command ------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis.bearoff",
        description="Build the exact one-sided bear-off tables (docs/analysis.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="build a variant's table into a folder")
    make.add_argument(
        "--variant",
        choices=("tabla", "gul_bara", "tapa", "fevga", "all"),
        default="all",
        help="tabla and tapa share the standard table, gul_bara has the cascade one; fevga "
        "(gul_bara without the cascade) is the standard one; all: both tables",
    )
    make.add_argument("--out", type=Path, help="the weights folder (default: ./weights)")
    make.add_argument("--checkers", type=int, default=CHECKERS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out: Path = args.out or Path("weights")
    kinds = {
        "tabla": ["standard"],
        "tapa": ["standard"],
        "fevga": ["standard"],
        "gul_bara": ["cascade"],
        "all": list(KINDS),
    }[args.variant]
    for kind in kinds:
        started = time.process_time()
        table = build(kind, args.checkers)
        seconds = time.process_time() - started
        path = out / file_name(kind)
        table.save(
            path,
            build_cpu_seconds=round(seconds, 1),
            positions=int(table.turns.shape[0]),
            turns=int(table.turns.shape[1]),
        )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{kind}: {table.turns.shape[0]} positions, {table.turns.shape[1]} turns, "
            f"{seconds:.1f} s CPU, {path.stat().st_size / 1e6:.2f} MB at {path} "
            f"(peak memory {peak:.0f} MB)",
            file=sys.stdout,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
