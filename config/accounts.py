"""The account pages: sign up, the account page, a throttled password reset, and the
invitation page /join/<code>/ on which a player entered by an organiser signs up (or logs in)
and takes their record in one step. Django's auth views and forms do the rest (log in and out,
password change, the reset's confirmation: config/urls.py, templates/registration/).

They live in config, above the apps, because they count attempts in config.login_limits and
the invitation page reads a player's rated matches from games."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User as AuthUser
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import ConflictError, InvalidRequestError
from common.site import absolute_url
from config import login_limits
from games.web_selectors import player_rated_matches
from players import selectors, services
from players.forms import AccountForm, SignUpForm
from players.models import ClaimCode, Player

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _too_many(
    request: HttpRequest, template: str, context: dict[str, Any], seconds: int
) -> HttpResponse:
    """429 with Retry-After, the page saying how long to wait."""
    context = {**context, "retry_minutes": math.ceil(seconds / 60)}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else default


def _sign_up(request: HttpRequest, form: SignUpForm, invitation: str = "") -> Player:
    """Make the account (and its player, or take the invited one) and log it in."""
    data = form.cleaned_data
    sign_up = services.SignUp(
        username=data["username"],
        password=data["password1"],
        display_name=data.get("display_name", ""),
        email=data.get("email", ""),
    )
    player = services.account_sign_up(sign_up=sign_up, invitation=invitation)
    assert player.user is not None
    login(request, player.user, backend=MODEL_BACKEND)
    return player


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up: an account and its player, then logged in. Attempts per address are limited
    (SIGNUP_LIMIT_IP_ATTEMPTS: 429 past it)."""
    if request.user.is_authenticated:
        return redirect("account")
    template = "registration/signup.html"
    next_url = _next(request, "")
    if request.method != "POST":
        return render(request, template, {"form": SignUpForm(), "next": next_url})
    form = SignUpForm(request.POST)
    seconds = login_limits.signup_attempt(request)
    if seconds:
        return _too_many(request, template, {"form": form, "next": next_url}, seconds)
    if form.is_valid():
        try:
            player = _sign_up(request, form)
        except ConflictError:  # taken between the form's check and the insert
            form.add_error("username", _("A user with that username already exists."))
        except InvalidRequestError:
            form.add_error("display_name", _("The display name is empty."))
        else:
            return HttpResponseRedirect(next_url or reverse("web:player", args=[player.pk]))
    return render(request, template, {"form": form, "next": next_url})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in user's account: display name, club and e-mail address, the e-mail
    switches of the notifications; links to change the password, to the notifications and to
    the player's page."""
    user = request.user
    assert isinstance(user, AuthUser)
    player = selectors.player_for(user)
    initial: dict[str, Any] = {"email": user.email}
    if player is not None:
        initial |= {"display_name": player.display_name, "club": player.club}
        initial |= {name: getattr(player, name) for name in services.EMAIL_SWITCHES}
    form = AccountForm(request.POST or None, initial=initial, with_player=player is not None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.account_update(
                user=user,
                email=data["email"],
                display_name=data.get("display_name"),
                club=data.get("club"),
                email_switches={
                    name: data[name] for name in services.EMAIL_SWITCHES if name in data
                },
            )
        except InvalidRequestError:
            form.add_error("display_name", _("The display name is empty."))
        else:
            return redirect(reverse("account") + "?saved=1")
    context = {"form": form, "player": player, "saved": request.GET.get("saved") == "1"}
    return render(request, "registration/account.html", context)


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending at most PASSWORD_RESET_LIMIT_EMAIL_ATTEMPTS mails to one
    address in a window; past that none, and the page says what it always says."""

    def get_users(self, email: str) -> Iterator[Any]:
        if login_limits.reset_email_attempt(email):
            return iter(())
        return iter(super().get_users(email))


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset: the same answer whether or not an account has the address (it goes to
    "done" either way); requests per address limited (PASSWORD_RESET_LIMIT_IP_ATTEMPTS, 429);
    the link in the mail at SITE_URL."""

    form_class = LimitedPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        seconds = login_limits.reset_attempt(request)
        if seconds:
            form = self.get_form()
            context = self.get_context_data(form=form)
            return _too_many(request, str(self.template_name), context, seconds)
        self.extra_email_context = {"site_root": absolute_url(request, "/").rstrip("/")}
        return super().post(request, *args, **kwargs)


# --- invitations --------------------------------------------------------------------------------


def _join_context(request: HttpRequest, claim: ClaimCode, code: str) -> dict[str, Any]:
    player = claim.player
    return {
        "invited": player,
        "code": code,
        "rated_matches": player_rated_matches(player),
        "expires_at": claim.expires_at,
        "own": selectors.player_for(request.user),
        "login_url": reverse("login") + "?next=" + request.path,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """An invitation: "you are invited to take the player record of ...". A visitor signs up
    on the page (or logs in and comes back) and the new account takes the record, the same
    Player row with its results and rating; a signed-in user without a player takes it with
    one button. An invitation used, replaced, expired, or for a player who has an account
    meanwhile is a 404 page that says so; a user who has a player is told that an account has
    one player only (docs/decisions.md D89)."""
    template = "players/join.html"
    claim = selectors.invitation_for(code)
    if claim is None:
        return render(request, template, {"invalid": True}, status=404)
    context = _join_context(request, claim, code)
    user = request.user
    form = SignUpForm(with_name=False)
    if request.method == "POST":
        if user.is_authenticated:
            try:
                player = services.player_claim(user=user, code=code)
            except ConflictError:
                context["own"] = selectors.player_for(user)
                return render(request, template, context, status=409)
            except InvalidRequestError:
                return render(request, template, {"invalid": True}, status=404)
            return redirect("web:player", player.pk)
        form = SignUpForm(request.POST, with_name=False)
        seconds = login_limits.signup_attempt(request)
        if seconds:
            return _too_many(request, template, {**context, "form": form}, seconds)
        if form.is_valid():
            try:
                player = _sign_up(request, form, invitation=code)
            except ConflictError:
                form.add_error("username", _("A user with that username already exists."))
            except InvalidRequestError:
                return render(request, template, {"invalid": True}, status=404)
            else:
                return redirect("web:player", player.pk)
    return render(request, template, {**context, "form": form})


@login_required
@require_http_methods(["GET", "HEAD"])
def invitation(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's page of a player's invitation: its link and QR code to show or print,
    and a button for a new one (which voids the old). Only for those who may make it
    (docs/decisions.md D55); anyone else gets a 404, as for a player they cannot see."""
    player = Player.objects.filter(pk=pk).select_related("club").first()
    if (
        player is None
        or not selectors.may_enter_players(request.user)
        or not selectors.organises_player(request.user, player)
    ):
        raise Http404
    code = selectors.invitation_code(player)
    path = selectors.invitation_path(code) if code else ""
    context = {"invited": player, "path": path, "url": absolute_url(request, path) if path else ""}
    return render(request, "players/invitation.html", context)
