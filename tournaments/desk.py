"""The organiser's desk: the pages from which a tournament's organisers run it (registration,
rounds, results, settings), and the page that creates a tournament. Pages read through
selectors and act through the REST API (``static/js/desk.js``); nobody but the tournament's
organisers and staff reaches a desk."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tournaments import desk_selectors, desk_settings, selectors
from tournaments.models import Tournament


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
    context: dict[str, Any] = desk_selectors.desk_context(
        tournament, tab=request.GET.get("tab"), user=request.user
    )
    return render(request, "tournaments/desk/desk.html", context)


@require_safe
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The form that creates a tournament (any logged-in user; it posts to the API and goes on
    to the new tournament's desk)."""
    if (response := _login_first(request)) is not None:
        return response
    form = desk_settings.settings_form(user=request.user, tournament=None)
    return render(request, "tournaments/new.html", {"form": form})
