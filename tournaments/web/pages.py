"""Reads for the tournament web pages: the public tournaments, the page's brackets and rounds
(named, with the Start buttons a user may press), and the live version of a tournament that
spectators poll. Built on tournaments.selectors; the standings tables and the podium are in
tournaments.web.standings."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import selectors as games_selectors
from games.models import Match
from games.selectors import User
from tournaments import selectors
from tournaments.draw.brackets import Section, SlotStatus
from tournaments.draw.round_names import RoundKind, RoundName, round_name
from tournaments.models import Stage, Standing, Tournament, TournamentMatch


def tournament_public() -> QuerySet[Tournament]:
    """Tournaments anyone may look at: all but drafts."""
    return selectors.tournament_list().exclude(status=Tournament.Status.DRAFT)


def tournament_visible(*, pk: int) -> Tournament:
    return get_object_or_404(tournament_public(), pk=pk)


ROUND_LABELS: dict[RoundKind, Promise] = {
    RoundKind.ROUND: gettext_lazy("Round %(number)s"),
    RoundKind.ROUND_OF: gettext_lazy("Round of %(number)s"),
    RoundKind.QUARTER_FINAL: gettext_lazy("Quarter-final"),
    RoundKind.SEMI_FINAL: gettext_lazy("Semi-final"),
    RoundKind.FINAL: gettext_lazy("Final"),
    RoundKind.WINNERS_ROUND_OF: gettext_lazy("Winners' round of %(number)s"),
    RoundKind.WINNERS_QUARTER_FINAL: gettext_lazy("Winners' quarter-final"),
    RoundKind.WINNERS_SEMI_FINAL: gettext_lazy("Winners' semi-final"),
    RoundKind.WINNERS_FINAL: gettext_lazy("Winners' final"),
    RoundKind.LOSERS_ROUND: gettext_lazy("Losers' round %(number)s"),
    RoundKind.LOSERS_FINAL: gettext_lazy("Losers' final"),
    RoundKind.CONSOLATION_ROUND: gettext_lazy("Consolation round %(number)s"),
    RoundKind.CONSOLATION_FINAL: gettext_lazy("Consolation final"),
    RoundKind.THIRD_PLACE: gettext_lazy("Third-place match"),
    RoundKind.GRAND_FINAL: gettext_lazy("Grand final"),
    RoundKind.GRAND_FINAL_RESET: gettext_lazy("Grand final reset"),
}
SECTION_TITLES: dict[str, Promise] = {
    Section.MAIN: gettext_lazy("Main bracket"),
    Section.LOSERS: gettext_lazy("Losers bracket"),
    Section.CONSOLATION: gettext_lazy("Consolation flight"),
    Section.THIRD_PLACE: gettext_lazy("Third place"),
    Section.GRAND_FINAL: gettext_lazy("Grand final"),
    Section.RESET: gettext_lazy("Grand final reset"),
}
# Sections of a single match: their heading names the match, so its round needs no name.
ONE_MATCH_SECTIONS = (Section.THIRD_PLACE, Section.GRAND_FINAL, Section.RESET)


def round_label(name: RoundName) -> str:
    """A round's name in the page's language: "Quarter-final", "Losers' round 2"."""
    return str(ROUND_LABELS[name.kind]) % {"number": name.number}


def tournament_tabs(tournament: Tournament) -> list[dict[str, str]]:
    """The page's tabs, in the page's order: an elimination has a bracket, a league its rounds
    (after the bracket of a knock-out that follows its groups), and all have standings."""
    tabs = []
    if tournament.is_elimination or tournament.knockout_per_group:
        tabs.append({"anchor": "bracket", "label": _("Bracket")})
    if not tournament.is_elimination:
        tabs.append({"anchor": "rounds", "label": _("Rounds")})
    return [*tabs, {"anchor": "standings", "label": _("Standings")}]


def tournament_brackets(tournament: Tournament, user: User | None = None) -> list[dict[str, Any]]:
    """The drawn bracket stages: the main one (elimination formats) and any knock-out stage,
    each section with its title and each round with its name (none in a one-match section),
    the grand-final reset as ``bracket_reset`` leaves it, and Start buttons for ``user``."""
    stages = [Stage.MAIN, Stage.KNOCKOUT] if tournament.is_elimination else [Stage.KNOCKOUT]
    brackets = [selectors.bracket(tournament, stage) for stage in stages]
    brackets = [bracket for bracket in brackets if bracket["sections"]]
    for bracket in brackets:
        bracket["sections"] = bracket_reset(bracket["sections"])
        last = {s["name"]: s["rounds"][-1]["number"] for s in bracket["sections"]}
        for section in bracket["sections"]:
            section["title"] = _section_title(bracket["format"], section["name"])
            for round_ in section["rounds"]:
                name = round_name(bracket["format"], section["name"], round_["number"],
                                  last[section["name"]])  # fmt: skip
                one_match = section["name"] in ONE_MATCH_SECTIONS
                round_["label"] = None if one_match else round_label(name)
    _add_start(
        [m for b in brackets for s in b["sections"] for r in s["rounds"] for m in r["matches"]],
        user,
    )
    return brackets


def _section_title(fmt: str, section: str) -> str:
    if fmt == "double_elimination" and section == Section.MAIN:
        return _("Winners bracket")
    return str(SECTION_TITLES.get(section, section))


def reset_warning(challenger: dict[str, Any] | None) -> str:
    """The grand final's note: a reset follows if the losers' bracket player wins it."""
    name = (challenger or {}).get("name")
    if name:
        return _(
            "If %(name)s, from the losers' bracket, wins this final, a reset match decides the "
            "title: it is the first loss of the winners' bracket player."
        ) % {"name": name}
    return _(
        "If the losers' bracket winner wins this final, a reset match decides the title: it is "
        "the first loss of the winners' bracket player."
    )


def bracket_reset(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The grand-final reset is shown only when it may be played (docs/decisions.md D32): left
    out once it is not needed (the winners' bracket player won the grand final), marked
    ``if_needed`` with a note while the grand final is undecided, and a match like any other
    once the losers' bracket player won the grand final."""
    by_name = {section["name"]: section for section in sections}
    reset = by_name.get(Section.RESET)
    if reset is None:
        return sections
    match = reset["rounds"][0]["matches"][0]
    if match["status"] in (SlotStatus.VOID, SlotStatus.BYE):
        return [section for section in sections if section is not reset]
    if match["status"] == SlotStatus.WAITING:
        grand_final = by_name[Section.GRAND_FINAL]
        final = grand_final["rounds"][0]["matches"][0]
        challenger = final["players"][1]
        grand_final["note"] = reset_warning(challenger)
        reset["if_needed"] = True
        reset["note"] = (
            _("Played only if %(name)s wins the grand final.") % {"name": challenger["name"]}
            if challenger
            else _("Played only if the losers' bracket winner wins the grand final.")
        )
    return sections


# The most pairings the tournament page shows at once: a large league's rounds come in pages of
# whole rounds (docs/decisions.md D59); the page opens on the one with the first unfinished round.
PAGE_MATCHES = 300


def tournament_rounds(
    tournament: Tournament, user: User | None = None, pages: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The rounds of a league (round robin, its groups, a Swiss), named "Round N", with Start
    buttons for ``user``; a knock-out after the groups is shown as its bracket instead. Only
    the rounds of the current page of ``pages`` (``round_pages``; None: all) are listed."""
    if tournament.is_elimination:
        return []
    shown = next((p["rounds"] for p in pages or [] if p["current"]), None)
    rounds = [
        r for r in selectors.round_list(tournament, numbers=shown) if r["stage"] == Stage.MAIN
    ]
    for round_ in rounds:
        round_["label"] = round_label(RoundName(RoundKind.ROUND, round_["number"]))
    _add_start([m for round_ in rounds for m in round_["pairings"]], user)
    return rounds


def round_pages(tournament: Tournament, page: int | None = None) -> list[dict[str, Any]]:
    """The league's rounds in pages of whole rounds holding at most ``PAGE_MATCHES`` pairings
    (a larger round alone), numbered from 1: each with its ``rounds``, a ``label`` ("Rounds
    1-10") and ``current``, the page asked for (out of range or None: the one with the first
    unfinished round, or the last). None at all when every round fits on one page."""
    pages: list[dict[str, Any]] = []
    size = PAGE_MATCHES + 1
    first_open = None
    for number, matches, finished in selectors.round_sizes(tournament):
        if size + matches > PAGE_MATCHES:
            pages.append({"number": len(pages) + 1, "rounds": []})
            size = 0
        pages[-1]["rounds"].append(number)
        size += matches
        if first_open is None and not finished:
            first_open = len(pages)
    if len(pages) < 2:
        return []  # one page: no pages to choose from
    if page is None or not 1 <= page <= len(pages):
        page = first_open or len(pages)
    for entry in pages:
        low, high = entry["rounds"][0], entry["rounds"][-1]
        entry["label"] = (
            _("Round %(low)s") % {"low": low}
            if low == high
            else _("Rounds %(low)s–%(high)s") % {"low": low, "high": high}
        )
        entry["current"] = entry["number"] == page
    return pages


def _add_start(matches: list[dict[str, Any]], user: User | None) -> None:
    """Give each match that ``user`` may start now its ``start_url`` (POST there to start it,
    games:match-start) and everyone a ``live`` flag while it is being played."""
    ids = [m["match_id"] for m in matches if m["match_status"] == Match.Status.SCHEDULED]
    waiting = Match.objects.filter(pk__in=ids).only(
        "status", "mode", "organiser", "player_one", "player_two"
    )
    startable = (
        games_selectors.matches_startable(user, list(waiting))
        if ids and user is not None
        else set()
    )
    for match in matches:
        match["live"] = match["match_status"] == Match.Status.IN_PROGRESS
        match["start_url"] = (
            reverse("games:match-start", kwargs={"pk": match["match_id"]})
            if match["match_id"] in startable
            else None
        )


@dataclass(frozen=True)
class TournamentLiveVersion:
    """What the live part of a tournament page depends on, in a few aggregates; its ``etag``
    changes whenever a match is drawn, filled, decided or corrected, or the standings are
    stored again."""

    tournament: int
    status: str
    current_round: int
    updated_at: datetime
    matches: tuple[tuple[str, Any], ...]
    standings: tuple[tuple[str, Any], ...]

    @property
    def etag(self) -> str:
        digest = hashlib.sha256(repr(self).encode()).hexdigest()[:20]
        return f'"{digest}"'

    def to_json(self) -> dict[str, Any]:
        matches = dict(self.matches)
        return {
            "tournament": self.tournament,
            "status": self.status,
            "current_round": self.current_round,
            "matches": matches["total"],
            "decided": matches["decided"],
            "version": self.etag.strip('"'),
        }


SETTLED = (
    TournamentMatch.Status.DONE,
    TournamentMatch.Status.BYE,
    TournamentMatch.Status.VOID,
    TournamentMatch.Status.MISSED,
)


def tournament_live_version(*, pk: int) -> TournamentLiveVersion:
    """Three narrow queries: the tournament row, an aggregate of its matches and one of its
    stored standings."""
    row = (
        tournament_public()
        .filter(pk=pk)
        .values("pk", "status", "current_round", "updated_at")
        .first()
    )
    if row is None:
        raise Http404("no such tournament")
    matches = TournamentMatch.objects.filter(tournament_id=pk).aggregate(
        total=Count("id"),
        decided=Count("id", filter=Q(status__in=SETTLED)),
        ready=Count("id", filter=Q(status=TournamentMatch.Status.READY)),
        started=Count("id", filter=Q(match__status=Match.Status.IN_PROGRESS)),
        filled=Count("entry_one") + Count("entry_two"),
        winners=Sum("winner_id"),
        score_one=Sum("score_one"),
        score_two=Sum("score_two"),
        finished_at=Max("finished_at"),
    )
    standings = Standing.objects.filter(tournament_id=pk).aggregate(
        rows=Count("id"), computed_at=Max("computed_at")
    )
    return TournamentLiveVersion(
        tournament=row["pk"],
        status=row["status"],
        current_round=row["current_round"],
        updated_at=row["updated_at"],
        matches=tuple(matches.items()),
        standings=tuple(standings.items()),
    )


def tournament_groups(*, limit: int | None = None) -> list[dict[str, Any]]:
    """Running, open-for-registration and finished tournaments (drafts stay private), at most
    ``limit`` of each."""
    tournaments = tournament_public()
    groups = [
        ("running", tournaments.filter(status=Tournament.Status.RUNNING)),
        ("upcoming", tournaments.filter(status=Tournament.Status.REGISTRATION)),
        ("finished", tournaments.filter(status=Tournament.Status.FINISHED)),
    ]
    listed = [(key, list(rows[:limit])) for key, rows in groups]
    return [{"key": key, "items": items} for key, items in listed if items]
