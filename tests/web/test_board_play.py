"""Playing on the board in Debian's chromium (static/js/board_play.js over the engine's step
graph): clicking on a desktop, tapping on a phone, the keyboard, undo, a forced play sent
without asking, a single way on filled in, a Gjul Bara cascade stage by stage, a remainder, and
Tapa pins. Every page must stay free of console errors. Screenshots land in tests/artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from games.board_svg import board_geometry, board_pieces
from games.models import Game, Match, Turn
from tests.engine.notation import case_position
from tests.games.factories import MatchFactory
from tests.web.helpers import TIMEOUT, Console, log_in, logged_in, match_url
from tests.web.positions import TABLA_BAR_AND_OFF, TAPA_PINS, game_with_position

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
TABLA_START = "W 24×2, 13×5, 8×3, 6×5 | B 1×2, 12×5, 17×3, 19×5"


def playable(alice: Any, bob: Any, variant: str, data: dict, dice: list[int] | None) -> Game:
    """An online game of Alice (white) and Bob (black) at ``data`` with ``dice`` to play."""
    match = MatchFactory(player_one=alice, player_two=bob, mode=Match.Mode.ONLINE)
    return game_with_position(match, variant, data, dice=dice)


def open_board(new_page: Any, live_server: Any, game: Game, user: str, **size: int) -> tuple:
    page, console = new_page(**size) if size else new_page()
    log_in(page, live_server.url, user, f"/matches/{game.match_id}/")
    page.wait_for_selector("[data-board-play] [data-play-status]")
    return page, console


def point(page: Any, target: str) -> Any:
    return page.locator(f'[data-board-input] .hit[data-target="{target}"]')


def destinations(page: Any) -> list[str]:
    return sorted(page.locator("[data-board-input] .destination").evaluate_all(
        "nodes => nodes.map(node => node.dataset.target)"
    ), key=lambda target: (len(target), target))  # fmt: skip


LIT = """expected => JSON.stringify(
    [...document.querySelectorAll('[data-board-input] .destination')]
        .map(node => node.dataset.target)
        .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
) === JSON.stringify(expected)"""


def expect_destinations(page: Any, expected: list[str]) -> None:
    """Waits until the lit destinations are ``expected`` (as ``destinations`` sorts them)."""
    try:
        page.wait_for_function(LIT, arg=expected)
    except PlaywrightTimeoutError:
        pass  # the assertion below says what is lit instead
    assert destinations(page) == expected


def checkers(page: Any, colour: str, where: str) -> Any:
    return page.locator(f'[data-board-pieces] .checker.{colour}[data-point="{where}"]')


def live_refresh(page: Any) -> None:
    """The state endpoint names, once, a version the page has not shown: its next poll
    fetches the live fragment again, as when the match moved on elsewhere."""
    page.route(
        "**/state.json",
        lambda route: route.fulfill(status=200, headers={"ETag": '"elsewhere"'}, json={}),
        times=1,
    )


def played(game: Game) -> list[str]:
    """The moves of the game's last turn."""
    return Turn.objects.filter(game=game).latest("ply").moves


def test_only_the_player_to_move_gets_the_board_in_play(alice, bob, client):
    game = playable(alice, bob, "tabla", case_position(TABLA_START), [6, 5])
    mine = logged_in(alice).get(match_url(game.match)).context["board_play"]
    assert mine["key"] == f"{game.pk}:10" and len(mine["graph"]["states"]) == 13
    assert mine["graph"]["dice"] == [6, 5] and mine["ends_game"] == [False] * 7
    assert logged_in(bob).get(match_url(game.match)).context["board_play"] is None
    assert client.get(match_url(game.match)).context["board_play"] is None
    game.dice = None  # a roll is due: nothing to move
    game.save()
    assert logged_in(alice).get(match_url(game.match)).context["board_play"] is None


def test_a_player_moves_checkers_by_clicking_undoes_and_submits(
    live_server, new_page, alice, bob, artifacts
):
    game = playable(alice, bob, "tabla", case_position(TABLA_START), [6, 5])
    page, console = open_board(new_page, live_server, game, "alice")
    submit = page.locator("[data-action=submit-play]")
    expect(submit).to_be_disabled()
    expect(page.locator("[data-action=undo]")).to_be_disabled()
    expect(page.locator("[data-pip=w]")).to_have_text("167", use_inner_text=True)

    point(page, "6").click()  # 6/1 and 6/0: no
    expect(page.locator("[data-play-status]")).to_contain_text("cannot move", use_inner_text=True)
    point(page, "13").click()
    expect_destinations(page, ["2", "7", "8"])  # 13/2 is one click: 13/8 8/2 or 13/7 7/2
    page.screenshot(path=str(artifacts / "board-play-picked.png"))
    page.locator('.destination[data-target="8"]').click()
    expect(checkers(page, "w", "8")).to_have_count(4)
    expect(checkers(page, "w", "13")).to_have_count(4)
    expect(page.locator(".die.used")).to_have_count(1)
    expect(page.locator("[data-pip=w]")).to_have_text("162", use_inner_text=True)
    page.screenshot(path=str(artifacts / "board-play-one-step.png"))
    page.click("[data-replay-step=first]")  # the replay shows the past...
    expect(checkers(page, "w", "13")).to_have_count(5)
    expect(checkers(page, "w", "8")).to_have_count(3)
    page.click("[data-replay-step=last]")  # ...and gives the board in play back
    expect(checkers(page, "w", "8")).to_have_count(4)
    expect(page.locator(".die.used")).to_have_count(1)

    page.click("[data-action=undo]")
    expect(checkers(page, "w", "8")).to_have_count(3)
    expect(page.locator(".die.used")).to_have_count(0)
    point(page, "13").click()
    page.locator('.destination[data-target="2"]').click()  # two steps in one click
    expect(checkers(page, "w", "2")).to_have_count(1)
    expect(page.locator(".die.used")).to_have_count(2)
    expect(submit).to_be_enabled()
    page.click("[data-action=undo]")  # undoes the click, both steps
    expect(checkers(page, "w", "2")).to_have_count(0)
    expect(submit).to_be_disabled()

    point(page, "24").click()
    page.locator('.destination[data-target="18"]').click()
    point(page, "13").click()
    page.locator('.destination[data-target="8"]').click()
    expect(page.locator("[data-play-status]")).to_contain_text("24/18 13/8", use_inner_text=True)
    page.screenshot(path=str(artifacts / "board-play-complete.png"))
    submit.click()

    page.wait_for_selector(".move-log li")
    expect(page.locator(".move-log li").first).to_contain_text("24/18 13/8", use_inner_text=True)
    game.refresh_from_db()
    assert Turn.objects.get(game=game).moves == ["24/18", "13/8"] and game.position["turn"] == "b"
    assert console.errors == []


def test_a_player_taps_checkers_on_a_phone(live_server, browser, alice, bob, artifacts):
    """docs/rules.md §9 Case 8: the checker on the bar must enter with the 5 and hits on 20."""
    data = case_position("W bar 1, 24, 13×5, 8×3, 6×5 | B 20, 19×2, 17×3, 12×5, 1×4")
    game = playable(alice, bob, "tabla", data, [6, 5])
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    console = Console(page)
    log_in(page, live_server.url, "alice", f"/matches/{game.match_id}/")
    page.wait_for_selector("[data-board-play] [data-play-status]")

    # The only checker that may move is picked up already; its destinations are lit.
    expect_destinations(page, ["14", "20"])  # bar/20 20/14 in one tap
    marker = page.locator('.destination[data-target="20"] .marker').bounding_box()
    assert marker["width"] >= 40 and marker["height"] >= 40
    page.screenshot(path=str(artifacts / "board-play-phone-bar.png"))
    page.locator('.destination[data-target="20"]').tap()
    expect(checkers(page, "b", "bar")).to_have_count(1)
    expect(checkers(page, "w", "20")).to_have_count(1)  # hit

    point(page, "24").tap()
    expect_destinations(page, ["18"])
    page.locator('.destination[data-target="18"]').tap()
    submit = page.locator("[data-action=submit-play]")
    for button in (submit, page.locator("[data-action=undo]")):
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    board_bottom = page.locator("svg.board").bounding_box()
    gap = submit.bounding_box()["y"] - (board_bottom["y"] + board_bottom["height"])
    assert 0 < gap < 120  # right below the board, not below the fold
    page.screenshot(path=str(artifacts / "board-play-phone-complete.png"))
    submit.tap()
    page.wait_for_selector(".move-log li")
    game.refresh_from_db()
    assert played(game) == ["bar/20", "24/18"] and game.position["bar"] == {"w": 0, "b": 1}
    assert console.errors == []
    context.close()


def test_a_tap_beside_the_only_movable_checker_near_it_picks_it_up(
    live_server, new_page, alice, bob
):
    game = playable(alice, bob, "tabla", case_position("W 13, 8, 1×13 | B 24×15"), [6, 5])
    page, console = open_board(new_page, live_server, game, "alice", **PHONE)
    point(page, "14").click()  # no checker on 14; the one on 13 is next to it
    expect_destinations(page, ["2", "7", "8"])
    assert console.errors == []


def test_a_move_that_leaves_one_way_on_is_completed_and_waits_for_submit(
    live_server, new_page, alice, bob
):
    game = playable(alice, bob, "tabla", case_position("W 13, 8, 1×13 | B 24×15"), [6, 5])
    page, console = open_board(new_page, live_server, game, "alice")

    point(page, "8").click()
    page.locator('.destination[data-target="3"]').click()

    # 8/3 leaves only 13/7 for the 6: it is played, and the play waits for Submit.
    expect(checkers(page, "w", "7")).to_have_count(1)
    expect(checkers(page, "w", "13")).to_have_count(0)
    expect(page.locator("[data-play-status]")).to_contain_text("13/7", use_inner_text=True)
    assert page.evaluate("document.activeElement.dataset.action") == "submit-play"
    page.click("[data-action=undo]")  # the filled-in step goes back...
    expect(checkers(page, "w", "13")).to_have_count(1)
    expect(checkers(page, "w", "3")).to_have_count(1)
    page.click("[data-action=undo]")  # ...then the player's own
    expect(checkers(page, "w", "8")).to_have_count(1)
    game.refresh_from_db()
    assert game.ply == 10 and console.errors == []  # nothing was sent


def test_a_checker_is_borne_off_by_a_click_on_the_tray(live_server, new_page, alice, bob):
    data = case_position("W 6×2, 5×3, 4×2, 2, 1 (off 6) | B 24×3, 23×2, 19×5 (off 5)")
    game = playable(alice, bob, "tabla", data, [6, 4])
    page, console = open_board(new_page, live_server, game, "alice")

    point(page, "4").click()
    expect_destinations(page, ["off"])
    page.locator('.destination[data-target="off"]').click()

    expect(page.locator("[data-board-pieces] .slab.w")).to_have_count(8)  # and 6/off filled in
    expect(page.locator("[data-play-status]")).to_contain_text("4/off 6/off", use_inner_text=True)
    expect(page.locator("[data-pip=w]")).to_have_text("28", use_inner_text=True)
    assert console.errors == []


def test_a_forced_play_is_played_and_sent_without_asking(
    live_server, new_page, alice, bob, artifacts
):
    """docs/rules.md §9 Case 3: 13/8 8/2 is the only legal play of this 6-5."""
    game = playable(alice, bob, "tabla", case_position("W 13, 1×14 | B 7×2, 24×13"), [6, 5])
    page, console = new_page()
    log_in(page, live_server.url, "alice", f"/matches/{game.match_id}/")

    page.wait_for_selector(".move-log li")
    expect(page.locator("[data-play-notice]")).to_contain_text("13/8 8/2", use_inner_text=True)
    page.screenshot(path=str(artifacts / "board-play-forced.png"))
    game.refresh_from_db()
    assert played(game) == ["13/8", "8/2"] and game.position["turn"] == "b"
    expect(page.locator("[data-board-play]")).to_have_count(0)  # black's turn now
    assert console.errors == []


def test_the_keyboard_picks_drops_undoes_and_submits(live_server, new_page, alice, bob, artifacts):
    game = playable(alice, bob, "tabla", case_position(TABLA_START), [6, 5])
    page, console = open_board(new_page, live_server, game, "alice")
    page.locator(".board-card h2 a").last.focus()  # the game's heading: its rules link
    page.keyboard.press("Tab")  # the next stop is the first checker that may move
    assert page.evaluate("document.activeElement.dataset.target") == "8"
    focus_ring = "getComputedStyle(document.activeElement.querySelector('.hit-area')).stroke"
    assert page.evaluate(focus_ring) == "rgb(21, 112, 239)"  # visible focus

    point(page, "24").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('destination')")
    assert page.evaluate("document.activeElement.dataset.target") == "18"
    page.keyboard.press("Enter")
    expect(checkers(page, "w", "18")).to_have_count(1)
    page.keyboard.press("u")
    expect(checkers(page, "w", "18")).to_have_count(0)
    expect(checkers(page, "w", "24")).to_have_count(2)

    point(page, "24").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Escape")  # put it back
    expect(page.locator("[data-board-input] .destination")).to_have_count(0)
    assert page.evaluate("document.activeElement.dataset.target") == "24"  # still on 24
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.keyboard.press("Backspace")
    expect(checkers(page, "w", "18")).to_have_count(0)
    point(page, "24").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # 24/18, the first destination
    expect(checkers(page, "w", "18")).to_have_count(1)
    point(page, "13").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # 13/8, the first destination
    assert page.evaluate("document.activeElement.dataset.action") == "submit-play"
    page.screenshot(path=str(artifacts / "board-play-keyboard.png"))
    page.keyboard.press("Enter")

    page.wait_for_selector(".move-log li")
    game.refresh_from_db()
    assert played(game) == ["24/18", "13/8"] and console.errors == []


def test_a_gjul_bara_cascade_is_played_stage_by_stage(live_server, new_page, alice, bob, artifacts):
    """docs/rules.md §4.4: white's 4th roll is 2-2, so the 2s are a stage; the 3s come after."""
    data = case_position("W 24×15 | B 12×15", rolls=(3, 3))
    game = playable(alice, bob, "gul_bara", data, [2, 2])
    page, console = open_board(new_page, live_server, game, "alice")
    expect(page.locator("[data-board-pieces] .die")).to_have_count(4)
    expect(page.locator("[data-stage-note]")).to_contain_text("3-3-3-3", use_inner_text=True)

    point(page, "24").click()
    expect_destinations(page, ["16", "18", "20", "22"])
    page.locator('.destination[data-target="16"]').click()  # all four 2s with one checker
    expect(page.locator(".die.used")).to_have_count(4)
    page.screenshot(path=str(artifacts / "board-play-cascade-stage-1.png"))
    page.click("[data-action=submit-play]")

    # The next stage: four 3s, the same player, no roll.
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-board-pieces] .die')]"
        ".map(d => d.dataset.die).join() === '3,3,3,3'"
    )
    expect(page.locator(".die.used")).to_have_count(0)
    expect(page.locator("[data-stage-note]")).to_contain_text("4-4-4-4", use_inner_text=True)
    page.screenshot(path=str(artifacts / "board-play-cascade-stage-2.png"))
    game.refresh_from_db()
    assert game.position["pending"][:4] == [3, 3, 3, 3] and game.position["turn"] == "w"
    assert console.errors == []


def test_a_remainder_is_played_stage_by_stage_before_rolling(live_server, new_page, alice, bob):
    data = case_position(
        "W 24×13, 22×2 | B 12×15",
        turn="b",
        rolls=(4, 3),
        pending=[5, 5, 6, 6, 6, 6],
        pending_kind="remainder",
    )
    game = playable(alice, bob, "gul_bara", data, None)
    page, console = open_board(new_page, live_server, game, "bob")

    dice = "dice => dice.map(d => d.dataset.die)"
    expect(page.locator("[data-stage-note]")).to_contain_text("handed over", use_inner_text=True)
    assert page.locator("[data-board-pieces] .die").evaluate_all(dice) == ["5", "5"]
    expect(page.locator("[data-action=roll]")).to_have_count(0)

    point(page, "12").click()  # black's 24-point
    page.locator('.destination[data-target="2"]').click()  # both 5s: black's 24/19/14
    page.click("[data-action=submit-play]")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-board-pieces] .die')]"
        ".map(d => d.dataset.die).join() === '6,6,6,6'"
    )
    note = page.locator("[data-stage-note]")
    expect(note).to_contain_text("handed over", use_inner_text=True)  # still no roll
    game.refresh_from_db()
    assert played(game) == ["24/19", "19/14"]
    assert (game.position["turn"], game.position["pending"]) == ("b", [6, 6, 6, 6])
    assert console.errors == []


def test_tapa_pins_are_drawn_and_a_pinned_checker_does_not_move(
    live_server, new_page, alice, bob, artifacts
):
    game = playable(alice, bob, "tapa", TAPA_PINS, [5, 2])
    page, console = open_board(new_page, live_server, game, "bob")  # black to move
    expect(page.locator('.checker.b.pinned[data-point="13"]')).to_have_count(1)
    # black's pinned checker takes no focus: no tabindex at all
    expect(point(page, "13")).not_to_have_attribute("tabindex", re.compile(".*"))
    page.screenshot(path=str(artifacts / "board-play-tapa-pins.png"))
    assert console.errors == []

    data = case_position("W 24×12, 13×2, 11 | B 10, 1×14")  # Case 16
    pinning = playable(alice, bob, "tapa", data, [3, 1])
    page, console = open_board(new_page, live_server, pinning, "alice")
    point(page, "13").click()
    page.locator('.destination[data-target="10"]').click()
    expect(page.locator('.checker.b.pinned[data-point="10"]')).to_have_count(1)
    expect(page.locator('.checker.w[data-point="10"]:not(.pinned)')).to_have_count(1)
    page.screenshot(path=str(artifacts / "board-play-tapa-pinning.png"))
    assert console.errors == []


@pytest.mark.parametrize(
    ("variant", "data"),
    [
        ("tabla", TABLA_BAR_AND_OFF),
        ("tapa", TAPA_PINS),
        ("gul_bara", case_position("W 24×9, 13×6 | B 12×10, 11×5")),
    ],
)
def test_the_browser_lays_out_a_position_as_the_server_does(
    live_server, new_page, alice, bob, variant, data
):
    game = playable(alice, bob, variant, data, None)
    page, console = new_page()
    page.goto(f"{live_server.url}/matches/{game.match_id}/")
    board = {key: data[key] for key in ("points", "bar", "off")}
    laid_out = page.evaluate("([geo, board]) => TablaBoard.layout(geo, board)", [
        board_geometry(), board
    ])  # fmt: skip
    assert laid_out == [piece for piece in board_pieces(data) if piece["kind"] != "die"]
    assert console.errors == []


def test_the_board_draws_and_takes_moves_in_macedonian(live_server, new_page, alice, bob):
    """Numbers in the SVG keep their decimal point whatever the language (a comma would be an
    invalid length: the browser logs an error and drops the checker)."""
    data = case_position("W 24×2, 13×9, 6×4 | B 1×2, 12×9, 19×4")  # tall stacks: fractions
    game = playable(alice, bob, "tabla", data, [6, 5])
    page, console = open_board(new_page, live_server, game, "alice")
    page.click(".language-switcher button[value=mk]")
    page.wait_for_selector("text=Кликнете или допрете пул")

    point(page, "13").click()
    page.locator('.destination[data-target="8"]').click()
    expect(checkers(page, "w", "8")).to_have_count(1)
    expect(page.locator(".die.used")).to_have_count(1)
    expect(page.locator("[data-pip-line]")).to_have_text(
        re.compile("^Преостанат пат"), use_inner_text=True
    )
    assert console.errors == []


def test_the_list_of_legal_plays_keeps_its_choice_across_a_live_refresh(
    live_server, new_page, online_match
):
    game = online_match.games.get()
    page, console = new_page()
    log_in(page, live_server.url, game.white.user.username, f"/matches/{online_match.pk}/")
    page.click("[data-action=roll]")
    page.wait_for_selector("[data-board-play]")
    page.click(".play-list summary")
    page.locator("#play-form input[name=moves]").nth(1).check()
    chosen = page.locator("#play-form input[name=moves]").nth(1).get_attribute("value")
    page.evaluate("document.querySelector('[data-turn-line]').dataset.old = 'yes'")

    # A version the page has not shown (the roll's fragment named its own, D157): the next poll
    # fetches the page again.
    live_refresh(page)
    page.wait_for_function("() => !document.querySelector('[data-turn-line]').dataset.old")
    assert page.locator(".play-list").evaluate("list => list.open")
    expect(page.locator("#play-form input[name=moves]:checked")).to_have_attribute("value", chosen)
    assert console.errors == []


def test_a_picked_up_checker_and_the_focus_survive_a_live_refresh(
    live_server, new_page, online_match
):
    game = online_match.games.get()
    page, console = new_page()
    log_in(page, live_server.url, game.white.user.username, f"/matches/{online_match.pk}/")
    page.click("[data-action=roll]")
    page.wait_for_selector("[data-board-play]")
    page.locator("[data-board-input] .hit.source").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-board-input] .destination")).not_to_have_count(0)
    shown = destinations(page)
    assert shown and page.evaluate("document.activeElement.classList.contains('destination')")
    page.evaluate("document.querySelector('[data-turn-line]').dataset.old = 'yes'")

    live_refresh(page)
    page.wait_for_function("() => !document.querySelector('[data-turn-line]').dataset.old")
    expect_destinations(page, shown)
    assert page.evaluate("document.activeElement.classList.contains('destination')")
    assert console.errors == []


def test_a_tap_that_moves_nothing_says_why(live_server, new_page, alice, bob):
    game = playable(alice, bob, "tabla", case_position(TABLA_START), [6, 5])
    page, console = open_board(new_page, live_server, game, "alice", **PHONE)
    status = page.locator("[data-play-status]")
    point(page, "12").click()  # Bob's five checkers
    expect(status).to_contain_text("your opponent's checker", use_inner_text=True)
    point(page, "20").click()  # nobody's, and no checker of Alice's beside it
    expect(status).to_contain_text("You have no checker there", use_inner_text=True)
    point(page, "13").click()
    expect_destinations(page, ["2", "7", "8"])
    point(page, "22").click()  # not a destination of the checker picked up
    expect(status).to_contain_text("cannot go there with these dice", use_inner_text=True)
    expect(page.locator("[data-board-input] .destination")).to_have_count(0)
    assert console.errors == []
