"""Challenges and the rated badge on the match page: the challenged player sees Accept and
Decline, the challenger Withdraw, everyone else only the note; in Debian's chromium, accepting
starts the match on the page."""

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.games.factories import PlayerFactory
from tests.web.helpers import log_in


def page(match: Match, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("web:match", kwargs={"pk": match.pk}))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def challenge(alice, bob) -> Match:
    return services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, invitation=True
    )


@pytest.mark.django_db
def test_the_challenged_player_may_accept_or_decline_and_the_challenger_withdraw(
    challenge, alice, bob
):
    accept = reverse("games:match-accept", kwargs={"pk": challenge.pk})
    decline = reverse("games:match-decline", kwargs={"pk": challenge.pk})

    for_bob = page(challenge, bob.user)
    for_alice = page(challenge, alice.user)
    for_others = [page(challenge), page(challenge, PlayerFactory().user)]

    assert "Alice challenges Bob" in for_bob and 'data-rated="false"' in for_bob
    assert f'data-url="{accept}"' in for_bob and f'data-url="{decline}"' in for_bob
    assert "Withdraw the challenge" in for_alice and f'data-url="{accept}"' not in for_alice
    for html in for_others:
        assert "Alice challenges Bob" in html and "data-action=" not in html.split("</header>")[0]


@pytest.mark.django_db
def test_a_rated_match_shows_its_badge(online_match):
    html = page(online_match)
    assert 'data-rated="true"' in html and "data-challenge" not in html


@pytest.mark.django_db(transaction=True)
def test_accepting_a_challenge_in_the_browser_starts_the_match(
    live_server,
    new_page,  # noqa: F811 (the fixture imported above)
    challenge,
    bob,
    artifacts,
):
    browser_page, console = new_page()
    log_in(browser_page, live_server.url, bob.user.username, f"/matches/{challenge.pk}/")
    browser_page.screenshot(path=str(artifacts / "match-challenge.png"), full_page=True)

    browser_page.click("[data-action=accept]")

    browser_page.wait_for_selector('[data-match-status="in_progress"]')
    expect(browser_page.locator('[data-rated="true"]')).to_have_count(1)
    expect(browser_page.locator(".board")).to_have_count(1)
    assert console.errors == []
    challenge.refresh_from_db()
    assert challenge.rated and challenge.status == Match.Status.IN_PROGRESS
