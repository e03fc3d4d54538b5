"""The legal plays of one decision as a graph of single steps, for a board where a player moves
one checker at a time (the match page) and the engine stays the only judge.

A **state** is the board after some steps of the play, with the dice still unused; an **edge** is
one legal step (one die) from a state to the next. Only the steps that still lead to a legal play
are kept (§2.4, §2.8: the largest effective length, the larger die, and every filter the legal
plays went through), in **every** order in which they are legal, not just the one order the
legal plays list: ``13/8`` then ``24/18`` is as good a way to ``24/18 13/8`` as the other. States
reached by different orders are one state, so the graph stays small: a Tabla 4-4 from the start
has fewer than a hundred states.

A state whose steps make a whole legal play names that play: ``play`` is its index in the order
of ``legal_plays`` (and of the game API's ``legal_plays``). Every state carries its board and the
pip counts of both sides, so a page draws each step as the engine sees it (a hit checker on the
bar, a Tapa pin) without applying a single rule itself.

Points in the graph are in **white** numbering, as the board is drawn (``"bar"`` and ``"off"``
for the bar and the tray); ``move`` is the step in the mover's own notation, as submitted. How the
match page chooses among the ways the graph offers is docs/decisions.md D45.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .board import OPP_BAR, OWN_BAR, OWN_OFF, Node, board_points
from .generate import _TEXTS, Decision
from .options import DEFAULT_OPTIONS, Options
from .position import COLOURS, Colour, Position, Stack
from .variants import Variant

Key = tuple[Node, tuple[int, ...]]  # a state of the search: the node and the dice still unused


@dataclass(frozen=True, slots=True)
class Step:
    """One edge of the graph: the step ``move`` with ``die``, from white point ``source`` to white
    point ``target`` (or ``"bar"`` / ``"off"``), leading to state number ``state``."""

    move: str
    source: int | str
    target: int | str
    die: int
    state: int

    def to_json(self) -> list[Any]:
        """``[move, from, to, die, next]``: an array, as a double's graph has a thousand steps."""
        return [self.move, self.source, self.target, self.die, self.state]


@dataclass(frozen=True, slots=True)
class StepState:
    """The board after some steps, the legal steps from here, and the legal play it completes
    (``play``: an index into the legal plays; None while more steps must be made)."""

    points: tuple[Stack, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    pips: tuple[int, int]
    dice: tuple[int, ...]  # the dice still unused
    steps: tuple[Step, ...]
    play: int | None

    def to_json(self, start: Sequence[Stack] | None = None) -> dict[str, Any]:
        """The state as JSON; with the ``start`` board, ``changes`` lists only the points that
        differ from it (white point number as text: the stack), instead of all 24 ``points``."""
        board: dict[str, Any]
        if start is None:
            board = {"points": [_stack_json(stack) for stack in self.points]}
        else:
            changed = zip(start, self.points, strict=True)
            board = {
                "changes": {
                    str(index + 1): _stack_json(stack)
                    for index, (before, stack) in enumerate(changed)
                    if stack != before
                }
            }
        return {
            **board,
            "bar": {"w": self.bar[0], "b": self.bar[1]},
            "off": {"w": self.off[0], "b": self.off[1]},
            "pips": {"w": self.pips[0], "b": self.pips[1]},
            "steps": [step.to_json() for step in self.steps],
            "play": self.play,
        }


@dataclass(frozen=True, slots=True)
class StepGraph:
    """All legal ways to make the plays of one decision, a step at a time; state 0 is the start.

    ``dice`` are the dice of this decision (four for a double or a full cascade stage, one to
    four for a remainder stage), ``later`` the dice of the stages still owed after it (§4.4,
    B4-B5), ``kind`` is ``roll``, ``cascade`` or ``remainder``.
    """

    turn: Colour
    dice: tuple[int, ...]
    later: tuple[int, ...]
    kind: str
    states: tuple[StepState, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "dice": list(self.dice),
            "later": list(self.later),
            "kind": self.kind,
            "points": [_stack_json(stack) for stack in self.states[0].points],
            "states": [state.to_json(self.states[0].points) for state in self.states],
        }


def _stack_json(stack: Stack) -> list[list[Any]]:
    return [list(pair) for pair in stack]


def step_graph(
    variant_name: str,
    position: Position,
    dice: Sequence[int] | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> StepGraph:
    """The step graph of ``position.turn``'s decision with ``dice`` (or the pending stage).

    >>> from games.engine import start_position
    >>> graph = step_graph("tabla", start_position("tabla"), [6, 5])
    >>> sorted(step.move for step in graph.states[0].steps)
    ['13/7', '13/8', '24/18', '8/2', '8/3']
    >>> sum(state.play is not None for state in graph.states)  # a state for each legal play
    7
    """
    decision = Decision.prepare(variant_name, position, dice, options)
    return _Builder(decision).build()


class _Builder:
    """A depth-first walk from the root that keeps the steps leading to a legal play."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        self.rules = decision.rules
        self.me = decision.position.turn
        self.variant = decision.variant
        self.finals = {node: index for index, node in enumerate(decision.paths)}
        self.length = decision.found.length
        self.may_end_early = self.rules.mother != "off"
        self.number: dict[Key, int] = {}
        self.keys: list[Key] = []
        self.edges: list[list[tuple[int, int, int, int]]] = []  # (source, target, die, state)
        self.leads: dict[Key, bool] = {}
        self.plays: dict[int, int] = {}

    def build(self) -> StepGraph:
        stage = self.decision.stage
        root = (self.decision.root, tuple(sorted(stage.dice, reverse=True)))
        self._walk(root, 0)
        order = self._reachable()
        renumber = {old: new for new, old in enumerate(order)}
        states = tuple(self._state(old, renumber) for old in order)
        return StepGraph(self.me, stage.dice, stage.later, stage.kind, states)

    def _reachable(self) -> list[int]:
        """The states on some legal play, root first, in breadth-first order (a dead end the
        walk tried is dropped)."""
        order = [0]
        seen = {0}
        for number in order:
            for *_step, state in self.edges[number]:
                if state not in seen:
                    seen.add(state)
                    order.append(state)
        return order

    def _id(self, key: Key) -> int:
        number = self.number.get(key)
        if number is None:
            number = self.number[key] = len(self.keys)
            self.keys.append(key)
            self.edges.append([])
        return number

    def _walk(self, key: Key, depth: int) -> bool:
        """Whether some legal play goes on from ``key``; records the steps that do."""
        known = self.leads.get(key)
        if known is not None:
            return known
        node, remaining = key
        number = self._id(key)
        moved = False
        previous = 0
        for index, die in enumerate(remaining):
            if die == previous:
                continue
            previous = die
            rest = remaining[:index] + remaining[index + 1 :]
            for source, target, child in self.rules.steps(node, die):
                moved = True
                if self._leads(child, rest, depth + 1):
                    self.edges[number].append((source, target, die, self.number[(child, rest)]))
        if not moved:  # a complete play: legal if it is one of the legal plays (§2.4)
            play = self.finals.get(node[:27]) if depth == self.length else None
            if play is not None:
                self.plays[number] = play
        found = bool(self.edges[number]) or number in self.plays
        self.leads[key] = found
        return found

    def _leads(self, child: Node, rest: tuple[int, ...], depth: int) -> bool:
        end = self.rules.end_of(child) if self.may_end_early or child[0] == 15 else None
        if end is None:
            return self._walk((child, rest), depth)
        # The step ended the game: the play is complete whatever dice are left (§2.7).
        key = (child, rest)
        play = self.finals.get(child[:27])
        if play is None:
            return False
        number = self._id(key)
        self.plays[number] = play
        self.leads[key] = True
        return True

    def _state(self, number: int, renumber: dict[int, int]) -> StepState:
        node, remaining = self.keys[number]
        points = board_points(self.variant, node, self.me)
        side = COLOURS.index(self.me)
        bar = [0, 0]
        bar[side], bar[1 - side] = node[OWN_BAR], node[OPP_BAR]
        off = [0, 0]
        off[side], off[1 - side] = node[OWN_OFF], self.decision.position.off[1 - side]
        steps = tuple(
            Step(
                _TEXTS[source, target],
                self._white(source),
                self._white(target),
                die,
                renumber[state],
            )
            for source, target, die, state in self.edges[number]
        )
        return StepState(
            points=points,
            bar=(bar[0], bar[1]),
            off=(off[0], off[1]),
            pips=pip_counts(self.variant, points, (bar[0], bar[1])),
            dice=remaining,
            steps=steps,
            play=self.plays.get(number),
        )

    def _white(self, point: int) -> int | str:
        if point == 25:
            return "bar"
        if point == 0:
            return "off"
        return self.variant.white_point(point, self.me)


def pip_counts(variant: Variant, points: Sequence[Stack], bar: tuple[int, int]) -> tuple[int, int]:
    """(white's, black's) pip count: the points each side's checkers still have to travel, in
    its own numbering (a checker on its own 6-point needs 6 pips; on the bar, 25).

    >>> from games.engine import start_position, find_variant
    >>> start = start_position("tabla")
    >>> pip_counts(find_variant("tabla"), start.points, start.bar)
    (167, 167)
    """
    counts = [25 * bar[0], 25 * bar[1]]
    for index, stack in enumerate(points):
        for colour, count in stack:
            side = COLOURS.index(colour)
            counts[side] += variant.white_point(index + 1, colour) * count
    return counts[0], counts[1]
