"""Open challenges, the public use-cases of the lobby: a player posts a challenge without a
named opponent (rules, match length, clock, rated or not), anyone else signed in with a player
takes it, which creates the match between the two, accepted and started at once, or the poster
withdraws it; a challenge nobody took expires after OPEN_CHALLENGE_HOURS (docs/decisions.md
D91). Direct challenges to a named player stay matches with status "invited"
(``match_propose``, ``match_accept``, ``match_decline``)."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import clock, selectors
from games.clock import ClockSettings, ClockSettingsError
from games.engine import EngineError, Options
from games.models import Match, OpenChallenge
from games.push import lobby_changed
from games.selectors import User
from games.services.matches import match_create
from players.models import Player


def open_challenge_post(
    *,
    user: User,
    options: dict[str, Any] | None = None,
    target_score: int | None = None,
    clock_settings: dict[str, Any] | None = None,
    rated: bool = True,
) -> OpenChallenge:
    """``user``'s player posts an open challenge. The rules and the clock are checked as a
    match's would be; a player may have at most OPEN_CHALLENGES_PER_PLAYER open at once (409
    beyond: the lobby is everyone's, docs/decisions.md D91)."""
    player = _player(user, "post a challenge")
    rules = _rules(options, target_score)
    stored_clock = _clock(clock_settings)
    now = clock.now()
    with transaction.atomic():
        # The poster's row, locked: two posts at once count each other.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        mine = OpenChallenge.objects.filter(
            created_by=player, status=OpenChallenge.Status.OPEN, expires_at__gt=now
        ).count()
        cap = settings.OPEN_CHALLENGES_PER_PLAYER
        if mine >= cap:
            raise ConflictError(
                f"you have {mine} open challenges, the most one player may post "
                f"(OPEN_CHALLENGES_PER_PLAYER = {cap}); withdraw one or wait for a taker"
            )
        lobby_changed()
        return OpenChallenge.objects.create(
            created_by=player,
            options=rules.to_json(),
            target_score=rules.match_length,
            clock=stored_clock,
            rated=rated,
            expires_at=now + datetime.timedelta(hours=settings.OPEN_CHALLENGE_HOURS),
        )


def open_challenge_take(*, challenge: OpenChallenge | int, user: User) -> Match:
    """``user``'s player takes an open challenge: the match between the poster (player one)
    and the taker starts at once, accepted by both (rated if the challenge is). The challenge
    is locked first, so of two takers at once one gets the match and the other a 409."""
    player = _player(user, "take a challenge")
    pk = challenge if isinstance(challenge, int) else challenge.pk
    with transaction.atomic():
        # Only the challenge's row: PostgreSQL locks no row of an outer join (the poster's
        # account may be none), and none other is needed.
        locked = (
            OpenChallenge.objects.select_for_update(of=("self",))
            .select_related("created_by__user")
            .filter(pk=pk)
            .first()
        )
        if locked is None:
            raise ConflictError(f"open challenge {pk} does not exist")
        _check_open(locked)
        poster = locked.created_by
        if poster.pk == player.pk:
            raise ConflictError("you cannot take your own challenge; withdraw it instead")
        if poster.user is None:
            raise ConflictError("the player who posted this challenge no longer has an account")
        match = match_create(
            creator=poster.user,
            player_one=poster,
            player_two=player,
            options=locked.options,
            target_score=locked.target_score,
            clock=locked.clock or None,
            rated=locked.rated,
            start=True,
            opened_by=user,
        )
        match.accepted_at = clock.now()
        match.save(update_fields=["accepted_at", "updated_at"])
        locked.status = OpenChallenge.Status.TAKEN
        locked.taken_by = player
        locked.match = match
        locked.save(update_fields=["status", "taken_by", "match"])
        lobby_changed()
    match.refresh_from_db()
    return match


def open_challenge_withdraw(*, challenge: OpenChallenge | int, user: User) -> OpenChallenge:
    """The poster withdraws an open challenge (403 for anyone else, 409 once taken)."""
    player = _player(user, "withdraw a challenge")
    pk = challenge if isinstance(challenge, int) else challenge.pk
    with transaction.atomic():
        locked = OpenChallenge.objects.select_for_update().filter(pk=pk).first()
        if locked is None:
            raise ConflictError(f"open challenge {pk} does not exist")
        if locked.created_by_id != player.pk:
            raise NotAllowedError("only the player who posted a challenge may withdraw it")
        _check_open(locked)
        locked.status = OpenChallenge.Status.WITHDRAWN
        locked.save(update_fields=["status"])
        lobby_changed()
    return locked


def open_challenges_expire() -> int:
    """Mark the open challenges past their time as expired (the beat's sweep; the reads
    already leave them out): how many."""
    expired = OpenChallenge.objects.filter(
        status=OpenChallenge.Status.OPEN, expires_at__lte=clock.now()
    ).update(status=OpenChallenge.Status.EXPIRED)
    if expired:
        lobby_changed()
    return expired


def _check_open(challenge: OpenChallenge) -> None:
    """Refuse (409) a challenge that is not open, or is past its time (the sweep marks it)."""
    if challenge.status == OpenChallenge.Status.OPEN and challenge.expires_at <= clock.now():
        raise ConflictError("the challenge has expired")
    if challenge.status != OpenChallenge.Status.OPEN:
        raise ConflictError(f"the challenge is no longer open ({challenge.status})")


def _player(user: User, doing: str) -> Player:
    player = selectors.player_for(user)
    if player is None:
        raise NotAllowedError(f"only a signed-in player may {doing}")
    return player


def _rules(options: dict[str, Any] | None, target_score: int | None) -> Options:
    try:
        rules = Options.from_json(options or {})
        if target_score is not None:
            rules = Options.from_json({**rules.to_json(), "match_length": target_score})
    except EngineError as error:
        raise InvalidRequestError(str(error)) from None
    return rules


def _clock(data: dict[str, Any] | None) -> dict[str, Any]:
    try:
        settings_ = ClockSettings.from_json(data)
    except ClockSettingsError as error:
        raise InvalidRequestError(str(error)) from None
    return {} if settings_ is None else settings_.to_json()
