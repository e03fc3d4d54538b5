"""Replaying a move record (dice and moves per turn, and cube actions) through the engine, with
the one replay of games.replay. No database.

Used for over-the-board reports with a full record and for importing an exported match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from common.errors import InvalidRequestError
from games.engine import (
    GameResult,
    Options,
    Position,
    start_position,
)
from games.replay import ReplayError, Step, replay_log

ReplayedTurn = Step  # one turn of a replayed record


@dataclass(frozen=True, slots=True)
class Replay:
    turns: list[ReplayedTurn]
    position: Position
    result: GameResult | None  # before the cube
    cube_value: int = 1
    cube_owner: str = ""  # the owner's colour, "" in the middle


def record_replay(
    variant: str, options: Options, record: Sequence[Any], *, crawford: bool = False
) -> Replay:
    """Replay ``record`` (``[{"dice": [6, 5] or null, "moves": "24/18 18/13"}, ...]``) from the
    start, white to move. A cube action is ``{"kind": "double"|"take"|"drop"}``, allowed only
    where the match's ``cube`` option applies and not in the Crawford game (``crawford``); a
    drop ends the game. Any malformed or illegal turn raises InvalidRequestError naming it."""
    if isinstance(record, str | bytes) or not isinstance(record, Sequence):
        raise InvalidRequestError("record must be a list of turns")
    try:
        turns = list(replay_log(variant, options, record, crawford=crawford))
    except ReplayError as error:
        raise InvalidRequestError(f"turn {error.number}: {error.message}") from None
    if not turns:
        return Replay([], start_position(variant, "w"), None)
    last = turns[-1]
    return Replay(turns, last.position_after, last.game_result, last.cube.value, last.cube.owner)
