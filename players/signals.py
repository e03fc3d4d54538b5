"""The language stored on an account comes back at each log-in: the receiver of
``user_logged_in`` switches the request to it, and players.middleware.AccountLanguageMiddleware
puts it in the language cookie of the answer, which LocaleMiddleware reads from then on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import translation

from players import selectors


@receiver(user_logged_in, dispatch_uid="players.account_language")
def account_language(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None:
        return
    player = selectors.player_for(user)
    language = player.language if player is not None else ""
    if language not in dict(settings.LANGUAGES):
        return
    translation.activate(language)
    request.LANGUAGE_CODE = language
    request.account_language = language  # type: ignore[attr-defined]
