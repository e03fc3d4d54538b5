"""The claim page (/players/claim/): a logged-in user without a player redeems the code an
organiser handed out at the desk, linked from the header of every page for such a user."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from players.models import Player
from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.web.helpers import log_in

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


def test_a_code_from_the_desk_is_redeemed_on_the_claim_page(live_server, new_page):
    organiser = UserFactory(username="club-organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="add_player"))
    tournament = TournamentFactory(created_by=organiser, name="Claim Cup")
    marko = PlayerFactory(user=None, display_name="Marko Petrov", club=tournament.club)
    tournament.entries.create(player=marko)
    desk = reverse("tournaments_web:desk", kwargs={"pk": tournament.pk})

    page, console = new_page()
    log_in(page, live_server.url, organiser.username, desk)
    row = page.locator(f'tr[data-entry="{tournament.entries.get().pk}"]')
    row.get_by_role("button", name="Claim code").click()
    notice = page.locator("[data-claim-output]")
    notice.wait_for()
    code = notice.locator(".claim-code")
    expect(code).to_have_text(re.compile(r"^[\s\S]{19}$"), use_inner_text=True)  # 19 characters
    code = code.inner_text()
    expect(notice).to_contain_text("Marko Petrov", use_inner_text=True)
    expect(notice).to_contain_text(f"{live_server.url}{CLAIM}", use_inner_text=True)

    newcomer = UserFactory(username="marko")
    phone, phone_console = new_page(390, 844)
    log_in(phone, live_server.url, newcomer.username, "/")
    phone.get_by_role("link", name="Claim your player").click()
    phone.wait_for_url(f"{live_server.url}{CLAIM}")
    phone.fill("input[name=code]", "WRONG-CODE")
    phone.get_by_role("button", name="Claim the player").click()
    error = phone.locator("[data-error]:not([hidden])")
    error.wait_for()
    expect(error).to_contain_text("wrong or has expired", use_inner_text=True)
    phone.fill("input[name=code]", code.lower())
    phone.get_by_role("button", name="Claim the player").click()
    phone.get_by_text("Your player:").wait_for()
    expect(phone.get_by_role("link", name="Marko Petrov")).to_have_count(2)  # header and page
    assert Player.objects.get(pk=marko.pk).user == newcomer
    assert console.errors == []
    assert [e for e in phone_console.errors if "400 (Bad Request)" not in e] == []
