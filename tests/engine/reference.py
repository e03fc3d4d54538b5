"""An independent brute-force play generator, written for the tests only (docs/rules.md §2-§5, App.
A/B).

It works on the contract's JSON directly and imports nothing from ``games.engine``. It is slow on
purpose: every die order and every movable checker is tried recursively, with no merging of
intermediate states, and only the complete plays are collapsed to distinct resulting states.

    >>> from tests.engine.notation import case_position
    >>> query = {"variant": "tabla", "position": case_position("W 13, 1×14 | B 2×2, 24×13")}
    >>> [play["moves"] for play in reference_answer({**query, "dice": [6, 5]})["plays"]]
    [['13/7']]

Options read here: ``tabla_triple``, ``cascade``, ``cascade_from_roll``, ``cascade_count``,
``cascade_remainder``, ``unstarted_chain``, ``mother``, ``tapa_tie``, ``pinned_bearoff`` and the
``preset`` key (only the presets' effect on these). Any other option must be at its default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

WHITE, BLACK = "w", "b"

DEFAULTS: dict[str, Any] = {
    "tabla_triple": False,
    "cascade": True,
    "cascade_from_roll": 4,
    "cascade_count": "per_player",
    "cascade_remainder": "opponent",
    "unstarted_chain": "lost",
    "mother": "auto_win",
    "tapa_tie": "replay",
    "pinned_bearoff": "occupies",
}
# Only the keys above matter to the plays; the presets' other switches are match rules.
PRESETS: dict[str, dict[str, Any]] = {
    "macedonian": {},
    "bulgarian_nit": {"tapa_tie": "one_each", "pinned_bearoff": "no_bearoff"},
}
# Options that change the plays but that this reference does not implement.
UNSUPPORTED = {
    "tabla_hit_and_run_home": True,
    "cascade_scope": "per_stage",
    "first_runner": False,
    "start_quarter_block": False,
    "six_prime": "allowed",
    "head_rule": False,
}


class BudgetExceeded(Exception):
    """The brute force would take more steps than the caller allowed."""


class ReferenceIllegal(ValueError):
    """A move list that the reference cannot replay (see ``apply_moves``)."""


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def resolve_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The effective values of the options this reference knows, presets applied first."""
    options = dict(options or {})
    result = dict(DEFAULTS)
    preset = options.pop("preset", None)
    if preset is not None:
        if preset not in PRESETS:
            raise ValueError(f"reference: preset {preset!r} not supported")
        result.update(PRESETS[preset])
    for key, value in options.items():
        if key in DEFAULTS:
            result[key] = value
        elif key in UNSUPPORTED:
            if value != UNSUPPORTED[key]:
                raise ValueError(f"reference: option {key}={value!r} not supported")
        # match-level options (match_length, cycle, cube, ...) do not change the plays
    return result


# --- the board, seen by one mover -------------------------------------------------------------


def white_point(variant: str, colour: str, own: int) -> int:
    """White-numbered point of ``colour``'s own point ``own`` (1..24), docs/rules.md §2.1."""
    if colour == WHITE:
        return own
    if variant == "gul_bara":
        return (own + 11) % 24 + 1
    return 25 - own


@dataclass(frozen=True)
class State:
    """The board part of a position: white-numbered stacks, bar and off as (white, black)."""

    points: tuple[tuple[tuple[str, int], ...], ...]
    bar: tuple[int, int]
    off: tuple[int, int]


def side(colour: str) -> int:
    return 0 if colour == WHITE else 1


@dataclass
class Mover:
    """The rules for one side making one play."""

    variant: str
    me: str
    options: dict[str, Any]
    budget: int | None = None
    nodes: int = 0
    index: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.them = other(self.me)
        self.index = {q: white_point(self.variant, self.me, q) - 1 for q in range(1, 25)}

    def tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise BudgetExceeded(self.nodes)

    # reading the board ---------------------------------------------------------------------

    def stack(self, state: State, own: int) -> tuple[tuple[str, int], ...]:
        return state.points[self.index[own]]

    def movable(self, stack: tuple[tuple[str, int], ...]) -> int:
        """Own checkers on this stack that may move: a plain own stack, or own pinners on top."""
        if len(stack) == 1 and stack[0][0] == self.me:
            return stack[0][1]
        if len(stack) == 2 and stack[1][0] == self.me:
            return stack[1][1]
        return 0

    def has_own(self, stack: tuple[tuple[str, int], ...]) -> bool:
        """Any own checker of any kind (free, pinning or pinned)."""
        return any(colour == self.me for colour, _ in stack)

    def own_pinned(self, stack: tuple[tuple[str, int], ...]) -> bool:
        return len(stack) == 2 and stack[0][0] == self.me

    def their_pinned(self, stack: tuple[tuple[str, int], ...]) -> bool:
        return len(stack) == 2 and stack[0][0] == self.them

    # changing the board --------------------------------------------------------------------

    def put(self, state: State, own: int, stack: tuple[tuple[str, int], ...]) -> State:
        points = list(state.points)
        points[self.index[own]] = stack
        return State(tuple(points), state.bar, state.off)

    def lifted(self, stack: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
        """The stack after one own movable checker left it."""
        if len(stack) == 1:
            count = stack[0][1]
            return () if count == 1 else ((self.me, count - 1),)
        bottom, (_, count) = stack[0], stack[1]
        return (bottom,) if count == 1 else (bottom, (self.me, count - 1))

    def landed(
        self, stack: tuple[tuple[str, int], ...]
    ) -> tuple[tuple[tuple[str, int], ...], bool] | None:
        """(stack after an own checker lands, did it hit) or None when the mover may not land."""
        me, them = self.me, self.them
        if not stack:
            return ((me, 1),), False
        if len(stack) == 1:
            colour, count = stack[0]
            if colour == me:
                return ((me, count + 1),), False
            if self.variant == "gul_bara":
                return None  # §4.3: any opposing checker blocks
            if count >= 2:
                return None  # §3.3, §5.3: two or more opposing checkers block
            if self.variant == "tabla":
                return ((me, 1),), True  # hit
            return ((them, 1), (me, 1)), False  # tapa: pin
        # a tapa pin stack
        (bottom, _), (top, count) = stack
        if bottom == me:
            return None  # own checker pinned under opposing pinners: a pinner cannot be pinned
        return ((them, 1), (me, count + 1)), False  # reinforce an own pin

    # the rules of bearing off --------------------------------------------------------------

    def all_home(self, state: State) -> bool:
        if state.bar[side(self.me)]:
            return False
        return not any(self.has_own(self.stack(state, q)) for q in range(7, 25))

    def may_bear_off(self, state: State, own: int, die: int) -> bool:
        if not self.all_home(state):
            return False
        if self.variant == "tapa" and self.options["pinned_bearoff"] == "no_bearoff":
            if any(self.own_pinned(self.stack(state, q)) for q in range(1, 7)):
                return False
        if own == die:
            return True
        # a higher die: only from the highest occupied own point (pinned checkers count)
        return not any(self.has_own(self.stack(state, q)) for q in range(own + 1, 25))

    # steps -----------------------------------------------------------------------------------

    def steps(self, state: State, die: int) -> list[tuple[str, State]]:
        """Every legal single step with ``die``: (move in own notation, state after)."""
        me_i, them_i = side(self.me), side(self.them)
        result: list[tuple[str, State]] = []
        if state.bar[me_i]:
            target = 25 - die
            landing = self.landed(self.stack(state, target))
            if landing is not None:
                stack, hit = landing
                bar = list(state.bar)
                bar[me_i] -= 1
                if hit:
                    bar[them_i] += 1
                after = self.put(State(state.points, (bar[0], bar[1]), state.off), target, stack)
                result.append((f"bar/{target}", after))
            return result
        for source in range(24, 0, -1):
            stack = self.stack(state, source)
            if not self.movable(stack):
                continue
            target = source - die
            lifted = self.put(state, source, self.lifted(stack))
            if target >= 1:
                landing = self.landed(self.stack(lifted, target))
                if landing is None:
                    continue
                new_stack, hit = landing
                after = self.put(lifted, target, new_stack)
                if hit:
                    bar = list(after.bar)
                    bar[them_i] += 1
                    after = State(after.points, (bar[0], bar[1]), after.off)
                result.append((f"{source}/{target}", after))
            elif self.may_bear_off(state, source, die):
                off = list(lifted.off)
                off[me_i] += 1
                result.append((f"{source}/off", State(lifted.points, lifted.bar, (off[0], off[1]))))
        return result

    def game_end(self, state: State) -> str | None:
        """``won`` (15 off), ``tie`` or ``mother`` (Tapa, §5.4, in that order), else None."""
        if state.off[side(self.me)] == 15:
            return "won"
        if self.variant != "tapa" or self.options["mother"] == "off":
            return None
        own_start = self.stack(state, 24)
        their_start = self.stack(state, 1)  # the opponent's 24-point is the mover's 1-point
        if self.own_pinned(own_start) and self.their_pinned(their_start):
            return "tie"
        if self.options["mother"] == "auto_win":
            if self.their_pinned(their_start) and not self.has_own(own_start):
                return "mother"
        return None

    def result(self, end: str, state: State) -> dict[str, Any]:
        """docs/rules.md B6 for a play that ended the game with ``state``."""
        if end == "tie":
            points = 1 if self.options["tapa_tie"] == "one_each" else 0
            return {"winner": None, "kind": "tie", "points": points}
        if end == "mother":
            return {"winner": self.me, "kind": "mother", "points": 2}
        if state.off[side(self.them)] > 0:
            return {"winner": self.me, "kind": "single", "points": 1}
        if self.variant == "tabla" and self.options["tabla_triple"]:
            trapped = state.bar[side(self.them)] > 0 or any(
                any(colour == self.them for colour, _ in self.stack(state, q)) for q in range(1, 7)
            )
            if trapped:
                return {"winner": self.me, "kind": "triple", "points": 3}
        return {"winner": self.me, "kind": "mars", "points": 2}


# --- plays --------------------------------------------------------------------------------------


@dataclass
class Complete:
    """One complete step sequence: moves, dice used, state reached, how the game ended."""

    moves: list[str]
    dice: list[int]
    state: State
    end: str | None


def enumerate_plays(mover: Mover, state: State, dice: list[int]) -> list[Complete]:
    """Every complete step sequence (§2.4 items 1-2), all die orders, all checkers."""
    found: list[Complete] = []

    def walk(current: State, remaining: list[int], moves: list[str], used: list[int]) -> None:
        moved = False
        for die in sorted(set(remaining), reverse=True):
            rest = list(remaining)
            rest.remove(die)
            for move, after in mover.steps(current, die):
                mover.tick()
                moved = True
                end = mover.game_end(after)
                if end is not None:
                    found.append(Complete([*moves, move], [*used, die], after, end))
                else:
                    walk(after, rest, [*moves, move], [*used, die])
        if not moved:
            found.append(Complete(moves, used, current, None))

    walk(state, list(dice), [], [])
    return found


def must_play(sequences: list[Complete], dice: list[int]) -> list[Complete]:
    """§2.4 items 3-5: maximal effective length, then the larger-die rule."""

    def effective(sequence: Complete) -> int:
        return len(dice) if sequence.end is not None else len(sequence.moves)

    best = max(effective(sequence) for sequence in sequences)
    legal = [sequence for sequence in sequences if effective(sequence) == best]
    if len(dice) == 2 and dice[0] != dice[1] and best == 1:
        larger = max(dice)
        with_larger = [sequence for sequence in legal if sequence.dice[0] == larger]
        if with_larger:
            legal = with_larger
    return legal


# --- stages and the position after (B2, B4, B5) -------------------------------------------------


@dataclass
class Stage:
    dice: list[int]
    later: list[int]
    kind: str  # "roll", "cascade" or "remainder"
    chain: bool  # a stage of an escalating double (a partial one hands the rest over)


def escalates(position: dict[str, Any], options: dict[str, Any]) -> bool:
    rolls = position.get("rolls", {"w": 0, "b": 0})
    if options["cascade_count"] == "per_game":
        made = rolls["w"] + rolls["b"]
    else:
        made = rolls[position["turn"]]
    return bool(options["cascade"]) and made >= options["cascade_from_roll"] - 1


def stage_of(variant: str, position: dict[str, Any], dice: Any, options: dict[str, Any]) -> Stage:
    pending = list(position.get("pending") or [])
    if pending:
        run = 1
        while run < len(pending) and run < 4 and pending[run] == pending[0]:
            run += 1
        kind = position["pending_kind"]
        return Stage(pending[:run], pending[run:], kind, chain=kind == "cascade")
    first, second = dice
    if first != second:
        return Stage([first, second], [], "roll", chain=False)
    if variant == "gul_bara" and escalates(position, options):
        later = [value for value in range(first + 1, 7) for _ in range(4)]
        return Stage([first] * 4, later, "roll", chain=True)
    return Stage([first] * 4, [], "roll", chain=False)


def hand_over(
    stage: Stage, steps: int, ended: bool, options: dict[str, Any]
) -> tuple[bool, list[int], str | None]:
    """(does the turn pass, pending dice, pending kind) after a stage play of ``steps`` steps."""
    if ended:
        return True, [], None
    if stage.kind == "remainder":
        return False, list(stage.later), "remainder" if stage.later else None
    if not stage.chain:
        return True, [], None
    if steps == len(stage.dice):
        if stage.later:
            return False, list(stage.later), "cascade"
        return True, [], None
    unstarted = steps == 0 and stage.kind == "roll"
    if unstarted and options["unstarted_chain"] == "lost":
        return True, [], None
    if options["cascade_remainder"] == "forfeit":
        return True, [], None
    return True, stage.dice[steps:] + stage.later, "remainder"


def read_state(position: dict[str, Any]) -> State:
    points = tuple(
        tuple((colour, count) for colour, count in stack) for stack in position["points"]
    )
    bar = position.get("bar", {"w": 0, "b": 0})
    off = position.get("off", {"w": 0, "b": 0})
    return State(points, (bar["w"], bar["b"]), (off["w"], off["b"]))


def position_after(
    position: dict[str, Any],
    stage: Stage,
    state: State,
    steps: int,
    end: str | None,
    options: dict[str, Any],
) -> dict[str, Any]:
    me = position["turn"]
    passes, pending, kind = hand_over(stage, steps, end is not None, options)
    rolls = dict(position.get("rolls", {"w": 0, "b": 0}))
    if stage.kind == "roll":
        rolls[me] += 1
    after: dict[str, Any] = {
        "turn": other(me) if passes else me,
        "points": [[[colour, count] for colour, count in stack] for stack in state.points],
        "bar": {"w": state.bar[0], "b": state.bar[1]},
        "off": {"w": state.off[0], "b": state.off[1]},
        "rolls": {"w": rolls["w"], "b": rolls["b"]},
    }
    if pending:
        after["pending"] = pending
        after["pending_kind"] = kind
    return after


# --- the contract ---------------------------------------------------------------------------------


def canonical(entry: dict[str, Any]) -> str:
    """The identity of a play entry: its resulting state (position with pending, and result).

    ``pending`` defaults to [] and ``pending_kind`` is dropped when nothing is pending (B5)."""
    position = dict(entry["position"])
    if not position.get("pending"):
        position.pop("pending", None)
        position.pop("pending_kind", None)
    for key in ("bar", "off", "rolls"):
        position.setdefault(key, {"w": 0, "b": 0})
    return json.dumps({"position": position, "result": entry.get("result")}, sort_keys=True)


def state_set(answer: dict[str, Any]) -> set[str]:
    return {canonical(entry) for entry in answer["plays"]}


def reference_answer(
    query: dict[str, Any], *, budget: int | None = None, all_paths: bool = False
) -> dict[str, Any]:
    """Answer a query like ``answer_query``: ``{"plays": [...]}``, one entry per distinct state.

    With ``all_paths`` each entry also carries ``paths``: every legal move list reaching it.
    Raises BudgetExceeded when more than ``budget`` steps would be tried.
    """
    variant = query["variant"]
    position = query["position"]
    options = resolve_options(query.get("options"))
    stage = stage_of(variant, position, query.get("dice"), options)
    mover = Mover(variant, position["turn"], options, budget)
    sequences = must_play(enumerate_plays(mover, read_state(position), stage.dice), stage.dice)
    entries: dict[str, dict[str, Any]] = {}
    for sequence in sequences:
        entry: dict[str, Any] = {
            "moves": sequence.moves,
            "position": position_after(
                position, stage, sequence.state, len(sequence.moves), sequence.end, options
            ),
        }
        if sequence.end is not None:
            entry["result"] = mover.result(sequence.end, sequence.state)
        key = canonical(entry)
        if key not in entries:
            entries[key] = entry
            if all_paths:
                entry["paths"] = []
        if all_paths and sequence.moves not in entries[key]["paths"]:
            entries[key]["paths"].append(sequence.moves)
    return {"plays": list(entries.values())}


def apply_moves(query: dict[str, Any], moves: list[str] | str) -> dict[str, Any]:
    """Replay a move list step by step (any die may serve each step) and return the play entry
    it leads to, without checking the must-play rule. Raises ReferenceIllegal for a step that
    no remaining die allows."""
    if isinstance(moves, str):
        moves = moves.split()
    variant = query["variant"]
    position = query["position"]
    options = resolve_options(query.get("options"))
    stage = stage_of(variant, position, query.get("dice"), options)
    mover = Mover(variant, position["turn"], options)
    branches: list[tuple[State, list[int], str | None]] = [
        (read_state(position), list(stage.dice), None)
    ]
    for index, move in enumerate(moves):
        following = []
        for state, remaining, end in branches:
            if end is not None:
                continue
            for die in sorted(set(remaining)):
                for step, after in mover.steps(state, die):
                    if step == move:
                        rest = list(remaining)
                        rest.remove(die)
                        following.append((after, rest, mover.game_end(after)))
        if not following:
            raise ReferenceIllegal(f"step {index + 1} ({move}) cannot be played")
        branches = following
    state, _remaining, end = branches[0]
    entry: dict[str, Any] = {
        "moves": list(moves),
        "position": position_after(position, stage, state, len(moves), end, options),
    }
    if end is not None:
        entry["result"] = mover.result(end, state)
    return entry
