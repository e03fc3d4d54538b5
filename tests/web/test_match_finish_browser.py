"""The match page as a match goes on and ends while it is open, in Debian's chromium
(static/js/match.js, chances.js, practice.js; docs/decisions.md D161): the Review and Chances
cards of a match that ends on the page come in without a reload; the practice hint is there only
with dice to play, says "Best play:" and goes with its decision, a refusal too; a spectator's
chance bar sits with the board, at the phone's and the desktop's sizes."""

import re
import time

import pytest
from playwright.sync_api import expect

from games import practice, selectors, services
from games.models import Match
from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import log_in, your_dice_to_choose

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}

# Whether the last figure of a label and its "%" (the label's last character) are on one line.
SIGN_WITH_FIGURE = """node => {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const chars = [];
  while (walker.nextNode()) {
    for (let i = 0; i < walker.currentNode.length; i++) chars.push([walker.currentNode, i]);
  }
  const top = (k) => {
    const range = document.createRange();
    range.setStart(chars[k][0], chars[k][1]);
    range.setEnd(chars[k][0], chars[k][1] + 1);
    return range.getBoundingClientRect().top;
  };
  return Math.abs(top(chars.length - 1) - top(chars.length - 3)) < 2;
}"""


def practice_match(alice) -> Match:
    """A one-point practice match of Alice against the beginner (unrated: its chances are
    everyone's once it is over), her dice rolled by her (D164), so that a roll can be due."""
    services.practice_start(user=alice.user, strength="beginner", target_score=1, auto_roll=False)
    return Match.objects.get()


def your_roll(match: Match, alice) -> None:
    """Forced plays of Alice until she is to roll."""
    for _ in range(40):
        game = selectors.current_game(match)
        if selectors.is_roll_due(game):
            return
        legal = selectors.game_legal_plays(game)
        services.play_submit(game=game, player=alice, ply=game.ply, moves=legal[0].play.to_json())
    raise AssertionError("no roll of Alice's due in 40 decisions")


def play_first(match: Match, alice) -> None:
    game = selectors.current_game(match)
    legal = selectors.game_legal_plays(game)
    services.play_submit(game=game, player=alice, ply=game.ply, moves=legal[0].play.to_json())


@pytest.mark.parametrize("size", SIZES)
def test_the_review_and_the_chances_come_in_when_the_match_ends_on_the_page(
    size, weights, pushed, new_page, alice, artifacts
):
    """Alice's practice match ends while its page is open (she resigns the game from another
    tab): the live part says so, and the Review card, the Chances card (with chances.js, which
    the page of a player of a match in progress does not load) and the header's link to the
    review come in, with no reload."""
    match = practice_match(alice)
    for _ in range(3):  # decisions with a choice, for the review
        your_dice_to_choose(match, alice)
        play_first(match, alice)
    page, console = new_page(**SIZES[size])
    log_in(page, asgi_url(), "alice", f"/matches/{match.pk}/")
    page.evaluate("window.__notReloaded = true")
    status = page.locator("#match-live [data-match-status]")
    expect(status).to_have_attribute("data-match-status", "in_progress")
    expect(page.locator("#review")).to_have_count(0)
    expect(page.locator("#chances")).to_have_count(0)
    expect(page.locator("[data-review-link]")).to_have_count(0)

    path = f"/matches/{match.pk}/"
    fetched: list[str] = []  # the page's own address asked for again (not its fragment)
    page.on("request", lambda request: request.url.endswith(path) and fetched.append(request.url))
    started = time.monotonic()
    services.game_resign(game=selectors.current_game(match), kind="single", player=alice)

    expect(status).to_have_attribute("data-match-status", "finished")
    review = page.locator("#review")
    expect(review).to_be_visible()
    print(f"the review came in {time.monotonic() - started:.2f} s after the match ended")
    expect(review.locator("[data-review-player]")).to_have_count(2)
    label = page.locator("#chances [data-chance-one-label]")
    expect(label).to_have_text(re.compile(r"^Alice \d+ %$"))
    # The card sits at the top of the live part's side column, with the board.
    expect(page.locator("#match-live .side > #chances:first-child")).to_be_visible()
    link = page.locator("[data-review-link]")
    expect(link).to_be_visible()
    link.get_by_role("link").click()
    expect(review).to_be_in_viewport()
    assert page.evaluate("window.__notReloaded") is True
    assert len(fetched) == 1  # once, for the one change of status
    assert page.locator("script[src*='chances.js']").count() == 1
    page.screenshot(path=str(artifacts / f"match-ended-on-the-page-{size}.png"), full_page=True)
    assert console.errors == []


def test_the_hint_is_there_with_dice_and_goes_with_its_decision(
    weights, pushed, new_page, alice, artifacts
):
    """The practice hint on a phone: no button while a roll is due (a hint needs dice); a
    refusal goes once the decision it was for is gone, as a hint does; a hint says "Best
    play:" before the play."""
    match = practice_match(alice)
    your_roll(match, alice)
    page, console = new_page(**PHONE)
    log_in(page, asgi_url(), "alice", f"/matches/{match.pk}/")
    section = page.locator("#practice-hint")
    button = section.locator("[data-hint-button]")
    text = section.locator("[data-hint-text]")
    best = section.locator("[data-hint-label]")
    expect(page.locator("#play-panel [data-action=roll]")).to_be_visible()
    expect(section).to_be_hidden()

    your_dice_to_choose(match, alice)
    expect(page.locator("[data-board-play] #practice-hint [data-hint-button]")).to_be_visible()
    # A refusal (as when the dice were gone by the time the server read them) stays on its
    # decision only.
    refusal = "roll the dice first: a hint is for the dice on the table"
    page.route("**/hint/", lambda route: route.fulfill(status=409, json={"detail": refusal}))
    button.click()
    expect(text).to_have_text(refusal)
    expect(best).to_be_hidden()
    page.unroute("**/hint/")
    page.screenshot(path=str(artifacts / "practice-hint-refused-phone.png"), full_page=True)
    play_first(match, alice)  # the computer answers: Alice's roll is due again
    expect(page.locator("#play-panel [data-action=roll]")).to_be_visible()
    expect(text).to_have_text("")
    expect(section).to_be_hidden()

    your_dice_to_choose(match, alice)
    expect(button).to_be_visible()
    game = selectors.current_game(match)
    button.click()
    expected = practice.practice_hint(user=alice.user, game=game.pk)
    expect(text).to_have_text(expected.text)
    expect(best).to_be_visible()
    expect(section.locator("[aria-live]")).to_have_text(f"Best play: {expected.text}")
    page.locator("[data-board-play]").screenshot(path=str(artifacts / "practice-hint-phone.png"))
    assert console.errors == [  # the refusal's answer, the route's
        "Failed to load resource: the server responded with a status of 409 (Conflict)"
    ]


@pytest.mark.parametrize("size", SIZES)
def test_a_spectator_sees_the_chances_with_the_board(
    size, pushed, weights, new_page, alice, bob, organiser, artifacts
):
    """The spectator of an unrated match: the Chances card is the first of the side column,
    right under the board on a phone and beside it, in view with it, on a desktop; it stays
    there after an update; a percentage keeps its sign on its line ("Ana Petrovska 49 %" went
    to two lines on a phone, the "%" alone on the second)."""
    for player, name in ((alice, "Ana Petrovska"), (bob, "Boris Ivanov")):
        player.display_name = name
        player.save(update_fields=["display_name"])
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, rated=False)
    game = match.games.get()
    page, console = new_page(**SIZES[size])
    page.goto(f"{asgi_url()}/matches/{match.pk}/")
    card = page.locator("#match-live .side > #chances:first-child")
    labels = card.locator("[data-chance-one-label], [data-chance-two-label]")
    expect(labels.first).to_have_text(re.compile(r"^Ana Petrovska \d+ %$"))
    expect(labels.last).to_have_text(re.compile(r"^Boris Ivanov \d+ %$"))
    line = card.locator("[data-chance-line]")
    before = line.get_attribute("points")
    decide(game)  # the roll
    decide(game)  # the play
    expect(line).not_to_have_attribute("points", before or "")
    expect(card).to_be_visible()
    assert labels.evaluate_all(f"nodes => nodes.map({SIGN_WITH_FIGURE})") == [True, True]
    board, chances = page.locator(".board-card").bounding_box(), card.bounding_box()
    assert board is not None and chances is not None
    if size == "phone":  # right under the board
        assert 0 < chances["y"] - (board["y"] + board["height"]) < 40
    else:  # beside it, in view on first sight
        assert chances["x"] > board["x"] + board["width"]
        assert chances["y"] + chances["height"] < DESKTOP["height"]
    page.screenshot(path=str(artifacts / f"spectator-chances-{size}.png"), full_page=True)
    assert console.errors == []
