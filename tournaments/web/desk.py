"""Reads for the organiser's desk (tournaments/desk.py): what each tab of the desk shows.
Read only; every change goes through the REST API and its services."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max, Q
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import ResultReport
from players.models import Club
from players.selectors import User, may_enter_players, player_for
from tournaments import selectors
from tournaments.models import Entry, Tournament
from tournaments.web import desk_settings, pages

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
        "registration": registration_desk(tournament, user=user),
        "organisers": organisers_desk(tournament, user=user),
        "waiting": reports_waiting(tournament.pk),
    }
    if tab == "settings":
        context["settings_form"] = desk_settings.settings_form(user=user, tournament=tournament)
    return context


def reports_waiting(tournament_id: int) -> int:
    """How many reported results wait for the desk (pending or disputed): the Results tab's
    badge."""
    return ResultReport.objects.filter(
        match__tournament_match__tournament_id=tournament_id,
        status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
    ).count()


def desk_version(tournament_id: int) -> dict[str, Any]:
    """What the open desk follows (static/js/desk.js polls it with If-None-Match when no socket
    is open, and fetches it on each pushed message): the public page's version (matches drawn,
    filled, decided, corrected; standings) and the tournament's result reports (a new report,
    a confirmation, a dispute, an override), with ``waiting``, the Results tab's badge. Its
    ``etag`` changes whenever one of them does."""
    try:
        public = pages.tournament_live_version(pk=tournament_id)
        seen: tuple[str, str, int] = (public.etag, public.status, public.current_round)
    except Http404:  # a draft: nobody but its organisers sees it, nothing is played yet
        seen = ("", Tournament.Status.DRAFT, 0)
    reports = ResultReport.objects.filter(
        match__tournament_match__tournament_id=tournament_id
    ).aggregate(
        total=Count("id"),
        waiting=Count(
            "id",
            filter=Q(status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]),
        ),
        disputed=Count("id", filter=Q(status=ResultReport.Status.DISPUTED)),
        answered=Max("responded_at"),
    )
    digest = hashlib.sha256(repr((seen, sorted(reports.items()))).encode()).hexdigest()
    return {
        "etag": f'"{digest[:20]}"',
        "version": digest[:20],
        "waiting": reports["waiting"],
        "status": seen[1],
        "current_round": seen[2],
    }


def organisers_desk(tournament: Tournament, *, user: User) -> dict[str, Any]:
    """Who runs the tournament (its creator first, then the others by name), where to add a
    co-organiser, and whether ``user`` plays in it (``you_play``) as its only organiser
    (``alone``): a party never decides their own match, so their matches need a co-organiser
    or staff (docs/decisions.md D39)."""
    others = tournament.organisers.exclude(pk=tournament.created_by_id).order_by("username")
    names = [tournament.created_by.get_username(), *(u.get_username() for u in others)]
    you = player_for(user)
    you_play = (
        you is not None
        and tournament.entries.filter(player=you, status=Entry.Status.ACTIVE).exists()
    )
    return {
        "names": names,
        "add_url": reverse("tournaments:organiser-add", kwargs={"pk": tournament.pk}),
        "you_play": you_play,
        "alone": you_play and names == [user.get_username()],
    }


def _default_tab(tournament: Tournament) -> str:
    return "registration" if tournament.status in _NOT_STARTED else "results"


_NOT_STARTED = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
_FINISHED = Tournament.Status.FINISHED


def registration_desk(tournament: Tournament, *, user: User) -> dict[str, Any]:
    """The entries in seed order (then by name), with what the desk may do to each, and what
    the desk needs to add players: whether it may (``adding``: "open", "closed" while
    registration is closed, "over" once no entry is possible), and the addresses and clubs
    its script uses (static/js/desk-players.js)."""
    entries = list(
        tournament.entries.select_related("player", "player__club").order_by(
            "status", "seed", "player__display_name"
        )
    )
    active = [entry for entry in entries if entry.status == Entry.Status.ACTIVE]
    not_started = tournament.status in _NOT_STARTED
    late = _late_entry_possible(tournament)
    may_enter = may_enter_players(user)
    return {
        "entries": entries,
        "active_count": len(active),
        "checked_in_count": sum(1 for entry in active if entry.checked_in),
        "not_started": not_started,
        "registration_open": tournament.registration_open,
        "may_open": not tournament.registration_open and tournament.status != _FINISHED,
        "may_close": tournament.registration_open and tournament.status != _FINISHED,
        "may_start": not_started,
        "may_seed": not_started and bool(active),
        "may_enter_players": may_enter,
        "adding": _adding(tournament, not_started or late),
        "late_entry": late,
        "script": _script_data(tournament, entries, late),
    }


def _adding(tournament: Tournament, possible: bool) -> str:
    if not possible:
        return "over"
    return "open" if tournament.registration_open else "closed"


def _late_entry_possible(tournament: Tournament) -> bool:
    """Whether a running tournament still takes entries: a Swiss until round
    ``late_entry_until_round`` is paired (as tournaments.services.entry_register checks)."""
    return (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format == Tournament.Format.SWISS
        and tournament.current_round < tournament.late_entry_until_round
    )


def _script_data(tournament: Tournament, entries: list[Entry], late: bool) -> dict[str, Any]:
    """What static/js/desk-players.js reads from the page (a JSON script element)."""
    pk = {"pk": tournament.pk}
    return {
        "entries": reverse("tournaments:entry-list", kwargs=pk),
        "entriesBulk": reverse("tournaments:entry-bulk", kwargs=pk),
        "players": reverse("players:player-list"),
        "playersBulk": reverse("players:player-bulk"),
        "clubs": [{"id": pk, "name": name} for pk, name in Club.objects.values_list("pk", "name")],
        "club": tournament.club_id,
        "entered": [entry.player_id for entry in entries],
        "late": late,
        "claim": reverse("players_web:claim"),
        "text": SCRIPT_TEXT,
    }


def new_tournament_list(user: User) -> dict[str, Any] | None:
    """What the new-tournament form's players list needs (static/js/tournament-new.js, with
    desk-players.js): the desk's list script data with no tournament yet, and the addresses of
    the new tournament's registration, entries and start, ``{id}`` standing for its id (D120).
    None for a user who may not enter players (the desk's list is theirs alone, too)."""
    if not may_enter_players(user):
        return None

    def address(name: str) -> str:
        return reverse(name, kwargs={"pk": 1}).replace("/1/", "/{id}/")

    return {
        "entered": [],
        "players": reverse("players:player-list"),
        "playersBulk": reverse("players:player-bulk"),
        "clubs": [{"id": pk, "name": name} for pk, name in Club.objects.values_list("pk", "name")],
        "club": None,  # the form's chosen club, filled in by the script
        "late": False,
        "open": address("tournaments:registration-open"),
        "entriesBulk": address("tournaments:entry-bulk"),
        "start": address("tournaments:start"),
        "desk": address("tournaments_web:desk"),
        "text": SCRIPT_TEXT | NEW_LIST_TEXT,
    }


# The words static/js/tournament-new.js adds to desk-players.js's.
NEW_LIST_TEXT = {
    "createdNot": _("The tournament was created, but: %(error)s"),
    "toDesk": _("Go on at its desk"),
}


# The words static/js/desk-players.js shows, translated here; %(name)s is filled in there.
SCRIPT_TEXT = {
    "add": _("Add"),
    "entered": _("entered"),
    "more": _("The first %(shown)s of %(count)s: type more of the name."),
    "none": _("Nobody of that name yet."),
    "enterNew": _("Enter “%(name)s” as a new player"),
    "known": _("There is already a player “%(name)s” (%(club)s)."),
    "addKnown": _("Add that player"),
    "noClub": _("no club"),
    "createdNotEntered": _("The player was entered, but not in the tournament: %(error)s"),
    "line": _("line %(line)s"),
    "noName": _("no name"),
    "longName": _("a name has at most 80 characters"),
    "columns": _("too many columns: a line has a name, a club and a rating"),
    "rating": _("the rating must be a number from 0 to 5000"),
    "unknownClub": _("unknown club “%(club)s”"),
    "sameAs": _("the same player as line %(line)s"),
    "namesakes": _("%(count)s players of this name: add the right one by name search"),
    "knownPlayer": _("known player, rating %(rating)s"),
    "newPlayer": _("new player"),
    "alreadyEntered": _("already entered: left out"),
    # The number after the words: the script fills it in and cannot choose a plural form.
    "enterList": _("Enter the players: %(count)s, new: %(new)s"),
    "nothing": _("Everybody on the list is entered already."),
    "fix": _("Correct the lines marked in red and check the list again."),
    "empty": _("The list is empty."),
    "checking": _("Checking the list…"),
    "listColumns": _("Line,Name,Club,Rating,"),
    "createdListNotEntered": _(
        "The new players were entered, but not in the tournament: %(error)s"
    ),
    "seeds": _("Give every player a seed from 1 to %(count)s, each once."),
    "seedsEmpty": _("Without a seed: %(names)s."),
    "seedsTwice": _("Given twice: %(seeds)s."),
    "seedsMissing": _("Not given: %(seeds)s."),
    "seedsUnsaved": _("The seeds have changed: save them as typed."),
    "claim": _(
        "Claim code for %(name)s: %(code)s, valid until %(date)s. Once logged in, the player "
        "enters it at %(url)s. An earlier code of the player no longer works."
    ),
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
