"""The doubling cube in Debian's chromium: one player doubles, the other sees the double arrive
by polling and takes it, and the replay shows the cube as it stood. Skips without chromium."""

import pytest

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
    assert doubler.locator('.board .cube[data-cube="64"]').count() == 1
    assert taker.locator("[data-action=double]").count() == 0
    doubler.screenshot(path=str(artifacts / "match-cube-may-double.png"), full_page=True)

    doubler.click("[data-action=double]")
    doubler.wait_for_selector("[data-cube-offer]")
    assert doubler.locator("[data-action=roll]").count() == 0
    taker.wait_for_selector("[data-action=take]")  # arrives by polling
    assert taker.locator("[data-action=roll]").count() == 0
    taker.screenshot(path=str(artifacts / "match-cube-offered.png"), full_page=True)
    taker.click("[data-action=take]")

    taker.wait_for_selector('.board .cube[data-cube="2"][data-cube-owner="b"]')
    doubler.wait_for_selector("[data-action=roll]")
    assert doubler.locator("[data-action=double]").count() == 0  # the cube is black's
    log = doubler.locator(".move-log").inner_text()
    assert "doubles to 2" in log and "takes" in log

    doubler.click("[data-replay-step=prev]")  # the take: the live position
    assert "takes" in doubler.locator("[data-replay-caption]").inner_text()
    doubler.click("[data-replay-step=prev]")
    assert "doubles to 2" in doubler.locator("[data-replay-caption]").inner_text()
    assert doubler.locator('.board .cube.offered[data-cube="2"]').count() == 1
    doubler.click("[data-replay-step=first]")
    assert doubler.locator('.board .cube[data-cube="64"]').count() == 1
    doubler.click("[data-replay-step=last]")
    assert doubler.locator('.board .cube[data-cube-owner="b"]').count() == 1
    doubler.screenshot(path=str(artifacts / "match-cube-taken.png"), full_page=True)
    assert doubler_console.errors == [] and taker_console.errors == []
