"""Where a match is played, named by the apps above games: a tournament's match page names
its tournament, round and table and links back to them (issue 21 §3), while games knows
nothing of tournaments. As the export's event namers (games/exports/events.py): an app
registers a finder in its AppConfig.ready; the first answer wins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Match


@dataclass(frozen=True)
class Place:
    """An event's name and page, the round (its number and, for a bracket, its name) and the
    table (None: a bye, or not numbered)."""

    event: str
    url: str
    round: int
    round_name: str
    table: int | None


PlaceFinder = Callable[["Match"], "Place | None"]

PLACE_FINDERS: list[PlaceFinder] = []


def register_place_finder(finder: PlaceFinder) -> None:
    if finder not in PLACE_FINDERS:
        PLACE_FINDERS.append(finder)


def place_of(match: Match) -> Place | None:
    """The first registered finder's place of ``match``; None when it is no event's (a match
    without a ``tournament_slot`` asks nobody: no query)."""
    if not match.tournament_slot:
        return None
    for finder in PLACE_FINDERS:
        place = finder(match)
        if place is not None:
            return place
    return None
