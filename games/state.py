"""The parsed state kept on a loaded model: a match's Options and a game's Position, parsed
from their JSON fields once, and the writes that keep them in step (``game_position_put``,
``game_cube_put``). Services write through here; selectors read through here. The caches live
in ``instance.__dict__`` and follow the field: a write assigns a new JSON value (never edits one
in place), which parses anew."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import Cube, Options, Position
from games.models import Game, Match


def match_options(match: Match) -> Options:
    options: Options = _parsed(match, "_parsed_options", match.options, Options.from_json)
    return options


def game_position(game: Game) -> Position:
    position: Position = _parsed(game, "_parsed_position", game.position, Position.from_json)
    return position


def game_position_put(game: Game, position: Position) -> None:
    """Store ``position`` on ``game`` (the caller saves), keeping the parsed value at hand."""
    game.position = position.to_json()
    game.__dict__["_parsed_position"] = (game.position, position)


def game_cube(game: Game) -> Cube:
    """The game's doubling cube as the engine's value."""
    return Cube(game.cube_value, game.cube_owner, game.cube_offered_by, game.crawford)


def game_cube_put(game: Game, cube: Cube) -> None:
    """Store ``cube`` on ``game`` (the caller saves)."""
    game.cube_value, game.cube_owner, game.cube_offered_by = cube.value, cube.owner, cube.offered_by


def _parsed(instance: Any, slot: str, source: Any, parse: Callable[[Any], Any]) -> Any:
    """``parse(source)``, kept on ``instance`` while its field still holds that very object."""
    kept = instance.__dict__.get(slot)
    if kept is not None and kept[0] is source:
        return kept[1]
    value = parse(source)
    instance.__dict__[slot] = (source, value)
    return value
