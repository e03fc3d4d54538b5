"""Issue 21 scenario (b): a player entered at the desk opens the invitation link (the desk's
"Claim code" shows it, as the printed slip does), signs up in one step on a phone, and sees
their earlier matches and rating on their page: the same record (docs/decisions.md D89)."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Match
from players.models import Player
from tests.games.factories import MatchFactory
from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db


def test_a_player_entered_at_the_desk_signs_up_through_the_invitation(live_server, new_page):
    organiser = UserFactory(username="club-organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="add_player"))
    tournament = TournamentFactory(created_by=organiser, name="Invitation Cup")
    ana = PlayerFactory(
        user=None, display_name="Ana Petrova", club=tournament.club, created_by=organiser
    )
    Player.objects.filter(pk=ana.pk).update(rating=1532.0, rating_games=14)
    tournament.entries.create(player=ana)
    earlier = MatchFactory(
        player_one=ana,
        player_two=PlayerFactory(display_name="Elena Kostova"),
        status=Match.Status.FINISHED,
        score_one=5,
        score_two=2,
        winner=ana,
    )
    desk = reverse("tournaments_web:desk", kwargs={"pk": tournament.pk})

    page, console = new_page()
    log_in(page, live_server.url, organiser.username, desk)
    row = page.locator(f'tr[data-entry="{tournament.entries.get().pk}"]')
    row.get_by_role("button", name="Claim code").click()
    link = page.locator("[data-claim-output] [data-invitation-url]")
    expect(link).to_contain_text(f"{live_server.url}/join/", use_inner_text=True)
    invitation = link.get_attribute("href")
    assert invitation is not None

    # The QR code page the desk links holds the same link.
    page.get_by_role("link", name="Invitation link and QR code to show or print").click()
    expect(page.locator("svg.qr")).to_have_count(1)
    expect(page.locator("[data-invitation-url]")).to_have_attribute("href", invitation)

    phone, phone_console = new_page(390, 844, has_touch=True, is_mobile=True)
    phone.goto(invitation)
    expect(phone.locator("section.join")).to_contain_text(
        "You are invited to take the player record of Ana Petrova (rating 1532",
        use_inner_text=True,
    )
    phone.fill("input[name=username]", "ana.petrova")
    phone.fill("input[name=password1]", "tabla-gjul-42-bara")
    phone.fill("input[name=password2]", "tabla-gjul-42-bara")
    phone.get_by_role("button", name="Sign up and take the record").click()
    phone.wait_for_url(f"{live_server.url}{reverse('web:player', args=[ana.pk])}")
    expect(phone.locator("h1")).to_contain_text("Ana Petrova", use_inner_text=True)
    expect(phone.get_by_text("Rating 1532")).to_be_visible()
    matches = phone.locator("#player-matches")
    expect(matches).to_contain_text("Elena Kostova", use_inner_text=True)
    expect(matches.locator(f'a[href="{reverse("web:match", args=[earlier.pk])}"]')).to_have_count(1)
    expect(phone.get_by_role("link", name="Account")).to_be_visible()
    assert Player.objects.get(pk=ana.pk).user.username == "ana.petrova"
    assert console.errors == [] and phone_console.errors == []
