"""Game results and their value (docs/rules.md §2.7, §3.6, §4.6, §5.4-5.5, §5.7, Appendix B6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import OPP_BAR, PIN, ZERO, Node
from .options import Options
from .position import Colour, opponent
from .steps import MOTHER, TIE, WON

KINDS = ("single", "mars", "triple", "mother", "tie")


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won, how, and the points before any cube. A tie has no winner and ``points`` is what
    each player scores (0 when the Tapa is replayed or counted 0-0, 1 with ``one_each``)."""

    winner: Colour | None
    kind: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "kind": self.kind, "points": self.points}

    @classmethod
    def from_json(cls, data: Any) -> GameResult:
        if not isinstance(data, dict):
            raise ValueError(f"result must be an object, got {data!r}")
        winner, kind, points = data.get("winner"), data.get("kind"), data.get("points")
        if winner not in ("w", "b", None) or kind not in KINDS or not isinstance(points, int):
            raise ValueError(f"bad result {data!r}")
        return cls(winner, kind, points)

    @property
    def is_tie(self) -> bool:
        return self.kind == "tie"


def result_for(
    end: str, node: Node, mover: Colour, *, variant: str, their_off: int, options: Options
) -> GameResult:
    """The result of a game that ended with ``node`` after a step of ``mover``."""
    if end == TIE:
        return GameResult(None, "tie", 1 if options.tapa_tie == "one_each" else 0)
    if end == MOTHER:
        return GameResult(mover, "mother", 2)
    assert end == WON
    if their_off:
        return GameResult(mover, "single", 1)
    if variant == "tabla" and options.tabla_triple and _loser_trapped(node):
        return GameResult(mover, "triple", 3)
    return GameResult(mover, "mars", 2)


def _loser_trapped(node: Node) -> bool:
    """Tabla triple: the loser still has a checker on the bar or in the winner's home board."""
    return node[OPP_BAR] > 0 or any(-PIN < node[q] - ZERO < 0 for q in range(1, 7))


def resignation_result(resigner: Colour, kind: str) -> GameResult:
    """The result when ``resigner`` gives up offering ``single`` (1) or ``mars`` (2) points.

    Decision (docs/rules.md §6.7 leaves resignations to the service): the opponent scores the
    offered
    value; a resignation is a decided game for the cycle and for who starts next.
    """
    values = {"single": 1, "mars": 2, "triple": 3}
    if kind not in values:
        raise ValueError(f"a resignation is worth 'single', 'mars' or 'triple', got {kind!r}")
    return GameResult(opponent(resigner), kind, values[kind])
