"""Selectors: read-only queries about players, and who may enter them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from common.errors import NotAllowedError
from players.models import ClaimCode, Club, Player

# The acting user of a request or a service call, logged in or not (games and tournaments use it).
User = AuthUser | AnonymousUser

# The Django permission that makes a user an organiser of players: Django's own "add" permission
# of Player ("Can add player"), which staff give in the admin, e.g. through a group.
ENTER_PLAYERS_PERMISSION = "players.add_player"


def player_for(user: User) -> Player | None:
    """The Player profile of ``user``, or None (anonymous, or no profile)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=account(user)).first()


def account(user: User) -> AuthUser:
    """``user`` as the account a row records (created_by, reporter, organiser...): services
    record it only once they have let ``user`` act, which an anonymous user never may."""
    if isinstance(user, AnonymousUser):
        raise NotAllowedError(gettext("log in first"))
    return user


def may_enter_players(user: User) -> bool:
    """Whether ``user`` organises players: enters players who have no account and hands out
    their claim codes. Staff, and the users staff gave ``players.add_player``."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(getattr(user, "is_staff", False) or user.has_perm(ENTER_PLAYERS_PERMISSION))


# Who else looks after a player: apps above players (tournaments) register a check, so players
# needs to know nothing about them (as games.organisers does for matches). Any yes counts.
PlayerOrganiserCheck = Callable[[User, Player], bool]
PLAYER_ORGANISER_CHECKS: list[PlayerOrganiserCheck] = []


def register_player_organiser_check(check: PlayerOrganiserCheck) -> None:
    """Ask ``check`` whether a user organises a player (once per check)."""
    if check not in PLAYER_ORGANISER_CHECKS:
        PLAYER_ORGANISER_CHECKS.append(check)


def organises_player(user: User, player: Player) -> bool:
    """Whether ``user`` looks after ``player``: staff, whoever entered the player, or someone a
    registered check names (tournaments: the organisers of a tournament the player entered or
    of one of the player's club; docs/decisions.md D55)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_staff", False) or player.created_by_id == user.pk:
        return True
    return any(check(user, player) for check in PLAYER_ORGANISER_CHECKS)


def player_list() -> QuerySet[Player]:
    """Every player with their club, in name order (the list's filters narrow it down)."""
    return Player.objects.select_related("club")


def name_key(display_name: str) -> str:
    """The form of a name that two entries of the same person share: spaces at the ends and
    repeated inside ignored, letter case ignored (``casefold``, so any alphabet).

    >>> name_key("  Ana   PETROVSKA ") == name_key("ana petrovska")
    True
    """
    return " ".join(display_name.split()).casefold()


def player_namesakes(*, club: Club | None, names: set[str]) -> dict[str, Player]:
    """The existing players of ``club`` (None: of no club) whose ``name_key`` is one of
    ``names``, by that key (the lowest id when several share one). The names are compared in
    Python, not by the database: SQLite folds the case of ASCII letters only."""
    found: dict[str, Player] = {}
    for player in Player.objects.filter(club=club).order_by("-id").only("id", "display_name"):
        key = name_key(player.display_name)
        if key in names:
            found[key] = player
    return found


# --- invitations: claim codes as links ---------------------------------------------------------

# 32 letters and digits, none easily mistaken for another (no 0/O, 1/I): 16 of them make 80
# random bits, written in groups of four ("K7QF-3MZD-...") for reading out across a table.
CLAIM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CLAIM_CODE_LENGTH = 16
INVITATION_SALT = "players.invitation"


def claim_code_from_nonce(nonce: str) -> str:
    """The code of an invitation: 80 bits of an HMAC of its random ``nonce`` under the server's
    SECRET_KEY, in the claim codes' alphabet and groups. Without the key, the stored nonce and
    hash give nothing away (docs/decisions.md D87)."""
    digest = salted_hmac(INVITATION_SALT, nonce, algorithm="sha256").digest()
    bits = int.from_bytes(digest[: CLAIM_CODE_LENGTH * 5 // 8], "big")
    letters = "".join(
        CLAIM_CODE_ALPHABET[(bits >> (5 * index)) & 31] for index in range(CLAIM_CODE_LENGTH)
    )
    return "-".join(letters[start : start + 4] for start in range(0, CLAIM_CODE_LENGTH, 4))


def claim_code_hash(code: str) -> str:
    """SHA-256 of the code as typed, without dashes or spaces and in capitals (an invitation
    link pasted whole counts as its code). The code is 80 random bits, so a plain hash is as
    good as a slow one against a stolen table."""
    typed = "".join(code.split()).rstrip("/").rsplit("/", 1)[-1]
    typed = typed.replace("-", "").upper()
    return hashlib.sha256(typed.encode()).hexdigest()


def invitation_for(code: str) -> ClaimCode | None:
    """The claim code (invitation) ``code`` names, if it is still good: not expired, not used
    (a used one is deleted) nor replaced, and its player has no account yet."""
    if not code or len(code) > 64:
        return None
    return (
        ClaimCode.objects.select_related("player", "player__club")
        .filter(
            code_hash=claim_code_hash(code),
            expires_at__gt=timezone.now(),
            player__user__isnull=True,
        )
        .first()
    )


def invitation_code(player: Player) -> str | None:
    """The code of ``player``'s invitation while it is good (for the desk and the printed slip
    to show its link again), or None: no invitation, expired, the player has an account, or a
    code from before D87 (or a SECRET_KEY since changed) that the server cannot derive."""
    if player.user_id is not None:
        return None
    claim = (
        ClaimCode.objects.filter(player=player, expires_at__gt=timezone.now())
        .exclude(nonce="")
        .first()
    )
    if claim is None:
        return None
    code = claim_code_from_nonce(claim.nonce)
    return code if claim_code_hash(code) == claim.code_hash else None


def invitation_path(code: str) -> str:
    """The site path of the invitation with ``code``: /join/<code>/ (config/urls.py)."""
    return reverse("join", kwargs={"code": code})
