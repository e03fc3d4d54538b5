"""Replaying a move record (dice and moves per turn, and cube actions) through the engine.
No database.

Used for over-the-board reports with a full record and for importing an exported match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from common.errors import InvalidRequestError
from games.engine import (
    Cube,
    GameResult,
    Options,
    Position,
    check_play,
    find_variant,
    opponent,
    stage_for,
    start_position,
)
from games.engine.match import declined_double_result


@dataclass(frozen=True, slots=True)
class ReplayedTurn:
    side: str
    kind: str  # "roll", "pending", or a cube action: "double", "take", "drop"
    dice: list[int]
    moves: list[str]
    position_after: Position
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class Replay:
    turns: list[ReplayedTurn]
    position: Position
    result: GameResult | None  # before the cube
    cube_value: int = 1
    cube_owner: str = ""  # the owner's colour, "" in the middle


CUBE_ACTIONS = ("double", "take", "drop")


def record_replay(
    variant: str, options: Options, record: Sequence[Any], *, crawford: bool = False
) -> Replay:
    """Replay ``record`` (``[{"dice": [6, 5] or null, "moves": "24/18 18/13"}, ...]``) from the
    start, white to move. A cube action is ``{"kind": "double"|"take"|"drop"}``, allowed only
    where the match's ``cube`` option applies and not in the Crawford game (``crawford``); a
    drop ends the game. Any malformed or illegal turn raises InvalidRequestError naming it."""
    if isinstance(record, str | bytes) or not isinstance(record, Sequence):
        raise InvalidRequestError("record must be a list of turns")
    position = start_position(variant, "w")
    turns: list[ReplayedTurn] = []
    result: GameResult | None = None
    cube, offered = Cube(), ""
    for index, entry in enumerate(record, start=1):
        if result is not None:
            raise InvalidRequestError(f"turn {index}: the game was already over")
        if isinstance(entry, dict) and entry.get("kind") in CUBE_ACTIONS:
            if not options.cube_applies_to(variant) or crawford:
                raise InvalidRequestError(f"turn {index}: no doubling in this game")
            side, cube, offered, result = _cube_action(
                index, entry["kind"], position, cube, offered
            )
            turns.append(ReplayedTurn(side, entry["kind"], [], [], position, None))
            continue
        if offered:
            raise InvalidRequestError(f"turn {index}: a double awaits a take or a drop")
        if not isinstance(entry, dict) or "moves" not in entry:
            raise InvalidRequestError(f'turn {index}: expected {{"dice": [d1, d2], "moves": ...}}')
        dice = entry.get("dice")
        try:
            if position.pending:
                stage = stage_for(find_variant(variant), position, None, options)
                kind, shown, rolled = "pending", list(stage.dice), None
            else:
                kind, shown, rolled = "roll", dice, dice
            outcome = check_play(variant, position, rolled, entry["moves"], options)
        except ValueError as error:
            raise InvalidRequestError(f"turn {index}: {error}") from None
        side = position.turn
        position, result = outcome.position, outcome.result
        turns.append(
            ReplayedTurn(side, kind, list(shown), outcome.play.to_json(), position, result)
        )
    owner = "" if cube.owner is None else "wb"[cube.owner]
    return Replay(turns, position, result, cube.value, owner)


def _cube_action(
    index: int, action: str, position: Position, cube: Cube, offered: str
) -> tuple[str, Cube, str, GameResult | None]:
    """Who acted, the cube, the colour of a pending double and the result after one action."""
    if action == "double":
        side = position.turn
        if offered or position.pending or cube.owner not in (None, "wb".index(side)):
            raise InvalidRequestError(f"turn {index}: {side} may not double here")
        return side, cube, side, None
    if not offered:
        raise InvalidRequestError(f"turn {index}: a {action} with no double to answer")
    side = opponent(offered)
    if action == "take":
        return side, Cube(cube.value * 2, "wb".index(side)), "", None
    return side, cube, "", declined_double_result(cube, offered)
