"""Selectors: read-only queries about players."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from players.models import Player


def player_for(user: AbstractBaseUser | AnonymousUser) -> Player | None:
    """The Player profile of ``user``, or None (anonymous, or no profile)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()
