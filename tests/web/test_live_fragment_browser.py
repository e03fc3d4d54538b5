"""The live fragment of only the new turns in Debian's chromium (static/js/match.js,
docs/decisions.md D160), with uvicorn serving the site and Redis carrying the pushes: a page
that no longer holds what its fragment follows asks for the whole fragment, and shows it."""

import pytest
from playwright.sync_api import expect

from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import Watcher

pytestmark = pytest.mark.django_db(transaction=True)


def played(game, turns: int) -> int:
    """Decides until the game has ``turns`` more turns; its number of turns then."""
    start = game.turns.count()
    while game.turns.count() < start + turns:
        decide(game)
    return game.turns.count()


def test_a_page_missing_rows_before_the_new_ones_asks_for_the_whole_fragment(
    pushed, new_page, online_match
):
    game = online_match.games.get()
    turns = played(game, 2)
    watcher = Watcher(new_page)
    held: list[str | None] = []
    watcher.page.on(
        "request",
        lambda request: (
            held.append(request.headers.get("x-replay-held")) if "/live/" in request.url else None
        ),
    )
    watcher.page.goto(f"{asgi_url()}/matches/{online_match.pk}/")
    watcher.wait(lambda: watcher.frames)  # the hello: the socket is open
    rows = watcher.page.locator(".move-log li")
    expect(rows).to_have_count(turns)

    turns = played(game, 1)  # a turn pushed: only its row and frame come
    expect(rows).to_have_count(turns)
    assert held and all(held), held
    del held[:]

    watcher.page.evaluate("document.querySelector('.move-log li').remove()")  # a row lost
    turns = played(game, 1)
    expect(rows).to_have_count(turns)  # all of them again, from the whole fragment
    # Asked for whole once the page saw it lacks a row: after its fragment of the new turns, or
    # at once when a fragment asked for before the row was lost came back after it.
    assert None in held, held
    expect(watcher.page.locator("[data-replay-range]")).to_have_attribute("max", str(turns + 1))
    watcher.page.click("[data-replay-step=first]")
    expect(watcher.page.locator("[data-replay-caption]")).to_contain_text("Start of the game")
    watcher.page.click(".move-log li:first-child button")
    expect(watcher.page.locator("[data-replay-range]")).to_have_value("1")
    assert watcher.console.errors == []
