"""Template filters for the web pages: translated names of statuses, variants, modes and kinds."""

import datetime

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

register = template.Library()

LABELS = {
    # match, game and report statuses
    "invited": _("challenge"),
    "declined": _("declined"),
    "scheduled": _("scheduled"),
    "in_progress": _("in progress"),
    "finished": _("finished"),
    "forfeited": _("forfeited"),
    "abandoned": _("abandoned"),
    "pending": _("pending"),
    "confirmed": _("confirmed"),
    "disputed": _("disputed"),
    "overridden": _("overridden"),
    # variants
    "tabla": _("Tabla"),
    "gul_bara": _("Gjul Bara"),
    "tapa": _("Tapa"),
    # match modes
    "online": _("online"),
    "over_the_board": _("over the board"),
    "imported": _("imported"),
    # tournament formats
    "single_elimination": _("single elimination"),
    "double_elimination": _("double elimination"),
    "consolation": _("consolation"),
    "round_robin": _("round robin"),
    "swiss": _("Swiss"),
    "draft": _("draft"),
    "registration": _("registration"),
    "running": _("running"),
    # result kinds
    "single": _("single"),
    "mars": _("mars"),
    "triple": _("triple"),
    "mother": _("mother"),
    "tie": _("tie"),
    # bracket sections
    "main": _("Main bracket"),
    "losers": _("Losers bracket"),
    "third_place": _("Third place"),
    "grand_final": _("Grand final"),
    "reset": _("Grand final reset"),
}


@register.filter
def label(value: str) -> str:
    """``{{ match.status|label }}``: the translated name of an enum value (the value if unknown)."""
    return str(LABELS.get(value, value))


@register.simple_tag(takes_context=True)
def site_address(context: template.Context, path: str = "/") -> str:
    """The full address of ``path`` as the players reach it (``SITE_URL``, else this host)."""
    from common.site import absolute_url

    return absolute_url(context.get("request"), path)


@register.simple_tag(takes_context=True)
def site_qr(context: template.Context, path: str = "/", title: str = "") -> SafeString:
    """An inline SVG QR code of ``path``'s full address (segno draws it: no script, no image)."""
    from common.site import absolute_url, qr_svg

    return mark_safe(qr_svg(absolute_url(context.get("request"), path), title=title))  # noqa: S308


@register.simple_tag
def user_socket(user_id: int) -> str:
    """The socket of a signed-in user's pages (games.routing.user_socket_path): "" without a
    channel layer."""
    from games.routing import user_socket_path

    return user_socket_path(user_id)


@register.filter
def until(moment: datetime.datetime | None) -> str:
    """How long until ``moment``, in the project's words (common/durations.py), not Django's."""
    from common.durations import until_words

    return "" if moment is None else until_words(moment)


@register.filter
def since(moment: datetime.datetime | None) -> str:
    """How long since ``moment``, in the project's words (common/durations.py)."""
    from common.durations import since_words

    return "" if moment is None else since_words(moment)
