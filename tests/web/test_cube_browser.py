"""The doubling cube in Debian's chromium: one player doubles, the other sees the double arrive
by polling and takes it, and the replay shows the cube as it stood. Skips without chromium."""

import pytest
from playwright.sync_api import expect

from games import selectors, services
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_double_is_offered_and_taken_in_the_browser(
    live_server,
    new_page,  # noqa: F811 (the fixture imported above)
    alice,
    bob,
    organiser,
    artifacts,
):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = selectors.current_game(match)
    path = f"/matches/{match.pk}/"
    doubler, doubler_console = new_page()
    log_in(doubler, live_server.url, game.white.user.username, path)
    taker, taker_console = new_page()
    log_in(taker, live_server.url, game.black.user.username, path)
    expect(doubler.locator('.board .cube[data-cube="64"]')).to_have_count(1)
    expect(taker.locator("[data-action=double]")).to_have_count(0)
    doubler.screenshot(path=str(artifacts / "match-cube-may-double.png"), full_page=True)

    doubler.click("[data-action=double]")
    doubler.wait_for_selector("[data-cube-offer]")
    expect(doubler.locator("[data-action=roll]")).to_have_count(0)
    taker.wait_for_selector("[data-action=take]")  # arrives by polling
    expect(taker.locator("[data-action=roll]")).to_have_count(0)
    taker.screenshot(path=str(artifacts / "match-cube-offered.png"), full_page=True)
    taker.click("[data-action=take]")

    taker.wait_for_selector('.board .cube[data-cube="2"][data-cube-owner="b"]')
    doubler.wait_for_selector("[data-action=roll]")
    expect(doubler.locator("[data-action=double]")).to_have_count(0)  # the cube is black's
    log = doubler.locator(".move-log")
    expect(log).to_contain_text("doubles to 2", use_inner_text=True)
    expect(log).to_contain_text("takes", use_inner_text=True)

    doubler.click("[data-replay-step=prev]")  # the take: the live position
    expect(doubler.locator("[data-replay-caption]")).to_contain_text("takes", use_inner_text=True)
    doubler.click("[data-replay-step=prev]")
    expect(doubler.locator("[data-replay-caption]")).to_contain_text(
        "doubles to 2", use_inner_text=True
    )
    expect(doubler.locator('.board .cube.offered[data-cube="2"]')).to_have_count(1)
    doubler.click("[data-replay-step=first]")
    expect(doubler.locator('.board .cube[data-cube="64"]')).to_have_count(1)
    doubler.click("[data-replay-step=last]")
    expect(doubler.locator('.board .cube[data-cube-owner="b"]')).to_have_count(1)
    doubler.screenshot(path=str(artifacts / "match-cube-taken.png"), full_page=True)
    assert doubler_console.errors == [] and taker_console.errors == []
