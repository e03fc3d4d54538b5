"""The chance bar in Debian's chromium (games/chances.py, static/js/chances.js): a spectator's
page of an unrated match shows it and it follows a move pushed over the socket; the page of a
player of the match has none."""

import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spectator_sees_the_bar_follow_a_move_and_a_player_has_none(
    pushed, weights, new_page, alice, bob, organiser, artifacts
):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, rated=False)
    game = match.games.get()
    path = f"/matches/{match.pk}/"
    spectator, console = new_page()
    spectator.goto(f"{asgi_url()}{path}")
    label = spectator.locator("#chances [data-chance-one-label]")
    expect(label).to_have_text(re.compile(r"^Alice \d+ %$"))
    before = label.text_content()
    line = spectator.locator("#chances [data-chance-line]")
    points_before = line.get_attribute("points")

    player, _ = new_page()
    log_in(player, asgi_url(), "alice", path)
    expect(player.locator("#match-live")).to_be_visible()
    expect(player.locator("#chances")).to_have_count(0)

    started = time.monotonic()
    decide(game)  # the roll
    decide(game)  # the play
    expect(line).not_to_have_attribute("points", points_before or "")
    print(
        f"the chance reached the spectator's page {time.monotonic() - started:.2f} s after the move"
    )
    assert line.get_attribute("points").count(" ") == 1  # the start and the move: two points
    assert label.text_content() != before  # this seed's network moves the bar by the play
    expect(player.locator("#chances")).to_have_count(0)
    spectator.screenshot(path=str(artifacts / "match-chances.png"), full_page=True)
    assert console.errors == []
