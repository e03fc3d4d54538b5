"""Resigning a game on the match page in Debian's chromium (templates/games/_match_live.html,
static/js/match.js; docs/decisions.md D16): Alice's one-point practice match against the
computer waits for her under "Your matches" until she resigns it. The Resign button only opens
a dialog: its Cancel and Esc change nothing; its Resign posts the kind she chose, and the page
shows the game and the match over, as after any move, and the match no longer waits for her. A
refusal (the game already over) is said in the dialog. On a phone by touch and on a desktop by
the keyboard alone, in English and in Macedonian."""

import re

import pytest
from playwright.sync_api import expect

from games import selectors, services
from games.models import Game, Match
from tests.web.asgi_server import asgi_url
from tests.web.helpers import cancel_by_keyboard, in_macedonian, log_in, refusal_said_in_dialog

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}


def practice_match(alice) -> Match:
    return services.practice_start(
        user=alice.user, strength="beginner", target_score=1, options={"cycle": ["tabla"]}
    )


def your_turn_row(page, match: Match):
    return page.locator(f'#your-matches a[href="/matches/{match.pk}/"]')


@pytest.mark.parametrize("language", ["en", "mk"])
def test_resign_on_a_phone_cancel_first_then_a_mars(weights, new_page, alice, artifacts, language):
    match = practice_match(alice)
    game = selectors.current_game(match)
    page, console = new_page(**PHONE)
    base = asgi_url()
    if language == "mk":
        in_macedonian(page, base)
    log_in(page, base, "alice", "/")
    expect(your_turn_row(page, match)).to_have_count(1)

    page.goto(f"{base}/matches/{match.pk}/")
    opener = page.locator('[data-action="resign-open"]')
    dialog = page.locator("[data-resign-dialog]")
    expect(dialog).to_be_hidden()
    opener.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"resign-button-phone-{language}.png"))
    opener.tap()
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name=kind]")).to_have_count(2)
    page.screenshot(path=str(artifacts / f"resign-dialog-phone-{language}.png"))
    dialog.locator("button[type=submit]").tap()  # Cancel
    expect(dialog).to_be_hidden()
    expect(opener).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.resigned_by is None

    opener.tap()
    dialog.locator("input[value=mars]").tap()
    dialog.locator('[data-action="resign"]').tap()
    expect(page.locator("[data-turn-line]")).to_contain_text("2")
    expect(page.locator("[data-resign]")).to_have_count(0)
    expect(page.locator("[data-match-status]")).to_have_attribute("data-match-status", "finished")
    expect(page.locator("[data-score]")).to_have_text(re.compile(r"^0–2$"))
    page.screenshot(path=str(artifacts / f"resign-done-phone-{language}.png"), full_page=True)
    game.refresh_from_db()
    match.refresh_from_db()
    assert game.resigned_by == alice and game.result_kind == "mars" and game.result_points == 2
    assert match.status == Match.Status.FINISHED and match.winner == match.player_two

    page.goto(f"{base}/")
    expect(page.locator("#your-matches")).to_be_visible()
    expect(your_turn_row(page, match)).to_have_count(0)
    expect(page.locator("[data-awaiting-badge]")).to_be_hidden()
    assert console.errors == []


@pytest.mark.parametrize("language", ["en", "mk"])
def test_resign_on_a_desktop_with_the_keyboard(weights, new_page, alice, artifacts, language):
    match = practice_match(alice)
    page, console = new_page()
    base = asgi_url()
    if language == "mk":
        in_macedonian(page, base)
    log_in(page, base, "alice", f"/matches/{match.pk}/")
    opener = page.locator('[data-action="resign-open"]')
    dialog = page.locator("[data-resign-dialog]")
    cancel_by_keyboard(page, opener, dialog, artifacts / f"resign-dialog-desktop-{language}.png")
    assert selectors.current_game(match).status == Game.Status.IN_PROGRESS

    opener.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")  # back to the chosen kind: a single
    expect(dialog.locator("input[value=single]")).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(dialog.locator('[data-action="resign"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("[data-match-status]")).to_have_attribute("data-match-status", "finished")
    expect(page.locator("[data-score]")).to_have_text(re.compile(r"^0–1$"))
    game = match.games.get()
    assert game.resigned_by == alice and game.result_kind == "single"
    assert console.errors == []


def test_a_refused_resignation_is_said_in_the_dialog(weights, new_page, alice):
    """The game ended meanwhile (here Alice resigned it in another tab): the page's Resign is
    refused with 409 and the dialog says why; closing it shows the game over."""
    match = practice_match(alice)
    page, console = new_page(**PHONE)
    base = asgi_url()
    log_in(page, base, "alice", f"/matches/{match.pk}/")
    page.locator('[data-action="resign-open"]').tap()
    dialog = page.locator("[data-resign-dialog]")
    expect(dialog).to_be_visible()
    services.game_resign(game=selectors.current_game(match), kind="single", player=alice)
    refusal_said_in_dialog(page, dialog)
    # The 409 itself is a failed request in the console; nothing else went wrong.
    assert [e for e in console.errors if "409" not in e] == []
