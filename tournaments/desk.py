"""The organiser's desk: the pages from which a tournament's organisers run it (registration,
rounds, results, settings), and the page that creates a tournament. Pages read through
selectors and act through the REST API (``static/js/desk.js``); nobody but the tournament's
organisers and staff reaches a desk."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_safe

from common.numbers import ascii_int
from common.site import absolute_url, qr_svg
from games.report_codes import code_shown
from games.services import Slip, report_codes_issue
from tournaments import selectors, web
from tournaments.models import Stage, Tournament, TournamentMatch
from tournaments.routing import tournament_socket_path


def organised_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament ``pk`` if the user organises it (or is staff); 404 when there is no such
    tournament, PermissionDenied (403) for a user who does not run it."""
    tournament = get_object_or_404(selectors.tournament_list(), pk=pk)
    if not selectors.is_organiser(request.user, tournament):
        raise PermissionDenied("only the tournament's organisers may use its desk")
    return tournament


def _login_first(request: HttpRequest) -> HttpResponse | None:
    if request.user.is_authenticated:
        return None
    return redirect_to_login(request.get_full_path())


@require_safe
def tournament_desk(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk of one tournament: its sections in tabs, the one in ``?tab=`` open."""
    if (response := _login_first(request)) is not None:
        return response
    tournament = organised_tournament(request, pk)
    context: dict[str, Any] = web.desk.desk_context(
        tournament, tab=request.GET.get("tab"), user=request.user
    )
    draft = tournament.status == Tournament.Status.DRAFT
    context["socket_url"] = "" if draft else tournament_socket_path(tournament.pk)
    context["desk_etag"] = web.desk.desk_version(tournament.pk)["etag"]
    if context["tab"] == "rounds":
        number = request.GET.get("round", "")
        context["rounds"] = web.desk_rounds.rounds_desk(
            tournament,
            user=request.user,
            stage=_stage(request),
            number=ascii_int(number, max_digits=5),
        )
        if request.GET.get("fragment") == "rounds":
            # The Rounds tab alone, as static/js/desk.js swaps it in after a pairing.
            return render(request, "tournaments/desk/_rounds.html", context)
    elif context["tab"] == "results":
        context["results"] = web.desk_rounds.results_desk(tournament, user=request.user)
        if request.GET.get("fragment") == "results":
            # The Results tab alone, as static/js/desk.js swaps it in without a page load.
            return render(request, "tournaments/desk/_results.html", context)
    elif context["tab"] == "registration" and request.GET.get("fragment") == "registration":
        # The Registration tab alone, as static/js/desk.js swaps it in after one of its
        # actions (registration opened, players entered, seeds, the start refused: D149).
        return render(request, "tournaments/desk/_registration.html", context)
    return render(request, "tournaments/desk/desk.html", context)


def _desk_etag(request: HttpRequest, pk: int) -> str | None:
    if not request.user.is_authenticated:
        return None
    return str(web.desk.desk_version(organised_tournament(request, pk).pk)["etag"])


@require_safe
@condition(etag_func=_desk_etag)
def desk_state(request: HttpRequest, pk: int) -> HttpResponse:
    """What the open desk follows (``web.desk.desk_version``) as JSON, to poll with
    If-None-Match (304 while nothing has changed) and to fetch on each pushed message."""
    if not request.user.is_authenticated:
        raise PermissionDenied("only the tournament's organisers may follow its desk")
    version = web.desk.desk_version(organised_tournament(request, pk).pk)
    response = JsonResponse({key: value for key, value in version.items() if key != "etag"})
    response["Cache-Control"] = "no-cache"
    return response


def _stage(request: HttpRequest) -> str:
    stage = request.GET.get("stage") or Stage.MAIN
    if stage not in list(Stage):
        raise Http404(f"no stage {stage!r}")
    return stage


@require_safe
def round_print(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round on paper: its pairings with table numbers (and outside a bracket each player's
    points before the round) on one page, then a result slip for each match to play
    (``?stage=knockout`` for the knock-out after groups)."""
    if (response := _login_first(request)) is not None:
        return response
    tournament = organised_tournament(request, pk)
    sheet = web.desk_rounds.print_sheet(tournament, _stage(request), number)
    if sheet is None:
        raise Http404(f"there is no round {number} to print")
    slips = [t for t in sheet["tables"] if t["status"] == TournamentMatch.Status.READY]
    _slip_codes(request, tournament, sheet, slips)
    context = {
        "tournament": tournament,
        "sheet": sheet,
        "slips": slips,
        "printed_at": timezone.now(),
        "qr_on_pairings": request.GET.get("qr") == "1",
    }
    return render(request, "tournaments/desk/print_round.html", context)


def _slip_codes(
    request: HttpRequest, tournament: Tournament, sheet: dict[str, Any], slips: list[dict[str, Any]]
) -> None:
    """Give each slip's players their report code (made on the first print, the same on
    reprints): ``code``, as printed, and ``qr``, the QR code of the page it opens (D83)."""
    made = report_codes_issue(
        user=request.user,
        slips=[
            Slip(
                match_id=t["match_id"],
                label=_("%(event)s · %(round)s · Table %(table)s")
                % {"event": tournament.name, "round": sheet["label"], "table": t["table"]},
            )
            for t in slips
            if t["match_id"] is not None
        ],
    )
    by_player = {(code.match_id, code.player_id): code for code in made}
    for table in slips:
        for player in table["players"]:
            code = by_player.get((table["match_id"], player["player"])) if player else None
            if code is not None:
                address = absolute_url(request, reverse("web:report-code", args=[code.code]))
                title = _("%(name)s: scan to report") % {"name": player["name"]}
                player["report_code"] = {
                    "code": code_shown(code.code),
                    "title": title,
                    "qr": mark_safe(_qr(address, title)),  # noqa: S308 (segno escapes the title)
                }


@functools.lru_cache(maxsize=1024)
def _qr(address: str, title: str) -> str:
    """A slip code's QR code: the same on a reprint and on the pairings' rows, so drawn once
    (segno takes about 25 ms a code, most of it choosing the mask: D85)."""
    return qr_svg(address, title=title)


@require_safe
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The form that creates a tournament (any logged-in user; it posts to the API and goes on
    to the new tournament's desk)."""
    if (response := _login_first(request)) is not None:
        return response
    form = web.desk_settings.settings_form(user=request.user, tournament=None)
    players = web.desk.new_tournament_list(request.user)
    return render(request, "tournaments/new.html", {"form": form, "players_list": players})
