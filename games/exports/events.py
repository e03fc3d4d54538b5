"""Who names the event of a match in an export: apps above games (tournaments) register a
namer, so games needs to know nothing about them.

A namer takes a games Match and returns (event, round), or None when the match is not one of
its own; the first answer wins. Tournaments registers its namer in TournamentsConfig.ready."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only: games.exports loads no Django models
    from games.models import Match

EventNamer = Callable[["Match"], "tuple[str, str] | None"]

EVENT_NAMERS: list[EventNamer] = []


def register_event_namer(namer: EventNamer) -> None:
    """Ask ``namer`` for the event and round of every exported match (once per namer)."""
    if namer not in EVENT_NAMERS:
        EVENT_NAMERS.append(namer)


def event_and_round(match: Match) -> tuple[str, str] | None:
    """The first registered namer's (event, round) for ``match``, or None: not an event's."""
    for namer in EVENT_NAMERS:
        named = namer(match)
        if named is not None:
            return named
    return None
