"""Table numbers for the matches played side by side in a round (pure code, no Django).

A round is a Swiss or round-robin round, or in a bracket the matches of one play level (see
``brackets.play_levels``: winners round 2 and losers round 1 of a double elimination are played
side by side, so they share one set of tables). Table 1 is the round's top pairing, the first in
board or play order; each round counts from 1. A bye, a round a late entrant missed and a void
bracket slot get no table, so the tables are 1 to the number of matches to play
(docs/decisions.md D40)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Slot:
    """A match of one round, in board order: its key, and whether two players sit down for it
    (false for a bye, a missed round or a void slot)."""

    key: str
    played: bool


def table_numbers(slots: Sequence[Slot]) -> dict[str, int]:
    """The table of each match played, in the order given, counting from 1.

    >>> table_numbers([Slot("R1-1", True), Slot("R1-bye", False), Slot("R1-2", True)])
    {'R1-1': 1, 'R1-2': 2}
    """
    played = [slot.key for slot in slots if slot.played]
    return {key: number for number, key in enumerate(played, start=1)}
