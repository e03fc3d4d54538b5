"""The claim page (/players/claim/): a logged-in user without a player redeems the code an
organiser handed out at the desk, linked from the header of every page for such a user."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

CLAIM = reverse("players_web:claim")


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_claim_page_asks_to_log_in_first():
    response = Client().get(CLAIM)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_user_without_a_player_gets_the_form_and_the_header_links_it():
    page = client_of(UserFactory(username="newcomer")).get(CLAIM).content.decode()
    assert 'name="code"' in page and reverse("players:player-claim") in page
    home = client_of(UserFactory(username="newcomer")).get(reverse("web:home")).content.decode()
    assert f'href="{CLAIM}"' in home and "Claim your player" in home


def test_a_user_with_a_player_sees_their_player_and_no_link():
    player = PlayerFactory(display_name="Vesna T")
    client = client_of(player.user)
    page = client.get(CLAIM).content.decode()
    assert 'name="code"' not in page
    assert reverse("web:player", kwargs={"pk": player.pk}) in page and "Vesna T" in page
    assert f'href="{CLAIM}"' not in client.get(reverse("web:home")).content.decode()
    assert f'href="{CLAIM}"' not in Client().get(reverse("web:home")).content.decode()
