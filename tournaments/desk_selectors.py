"""Reads for the organiser's desk (tournaments/desk.py): what each tab of the desk shows.
Read only; every change goes through the REST API and its services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Tournament

# The desk's tabs, in order: (key, label).
TABS = [
    ("registration", _("Registration")),
    ("rounds", _("Rounds")),
    ("results", _("Results")),
]


def desk_context(tournament: Tournament, *, tab: str | None) -> dict[str, Any]:
    keys = [key for key, _label in TABS]
    return {
        "tournament": tournament,
        "tabs": TABS,
        "tab": tab if tab in keys else _default_tab(tournament),
        "registration": registration_desk(tournament),
    }


def _default_tab(tournament: Tournament) -> str:
    return "registration" if tournament.status in _NOT_STARTED else "results"


_NOT_STARTED = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
_FINISHED = Tournament.Status.FINISHED


def registration_desk(tournament: Tournament) -> dict[str, Any]:
    """The entries in seed order (then by name), with what the desk may do to each."""
    entries = list(
        tournament.entries.select_related("player", "player__club").order_by(
            "status", "seed", "player__display_name"
        )
    )
    active = [entry for entry in entries if entry.status == Entry.Status.ACTIVE]
    return {
        "entries": entries,
        "active_count": len(active),
        "checked_in_count": sum(1 for entry in active if entry.checked_in),
        "not_started": tournament.status in _NOT_STARTED,
        "registration_open": tournament.registration_open,
        "may_open": not tournament.registration_open and tournament.status != _FINISHED,
        "may_close": tournament.registration_open and tournament.status != _FINISHED,
        "may_start": tournament.status in _NOT_STARTED,
    }
