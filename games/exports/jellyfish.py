"""Export the Tabla games of a match as a Jellyfish ``.mat`` file (GNU Backgammon, XG, BGBlitz).

Tabla is backgammon, without the cube unless a club turns it on, so its games export as a
backgammon match (cubeless, ``CubeLimit`` 1, when the cube is off); the Gjul Bara and Tapa games
have no backgammon equivalent and are left out, while every exported game header keeps the real
running match score. Pure Python: plain records in, text out.

The layout is the one GNU Backgammon writes (``ExportGameJF``), which it and XG read back::

     Game 1
     Ana : 0                        Boris : 0
      1)                             64: 24/18 13/9
      2) 52: 13/8 13/11              31: 25/22* 24/23

A cube action takes a column entry of its own, as gnubg writes it: ``Doubles => 2`` in the
doubler's column, then `` Takes`` or `` Drops`` in the other; after a drop the doubler's
"Wins N points" goes where gnubg puts it.

The left column is always player 1 (gnubg's X), whatever colour that player had in the game.
Exported games are numbered 1, 2, ... in order, so "Game 2" is the match's second Tabla game.
Points are in the mover's own numbering with the bar as 25 and "off" as 0, and a hit carries a
trailing ``*``. A game that ended without its last checker borne off (a resignation) gets the
usual "Wins N points" line, which importers read as a resignation of that value.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import (
    DEFAULT_OPTIONS,
    VARIANT_NAMES,
    WHITE,
    Move,
    Options,
    Position,
    find_variant,
    opponent,
    start_position,
)
from games.engine.cube import CUBE_ACTIONS
from games.replay import ReplayError, Step, replay_log

TABLA = "tabla"
LEFT_WIDTH = 27  # gnubg writes "%3d) %-27s ", so player 2's column starts at character 33
WINS_INDENT = (6, 34)  # gnubg's indent of "Wins N points" under player 1 and player 2
OFF_POINT = 0


class MatExportError(ValueError):
    """A record that cannot be exported: an unknown variant or an illegal recorded play."""


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One decision: ``colour`` "w" or "b", the dice (None for a Gjul Bara pending stage) and
    the moves in the mover's own numbering, e.g. ``("bar/20", "13/8")``; empty for a pass.
    ``cube``: "double", "take" or "drop" for a cube action of ``colour`` (no dice, no moves)."""

    colour: str
    dice: tuple[int, int] | None
    moves: tuple[str, ...] = ()
    cube: str = ""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of the match.

    ``white_player`` is 1 or 2, the player who had white ("w"). ``scores`` is (player 1,
    player 2) before the game. ``winner`` is the winning colour, None while unfinished (or for a
    tie), and ``points`` what the winner scored.
    """

    number: int
    variant: str
    white_player: int
    scores: tuple[int, int]
    turns: tuple[TurnRecord, ...]
    winner: str | None = None
    points: int = 0


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match: the players, its length in points and every game in the order played."""

    player1: str
    player2: str
    match_length: int
    games: tuple[GameRecord, ...]
    event: str = ""
    round: str = ""
    date: datetime.date | None = None
    place: str = ""
    ratings: tuple[float, float] | None = None  # (player 1, player 2)
    match_id: str = ""
    cube: bool = False  # the cube is in play in Tabla games


def to_mat(match: MatchRecord, options: Options = DEFAULT_OPTIONS) -> str:
    """The ``.mat`` text of the match's Tabla games; every play is checked with the engine.

    Raises MatExportError for an unknown variant or a play the engine rejects.
    """
    lines = [*_header_lines(match), "", f" {match.match_length} point match", ""]
    tabla_games = [game for game in match.games if _checked_variant(game) == TABLA]
    for index, game in enumerate(tabla_games, start=1):
        lines.append(f" Game {index}")
        lines.extend(_game_lines(match, game, options))
        lines.append("")
    return "\n".join(lines) + "\n"


def _checked_variant(game: GameRecord) -> str:
    if game.variant not in VARIANT_NAMES:
        raise MatExportError(f"game {game.number}: unknown variant {game.variant!r}")
    return game.variant


def _header_lines(match: MatchRecord) -> Iterator[str]:
    """XG-style tags; gnubg keeps Site, Event, Round and EventDate and skips the rest."""
    if match.place:
        yield _tag("Site", match.place)
    if match.match_id:
        yield _tag("Match ID", match.match_id)
    yield _tag("Player 1", match.player1)
    yield _tag("Player 2", match.player2)
    if match.ratings is not None:
        for number, rating in enumerate(match.ratings, start=1):
            yield _tag(f"Player {number} Elo", f"{rating:.2f}/0")
    if match.date is not None:
        yield _tag("EventDate", match.date.strftime("%Y.%m.%d"))
    if match.event:
        yield _tag("Event", match.event)
    if match.round:
        yield _tag("Round", match.round)
    yield _tag("Variation", "Backgammon")
    yield _tag("Unrated", "Off")
    yield _tag("Jacoby", "Off")
    yield _tag("Beaver", "Off")
    yield _tag("CubeLimit", "1024" if match.cube else "1")


def _tag(name: str, value: str) -> str:
    clean = " ".join(value.replace('"', "'").split())
    return f'; [{name} "{clean}"]'


def _name(name: str) -> str:
    """A name fit for a score line: gnubg splits that line at the colons."""
    return " ".join(name.replace(":", ".").split()) or "?"


def _game_lines(match: MatchRecord, game: GameRecord, options: Options) -> list[str]:
    if game.white_player not in (1, 2):
        raise MatExportError(f"game {game.number}: white_player must be 1 or 2")
    left = f"{_name(match.player1)} : {game.scores[0]}"
    lines = [f" {left:<30} {_name(match.player2)} : {game.scores[1]}"]  # gnubg: " %-31s%s"
    white_column = game.white_player - 1
    rows: list[list[str]] = []
    for colour, text in _turn_texts(game, options):
        column = white_column if colour == WHITE else 1 - white_column
        if column == 0:
            rows.append([text, ""])
        elif rows and not rows[-1][1]:
            rows[-1][1] = text
        else:
            rows.append(["", text])  # player 2 opens the game
    wins = ""
    if game.winner is not None:
        column = white_column if game.winner == WHITE else 1 - white_column
        wins = _wins_text(match, game, column)
        dropped = bool(game.turns) and game.turns[-1].cube == "drop"
        if dropped and column == 1 and rows and not rows[-1][1]:
            rows[-1][1], wins = wins, ""  # gnubg: "Drops" then the doubler's win on that row
        else:
            wins = " " * WINS_INDENT[column] + wins
    for number, (left_text, right_text) in enumerate(rows, start=1):
        lines.append(f"{number:3d}) {left_text:<{LEFT_WIDTH}} {right_text}".rstrip())
    if wins:
        lines.append(wins)
    return lines


def _wins_text(match: MatchRecord, game: GameRecord, column: int) -> str:
    text = f"Wins {game.points} point{'' if game.points == 1 else 's'}"
    if game.scores[column] + game.points >= match.match_length:
        text += " and the match"
    return text


def _turn_texts(game: GameRecord, options: Options) -> Iterator[tuple[str, str]]:
    """Each turn as ``(colour, "52: 13/8 13/11*")``, checked and replayed with the engine."""
    if not game.turns:
        return
    log = [
        _log_entry(turn, f"game {game.number}, turn {index}")
        for index, turn in enumerate(game.turns, start=1)
    ]
    first = game.turns[0].colour
    position = start_position(TABLA, first)
    try:
        for step in replay_log(TABLA, options, log, first=first):
            if step.play is None:  # a cube action
                yield step.side, _cube_text(step)
                continue
            dice = step.dice
            yield step.side, f"{dice[0]}{dice[1]}: " + _moves_text(position, step.play.moves)
            position = step.position_after
            if step.result is not None and game.winner not in (None, step.result.winner):
                raise MatExportError(
                    f"game {game.number}, turn {step.number}: "
                    f"the game was won by {step.result.winner!r}"
                )
    except ReplayError as error:
        raise MatExportError(f"game {game.number}, turn {error.number}: {error}") from error


def _log_entry(turn: TurnRecord, where: str) -> dict[str, Any]:
    """A turn as an entry of the replayed log (games.replay)."""
    if turn.cube and turn.cube not in CUBE_ACTIONS:
        raise MatExportError(f"{where}: unknown cube action {turn.cube!r}")
    dice = None if turn.dice is None else list(turn.dice)
    return {"kind": turn.cube or None, "side": turn.colour, "dice": dice, "moves": list(turn.moves)}


def _cube_text(step: Step) -> str:
    """A cube action as gnubg writes it."""
    if step.kind == "double":
        return f" Doubles => {step.cube.offered_value}"
    return " Takes" if step.kind == "take" else " Drops"


def _moves_text(position: Position, moves: tuple[Move, ...]) -> str:
    """Moves as gnubg prints them: bar 25, off 0, ``*`` the first time a point's blot is hit."""
    variant = find_variant(TABLA)
    them = opponent(position.turn)
    words = []
    landed: set[int] = set()
    for move in moves:
        target = move.target
        hit = False
        if target != OFF_POINT and target not in landed:
            stack = position.points[variant.white_point(target, position.turn) - 1]
            hit = stack == ((them, 1),)
            landed.add(target)
        words.append(f"{move.source}/{target}{'*' if hit else ''}")
    return " ".join(words)
