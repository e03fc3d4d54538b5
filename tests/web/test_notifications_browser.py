"""The notifications in Debian's chromium (docs/decisions.md D115): a match opened for Alice
shows as "(1)" after the header's Notifications link; the list marks it unread, opening it goes
to the match, and back on the list it is read and the count gone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_notification_shows_in_the_header_and_opens_its_match(
    live_server, new_page, alice, bob, organiser
):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob)
    page, console = new_page()

    log_in(page, live_server.url, "alice", "/")
    link = page.locator("[data-notifications-link]")
    expect(link.locator("[data-unread-count]")).to_have_text("(1)")
    link.click()
    expect(page.locator("li.notification.unread")).to_have_count(1)
    expect(page.locator("li.notification")).to_contain_text("Your match against Bob is ready.")

    page.locator("li.notification a").click()
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/")

    page.goto(f"{live_server.url}/notifications/")
    expect(page.locator("li.notification")).to_have_count(1)
    expect(page.locator("li.notification.unread")).to_have_count(0)
    expect(page.locator("[data-unread-count]")).to_be_hidden()
    assert console.errors == []
