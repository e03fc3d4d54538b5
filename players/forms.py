"""Forms of the account pages: Django's own user forms, with what a player adds (a display
name, a club). They only check input; players.services writes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User as AuthUser
from django.utils.translation import gettext_lazy as _

from players.models import Club, Player


class SignUpForm(UserCreationForm[AuthUser]):
    """Username, display name, optional e-mail and a password twice. Django's form checks that
    the username is free (letter case ignored) and the password passes
    AUTH_PASSWORD_VALIDATORS. The e-mail address is not checked against other accounts: saying
    that it is taken would tell anyone whose address has an account (docs/decisions.md D88).
    Through an invitation the player exists already, so there is no name to give
    (``with_name=False``)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=Player._meta.get_field("display_name").max_length,
        help_text=_("As it appears in tournaments and on results."),
    )

    class Meta(UserCreationForm.Meta):
        model = AuthUser
        fields = ("username", "email")

    def __init__(self, *args: Any, with_name: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = False
        self.fields["email"].help_text = _(
            "Optional; needed only to reset a forgotten password. Nobody else sees it."
        )
        if not with_name:
            del self.fields["display_name"]
        else:  # the name right after the username
            self.order_fields(["username", "display_name", "email"])


class AccountForm(forms.Form):
    """What a signed-in user changes on their account page; the name and club only if they
    have a player (``with_player``)."""

    display_name = forms.CharField(
        label=_("Display name"), max_length=Player._meta.get_field("display_name").max_length
    )
    club = forms.ModelChoiceField(
        label=_("Club"), queryset=Club.objects.all(), required=False, empty_label=_("No club")
    )
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_(
            "Needed to reset a forgotten password and for the e-mails below. Nobody else sees it."
        ),
    )
    # The e-mail switches, kept on the player (docs/decisions.md D116).
    email_match_ready = forms.BooleanField(
        label=_("E-mail me when a match is ready for me"), required=False
    )
    email_result_to_confirm = forms.BooleanField(
        label=_("E-mail me when a result awaits my confirmation"), required=False
    )

    def __init__(self, *args: Any, with_player: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_player:
            for name in ("display_name", "club", "email_match_ready", "email_result_to_confirm"):
                del self.fields[name]
