"""The lobby's pages (docs/decisions.md D91-D93): the open challenges with a form to post one,
the direct challenges waiting for an answer, who is online; a direct challenge from a player's
page; the ping every signed-in page sends (presence and the header's badge). The forms post
here and come back to a page (post, redirect, get); every write is a service of
games.services, as the API's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from common.errors import GameServiceError
from common.numbers import ascii_int
from games import clock, lobby, practice, push, selectors, services, web_selectors
from games.engine import EngineError
from games.engine.options import MAX_MATCH_LENGTH, PRESETS
from games.models import Match
from games.routing import lobby_socket_path

# The rule presets (games/engine/options.py PRESETS) and clock presets (games/clock.py) a form
# offers, by name; the labels are the tournament form's.
RULE_CHOICES = [
    ("macedonian", gettext_lazy("Macedonian")),
    ("bulgarian_nit", gettext_lazy("Bulgarian")),
    ("greek_tavli", gettext_lazy("Greek Tavli")),
]
CLOCK_CHOICES = [
    ("", gettext_lazy("No clock")),
    ("standard", gettext_lazy("2 minutes a point + 12 s a turn")),
    ("relaxed", gettext_lazy("3 minutes a point + 15 s a turn")),
]
DEFAULT_LENGTH = 5


def form_choices() -> dict[str, Any]:
    return {
        "rule_choices": [(name, label) for name, label in RULE_CHOICES if name in PRESETS],
        "clock_choices": [(n, label) for n, label in CLOCK_CHOICES if not n or n in clock.PRESETS],
        "max_length": MAX_MATCH_LENGTH,
        "default_length": DEFAULT_LENGTH,
    }


def practice_offer() -> dict[str, Any]:
    """What the practice form (templates/games/_practice_form.html) needs, on the lobby and
    the home page alike (docs/decisions.md D145): offered while an evaluator is installed
    (D131), the strengths, and the rules and length choices of a challenge. No query."""
    return {
        "practice_offered": bool(practice.practice_variants()),
        "strengths": list(practice.STRENGTH_LABELS.items()),
        **form_choices(),
    }


def lobby_context(request: HttpRequest) -> dict[str, Any]:
    """The lobby's lists; ``socket_url``: the lobby's socket (games/consumers.py), "" without
    a channel layer (the page then only polls)."""
    player = selectors.player_for(request.user)
    online, online_count = lobby.players_online()
    page = lobby.open_challenges_page(request.GET.get("page"))
    labels = dict(RULE_CHOICES)
    return {
        "you": player,
        "challenges": page,
        "challenge_rows": [
            {"c": c, "rules": labels.get(c.preset, _("Own rules"))} for c in page.object_list
        ],
        "direct": lobby.direct_challenges(player),
        "online": online,
        "online_count": online_count,
        "socket_url": lobby_socket_path(),
        **practice_offer(),
    }


@require_safe
def lobby_page(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", lobby_context(request))


@require_safe
def lobby_live(request: HttpRequest) -> HttpResponse:
    """The lobby's lists as an HTML fragment, fetched by static/js/lobby.js every
    lobby.PING_SECONDS."""
    return render(request, "games/_lobby_live.html", lobby_context(request))


@require_safe
def ping(request: HttpRequest) -> JsonResponse:
    """Sent by every page of a signed-in user (static/js/awaiting.js): stamps their player as
    online and answers how many matches wait for them (the header's badge) and how many of
    their notifications are unread (the header's Notifications link: D115)."""
    unread = selectors.notifications_unread_count(request.user)
    player = selectors.player_for(request.user)
    if player is None:
        return JsonResponse({"awaiting": 0, "unread": unread})
    if lobby.presence_stamp(player):
        push.lobby_changed()
    _items, count = lobby.awaiting_for(request.user)
    response = JsonResponse({"awaiting": count, "unread": unread})
    response["Cache-Control"] = "no-store"
    return response


def _settings(request: HttpRequest) -> dict[str, Any]:
    """The rules, match length and clock of a challenge form, as the services take them."""
    preset = request.POST.get("rules", "macedonian")
    if preset not in PRESETS:
        raise EngineError(_("Unknown rules."))
    length = ascii_int(request.POST.get("match_length", "")) or DEFAULT_LENGTH
    clock_name = request.POST.get("clock", "")
    return {
        "options": {"preset": preset},
        "target_score": min(length, MAX_MATCH_LENGTH),
        "clock": {"preset": clock_name} if clock_name else None,
    }


@login_required
@require_POST
def challenge_post(request: HttpRequest) -> HttpResponse:
    try:
        data = _settings(request)
        services.open_challenge_post(
            user=request.user,
            options=data["options"],
            target_score=data["target_score"],
            clock_settings=data["clock"],
            rated=request.POST.get("rated") == "on",
        )
    except (GameServiceError, EngineError) as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your challenge is on the lobby."))
    return redirect("web:lobby")


@login_required
@require_POST
def practice_start(request: HttpRequest) -> HttpResponse:
    """Start a practice match against the computer (games/services/practice.py)."""
    try:
        data = _settings(request)
        match = services.practice_start(
            user=request.user,
            strength=request.POST.get("strength", ""),
            options=data["options"],
            target_score=data["target_score"],
            auto_roll=request.POST.get("auto_roll") == "on",  # the form's box, on at first
        )
    except (GameServiceError, EngineError) as error:
        messages.error(request, str(error))
        return redirect("web:lobby")
    return redirect("web:match", pk=match.pk)


@login_required
@require_POST
def challenge_take(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = get_object_or_404(lobby.challenge_rows(), pk=pk)
    try:
        match = services.open_challenge_take(challenge=challenge, user=request.user)
    except GameServiceError as error:
        messages.error(request, str(error))
        return redirect("web:lobby")
    return redirect("web:match", pk=match.pk)


@login_required
@require_POST
def challenge_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = get_object_or_404(lobby.challenge_rows(), pk=pk)
    try:
        services.open_challenge_withdraw(challenge=challenge, user=request.user)
    except GameServiceError as error:
        messages.error(request, str(error))
    return redirect("web:lobby")


@login_required
@require_POST
def match_answer(request: HttpRequest, pk: int, answer: str) -> HttpResponse:
    """Accept or decline a direct challenge (the challenged player), or withdraw it (the
    challenger: "decline")."""
    match = web_selectors.match_visible(user=request.user, pk=pk)
    service = services.match_accept if answer == "accept" else services.match_decline
    try:
        match = service(match=match, user=request.user)
    except GameServiceError as error:
        messages.error(request, str(error))
        return redirect("web:lobby")
    if match.status == Match.Status.DECLINED:
        return redirect("web:lobby")
    return redirect("web:match", pk=match.pk)


def challenge_player(request: HttpRequest, pk: int) -> HttpResponse:
    """A direct challenge to a named player: the form (GET), and the challenge (POST), a
    match waiting for the opponent to accept (``match_propose``)."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    opponent = web_selectors.player_visible(pk=pk)
    you = selectors.player_for(request.user)
    if request.method == "POST":
        if you is None:
            messages.error(request, _("Only a player may challenge another."))
            return redirect("web:player", pk=pk)
        try:
            data = _settings(request)
            match = services.match_propose(
                user=request.user,
                player_one=you,
                player_two=opponent,
                target_score=data["target_score"],
                options=data["options"],
                clock=data["clock"],
            )
        except (GameServiceError, EngineError) as error:
            messages.error(request, str(error))
            return redirect("web:player-challenge", pk=pk)
        return redirect("web:match", pk=match.pk)
    context = {"opponent": opponent, "you": you, **form_choices()}
    return render(request, "games/challenge.html", context)
