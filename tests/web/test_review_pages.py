"""The review of a finished match in Debian's chromium (games/postgame.py,
templates/games/_review_section.html): the card lists each player's mistakes, the biggest with
the position after the better play on a board, and the page has no console error."""

import random

import pytest
from playwright.sync_api import expect

from games.demo import match_play_random
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_sees_the_review_of_the_finished_match(
    live_server, weights, new_page, online_match, artifacts
):
    match = match_play_random(match=online_match, rng=random.Random(11))
    page, console = new_page()
    log_in(page, live_server.url, "alice", f"/matches/{match.pk}/")
    review = page.locator("#review")
    expect(review).to_be_visible()
    expect(review.locator("[data-review-player]")).to_have_count(2)
    expect(review.locator("[data-review-average]").first).to_contain_text("Average error")
    assert review.locator("[data-review-mistake]").count() >= 2
    board = review.locator(".review-board svg.board").first
    expect(board).to_be_visible()
    assert board.locator(".checker").count() > 0
    review.screenshot(path=str(artifacts / "match-review.png"))
    assert console.errors == []
