"""Practice against the computer in Debian's chromium (games/practice.py, D131, D132): Alice
starts a practice match from the lobby's form, lands on its board with the computer's turn
already played, and the Hint button shows the computer's best play for her dice as text."""

import re

import pytest
from playwright.sync_api import expect

from games import selectors, services
from games.models import Match
from tests.web.asgi_server import asgi_url
from tests.web.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_practice_from_the_lobby_with_a_hint(weights, new_page, alice, artifacts):
    page, console = new_page()
    log_in(page, asgi_url(), "alice", "/lobby/")
    form = page.locator("#practice form")
    form.locator("select[name=strength]").select_option("strong")
    form.locator("input[name=match_length]").fill("1")
    form.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    expect(page.locator("#match-live")).to_contain_text("Computer (strong)")
    game = selectors.current_game(match)
    assert selectors.player_to_move(game) == alice  # the computer has played if it began
    for _ in range(20):  # roll until Alice has dice to play (a roll without a play passes)
        game = selectors.current_game(match)
        if not selectors.is_roll_due(game):
            break
        services.dice_roll(game=game, player=alice)
    game = selectors.current_game(match)
    page.locator("#practice-hint [data-hint-button]").click()
    hint = page.locator("#practice-hint [data-hint-text]")
    expect(hint).to_have_text(re.compile(r"^\S+/\S+"))
    legal = {str(outcome.play) for outcome in selectors.game_legal_plays(game)}
    assert hint.text_content() in legal
    page.screenshot(path=str(artifacts / "practice-hint.png"), full_page=True)
    assert console.errors == []
