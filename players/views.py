"""Web pages of players: the page on which a logged-in user redeems a claim code (the form
posts to the players API, POST /api/v1/players/claim/, through static/js/desk.js)."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from players import selectors


@require_safe
def player_claim(request: HttpRequest) -> HttpResponse:
    """The claim form for a user without a player; a user with one sees theirs."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "players/claim.html", {"player": selectors.player_for(request.user)})
