"""End-to-end tests in Debian's chromium: playing a move in the browser, a spectator's page
updating without a reload, over-the-board results, replay, and every page free of console
errors. Screenshots land in tests/artifacts/ for a human look."""

import random
import re

import pytest
from playwright.sync_api import expect

from games.demo import game_play_random
from games.models import Match
from tests.games.factories import MatchFactory
from tests.web.helpers import log_in
from tests.web.positions import TABLA_BAR_AND_OFF, TAPA_PINS, game_with_position

pytestmark = pytest.mark.django_db(transaction=True)


def test_player_plays_a_move_and_a_spectator_sees_it_without_reload(
    live_server, new_page, online_match, artifacts
):
    game = online_match.games.get()
    path = f"/matches/{online_match.pk}/"
    player, player_console = new_page()
    log_in(player, live_server.url, game.white.user.username, path)
    spectator, spectator_console = new_page()
    spectator.goto(live_server.url + path)
    spectator.evaluate("window.__notReloaded = true")
    expect(spectator.locator(".move-log li")).to_have_count(0)

    if player.locator("[data-action=roll]").count():
        player.click("[data-action=roll]")
    player.wait_for_selector("[data-board-play]")
    expect(player.locator(".board .die").nth(1)).to_be_attached()  # two dice or more
    player.click(".play-list summary")  # the list of legal plays, beside the board
    first = player.locator("#play-form input[name=moves]").first
    played = first.get_attribute("value")
    first.check()
    player.screenshot(path=str(artifacts / "match-player-choosing.png"), full_page=True)
    player.click("#play-form button[type=submit]")

    player.wait_for_selector(".move-log li")
    spectator.wait_for_selector(".move-log li")
    expect(spectator.locator(".move-log li").first).to_contain_text(played, use_inner_text=True)
    assert spectator.evaluate("window.__notReloaded") is True
    expect(spectator.locator("[data-turn-line]")).to_contain_text("ply 2", use_inner_text=True)
    spectator.screenshot(path=str(artifacts / "match-spectator-after-move.png"), full_page=True)
    assert player_console.errors == [] and spectator_console.errors == []


def test_replay_steps_back_to_the_start_position_and_forward(
    live_server, new_page, online_match, artifacts
):
    game = game_play_random(game=online_match.games.get(), rng=random.Random(3), max_decisions=10)
    page, console = new_page()
    page.goto(f"{live_server.url}/matches/{online_match.pk}/")
    live_checkers = page.locator(".board .checker").count()

    page.click("[data-replay-step=first]")
    expect(page.locator("[data-replay-caption]")).to_have_text(
        "Start of the game", use_inner_text=True
    )
    expect(page.locator('.board .checker.w[data-point="24"]')).to_have_count(2)  # tabla start
    expect(page.locator('.board .checker.w[data-point="6"]')).to_have_count(5)
    page.click("[data-replay-step=next]")
    expect(page.locator("[data-replay-caption]")).to_have_text(
        re.compile("^White"), use_inner_text=True
    )
    page.click(".move-log li:nth-child(3) button")
    expect(page.locator("[data-replay-range]")).to_have_value("3")
    page.screenshot(path=str(artifacts / "match-replay-ply-3.png"), full_page=True)
    page.click("[data-replay-step=last]")
    expect(page.locator(".board .checker")).to_have_count(live_checkers)
    assert game.ply > 3 and console.errors == []


def test_over_the_board_result_is_reported_and_confirmed_in_the_browser(
    live_server, new_page, alice, bob
):
    match = MatchFactory(player_one=alice, player_two=bob)
    path = f"/matches/{match.pk}/"
    reporter, console_one = new_page()
    log_in(reporter, live_server.url, "alice", path)
    opponent, console_two = new_page()
    log_in(opponent, live_server.url, "bob", path)

    reporter.click("#results [data-game-reports] summary")  # the final score comes first
    reporter.select_option("#report-form select[name=winner]", str(alice.pk))
    reporter.select_option("#report-form select[name=result]", "mars:2")
    reporter.click("#report-form button[type=submit]")
    reporter.wait_for_selector("#results li[data-report]")
    expect(reporter.locator('#results [data-report-next="reported"]')).to_be_visible()
    expect(reporter.locator("#results form")).to_have_count(0)  # closed once reported

    opponent.wait_for_selector("[data-action=confirm]")  # arrives by polling
    opponent.click("[data-action=confirm]")
    opponent.wait_for_selector("text=confirmed")
    reporter.wait_for_function(  # a function, not an expression: the page's CSP forbids eval
        "() => document.querySelector('[data-score]').textContent.trim() === '2–0'"
    )
    match.refresh_from_db()
    assert (match.score_one, match.score_two) == (2, 0)
    assert console_one.errors == [] and console_two.errors == []


def test_pages_render_without_console_errors(live_server, new_page, alice, bob, artifacts):
    tabla = MatchFactory(player_one=alice, player_two=bob, mode=Match.Mode.ONLINE)
    game_with_position(tabla, "tabla", TABLA_BAR_AND_OFF, dice=[6, 3])
    tapa = MatchFactory(player_one=bob, player_two=alice, mode=Match.Mode.ONLINE)
    game_with_position(tapa, "tapa", TAPA_PINS, dice=[5, 2])
    pages = {
        "home": "/",
        "match-tabla-bar-off-dice": f"/matches/{tabla.pk}/",
        "match-tapa-pins": f"/matches/{tapa.pk}/",
        "player": f"/players/{alice.pk}/",
        "login": "/accounts/login/",
    }
    for name, path in pages.items():
        page, console = new_page()
        page.goto(live_server.url + path)
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
        assert console.errors == [], (name, console.errors)

    page, console = new_page()
    page.goto(f"{live_server.url}/matches/{tapa.pk}/")
    expect(page.locator('.checker.b.pinned[data-point="13"]')).to_have_count(1)
    expect(page.locator('.checker.w.pinned[data-point="5"]')).to_have_count(1)
    expect(page.locator(".board .die")).to_have_count(2)


def test_language_switcher_shows_the_pages_in_macedonian(live_server, new_page, artifacts):
    page, console = new_page(width=390, height=844)  # a phone
    page.goto(live_server.url + "/")
    page.click(".language-switcher button[value=mk]")
    page.wait_for_selector("text=Мечеви во живо")
    expect(page.locator("html")).to_have_attribute("lang", "mk")
    page.screenshot(path=str(artifacts / "home-mk-phone.png"), full_page=True)
    assert console.errors == []
