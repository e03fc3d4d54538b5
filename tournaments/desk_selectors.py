"""Reads for the organiser's desk (tournaments/desk.py): what each tab of the desk shows.
Read only; every change goes through the REST API and its services."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from players.selectors import User
from tournaments import desk_settings, selectors
from tournaments.models import Entry, Tournament

# The desk's tabs, in order: (key, label).
TABS = [
    ("registration", _("Registration")),
    ("rounds", _("Rounds")),
    ("results", _("Results")),
    ("settings", _("Settings")),
]


def desk_context(tournament: Tournament, *, tab: str | None, user: User) -> dict[str, Any]:
    keys = [key for key, _label in TABS]
    tab = tab if tab in keys else _default_tab(tournament)
    context = {
        "tournament": tournament,
        "tabs": TABS,
        "tab": tab,
        "registration": registration_desk(tournament),
    }
    if tab == "settings":
        context["settings_form"] = desk_settings.settings_form(user=user, tournament=tournament)
    return context


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


def tournaments_run_by(user: User, *, limit: int = 20) -> list[Tournament]:
    """The tournaments ``user`` organises that have not finished, drafts too (which nobody
    else sees), newest first: the tournaments list links their desks."""
    if not getattr(user, "is_authenticated", False):
        return []
    organised = Q(created_by=user.pk) | Q(organisers=user.pk)
    return list(
        selectors.tournament_list().filter(organised).exclude(status=_FINISHED).distinct()[:limit]
    )
