"""Checking a submitted play step by step, with a precise reason when it is illegal (§2.8).

A step is replayed against every way the dice could have been used so far (a bear-off such as
``4/off`` may take a 4, a 5 or a 6), so a legal play is never rejected for the checker's choice
of die. Then the end state must be one of the legal plays, which enforces §2.4.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .board import FROZEN, HEAD, OWN_BAR, PIN, ZERO, Node, highest_own_point
from .errors import IllegalPlayError
from .generate import Decision, Outcome, Path
from .notation import BAR, OFF, Move, Play
from .options import DEFAULT_OPTIONS, Options
from .position import Position
from .steps import StepRules

Alternatives = dict[tuple[Node, tuple[int, ...]], Path]


def check_play(
    variant_name: str,
    position: Position,
    dice: Sequence[int] | None,
    moves: Play | str | Iterable[str],
    options: Options = DEFAULT_OPTIONS,
) -> Outcome:
    """The outcome of a submitted play, or IllegalPlayError saying which step fails and why.

    >>> from games.engine import start_position
    >>> check_play("tabla", start_position("tabla"), [6, 5], "24/18 18/13").position.turn
    'b'
    """
    play = moves if isinstance(moves, Play) else Play.parse(moves)
    decision = Decision.prepare(variant_name, position, dice, options)
    rules = decision.rules
    alternatives: Alternatives = {(decision.root, tuple(sorted(decision.stage.dice))): ()}
    for index, move in enumerate(play.moves):
        following: Alternatives = {}
        for (node, remaining), path in alternatives.items():
            if rules.end_of(node) is not None:
                raise IllegalPlayError(
                    f"step {index + 1} ({move}): the game was already over after the step before",
                    step=index,
                )
            for die in sorted(set(remaining)):
                for source, target, child in rules.steps(node, die):
                    if (source, target) == (move.source, move.target):
                        rest = list(remaining)
                        rest.remove(die)
                        following[(child, tuple(rest))] = (*path, (source, target, die))
        if not following:
            node, remaining = next(iter(alternatives))
            reason = explain_step(rules, node, remaining, move)
            raise IllegalPlayError(f"step {index + 1} ({move}) is illegal: {reason}", step=index)
        alternatives = following
    for (node, _remaining), path in alternatives.items():
        # The play itself must be of maximal effective length, not merely reach the same state
        # as one that is (5/off alone versus 5/3 3/off).
        full = len(path) == decision.found.length or rules.end_of(node) is not None
        if full and node[:27] in decision.paths:
            return decision.outcome(node[:27], path)
    raise IllegalPlayError(_must_play_reason(decision, play))


def explain_step(rules: StepRules, node: Node, remaining: tuple[int, ...], move: Move) -> str:
    """Why ``move`` cannot be played from ``node`` with ``remaining`` dice (plain English)."""
    dice_left = ", ".join(str(d) for d in sorted(remaining, reverse=True)) or "none"
    if not remaining:
        return "all dice have been used"
    source, target = move.source, move.target
    if node[OWN_BAR] and source != BAR:
        return "a checker on the bar must enter first"
    if source == BAR:
        if not node[OWN_BAR]:
            return "you have no checker on the bar"
    else:
        problem = _source_problem(rules, node, source)
        if problem:
            return problem
    if target != OFF:
        die = source - target
        if die not in remaining:
            return f"no die of {die} left (dice left: {dice_left})"
        return _landing_problem(rules, node, source, target)
    return _bear_off_problem(rules, node, source, remaining, dice_left)


def _source_problem(rules: StepRules, node: Node, source: int) -> str | None:
    code = node[source] - ZERO
    if code < -PIN:
        return f"your checker on {source} is pinned and cannot move"
    if not (0 < code < PIN or code > PIN):
        return f"you have no checker on point {source}"
    count = code - PIN if code > PIN else code
    if node[FROZEN] >> source & 1 and count == 1:
        return (
            f"the checker on {source} hit in your home board and may not move again this turn "
            "(tabla_hit_and_run_home is off)"
        )
    return None


def _landing_problem(rules: StepRules, node: Node, source: int, target: int) -> str:
    code = node[target] - ZERO
    if code < -PIN:
        return (
            f"point {target} is blocked: the opposing checker there pins yours, "
            "and a pinner cannot be pinned"
        )
    if code < -1:
        return f"point {target} is blocked ({-code} opposing checkers)"
    if code == -1 and rules.min_landing == 0:
        return f"point {target} is held by an opposing checker (no hitting in gul_bara)"
    if source == 24 and not rules.may_leave_start(node):
        if rules.head_rule and node[HEAD] >= 1:
            return "head_rule: only one checker may leave the 24-point per turn"
        return (
            "first_runner: a second checker may not leave the start until the first has passed "
            "the opponent's start (point 11)"
        )
    after = rules.land(bytearray(node), source, target)
    if rules.start_quarter_block and all(after[q] > ZERO for q in range(19, 25)):
        return "start_quarter_block: you may not hold all six points 19-24 at once"
    return "six_prime: six points in a row only while an opposing checker is ahead of them"


def _bear_off_problem(
    rules: StepRules, node: Node, source: int, remaining: tuple[int, ...], dice_left: str
) -> str:
    highest = highest_own_point(node)
    if highest > 6:
        where = "the bar" if highest == 25 else f"point {highest}"
        return f"cannot bear off: not all your checkers are home (one is on {where})"
    if not rules.can_bear_off(node, highest):
        return "cannot bear off while one of your checkers is pinned at home (no_bearoff)"
    if source in remaining:
        return f"{source}/off is not a legal step here"
    if max(remaining) < source:
        return f"no die of {source} or more left to bear off from {source} (dice left: {dice_left})"
    return (
        f"a die higher than {source} bears off only from the highest occupied point, "
        f"and point {highest} is occupied"
    )


def _must_play_reason(decision: Decision, play: Play) -> str:
    found = decision.found
    example = str(decision.outcome(*next(iter(decision.paths.items()))).play) or "pass"
    steps = len(play.moves)
    if steps < found.length:
        if steps == 0:
            return f"passing is not allowed while a move is possible, e.g. {example}"
        return (
            f"more dice can be used: a legal play uses {found.length} "
            f"{'die' if found.length == 1 else 'dice'}, e.g. {example}"
        )
    stage = decision.stage
    if found.length == 1 and len(stage.dice) == 2 and stage.dice[0] != stage.dice[1]:
        return (
            f"only one die can be played, so it must be the larger ({max(stage.dice)}), "
            f"e.g. {example}"
        )
    if decision.options.six_prime == "must_release":
        return (
            "six_prime=must_release: the prime that traps every opposing checker must be "
            f"opened, e.g. {example}"
        )
    if decision.options.cascade_scope == "whole_chain":
        return (
            "cascade_scope=whole_chain: another play lets you use more dice in the later "
            f"stages, e.g. {example}"
        )
    return f"this play does not lead to a legal end state; e.g. {example}"  # pragma: no cover
