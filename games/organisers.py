"""Who else organises a match: apps above games (tournaments) register a check, so games needs
to know nothing about them.

A check takes a user and a games Match and says whether the user organises the match through
something of its own (a tournament's organisers organise its matches); any yes counts.
Tournaments registers its check in TournamentsConfig.ready (docs/decisions.md D38)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only
    from games.models import Match
    from players.selectors import User

OrganiserCheck = Callable[["User", "Match"], bool]

ORGANISER_CHECKS: list[OrganiserCheck] = []


def register_organiser_check(check: OrganiserCheck) -> None:
    """Ask ``check`` whether a user organises a match (once per check)."""
    if check not in ORGANISER_CHECKS:
        ORGANISER_CHECKS.append(check)


def organises_elsewhere(user: User, match: Match) -> bool:
    """Whether any registered check says ``user`` organises ``match``."""
    return any(check(user, match) for check in ORGANISER_CHECKS)
