"""The doubling cube (docs/rules.md §6.6), off unless a club sets the match option ``cube``.

A ``Cube`` is a value: what it is worth, who owns it, who has offered a double, and whether this
is the Crawford game (no doubling). Owners and doublers are colours, as in a POSITION: "w" or "b",
and "" for none (a cube in the middle, no double offered). Every operation returns a new value
or raises CubeError saying why the action is not allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import EngineError
from .options import Options
from .results import GameResult

CUBE_ACTIONS = ("double", "take", "drop")
KIND_POINTS = {"single": 1, "mars": 2, "triple": 3, "mother": 2}  # a win's value, before the cube


class CubeError(EngineError):
    """A cube action that the rules do not allow here."""


def _other(colour: str) -> str:
    return "b" if colour == "w" else "w"


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube of one game.

    >>> cube = Cube().double("w")
    >>> cube.offered_value, cube.take("b")
    (2, Cube(value=2, owner='b', offered_by='', crawford=False))
    >>> Cube(2, "b").double("b").drop("w")
    GameResult(winner='b', kind='single', points=1)
    """

    value: int = 1
    owner: str = ""  # "w" or "b"; "" in the middle
    offered_by: str = ""  # the colour that has offered a double awaiting an answer, or ""
    crawford: bool = False  # the Crawford game: no doubling

    @property
    def offered_value(self) -> int:
        """The value a double offers (the cube's value after a take)."""
        return self.value * 2

    def may_double(self, side: str) -> bool:
        """May ``side`` offer a double (before rolling, which the caller knows)? Not in the
        Crawford game, not while a double awaits an answer, and only from the middle or its own."""
        return not self.crawford and not self.offered_by and self.owner in ("", side)

    def double(self, side: str) -> Cube:
        """``side`` offers a double; the opponent must then take or drop."""
        if not self.may_double(side):
            raise CubeError(f"{side} may not double here")
        return replace(self, offered_by=side)

    def take(self, side: str) -> Cube:
        """``side`` accepts the opponent's double: the stake doubles and ``side`` owns the cube."""
        self._check_answer("take", side)
        return replace(self, value=self.offered_value, owner=side, offered_by="")

    def drop(self, side: str) -> GameResult:
        """``side`` declines the opponent's double: the game ends, lost at the cube's value
        before the double (the result's points are before the cube, as every GameResult's)."""
        self._check_answer("drop", side)
        return GameResult(self.offered_by, "single", 1)

    def act(self, action: str, side: str) -> tuple[Cube, GameResult | None]:
        """What a cube turn (``action`` "double", "take" or "drop" by ``side``) does: the cube
        after it, and the game's result when it ends the game (a drop)."""
        if action == "double":
            return self.double(side), None
        if action == "take":
            return self.take(side), None
        if action == "drop":
            return replace(self, offered_by=""), self.drop(side)
        raise CubeError(f"unknown cube action {action!r}")

    def _check_answer(self, action: str, side: str) -> None:
        if not self.offered_by or side != _other(self.offered_by):
            raise CubeError(f"a {action} with no double to answer")


def may_double(cube: Cube, side: str, variant: str, options: Options) -> bool:
    """May ``side`` offer a double in a ``variant`` game of a match with ``options``?"""
    return options.cube_applies_to(variant) and cube.may_double(side)


def points_scored(result: GameResult, cube_value: int) -> int:
    """The points a game's ``result`` scores: the cube multiplies a win (§6.4), not a tie.

    >>> points_scored(GameResult("w", "mars", 2), 4), points_scored(GameResult(None, "tie", 1), 4)
    (8, 1)
    """
    return result.points if result.is_tie else result.points * cube_value


def points_before_cube(points: int, cube_value: int, *, is_tie: bool = False) -> int:
    """The game's own value of a result that scored ``points`` with the cube at ``cube_value``."""
    return points if is_tie else points // cube_value


def cube_for_points(points: int, kind: str) -> int | None:
    """The cube value (1, 2, 4, ...) that makes a ``kind`` win score ``points``, or None.

    >>> cube_for_points(8, "mars"), cube_for_points(3, "single"), cube_for_points(3, "triple")
    (4, None, 1)
    """
    value, rest = divmod(points, KIND_POINTS[kind])
    return value if not rest and value > 0 and value & (value - 1) == 0 else None
