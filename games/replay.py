"""The one replay of a game's turn log through the engine: positions and the cube, turn by turn.
No database: a log is stored Turn rows, the lines of a JSON-lines export, a reported move record
or the exporters' records, anything whose entries carry (as attributes or keys) ``moves``, and
optionally ``kind``, ``side`` and ``dice``.

Used by verify_games (selectors.game_replay_problems), the dice proof, the move records of
reports and imports (records.record_replay) and the ``.mat`` export; ``cube_steps`` gives a match
page the cube after each stored turn (its log and its replay frames) in one walk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import (
    Cube,
    GameResult,
    Options,
    Play,
    Position,
    check_play,
    find_variant,
    opponent,
    stage_for,
    start_position,
)
from games.engine.cube import CUBE_ACTIONS


class ReplayError(ValueError):
    """The log breaks the rules at entry ``number`` (1-based)."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number
        self.message = message


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the log as the engine replays it."""

    number: int  # 1-based
    side: str  # who acted: "w" or "b"
    kind: str  # "roll", "pending", or a cube action: "double", "take", "drop"
    dice: list[int]  # the roll, or a pending stage's dice; [] for a cube action
    moves: list[str]
    position_after: Position  # a cube action leaves the position as it was
    result: GameResult | None  # what the play ended the game with (None for a cube action)
    cube: Cube  # the cube after this entry
    game_result: GameResult | None  # the game's result when this entry ended it (a drop too)
    play: Play | None = None  # the play as the engine read it (None for a cube action)


@dataclass(frozen=True, slots=True)
class Resume:
    """Where a replay of a log's later entries starts: the position and the cube after entry
    ``number`` of the same log, as an earlier replay of its first entries left them (a Step's
    ``position_after`` and ``cube``). The game must not be over there."""

    position: Position
    cube: Cube
    number: int


def replay_log(
    variant: str,
    options: Options,
    log: Iterable[Any],
    *,
    crawford: bool = False,
    first: str = "w",
    resume: Resume | None = None,
) -> Iterator[Step]:
    """Replay ``log`` from the start of a ``variant`` game with ``first`` to move, yielding each
    entry's Step; with ``resume``, ``log`` is the entries after ``resume.number`` and the replay
    goes on from its position and cube, checking each entry as from the start (the entries
    are numbered on from ``resume.number``). A cube action is allowed only where the match's
    ``cube`` option applies and not in the Crawford game (``crawford``); a drop ends the game.
    An entry that gives a ``side`` or a ``kind`` must name the one the replay expects (a play
    is a "roll", or "pending" for a Gjul Bara stage played without a roll). Raises ReplayError
    at the first entry that is malformed or illegal."""
    position = start_position(variant, first) if resume is None else resume.position
    cube = Cube(crawford=crawford) if resume is None else resume.cube
    ended = False
    for number, entry in enumerate(log, start=1 if resume is None else resume.number + 1):
        if ended:
            raise ReplayError(number, "the game was already over")
        kind, side, dice, moves = _read(number, entry)
        if kind in CUBE_ACTIONS:
            step = _cube_step(number, variant, options, position, cube, kind, side, dice, moves)
        else:
            step = _play_step(number, variant, options, position, cube, side, dice, moves)
            if kind is not None and kind != step.kind:
                raise ReplayError(number, f"a {step.kind} turn is recorded as {kind!r}")
        position, cube = step.position_after, step.cube
        ended = step.game_result is not None
        yield step


def cube_steps(log: Iterable[Any], *, crawford: bool = False) -> list[Cube]:
    """The cube after each entry of a log that was checked when it was written (a game's stored
    turns, each with its position after): only the cube actions are followed, by the side each
    names, and the plays are not checked again (``replay_log`` does, for verify_games). The
    cubes are those ``replay_log`` yields for the same log."""
    cube = Cube(crawford=crawford)
    steps = []
    for number, entry in enumerate(log, start=1):
        kind, side, _dice, _moves = _read(number, entry)
        if kind in CUBE_ACTIONS:
            if side is None:
                raise ReplayError(number, f"a {kind} names no side")
            cube, _ended = cube.act(kind, side)
        steps.append(cube)
    return steps


def _cube_step(
    number: int,
    variant: str,
    options: Options,
    position: Position,
    cube: Cube,
    kind: str,
    side: str | None,
    dice: Any,
    moves: Any,
) -> Step:
    if not options.cube_applies_to(variant) or cube.crawford:
        raise ReplayError(number, "no doubling in this game")
    if dice or moves:
        raise ReplayError(number, "a cube action moves no checker")
    if kind == "double":
        actor = position.turn
        if position.pending:
            raise ReplayError(number, f"{actor} may not double here")
    else:
        actor = opponent(cube.offered_by) if cube.offered_by else position.turn
    try:
        after, ended = cube.act(kind, actor)
    except ValueError as error:
        raise ReplayError(number, str(error)) from None
    _check_side(number, side, actor, kind)
    return Step(number, actor, kind, [], [], position, None, after, ended)


def _play_step(
    number: int,
    variant: str,
    options: Options,
    position: Position,
    cube: Cube,
    side: str | None,
    dice: Any,
    moves: Any,
) -> Step:
    if cube.offered_by:
        raise ReplayError(number, "a double awaits a take or a drop")
    try:
        if position.pending:
            stage = stage_for(find_variant(variant), position, None, options)
            kind, shown, rolled = "pending", list(stage.dice), None
        else:
            kind, shown, rolled = "roll", dice, dice
        _check_side(number, side, position.turn, kind)
        outcome = check_play(variant, position, rolled, moves, options)
    except ReplayError:
        raise
    except ValueError as error:
        raise ReplayError(number, str(error)) from None
    return Step(
        number,
        position.turn,
        kind,
        list(shown),
        outcome.play.to_json(),
        outcome.position,
        outcome.result,
        cube,
        outcome.result,
        outcome.play,
    )


def _read(number: int, entry: Any) -> tuple[str | None, str | None, Any, Any]:
    """An entry's (kind, side, dice, moves), from a mapping or an object."""
    if isinstance(entry, Mapping):
        kind = entry.get("kind")
        if kind not in CUBE_ACTIONS and "moves" not in entry:
            raise ReplayError(number, 'expected {"dice": [d1, d2], "moves": ...}')
        return kind, entry.get("side"), entry.get("dice"), entry.get("moves")
    if not hasattr(entry, "moves"):
        raise ReplayError(number, 'expected {"dice": [d1, d2], "moves": ...}')
    kind = getattr(entry, "kind", None)
    return (
        None if kind is None else str(kind),
        getattr(entry, "side", None),
        entry.dice,
        entry.moves,
    )


def _check_side(number: int, side: str | None, expected: str, kind: str) -> None:
    if side is not None and side != expected:
        action = "roll" if kind in ("roll", "pending") else kind
        raise ReplayError(number, f"expected a {action} of {expected!r}, got {side!r}")
