"""Helpers for tests that read a Jellyfish .mat file back: an independent reader of the text,
and GNU Backgammon's import of it (the ``gnubg`` fixture of tests/fixtures.py gives the module).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine import Position, find_variant, opponent

TABLA = find_variant("tabla")

# --- an independent reader of the .mat text --------------------------------------------------

TAG = re.compile(r'^; \[(?P<name>[^"]+) "(?P<value>[^"]*)"\]$')
SCORES = re.compile(r"^ (?P<one>.+?) : (?P<s1>\d+) +(?P<two>.+?) : (?P<s2>\d+)$")
ROLL = re.compile(r"(?P<dice>[1-6][1-6]):(?P<moves>(?: \d+/\d+\*?)*)")
WINS = re.compile(r"^(?P<indent> *)Wins (?P<points>\d+) points?(?P<match> and the match)?$")
RIGHT_COLUMN = 33  # where gnubg's layout starts player 2's column


@dataclass
class ParsedGame:
    number: int
    names: tuple[str, str]
    scores: tuple[int, int]
    turns: list[tuple[int, tuple[int, int], list[str]]]  # (player 1 or 2, dice, raw moves)
    wins: tuple[int, int, bool] | None = None  # (player, points, "and the match")


@dataclass
class ParsedMatch:
    tags: dict[str, str]
    length: int
    games: list[ParsedGame]


def parse_mat(text: str) -> ParsedMatch:
    tags: dict[str, str] = {}
    length = -1
    games: list[ParsedGame] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if tag := TAG.match(line):
            tags[tag["name"]] = tag["value"]
        elif found := re.fullmatch(r" (\d+) point match", line):
            length = int(found[1])
        elif found := re.fullmatch(r" Game (\d+)", line):
            scores = SCORES.match(lines[index])
            assert scores, lines[index]
            index += 1
            games.append(
                ParsedGame(
                    number=int(found[1]),
                    names=(scores["one"], scores["two"]),
                    scores=(int(scores["s1"]), int(scores["s2"])),
                    turns=[],
                )
            )
        elif wins := WINS.match(line):
            player = 2 if len(wins["indent"]) >= RIGHT_COLUMN else 1
            games[-1].wins = (player, int(wins["points"]), bool(wins["match"]))
        elif re.match(r"^ *\d+\) ", line):
            for roll in ROLL.finditer(line):
                player = 2 if roll.start() >= RIGHT_COLUMN else 1
                dice = (int(roll["dice"][0]), int(roll["dice"][1]))
                games[-1].turns.append((player, dice, roll["moves"].split()))
        else:
            assert line == "", f"unexpected line {line!r}"
    return ParsedMatch(tags, length, games)


# --- GNU Backgammon's import ------------------------------------------------------------------


def gnubg_import(gnubg: Any, text: str, tmp_path: Path) -> tuple[dict, list]:
    """gnubg's record of the imported match, and its board at the end of each game."""
    path = tmp_path / "match.mat"
    path.write_text(text)
    gnubg.command("set display off")
    gnubg.command(f'import mat "{path}"')
    imported = gnubg.match(boards=True)
    final_boards = []
    gnubg.navigate()  # to the start of the match
    for index in range(len(imported["games"])):
        if index:
            gnubg.navigate(game=1)
        gnubg.navigate(next=100_000)  # stops at the game's last record
        final_boards.append(gnubg.board())
    return imported, final_boards


def gnubg_board(position: Position, on_roll: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board: (opponent, player on roll), each 24 points in its own numbering + bar."""

    def side(colour: str) -> tuple[int, ...]:
        points = position.points
        own = [
            sum(n for c, n in points[TABLA.white_point(q, colour) - 1] if c == colour)
            for q in range(1, 25)
        ]
        return (*own, position.side_value(position.bar, colour))

    return side(opponent(on_roll)), side(on_roll)
