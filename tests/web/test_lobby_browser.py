"""Scenario (a) of issue 21 in Debian's chromium, served by uvicorn with Redis carrying the
pushes (tests/web/asgi_server.py): Alice posts an open challenge from the lobby on a desktop
page and goes to the home page; Bob, on a phone-sized page, sees it on the lobby and takes it,
which opens the started match's board; Alice's header badge and "Your matches" show her turn
without a reload (her page's user socket), and her "Your turn" opens the same match."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import selectors
from games.models import Match
from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import TIMEOUT, log_in

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}


def test_an_open_challenge_posted_taken_and_your_turn_on_the_home_page(
    pushed, new_page, alice, bob, artifacts
):
    desktop, desktop_console = new_page()
    phone, phone_console = new_page(**PHONE)

    log_in(desktop, asgi_url(), "alice", "/lobby/")
    desktop.select_option("select[name=rules]", "bulgarian_nit")
    desktop.fill("input[name=match_length]", "3")
    desktop.click("#post-challenge button[type=submit]")
    expect(desktop.locator("p.notice")).to_contain_text("Your challenge is on the lobby.")
    expect(desktop.locator("#open-challenges [data-challenge-row]")).to_have_count(1)
    expect(desktop.locator("#open-challenges")).to_contain_text("Withdraw")
    desktop.screenshot(path=str(artifacts / "lobby-posted.png"), full_page=True)

    desktop.goto(asgi_url() + "/")
    expect(desktop.locator("#your-matches")).to_contain_text("Nothing waits for you.")
    expect(desktop.locator("[data-awaiting-badge]")).to_be_hidden()

    log_in(phone, asgi_url(), "bob", "/lobby/")
    take = phone.locator("#open-challenges [data-take]")
    expect(take).to_have_count(1)
    expect(phone.locator("#open-challenges")).to_contain_text("Alice")
    take.tap()
    expect(phone.locator(".board")).to_have_count(1)
    match = Match.objects.get()
    assert phone.url == f"{asgi_url()}/matches/{match.pk}/"
    assert (match.player_one, match.player_two) == (alice, bob)
    assert match.status == Match.Status.IN_PROGRESS and match.target_score == 3
    phone.screenshot(path=str(artifacts / "lobby-taken-phone.png"), full_page=True)

    # Whoever the opening made the first to move, Bob plays until it is Alice's turn.
    game = match.games.get()
    while selectors.player_to_move(game) != alice:
        decide(game)
        game.refresh_from_db()

    badge = desktop.locator("[data-awaiting-badge]")
    expect(badge).to_be_visible(timeout=3 * TIMEOUT)  # pushed: no reload, no 20 s ping
    expect(badge).to_have_text("1")
    your_turn = desktop.locator('#your-matches [data-waiting="turn"]')
    expect(your_turn).to_contain_text("Your turn")
    desktop.screenshot(path=str(artifacts / "home-your-turn.png"), full_page=True)
    your_turn.locator("a").click()
    expect(desktop.locator(".board")).to_have_count(1)
    assert desktop.url == f"{asgi_url()}/matches/{match.pk}/"
    assert desktop_console.errors == phone_console.errors == []
