"""Writes about players: an organiser enters players (one, or a list at once) and hands a
player without an account a claim code (typed, or as an invitation link), which a user redeems
to make the player theirs; a visitor signs up (an account and its player, or the invited
player), and a user edits their account."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from auditlog.models import LogEntry
from django.conf import settings
from django.contrib.auth.models import User as AuthUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from players import selectors
from players.models import ClaimCode, Club, Player
from players.selectors import User, account

MAX_BULK_PLAYERS = 200
CLAIM_CODE_LIFETIME = timedelta(days=14)
ORGANISERS = f"staff, or users with the permission {selectors.ENTER_PLAYERS_PERMISSION}"
# The e-mail switches of an account's notifications, fields of its player (account_update).
EMAIL_SWITCHES = ("email_match_ready", "email_result_to_confirm")


@dataclass(frozen=True)
class NewPlayer:
    """One player to enter: what the organiser typed."""

    display_name: str
    club: Club | None = None
    country: str = ""
    rating: float | None = None
    allow_duplicate: bool = False


@dataclass(frozen=True)
class IssuedClaimCode:
    """A claim code as handed out: the code itself is shown once and stored only hashed."""

    player: Player
    code: str
    expires_at: datetime


def player_create(*, user: User, new: NewPlayer) -> Player:
    """Enter one player without an account, as an organiser (``may_enter_players``); refused
    (409) when it looks like a player already entered (``player_create_many``)."""
    return _enter(user, [new], listed=False)[0]


def player_create_many(*, user: User, rows: Sequence[NewPlayer]) -> list[Player]:
    """Enter up to MAX_BULK_PLAYERS players at once, all or none, recording ``user`` as who
    entered them.

    Decision: a row whose name equals (``selectors.name_key``: trimmed, letter case ignored)
    that of an existing player of the same club (or, without a club, of a player of no club),
    or of an earlier row for that club, is refused with 409 naming the row ("players[2]",
    counted from 0) and the existing player, unless the row says ``allow_duplicate``: two
    people may share a name, but one person entered twice would play with two ratings
    (docs/decisions.md D30)."""
    return _enter(user, rows, listed=True)


def _enter(user: User, rows: Sequence[NewPlayer], *, listed: bool) -> list[Player]:
    if not selectors.may_enter_players(user):
        raise NotAllowedError(f"only organisers may enter players ({ORGANISERS})")
    if not rows:
        raise InvalidRequestError("no players to enter")
    if len(rows) > MAX_BULK_PLAYERS:
        raise InvalidRequestError(f"at most {MAX_BULK_PLAYERS} players at once")
    with transaction.atomic():
        _lock_clubs(rows)
        _check_duplicates(rows, listed=listed)
        return [_create(user, row) for row in rows]


def _lock_clubs(rows: Sequence[NewPlayer]) -> None:
    """Lock the clubs named, so two organisers entering the same person into one club at once
    cannot both pass the duplicate check."""
    ids = sorted({row.club.pk for row in rows if row.club is not None})
    list(Club.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))


def _check_duplicates(rows: Sequence[NewPlayer], *, listed: bool) -> None:
    keys = [selectors.name_key(row.display_name) for row in rows]
    if "" in keys:
        raise InvalidRequestError(f"{_prefix(keys.index(''), listed)}the name is empty")
    names: dict[int | None, set[str]] = {}
    for row, key in zip(rows, keys, strict=True):
        names.setdefault(_club_id(row.club), set()).add(key)
    clubs = {_club_id(row.club): row.club for row in rows}
    existing = {
        club_id: selectors.player_namesakes(club=clubs[club_id], names=keys_of_club)
        for club_id, keys_of_club in names.items()
    }
    first_row: dict[tuple[int | None, str], int] = {}
    for index, (row, key) in enumerate(zip(rows, keys, strict=True)):
        club_id = _club_id(row.club)
        earlier = first_row.setdefault((club_id, key), index)
        if row.allow_duplicate:
            continue
        where = f"in club {club_id} ({row.club.name})" if row.club else "without a club"
        namesake = existing[club_id].get(key)
        if namesake is not None:
            raise ConflictError(
                f"{_prefix(index, listed)}player {namesake.pk} ({namesake.display_name}) "
                f'{where} has that name already; send "allow_duplicate": true to enter '
                "another player of that name"
            )
        if earlier != index:
            raise ConflictError(
                f"{_prefix(index, listed)}the same name as players[{earlier}] {where}; send "
                '"allow_duplicate": true to enter both'
            )


def _prefix(index: int, listed: bool) -> str:
    """How an error names a row of a list: "players[2]: " (counted from 0, as the 400 answers
    of the bulk endpoint count them); nothing for one player."""
    return f"players[{index}]: " if listed else ""


def _club_id(club: Club | None) -> int | None:
    return None if club is None else club.pk


def _create(user: User, row: NewPlayer) -> Player:
    fields = {"rating": row.rating} if row.rating is not None else {}
    return Player.objects.create(
        display_name=" ".join(row.display_name.split()),
        club=row.club,
        country=row.country.upper(),
        created_by=account(user),
        **fields,
    )


# --- claiming a player --------------------------------------------------------------------------


def claim_code_create(*, user: User, player: Player) -> IssuedClaimCode:
    """Hand out a new claim code for ``player`` (who has no account), valid for
    CLAIM_CODE_LIFETIME; an earlier code of the player stops working. Organisers only, and only
    those who look after the player (``selectors.organises_player``: staff, whoever entered the
    player, the organisers of a tournament the player entered or of one of the player's club):
    a code makes the player someone's, so an organiser elsewhere may not hand one out. Each code
    handed out is recorded in the audit log under ``user`` (docs/decisions.md D55)."""
    if not selectors.may_enter_players(user):
        raise NotAllowedError(f"only organisers may hand out claim codes ({ORGANISERS})")
    nonce = secrets.token_hex(16)
    code = selectors.claim_code_from_nonce(nonce)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id is not None:
            raise ConflictError(gettext("player %(id)s already has an account") % {"id": player.pk})
        if not selectors.organises_player(user, player):
            raise NotAllowedError(
                f"only staff, whoever entered player {player.pk}, and the organisers of a "
                "tournament they entered or of their club may hand out their claim code"
            )
        replaced = ClaimCode.objects.filter(player=player).delete()[0] > 0
        claim = ClaimCode.objects.create(
            player=player,
            code_hash=selectors.claim_code_hash(code),
            nonce=nonce,
            created_by=account(user),
            expires_at=timezone.now() + CLAIM_CODE_LIFETIME,
        )
        LogEntry.objects.log_create(
            player,
            force_log=True,
            action=LogEntry.Action.UPDATE,
            changes={"claim_code": ["replaced" if replaced else None, "issued"]},
            actor=user,
            additional_data={"action": "claim_code", "expires_at": claim.expires_at.isoformat()},
        )
    return IssuedClaimCode(player=player, code=code, expires_at=claim.expires_at)


def player_claim(*, user: User, code: str) -> Player:
    """``user`` (logged in, with no player yet) redeems a claim code, typed or through its
    invitation link: the player becomes theirs and the code is used up. Decision: a wrong or
    expired code is a 400 that does not say which; a user with a player, or a player with an
    account, is a 409 (docs/decisions.md D31). The use is an entry in the audit log on the
    player, under ``user`` (D87)."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowedError(gettext("log in to claim a player"))
    with transaction.atomic():
        return _claim(account(user), code)


def _claim(user: AuthUser, code: str) -> Player:
    own = Player.objects.filter(user=user).first()
    if own is not None:
        raise ConflictError(gettext("you already have a player: player %(id)s") % {"id": own.pk})
    claim = (
        ClaimCode.objects.select_for_update()
        .filter(code_hash=selectors.claim_code_hash(code), expires_at__gt=timezone.now())
        .first()
    )
    if claim is None:
        raise InvalidRequestError(gettext("the claim code is wrong or has expired"))
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if player.user_id is not None:
        raise ConflictError(gettext("player %(id)s already has an account") % {"id": player.pk})
    player.user = user
    try:
        with transaction.atomic():  # a concurrent claim by the same user: 409, not a 500
            player.save(update_fields=["user"])
    except IntegrityError:
        raise ConflictError(gettext("you already have a player")) from None
    LogEntry.objects.log_create(
        player,
        force_log=True,
        action=LogEntry.Action.UPDATE,
        changes={"claim_code": ["issued", "used"]},
        actor=user,
        additional_data={
            "action": "claim",
            "issued_by": claim.created_by_id,
            "issued_at": claim.created_at.isoformat(),
        },
    )
    ClaimCode.objects.filter(player=player).delete()
    return player


# --- accounts -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignUp:
    """A new account as the sign-up form checked it (the username free, the password past
    AUTH_PASSWORD_VALIDATORS)."""

    username: str
    password: str
    display_name: str = ""
    email: str = ""


def account_sign_up(*, sign_up: SignUp, invitation: str = "") -> Player:
    """A visitor makes an account and, in the same transaction, its player: a new one named
    ``display_name``, or, with an ``invitation`` (a claim code), the player the organiser entered,
    the same row with its results and rating (``player_claim``). A bad invitation makes no
    account (400, as a bad claim code); a username taken meanwhile is a 409."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                user = AuthUser.objects.create_user(
                    username=sign_up.username, email=sign_up.email, password=sign_up.password
                )
        except IntegrityError:
            raise ConflictError(gettext("that username is taken")) from None
        if invitation:
            return _claim(user, invitation)
        name = " ".join(sign_up.display_name.split())
        if not name:
            raise InvalidRequestError(gettext("the display name is empty"))
        return Player.objects.create(user=user, display_name=name)


def account_update(
    *,
    user: User,
    email: str,
    display_name: str | None = None,
    club: Club | None = None,
    email_switches: dict[str, bool] | None = None,
) -> AuthUser:
    """The signed-in user changes their e-mail address and, if they have a player, its display
    name and club (None: no club) and the e-mail switches of its notifications
    (``email_switches``: ``{"email_match_ready": bool, "email_result_to_confirm": bool}``, any
    of them; docs/decisions.md D116)."""
    switches = email_switches or {}
    unknown = set(switches) - set(EMAIL_SWITCHES)
    if unknown:
        raise InvalidRequestError(f"unknown e-mail switches: {sorted(unknown)}")
    me = account(user)
    with transaction.atomic():
        me.email = email.strip()
        me.save(update_fields=["email"])
        player = Player.objects.select_for_update().filter(user=me).first()
        if player is not None and display_name is not None:
            name = " ".join(display_name.split())
            if not name:
                raise InvalidRequestError(gettext("the display name is empty"))
            player.display_name = name
            player.club = club
            player.save(update_fields=["display_name", "club"])
        if player is not None and switches:
            for field, on in switches.items():
                setattr(player, field, bool(on))
            player.save(update_fields=list(switches))
    return me


# --- the language of an account -----------------------------------------------------------------


def player_language_set(*, user: User, language: str) -> bool:
    """Remember ``language`` (a code of settings.LANGUAGES) as the language of ``user``'s pages,
    on the user's player; a user without a player, or signed out, has nowhere to keep it.
    Returns whether it was stored."""
    if language not in dict(settings.LANGUAGES):
        raise InvalidRequestError(f"unknown language {language!r}")
    if not getattr(user, "is_authenticated", False):
        return False
    with transaction.atomic():
        stored = Player.objects.filter(user=account(user)).update(language=language)
    return stored > 0
