"""Notifications, the public use-cases: a user marks theirs read, and the task
``notifications_email`` sends the e-mail of new ones. The notifications themselves are made by
the other services where the event happens (``notifications_add`` in ``_steps.py``;
docs/decisions.md D115, D116)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from common.site import absolute_url
from games.models import Notification
from games.selectors import User
from games.services._steps import EMAILED_KINDS
from players.models import Player
from players.selectors import account

logger = logging.getLogger(__name__)

# The player's switch of each kind that sends an e-mail (the account page).
SWITCHES: dict[str, str] = {
    Notification.Kind.MATCH_READY: "email_match_ready",
    Notification.Kind.RESULT_TO_CONFIRM: "email_result_to_confirm",
}


def notifications_read(*, user: User, notification: int | None = None) -> int:
    """Mark ``user``'s unread notifications read: all of them, or only ``notification`` (a
    notification of someone else's is never touched). Returns how many were marked."""
    with transaction.atomic():
        unread = Notification.objects.filter(recipient=account(user), read_at__isnull=True)
        if notification is not None:
            unread = unread.filter(pk=notification)
        return unread.update(read_at=timezone.now())


def notifications_email(
    *, kind: str, match_ids: Sequence[int], report_ids: Sequence[int] = ()
) -> int:
    """Send the e-mail of each new notification of ``kind`` about ``match_ids`` (a result to
    confirm: about ``report_ids``) not sent yet: a system use-case, the task of the same name,
    queued when they were made. One short mail to the recipient's address in their player's
    language, with the match's link at SITE_URL; none when the account has no address, no
    player, or the player's switch of that kind is off. Each mail is claimed first
    (``emailed_at``), so a task run twice sends it once; a failed send gives the claim back and
    raises (the task is then owed and run again). Returns how many went out."""
    if kind not in EMAILED_KINDS:
        return 0
    # Only those to send: an address, a player, the switch on. One query for them all.
    rows = Notification.objects.filter(
        kind=kind,
        emailed_at__isnull=True,
        recipient__email__gt="",
        **{f"recipient__player__{SWITCHES[kind]}": True},
    )
    if kind == Notification.Kind.RESULT_TO_CONFIRM:
        rows = rows.filter(report_id__in=list(report_ids))
    else:
        rows = rows.filter(match_id__in=list(match_ids), report__isnull=True)
    rows = rows.select_related("recipient__player", "match__player_one", "match__player_two")
    rows = rows.order_by("pk")
    sent = 0
    for row in rows:
        player = getattr(row.recipient, "player", None)
        if not isinstance(player, Player):
            continue
        if not Notification.objects.filter(pk=row.pk, emailed_at__isnull=True).update(
            emailed_at=timezone.now()
        ):
            continue  # sent meanwhile by another run
        try:
            _send(row, player)
        except Exception:
            Notification.objects.filter(pk=row.pk).update(emailed_at=None)
            raise
        sent += 1
    return sent


def _send(row: Notification, player: Player) -> None:
    """The one e-mail of ``row``, in ``player``'s language (the site's default if none)."""
    match = row.match
    opponent = match.player_two if match.player_one_id == player.pk else match.player_one
    with translation.override(player.language or settings.LANGUAGE_CODE):
        context = {
            "kind": row.kind,
            "player": player,
            "opponent": opponent,
            "match_url": absolute_url(None, reverse("web:match", args=[match.pk])),
            "account_url": absolute_url(None, reverse("account")),
        }
        subject = render_to_string("games/email/notification_subject.txt", context)
        body = render_to_string("games/email/notification_body.txt", context)
    send_mail(
        " ".join(subject.split()),
        body,
        None,
        [row.recipient.email],
        fail_silently=False,
    )
