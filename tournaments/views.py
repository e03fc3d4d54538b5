"""Web pages of the tournaments: the site's home page (matches and tournaments), the list, and a
tournament's podium, bracket (elimination formats), rounds and standings, kept live by polling a
state endpoint. Reads only: a Start button starts a match through the API."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import condition, require_safe

from games import web_selectors as games_web_selectors
from games.selectors import User
from games.web.lobby import practice_offer
from tournaments import selectors, web
from tournaments.routing import tournament_socket_path
from tournaments.web.your_matches import your_matches


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The site's home page: for a signed-in player what waits for them first ("Your
    matches"), the practice against the computer (the lobby's form, D145), then the matches
    the user may see and the tournaments."""
    mine = your_matches(request.user)
    context = {
        **mine,
        "you": mine["your_matches"]["player"] if mine["your_matches"] else None,
        **practice_offer(),
        **games_web_selectors.home_matches(user=request.user),
        "tournaments": web.pages.tournament_groups(limit=games_web_selectors.HOME_LIMIT),
    }
    return render(request, "games/home.html", context)


@require_safe
def tournament_index(request: HttpRequest) -> HttpResponse:
    context = {
        "tournaments": web.pages.tournament_groups(),
        "run_by_me": web.desk.tournaments_run_by(request.user),
    }
    return render(request, "tournaments/index.html", context)


@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    context = tournament_context(request.user, pk, _rounds_page(request))
    context["etag"] = _live_etag(request, pk)
    context["socket_url"] = tournament_socket_path(pk)
    context["runs_it"] = selectors.is_organiser(request.user, context["tournament"])
    context["tabs"] = web.pages.tournament_tabs(context["tournament"])
    return render(request, "tournaments/tournament.html", context)


@require_safe
def tournament_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The podium, bracket, rounds and standings as an HTML fragment, fetched when the state
    changes (the same page of rounds, ``?rounds=N``)."""
    context = tournament_context(request.user, pk, _rounds_page(request))
    return render(request, "tournaments/_tournament_live.html", context)


def _live_etag(request: HttpRequest, pk: int) -> str:
    return web.pages.tournament_live_version(pk=pk).etag


@require_safe
@condition(etag_func=_live_etag)
def tournament_state(request: HttpRequest, pk: int) -> JsonResponse:
    """A cheap JSON summary to poll with If-None-Match: 304 while nothing has changed."""
    version = web.pages.tournament_live_version(pk=pk)
    response = JsonResponse(version.to_json())
    response["Cache-Control"] = "no-cache"
    return response


def _rounds_page(request: HttpRequest) -> int | None:
    """The page of a large league's rounds asked for (``?rounds=N``), if any."""
    page = request.GET.get("rounds", "")
    return int(page) if page.isdigit() and len(page) < 6 else None


def tournament_context(user: User, pk: int, rounds_page: int | None = None) -> dict[str, Any]:
    tournament = web.pages.tournament_visible(pk=pk)
    standings = web.standings.standing_tables(tournament)
    pages = [] if tournament.is_elimination else web.pages.round_pages(tournament, rounds_page)
    current = next((page["number"] for page in pages if page["current"]), None)
    return {
        "tournament": tournament,
        "podium": web.standings.tournament_podium(tournament, standings),
        "brackets": web.pages.tournament_brackets(tournament, user),
        "rounds": web.pages.tournament_rounds(tournament, user, pages),
        "round_pages": pages,
        "rounds_query": f"?rounds={current}" if current else "",
        "standings": standings,
    }
