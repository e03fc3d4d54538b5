"""Web pages of players: the page on which a logged-in user redeems a claim code (the form
posts to the players API, POST /api/v1/players/claim/, through static/js/desk.js), and the
language switch, which also remembers the language on the account."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import i18n
from django.views.decorators.http import require_safe

from players import selectors, services


@require_safe
def player_claim(request: HttpRequest) -> HttpResponse:
    """The claim form for a user without a player; a user with one sees theirs."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "players/claim.html", {"player": selectors.player_for(request.user)})


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the language cookie, then back to ``next``); a signed-in user's
    choice is also stored on their player (players.services.player_language_set), so that it
    follows them to another browser at the next log-in (players.signals)."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "") if request.method == "POST" else ""
    if language in dict(settings.LANGUAGES):
        services.player_language_set(user=request.user, language=language)
    return response
