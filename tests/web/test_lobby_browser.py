"""Scenario (a) of issue 21 in Debian's chromium, served by uvicorn with Redis carrying the
pushes (tests/web/asgi_server.py): Ana signs up from the home page on a desktop and posts an
open challenge on the lobby; Boris, new too, signs up on a phone, sees it on the lobby and takes
it, which opens the started match's board. Both play their turns on the board, Ana clicking,
Boris tapping (static/js/board_play.js): whoever the opening roll makes the first to move plays
first; Ana, waiting on the home page, sees her header badge and "Your matches" show her turn
without a reload (her page's user socket), and her "Your turn" opens the same match; each page
shows the other's play and its own turn without a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games import selectors
from games.models import Match, Turn
from tests.web.asgi_server import asgi_url
from tests.web.helpers import TIMEOUT

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
PASSWORD = "tabla-gjul-42-bara"
MATCH_PAGE = re.compile(r"/matches/\d+/$")
# Each pick and each drop is one click or tap; a turn has at most four dice.
MOST_ACTIONS = 8
FORCED = "was played for you"  # the board's words for a forced play (D47)


def sign_up(page: Any, username: str, name: str) -> None:
    """Signs up as a new visitor would: the home page, the header's "Sign up", the form."""
    page.goto(asgi_url() + "/")
    page.locator(".site-nav").get_by_role("link", name="Sign up").click()
    page.fill("input[name=username]", username)
    page.fill("input[name=display_name]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(r"/players/\d+/$"))  # their own player page
    expect(page.locator("h1")).to_contain_text(name)
    expect(page.locator(".site-nav").get_by_role("link", name="Account")).to_be_visible()


def press(page: Any, locator: Any, tap: bool) -> None:
    if tap:
        locator.tap()
    else:
        locator.click()


def play_a_turn(page: Any, *, tap: bool) -> str:
    """Plays the turn of the page's player on the board as a person would: rolls when a roll is
    due, then picks up the first lit checker and puts it on its first lit destination until
    the play is complete, and submits it. Returns what the board said it sends."""
    panel = page.locator("#play-panel")
    expect(panel).to_contain_text("Your turn")
    roll = panel.locator("[data-action=roll]")
    status = page.locator("[data-board-play] [data-play-status]")
    expect(roll.or_(status)).to_be_visible()
    if roll.is_visible():
        press(page, roll, tap)
        expect(status).to_be_visible()
    if FORCED in status.inner_text():  # nothing to choose: the board sends it by itself
        moves = status.inner_text()
        expect(page.locator("[data-board-play]")).to_have_count(0)
        return moves
    submit = page.locator("[data-board-play] [data-action=submit-play]")
    destinations = page.locator("[data-board-input] .destination")
    sources = page.locator("[data-board-input] .hit.source")
    used = page.locator("[data-board-pieces] .die.used")
    for _ in range(MOST_ACTIONS):
        if submit.is_enabled():
            break
        if not destinations.count():  # nothing picked up yet: pick up a movable checker
            expect(sources.first).to_be_visible()
            press(page, sources.first, tap)
            expect(destinations.first).to_be_visible()
        before = used.count()
        press(page, destinations.first, tap)
        expect(used).not_to_have_count(before)  # a die (or more) played
    expect(submit).to_be_enabled()
    moves = status.inner_text()
    press(page, submit, tap)
    expect(page.locator("[data-board-play]")).to_have_count(0)  # sent: the opponent's turn
    return moves


def test_two_new_players_meet_in_the_lobby_and_play_on_the_board(pushed, new_page, artifacts):
    desktop, desktop_console = new_page()
    phone, phone_console = new_page(**PHONE)

    sign_up(desktop, "ana", "Ana Petrova")
    desktop.locator(".site-nav").get_by_role("link", name="Lobby").click()
    desktop.select_option("select[name=rules]", "bulgarian_nit")
    desktop.fill("input[name=match_length]", "3")
    desktop.click("#post-challenge button[type=submit]")
    expect(desktop.locator("p.notice")).to_contain_text("Your challenge is on the lobby.")
    expect(desktop.locator("#open-challenges [data-challenge-row]")).to_have_count(1)
    expect(desktop.locator("#open-challenges")).to_contain_text("Withdraw")
    desktop.screenshot(path=str(artifacts / "lobby-posted.png"), full_page=True)

    desktop.locator(".site-nav").get_by_role("link", name="Home").click()
    expect(desktop.locator("#your-matches")).to_contain_text("Nothing waits for you.")
    expect(desktop.locator("[data-awaiting-badge]")).to_be_hidden()

    sign_up(phone, "boris", "Boris Trajkov")
    phone.locator(".site-nav").get_by_role("link", name="Lobby").tap()
    take = phone.locator("#open-challenges [data-take]")
    expect(take).to_have_count(1)
    expect(phone.locator("#open-challenges")).to_contain_text("Ana Petrova")
    take.tap()
    phone.wait_for_url(MATCH_PAGE)  # loaded: its scripts run before anything is tapped
    expect(phone.locator(".board")).to_have_count(1)
    match = Match.objects.get()
    ana, boris = match.player_one, match.player_two
    assert phone.url == f"{asgi_url()}/matches/{match.pk}/"
    assert (ana.display_name, boris.display_name) == ("Ana Petrova", "Boris Trajkov")
    assert match.status == Match.Status.IN_PROGRESS and match.target_score == 3
    phone.screenshot(path=str(artifacts / "lobby-taken-phone.png"), full_page=True)

    # Whoever the opening made the first to move: Boris plays first when it is him.
    game = match.games.get()
    boris_first = selectors.player_to_move(game) == boris
    if boris_first:
        play_a_turn(phone, tap=True)

    badge = desktop.locator("[data-awaiting-badge]")
    expect(badge).to_be_visible(timeout=3 * TIMEOUT)  # pushed: no reload, no 20 s ping
    expect(badge).to_have_text("1")
    your_turn = desktop.locator('#your-matches [data-waiting="turn"]')
    expect(your_turn).to_contain_text("Your turn")
    desktop.screenshot(path=str(artifacts / "home-your-turn.png"), full_page=True)
    your_turn.locator("a").click()
    desktop.wait_for_url(f"{asgi_url()}/matches/{match.pk}/")  # loaded, scripts and all
    expect(desktop.locator(".board")).to_have_count(1)
    play_a_turn(desktop, tap=False)
    expect(desktop.locator("[data-turn-line]")).to_contain_text("Boris Trajkov to")
    expect(badge).to_be_hidden()  # nothing waits for Ana now

    # Boris's page shows Ana's play and his turn without a reload; he plays on the board.
    expect(phone.locator("#play-panel")).to_contain_text("Your turn")
    phone.screenshot(path=str(artifacts / "board-boris-turn-phone.png"))  # what he sees first
    play_a_turn(phone, tap=True)
    expect(desktop.locator("#play-panel")).to_contain_text("Your turn")  # pushed to Ana
    expect(badge).to_have_text("1")  # her turn again, on her badge too
    expect(phone.locator("[data-awaiting-badge]")).to_be_hidden()  # nothing waits for Boris
    desktop.screenshot(path=str(artifacts / "board-ana-turn-again.png"), full_page=True)
    phone.screenshot(path=str(artifacts / "board-boris-played-phone.png"), full_page=True)

    plays = Turn.objects.filter(game=game, kind__in=[Turn.Kind.ROLL, Turn.Kind.PENDING])
    movers = [game.player_of(side) for side in plays.order_by("ply").values_list("side", flat=True)]
    assert movers == ([boris, ana, boris] if boris_first else [ana, boris])
    assert desktop_console.errors == phone_console.errors == []
