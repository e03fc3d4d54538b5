"""The notifications page (docs/decisions.md D115): a signed-in user's notifications, newest
first, a page at a time, the unread ones marked; each opens its match (and is read then), and
one button marks them all read. Only the user's own: another's is a 404."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from games import selectors, services

NOTIFICATIONS_PAGE = 25


@login_required
@require_safe
def notifications_page(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.notifications_for(request.user), NOTIFICATIONS_PAGE).get_page(
        request.GET.get("page")
    )
    rows: list[dict[str, Any]] = []
    for notification in page.object_list:  # the opponent: the match's other player
        one, two = notification.match.players
        rows.append({"n": notification, "opponent": two if one.user_id == request.user.pk else one})
    context = {"page": page, "rows": rows, "has_unread": any(r["n"].read_at is None for r in rows)}
    return render(request, "games/notifications.html", context)


@login_required
@require_safe
def notification_open(request: HttpRequest, pk: int) -> HttpResponse:
    """Open a notification: it is read, and the page goes to its match."""
    match_id = (
        selectors.notifications_for(request.user)
        .filter(pk=pk)
        .values_list("match_id", flat=True)
        .first()
    )
    if match_id is None:
        raise Http404
    services.notifications_read(user=request.user, notification=pk)
    return redirect("web:match", match_id)


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    """Mark all of the user's notifications read, and back to the list."""
    services.notifications_read(user=request.user)
    return redirect("web:notifications")
