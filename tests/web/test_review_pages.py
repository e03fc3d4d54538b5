"""The review of a finished match in Debian's chromium (games/postgame.py,
templates/games/_review_section.html): the card lists each player's mistakes, each on the board
before it with both plays as arrows, each linking to its turn in the replay; the averages have
their bands; and the page has no console error."""

import random
import re

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


def test_on_a_phone_a_mistake_shows_both_plays_and_links_to_its_turn(
    live_server, weights, new_page, online_match, artifacts
):
    """At phone size, in Macedonian: the biggest mistake's board draws the play made and the
    better play as arrows, with the key beside the moves; its link opens the replay at that
    turn (the log's row marked, the caption the turn's); the band is named and explained."""
    match = match_play_random(match=online_match, rng=random.Random(11))
    page, console = new_page(390, 844, has_touch=True, is_mobile=True, locale="mk-MK")
    log_in(page, live_server.url, "alice", f"/matches/{match.pk}/")
    review = page.locator("#review")
    expect(review.locator("h2")).to_have_text("Анализа")
    first = review.locator("[data-review-mistake]").first
    board = first.locator(".review-board svg.board")
    expect(board).to_be_visible()
    expect(board.locator('[data-arrow="made"] .arrow-head').first).to_be_visible()
    expect(board.locator('[data-arrow="best"] .arrow-head').first).to_be_visible()
    expect(first.locator(".review-play.made .review-key")).to_be_visible()
    expect(review.locator("[data-review-band]")).to_have_count(2)
    review.locator("[data-review-scale] summary").click()
    expect(review.locator("[data-review-scale] tbody tr")).to_have_count(6)
    review.screenshot(path=str(artifacts / "match-review-mk-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider
    link = first.locator("[data-review-replay]")
    game, ply = re.search(r"\?game=(\d+)#ply-(\d+)$", link.get_attribute("href")).groups()
    link.click()
    expect(page).to_have_url(re.compile(rf"\?game={game}#ply-{ply}$"))
    row = page.locator("#move-log [data-replay-ply][aria-current=step]")
    expect(row).to_have_count(1)
    caption = page.locator("[data-replay-caption]")
    expect(caption).to_contain_text(row.locator(".moves").inner_text().split()[0])
    expect(page.locator(".board-card")).to_be_in_viewport()
    page.screenshot(path=str(artifacts / "match-review-replay-mk-phone.png"))
    assert console.errors == []


def test_on_a_desktop_the_review_reads_in_english(
    live_server, weights, new_page, online_match, artifacts
):
    match = match_play_random(match=online_match, rng=random.Random(11))
    page, console = new_page(1280, 900, locale="en-GB")
    log_in(page, live_server.url, "alice", f"/matches/{match.pk}/")
    review = page.locator("#review")
    expect(review.locator("[data-review-band]").first).to_be_visible()
    review.locator("[data-review-scale] summary").click()
    expect(review.locator("[data-review-scale]")).to_contain_text("World class")
    review.screenshot(path=str(artifacts / "match-review-en-desktop.png"))
    assert console.errors == []
