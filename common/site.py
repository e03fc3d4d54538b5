"""The address the site is served at, for links and QR codes that leave the screen.

A printed slip or an invitation is opened on another device: it must carry the address the
players reach, not the one the organiser's browser happens to use (``127.0.0.1`` on the club
laptop). ``SITE_URL`` (set by ``make club`` to the laptop's network address, or in production's
environment) wins; without it the request's own host is used.
"""

from __future__ import annotations

from urllib.parse import urljoin

import segno
from django.conf import settings
from django.http import HttpRequest


def absolute_url(request: HttpRequest | None, path: str = "/") -> str:
    """``path`` as a full address at ``SITE_URL``, else at the request's host."""
    base = str(getattr(settings, "SITE_URL", "") or "")
    if base:
        return urljoin(base if base.endswith("/") else base + "/", path.lstrip("/"))
    if request is None:
        return path
    return request.build_absolute_uri(path)


def qr_svg(text: str, *, scale: int = 4, title: str = "") -> str:
    """An inline ``<svg>`` of the QR code of ``text`` (segno; medium error correction, so a
    creased or smudged slip still scans)."""
    code = segno.make(text, error="m")
    svg: str = code.svg_inline(
        scale=scale, border=2, title=title or None, svgclass="qr", omitsize=True
    )
    return svg
