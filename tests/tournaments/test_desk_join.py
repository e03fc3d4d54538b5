"""The desk's registration tab shows the address players join at, with its QR code: the
``SITE_URL`` the club laptop serves (``make club``), else the address of the desk's own request."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.models import Tournament


@pytest.fixture
def desk(org_api, organiser) -> tuple[Client, str]:
    tournament = org_api.post(
        "tournaments:tournament-list", {"name": "Club night", "format": "swiss"}, status=201
    )
    client = Client()
    client.force_login(organiser)
    return client, f"/tournaments/{tournament['id']}/desk/?tab=registration"


def test_the_desk_shows_the_site_url_and_its_qr_code(desk, settings) -> None:
    settings.SITE_URL = "http://192.0.2.7:8000"
    client, url = desk
    page = client.get(url).content.decode()
    assert 'href="http://192.0.2.7:8000/" data-join-address' in page
    assert '<svg viewBox="0 0' in page and 'class="qr"' in page


def test_without_a_site_url_the_desk_uses_its_own_address(desk, settings) -> None:
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["laptop.local"]
    client, url = desk
    page = client.get(url, HTTP_HOST="laptop.local").content.decode()
    assert 'href="http://laptop.local/" data-join-address' in page
    assert Tournament.objects.count() == 1
