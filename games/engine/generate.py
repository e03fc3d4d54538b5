"""All legal plays of a roll or of one Gjul Bara stage (docs/rules.md §2.4, §2.8, §4.4, Appendix
B4-B5).

Plays are found by a breadth-first search over distinct intermediate states: each level applies
one more die, and states reached by different step orders merge at once, so no step order is
ever enumerated twice. The complete plays of maximal effective length survive, then the
larger-die rule, and one entry is kept per distinct resulting state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from .board import OPP_BAR, OWN_BAR, OWN_OFF, ZERO, Node, board_points, to_node
from .errors import InvalidDiceError
from .notation import Move, Play
from .options import DEFAULT_OPTIONS, Options
from .position import COLOURS, WHITE, Colour, Pair, Position, opponent
from .results import GameResult, result_for
from .steps import StepRules, trapping_prime
from .validation import validate_position
from .variants import Variant, find_variant

Path = tuple[tuple[int, int, int], ...]  # (from, to, die) per step
Key = tuple[Node, tuple[int, ...]]  # a state in the search: node and dice still unused


class After(NamedTuple):
    """The position after a play but for its board and bars (those are in ``Outcome.node``):
    who moves next, borne-off checkers and roll counters as ``(white, black)``, the dice owed."""

    turn: Colour
    off: Pair
    rolls: Pair
    pending: tuple[int, ...]
    pending_kind: str | None


class Outcome:
    """One legal play and the state it leads to (``result`` only when it ends the game).

    The position after the play is built when first asked for: a caller that lists plays or
    checks one pays only for the positions it looks at. A caller that needs only the board
    (an evaluator encoding hundreds of plays) reads ``node`` and ``after`` instead, which build
    no Position.
    """

    __slots__ = ("_decision", "_node", "_path", "_play", "_position", "_result")

    def __init__(self, decision: Decision, node: Node, path: Path) -> None:
        self._decision = decision
        self._node = node
        self._path = path
        self._play: Play | None = None
        self._position: Position | None = None
        self._result: GameResult | None = None

    @property
    def play(self) -> Play:
        if self._play is None:
            self._play = Play(tuple([_MOVES[source, target] for source, target, _ in self._path]))
        return self._play

    @property
    def node(self) -> Node:
        """The state after the play in the MOVER's view (games.engine.board's layout, the 27
        bytes without the play-local counters): the mover is the side that made the play,
        whoever moves next."""
        return self._node

    @property
    def after(self) -> After:
        """Everything of the position after the play that ``node`` does not hold."""
        return _after_header(self._decision, self._node, len(self._path))

    @property
    def position(self) -> Position:
        if self._position is None:
            self._position, self._result = _after(self._decision, self._node, len(self._path))
        return self._position

    @property
    def result(self) -> GameResult | None:
        if self._position is None:
            self._position, self._result = _after(self._decision, self._node, len(self._path))
        return self._result

    @property
    def ends_game(self) -> bool:
        """Whether the play ends the game, known from the search: no position is built, so a
        caller listing hundreds of plays (a doublet) pays nothing per play for it."""
        return self._node in self._decision.found.ended

    def move_texts(self) -> list[str]:
        """The moves in notation, as ``play.to_json()``, from a table of every step's text."""
        return [_TEXTS[source, target] for source, target, _ in self._path]

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "moves": self.play.to_json(),
            "position": self.position.to_json(),
        }
        if self.result is not None:
            data["result"] = self.result.to_json()
        return data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.play, self.position, self.result) == (other.play, other.position, other.result)

    def __hash__(self) -> int:
        return hash((self.play, self.position, self.result))

    def __repr__(self) -> str:
        return f"Outcome(play={str(self.play)!r}, result={self.result!r})"


@dataclass(frozen=True, slots=True)
class Stage:
    """The dice of one decision: ``kind`` is ``roll`` (a fresh roll), ``cascade`` (a later stage
    of the mover's own escalating double) or ``remainder`` (dice handed over by the opponent)."""

    dice: tuple[int, ...]
    later: tuple[int, ...]
    kind: str
    is_chain: bool = False  # a stage of an escalating double: a partial one hands the rest over


def escalates(variant: Variant, position: Position, options: Options) -> bool:
    """Does a double rolled now by ``position.turn`` escalate (§4.4.1, B2)?"""
    return double_escalates(variant, options, position.rolls, position.turn)


def double_escalates(variant: Variant, options: Options, rolls: Pair, side: Colour) -> bool:
    """Does a double rolled now by ``side`` escalate, with roll counters ``rolls`` (white,
    black)? ``escalates`` for a caller that has the counters but no Position (``Outcome.after``)."""
    if variant.name != "gul_bara" or not options.cascade:
        return False
    if options.cascade_count == "per_game":
        made = rolls[0] + rolls[1]
    else:
        made = rolls[COLOURS.index(side)]
    return made >= options.cascade_from_roll - 1


def stage_for(
    variant: Variant, position: Position, dice: Sequence[int] | None, options: Options
) -> Stage:
    """Work out which dice the next decision plays: a roll, or the next pending stage (B5)."""
    if position.pending:
        value = position.pending[0]
        run = 0
        while run < len(position.pending) and run < 4 and position.pending[run] == value:
            run += 1
        stage = position.pending[:run]
        if dice is not None and not _names_stage(_checked_dice(dice), stage):
            raise InvalidDiceError(
                f"dice {list(dice)} differ from the pending stage {list(stage)}; "
                "omit dice to play the pending stage"
            )
        kind = position.pending_kind or "remainder"
        return Stage(stage, position.pending[run:], kind, is_chain=kind == "cascade")
    if dice is None:
        raise InvalidDiceError("dice are required: two integers 1-6")
    roll = _checked_roll(dice)
    first, second = roll
    if first != second:
        return Stage((max(roll), min(roll)), (), "roll")
    if escalates(variant, position, options):
        later = tuple(value for value in range(first + 1, 7) for _ in range(4))
        return Stage((first,) * 4, later, "roll", is_chain=True)
    return Stage((first,) * 4, (), "roll")


def _names_stage(given: list[int], stage: tuple[int, ...]) -> bool:
    """Dice given with pending dice must be exactly the next stage; ``[n, n]`` is also read as
    naming a full stage of four n (the double that started the chain)."""
    return sorted(given) == list(stage) or (len(stage) == 4 and given == [stage[0]] * 2)


def _checked_dice(dice: object) -> list[int]:
    """Dice given with a pending stage: a list of integers 1-6 (any number of them)."""
    if isinstance(dice, list | tuple) and all(
        not isinstance(die, bool) and isinstance(die, int) and 1 <= die <= 6 for die in dice
    ):
        return list(dice)
    text = repr(dice)
    shown = text if len(text) <= 60 else text[:57] + "..."
    raise InvalidDiceError(f"dice must be a list of integers 1-6, got {shown}")


def _checked_roll(dice: Sequence[int]) -> tuple[int, int]:
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence) or len(dice) != 2:
        raise InvalidDiceError(f"dice must be a list of two integers 1-6, got {dice!r}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidDiceError(f"dice must be integers 1-6, got {list(dice)!r}")
    return dice[0], dice[1]


# --- search -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Found:
    """Complete plays of one stage, keyed by final node (without play-local extras)."""

    paths: dict[Node, Path]
    ended: dict[Node, str]
    length: int  # maximal effective length


def search(rules: StepRules, root: Node, dice: tuple[int, ...]) -> _Found:
    """Every complete play of maximal effective length from ``root`` with ``dice`` (§2.4)."""
    total = len(dice)
    frontier: dict[Key, Path] = {(root, tuple(sorted(dice, reverse=True))): ()}
    complete: dict[Node, tuple[Path, str | None, int]] = {}
    best = 0
    depth = 0
    may_end_early = rules.mother != "off"  # otherwise only the 15th checker off ends a game
    while frontier:
        following: dict[Key, Path] = {}
        for (node, remaining), path in frontier.items():
            moved = False
            if remaining:
                previous = 0
                for index, die in enumerate(remaining):
                    if die == previous:
                        continue
                    previous = die
                    rest = remaining[:index] + remaining[index + 1 :]
                    for source, target, child in rules.steps(node, die):
                        moved = True
                        key = (child, rest)
                        if key in following:
                            continue
                        end = rules.end_of(child) if may_end_early or child[0] == 15 else None
                        step_path = (*path, (source, target, die))
                        if end is not None:
                            best = total
                            _record(complete, child[:27], step_path, end, total)
                        else:
                            following[key] = step_path
            if not moved and depth >= best:
                best = depth
                _record(complete, node[:27], path, None, depth)
        frontier = following
        depth += 1
    return _keep_longest(complete, best, total, dice)


def _record(
    complete: dict[Node, tuple[Path, str | None, int]],
    node: Node,
    path: Path,
    end: str | None,
    length: int,
) -> None:
    """Keep one path per end state: the one of greatest effective length. (A state can be
    reached by a short complete play and by a longer one, e.g. 5/off versus 5/3 3/off.)"""
    known = complete.get(node)
    if known is None or known[2] < length:
        complete[node] = (path, end, length)


def _keep_longest(
    complete: dict[Node, tuple[Path, str | None, int]],
    best: int,
    total: int,
    dice: tuple[int, ...],
) -> _Found:
    paths: dict[Node, Path] = {}
    ended: dict[Node, str] = {}
    for node, (path, end, length) in complete.items():
        if length == best:
            paths[node] = path
            if end is not None:
                ended[node] = end
    if best == 1 and total == 2 and dice[0] != dice[1]:
        larger = max(dice)
        if any(path[0][2] == larger for path in paths.values()):
            paths = {node: path for node, path in paths.items() if path[0][2] == larger}
    return _Found(paths, ended, best)


# --- answering a query ------------------------------------------------------------------------


def legal_plays(
    variant_name: str,
    position: Position,
    dice: Sequence[int] | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> list[Outcome]:
    """Every legal play of ``position.turn`` for ``dice`` (or the pending stage), one per state.

    >>> from games.engine import start_position
    >>> [str(o.play) for o in legal_plays("gul_bara", start_position("gul_bara"), [6, 5])]
    ['24/18 24/19', '24/18 18/13']
    """
    decision = Decision.prepare(variant_name, position, dice, options)
    return [decision.outcome(node, path) for node, path in decision.paths.items()]


@dataclass(slots=True)
class Decision:
    """One decision worked out: the stage, the rules, the root node and the legal end states."""

    variant: Variant
    position: Position
    options: Options
    stage: Stage
    rules: StepRules
    root: Node
    found: _Found
    paths: dict[Node, Path]
    # What is the same for every play of the same length and end (Outcome.after): a memo
    # filled as plays are looked at; the decision itself never changes.
    heads: dict[tuple[int, bool], tuple[Colour, Pair, tuple[int, ...], str | None]] = field(
        default_factory=dict
    )

    @classmethod
    def prepare(
        cls, variant_name: str, position: Position, dice: Sequence[int] | None, options: Options
    ) -> Decision:
        """The decision of ``position.turn`` for ``dice`` (or the pending stage).

        Remembered for the last few arguments (a Decision is never changed once made): a server
        lists a roll's plays for its answer, then checks the play sent back against the same
        search. Dice that are not plain integers, and unhashable arguments, are worked out
        afresh, so that every error is raised as before.
        """
        key = _decision_key(variant_name, position, dice, options)
        if key is None:
            return cls._prepare(variant_name, position, dice, options)
        return _remembered(*key)

    @classmethod
    def _prepare(
        cls, variant_name: str, position: Position, dice: Sequence[int] | None, options: Options
    ) -> Decision:
        variant = find_variant(variant_name)
        validate_position(variant, position, options)
        stage = stage_for(variant, position, dice, options)
        rules = _rules(variant.name, options)
        root = to_node(variant, position)
        found = search(rules, root, stage.dice)
        paths = found.paths
        if variant.name == "gul_bara" and options.six_prime == "must_release":
            paths = _must_release(root, paths)
        if options.cascade_scope == "whole_chain" and stage.later:
            if found.length == len(stage.dice):
                paths = _best_for_chain(rules, paths, found.ended, stage)
        return cls(variant, position, options, stage, rules, root, found, paths)

    def outcome(self, node: Node, path: Path) -> Outcome:
        return Outcome(self, node, path)


DecisionKey = tuple[str, Position, tuple[int, ...] | None, Options]


def _decision_key(
    variant_name: object, position: object, dice: object, options: object
) -> DecisionKey | None:
    """The cache key of a decision, or None when the arguments are not plain values: the
    variant, the position, the dice and the options are all that the decision depends on."""
    if type(variant_name) is not str or type(position) is not Position:
        return None
    if type(options) is not Options:
        return None
    if dice is None:
        rolled = None
    elif isinstance(dice, list | tuple) and type(dice) in (list, tuple):
        rolled = tuple(dice)
        if not all(type(die) is int for die in rolled):  # not bools, which equal integers
            return None
    else:
        return None
    try:
        hash((position, options))
    except TypeError:
        return None
    return variant_name, position, rolled, options


@lru_cache(maxsize=32)  # per process: a few games' worth; every entry is GC work
def _remembered(
    variant_name: str, position: Position, dice: tuple[int, ...] | None, options: Options
) -> Decision:
    return Decision._prepare(variant_name, position, dice, options)


@lru_cache(maxsize=64)
def _rules(variant_name: str, options: Options) -> StepRules:
    return StepRules(find_variant(variant_name), options)


def _must_release(root: Node, paths: dict[Node, Path]) -> dict[Node, Path]:
    """F3 (b): when a six-prime traps every opposing checker, a play that opens it is compulsory."""
    prime = trapping_prime(root)
    if prime is None:
        return paths
    opening = {n: p for n, p in paths.items() if not all(n[q] > ZERO for q in prime)}
    return opening or paths


def _best_for_chain(
    rules: StepRules, paths: dict[Node, Path], ended: dict[Node, str], stage: Stage
) -> dict[Node, Path]:
    """Option cascade_scope=whole_chain: keep the stage plays after which the rest of the hand
    allows the most steps (each later stage still played under §2.4)."""
    stages = _split_stages(stage.later)
    scores = {
        node: len(stage.later) if node in ended else _chain_steps(rules, node, stages, stage)
        for node in paths
    }
    top = max(scores.values())
    return {node: path for node, path in paths.items() if scores[node] == top}


def _split_stages(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    stages: list[tuple[int, ...]] = []
    for die in dice:
        if stages and stages[-1][0] == die and len(stages[-1]) < 4:
            stages[-1] = (*stages[-1], die)
        else:
            stages.append((die,))
    return stages


def _chain_steps(rules: StepRules, node: Node, stages: list[tuple[int, ...]], stage: Stage) -> int:
    if not stages:
        return 0
    dice, rest = stages[0], stages[1:]
    found = search(rules, _fresh(node), dice)
    if found.ended:
        return sum(len(s) for s in stages)
    if stage.is_chain and found.length < len(dice):
        return found.length
    best = 0
    for child in found.paths:
        best = max(best, found.length + _chain_steps(rules, child, rest, stage))
        if best == sum(len(s) for s in stages):
            break
    return best


def _fresh(node: Node) -> Node:
    """A node at the start of a new play: the play-local counters are cleared."""
    return node[:27] + bytes(2)


def _after_header(decision: Decision, node: Node, steps: int) -> After:
    """Turn, off, rolls and pending dice after a play that made ``steps`` steps to ``node``."""
    position = decision.position
    ends = node in decision.found.ended
    head = decision.heads.get((steps, ends))
    if head is None:
        me = position.turn
        rolls = list(position.rolls)
        if decision.stage.kind == "roll":
            rolls[COLOURS.index(me)] += 1
        turn, pending, kind = _after_stage(decision.stage, steps, ends, me, decision.options)
        head = decision.heads[steps, ends] = (turn, (rolls[0], rolls[1]), pending, kind)
    turn, rolls_after, pending, kind = head
    if position.turn == WHITE:
        off = (node[OWN_OFF], position.off[1])
    else:
        off = (position.off[0], node[OWN_OFF])
    return After(turn, off, rolls_after, pending, kind)


def _after(decision: Decision, node: Node, steps: int) -> tuple[Position, GameResult | None]:
    """The position after a play that made ``steps`` steps and ended in ``node``."""
    me = decision.position.turn
    side = COLOURS.index(me)
    header = _after_header(decision, node, steps)
    bar = [0, 0]
    bar[side], bar[1 - side] = node[OWN_BAR], node[OPP_BAR]
    after = Position(
        turn=header.turn,
        points=board_points(decision.variant, node, me),
        bar=(bar[0], bar[1]),
        off=header.off,
        rolls=header.rolls,
        pending=header.pending,
        pending_kind=header.pending_kind,
    )
    end = decision.found.ended.get(node)
    if end is None:
        return after, None
    result = result_for(
        end,
        node,
        me,
        variant=decision.variant.name,
        their_off=header.off[1 - side],
        options=decision.options,
    )
    return after, result


_MOVES = {(s, t): Move(s, t) for s in range(1, 26) for t in range(0, 25) if t < s}
_TEXTS = {key: str(move) for key, move in _MOVES.items()}


def _after_stage(
    stage: Stage, steps: int, ended: bool, me: str, options: Options
) -> tuple[str, tuple[int, ...], str | None]:
    """Who moves next and which dice are owed after a stage play (B4, B5)."""
    them = opponent(me)
    if ended:
        return them, (), None
    if stage.kind == "remainder":
        return (me, stage.later, "remainder") if stage.later else (me, (), None)
    if not stage.is_chain:
        return them, (), None
    if steps == len(stage.dice):
        return (me, stage.later, "cascade") if stage.later else (them, (), None)
    if steps == 0 and stage.kind == "roll" and options.unstarted_chain == "lost":
        return them, (), None
    if options.cascade_remainder == "forfeit":
        return them, (), None
    return them, stage.dice[steps:] + stage.later, "remainder"
