"""Resigning the whole match on the match page in Debian's chromium
(templates/games/_match_live.html, static/js/match.js; docs/decisions.md D166): in Alice and
Bob's 5-point match "Resign the match…" stands beside "Resign this game…" and only opens its own
dialog, which names Bob and says he wins the match; its Cancel is focused first, and Cancel and
Esc change nothing. Its button ends the match: the page shows Bob the winner at 5, with no
Resign left. A refusal (the match over meanwhile) is said in the dialog. On a phone by touch in
Macedonian and on a desktop by the keyboard alone in English, where the game's own dialog still
resigns a game first."""

import re

import pytest
from playwright.sync_api import expect

from games import selectors, services
from games.models import Game, Match
from tests.web.asgi_server import asgi_url
from tests.web.helpers import cancel_by_keyboard, in_macedonian, log_in, refusal_said_in_dialog

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}


def test_resign_the_match_on_a_phone_in_macedonian(new_page, online_match, alice, bob, artifacts):
    page, console = new_page(**PHONE)
    base = asgi_url()
    in_macedonian(page, base)
    log_in(page, base, "alice", f"/matches/{online_match.pk}/")
    opener = page.locator("[data-resign-match-open]")
    dialog = page.locator("[data-resign-match-dialog]")
    expect(opener).to_have_text("Предај го мечот…")
    expect(page.locator('[aria-controls="resign-game-dialog"]')).to_be_visible()
    expect(dialog).to_be_hidden()
    opener.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "resign-match-button-phone-mk.png"))
    opener.tap()
    expect(dialog).to_be_visible()
    cancel = dialog.locator("button[type=submit]")
    expect(cancel).to_be_focused()
    expect(dialog).to_contain_text("Bob го добива мечот")
    page.screenshot(path=str(artifacts / "resign-match-dialog-phone-mk.png"))
    cancel.tap()
    expect(dialog).to_be_hidden()
    online_match.refresh_from_db()
    assert online_match.status == Match.Status.IN_PROGRESS

    opener.tap()
    dialog.locator('[data-action="resign"]').tap()
    expect(page.locator("[data-match-status]")).to_have_attribute("data-match-status", "finished")
    expect(page.locator("[data-score]")).to_have_text(re.compile(r"^0–5$"))
    expect(page.locator("[data-resign]")).to_have_count(0)
    expect(page.locator(".match-header")).to_contain_text("(противникот се предаде)")
    page.screenshot(path=str(artifacts / "resign-match-done-phone-mk.png"), full_page=True)
    online_match.refresh_from_db()
    assert online_match.winner == bob and online_match.ended_by == Match.EndedBy.RESIGNATION
    assert online_match.games.get().resigned_by == alice
    assert console.errors == []


def test_resign_a_game_then_the_match_on_a_desktop_with_the_keyboard(
    new_page, online_match, alice, bob, artifacts
):
    page, console = new_page()
    base = asgi_url()
    log_in(page, base, "alice", f"/matches/{online_match.pk}/")
    # The game's dialog first: a game of a longer match is still resigned on its own.
    page.locator('[aria-controls="resign-game-dialog"]').focus()
    page.keyboard.press("Enter")
    game_dialog = page.locator("[data-resign-dialog]")
    expect(game_dialog.locator("button[type=submit]")).to_be_focused()
    game_dialog.locator('[data-action="resign"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-score]")).to_have_text(re.compile(r"^0–1$"))
    expect(page.locator("[data-resign-match-open]")).to_be_visible()  # game 2 offers it again
    assert selectors.current_game(online_match).number == 2

    opener = page.locator("[data-resign-match-open]")
    dialog = page.locator("[data-resign-match-dialog]")
    cancel_by_keyboard(page, opener, dialog, artifacts / "resign-match-dialog-desktop-en.png")
    assert selectors.current_game(online_match).number == 2

    opener.focus()
    page.keyboard.press("Enter")
    expect(dialog).to_contain_text("Bob wins the match")
    page.keyboard.press("Tab")
    expect(dialog.locator('[data-action="resign"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("[data-match-status]")).to_have_attribute("data-match-status", "finished")
    expect(page.locator("[data-score]")).to_have_text(re.compile(r"^0–5$"))
    expect(page.locator(".match-header")).to_contain_text(
        "Bob wins the match (the opponent resigned)"
    )
    page.screenshot(path=str(artifacts / "resign-match-done-desktop-en.png"), full_page=True)
    second = online_match.games.get(number=2)
    assert second.status == Game.Status.FINISHED and second.resigned_by == alice
    assert online_match.games.count() == 2
    assert console.errors == []


def test_a_refused_match_resignation_is_said_in_its_dialog(new_page, online_match, alice, bob):
    """Bob resigned the match meanwhile: Alice's Resign the match is refused with 409, the dialog
    says why, and closing it shows the match over, won by her."""
    page, console = new_page(**PHONE)
    base = asgi_url()
    log_in(page, base, "alice", f"/matches/{online_match.pk}/")
    page.locator("[data-resign-match-open]").tap()
    dialog = page.locator("[data-resign-match-dialog]")
    expect(dialog).to_be_visible()
    services.match_resign(match=online_match, user=bob.user)
    refusal_said_in_dialog(page, dialog)
    expect(page.locator("[data-score]")).to_have_text(re.compile(r"^5–0$"))
    assert [e for e in console.errors if "409" not in e] == []
