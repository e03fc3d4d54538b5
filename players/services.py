"""Writes about players: an organiser enters players (one, or a list at once) and hands a
player without an account a claim code, which a user redeems to make the player theirs."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from auditlog.models import LogEntry
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from players import selectors
from players.models import ClaimCode, Club, Player
from players.selectors import User, account

MAX_BULK_PLAYERS = 200
CLAIM_CODE_LIFETIME = timedelta(days=14)
# 32 letters and digits, none easily mistaken for another (no 0/O, 1/I): 16 of them make 80
# random bits, written in groups of four ("K7QF-3MZD-...") for reading out across a table.
CLAIM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CLAIM_CODE_LENGTH = 16
ORGANISERS = f"staff, or users with the permission {selectors.ENTER_PLAYERS_PERMISSION}"


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
    code = "".join(secrets.choice(CLAIM_CODE_ALPHABET) for _ in range(CLAIM_CODE_LENGTH))
    code = "-".join(code[start : start + 4] for start in range(0, CLAIM_CODE_LENGTH, 4))
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
            code_hash=_code_hash(code),
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
    """``user`` (logged in, with no player yet) redeems a claim code: the player becomes theirs
    and the code is used up. Decision: a wrong or expired code is a 400 that does not say which;
    a user with a player, or a player with an account, is a 409 (docs/decisions.md D31)."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowedError(gettext("log in to claim a player"))
    with transaction.atomic():
        own = selectors.player_for(user)
        if own is not None:
            raise ConflictError(
                gettext("you already have a player: player %(id)s") % {"id": own.pk}
            )
        claim = (
            ClaimCode.objects.select_for_update()
            .filter(code_hash=_code_hash(code), expires_at__gt=timezone.now())
            .first()
        )
        if claim is None:
            raise InvalidRequestError(gettext("the claim code is wrong or has expired"))
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        if player.user_id is not None:
            raise ConflictError(gettext("player %(id)s already has an account") % {"id": player.pk})
        player.user = account(user)
        try:
            with transaction.atomic():  # a concurrent claim by the same user: 409, not a 500
                player.save(update_fields=["user"])
        except IntegrityError:
            raise ConflictError(gettext("you already have a player")) from None
        ClaimCode.objects.filter(player=player).delete()
    return player


def _code_hash(code: str) -> str:
    """SHA-256 of the code as typed, without dashes or spaces and in capitals. The code is 80
    random bits, so a plain hash is as good as a slow one against a stolen table."""
    typed = "".join(code.split()).replace("-", "").upper()
    return hashlib.sha256(typed.encode()).hexdigest()


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
