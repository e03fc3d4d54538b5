"""Replaying a move record (dice and moves per turn) through the engine. No database.

Used for over-the-board reports with a full record and for importing an exported match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import (
    GameResult,
    Options,
    Position,
    check_play,
    find_variant,
    stage_for,
    start_position,
)
from games.errors import InvalidRequestError


@dataclass(frozen=True, slots=True)
class ReplayedTurn:
    side: str
    kind: str  # "roll" or "pending"
    dice: list[int]
    moves: list[str]
    position_after: Position
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class Replay:
    turns: list[ReplayedTurn]
    position: Position
    result: GameResult | None


def record_replay(variant: str, options: Options, record: Sequence[Any]) -> Replay:
    """Replay ``record`` (``[{"dice": [6, 5] or null, "moves": "24/18 18/13"}, ...]``) from the
    start, white to move. Any malformed or illegal turn raises InvalidRequestError naming it."""
    if isinstance(record, str | bytes) or not isinstance(record, Sequence):
        raise InvalidRequestError("record must be a list of turns")
    position = start_position(variant, "w")
    turns: list[ReplayedTurn] = []
    result: GameResult | None = None
    for index, entry in enumerate(record, start=1):
        if result is not None:
            raise InvalidRequestError(f"turn {index}: the game was already over")
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
    return Replay(turns, position, result)
