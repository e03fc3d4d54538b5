"""The invitation link of a player without an account, for the pages that print or show it (the
round's slips, the desk): ``{% load invitations %}{% invitation_path player as path %}`` then
``{% if path %}{% site_address path %} {% site_qr path title %}{% endif %}`` (games' tabla tags)."""

from __future__ import annotations

from django import template

from players import selectors
from players.models import Player

register = template.Library()


@register.simple_tag
def invitation_path(player: Player | None) -> str:
    """The path of ``player``'s invitation while it is good (/join/<code>/), else ""."""
    if player is None:
        return ""
    code = selectors.invitation_code(player)
    return selectors.invitation_path(code) if code else ""
