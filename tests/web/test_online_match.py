"""An online match end to end in Debian's chromium, served by uvicorn with Redis carrying the
pushes (tests/web/asgi_server.py), as in production (issue 13): Alice on a desktop page and Bob
on a phone-sized page (390x844, tapping) play four turns on the board of a clocked match (the
standard preset), and a third page watches each play arrive over its WebSocket without asking
the state endpoint. Both clocks are shown; the running side counts down, the waiting side's bank
stands still; at the end the pages, the watcher and the API agree on the turns and the clocks."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import selectors, services
from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import TIMEOUT, Watcher, log_in, logged_in

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
PLAYS = 4

# Each side of the clock as the page shows it: its name, its text, the bank's seconds and the
# seconds it stands for (the bank, plus the delay still free when it is the running side).
CLOCK_JS = """() => [...document.querySelectorAll('[data-clock-side]')].map(node => {
  const text = node.querySelector('[data-clock-time]').textContent.trim();
  const delay = node.querySelector('[data-clock-delay]').textContent.trim();
  const bank = text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  return {side: node.dataset.clockSide, running: node.classList.contains('running'),
          text: text, bank: bank, seconds: bank + (delay ? Number(delay) : 0)};
})"""


def clock_sides(page: Any) -> dict[str, dict]:
    return {side["side"]: side for side in page.evaluate(CLOCK_JS)}


def assert_the_clock_runs(page: Any, running: str, figure: str = "seconds") -> None:
    """Both sides are shown, ``running`` counts down between two reads (its delay and bank, or
    with ``figure="bank"`` its bank, once the delay of up to 12 s has run out), the other side
    stands still."""
    running = str(running)
    expect(page.locator("[data-clock-side]")).to_have_count(2)
    expect(page.locator("[data-clock-side].running")).to_have_attribute("data-clock-side", running)
    before = clock_sides(page)
    assert len(before) == 2 and [s for s in before if before[s]["running"]] == [running]
    page.wait_for_function(
        f"([side, left]) => ({CLOCK_JS})().find(s => s.side === side).{figure} < left",
        arg=[running, before[running][figure]],
        timeout=TIMEOUT if figure == "seconds" else 3 * TIMEOUT,
    )  # a state, not a time: about a second (13 s for the bank) on an idle machine
    after = clock_sides(page)
    waiting = next(side for side in after if side != running)
    assert after[waiting]["text"] == before[waiting]["text"]
    assert after[running][figure] < before[running][figure]


def play_a_turn(page: Any, touch: bool) -> None:
    """Roll if a roll is due, then move checkers (the first lit source, then its first
    destination) until the play is complete, and Submit (a forced play goes by itself: the
    dice of these seeds give none)."""

    def press(locator: Any) -> None:
        locator.tap() if touch else locator.click()

    page.wait_for_selector("[data-action=roll], [data-board-play] [data-play-status]")
    roll = page.locator("[data-action=roll]")
    if roll.count():
        press(roll)
        page.wait_for_selector("[data-board-play] [data-play-status], .play-notice")
    submit = page.locator("[data-action=submit-play]")
    for _ in range(8):  # at most four dice: a source and a destination each
        if not page.locator("[data-board-play]").count():  # a forced play was sent
            return
        if submit.is_enabled():
            press(submit)
            return
        destinations = page.locator("[data-board-input] .destination")
        if destinations.count():
            press(destinations.first)
        else:
            press(page.locator("[data-board-input] .hit.source").first)
    raise AssertionError(page.locator("[data-play-status]").inner_text())


def test_two_players_play_a_clocked_match_on_desktop_and_phone_watched_live(
    pushed, new_page, alice, bob, organiser, artifacts
):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, clock={"preset": "standard"}
    )
    game = match.games.get()
    url = f"/matches/{match.pk}/"
    watcher = Watcher(new_page)
    watcher.page.goto(asgi_url() + url)
    watcher.wait(lambda: watcher.frames, seconds=30)  # the hello: the socket is open
    desktop, desktop_console = new_page()
    phone, phone_console = new_page(**PHONE)
    log_in(desktop, asgi_url(), "alice", url)
    log_in(phone, asgi_url(), "bob", url)
    pages = {alice.pk: (desktop, False), bob.pk: (phone, True)}
    expect(watcher.page.locator(".move-log li")).to_have_count(0)
    assert_the_clock_runs(watcher.page, match.clock_running)
    del watcher.requests[:]
    held: list[str | None] = []  # what the watcher's fragments said it held (D160)
    watcher.page.on(
        "request",
        lambda request: (
            held.append(request.headers.get("x-replay-held")) if "/live/" in request.url else None
        ),
    )

    movers = []
    for number in range(1, PLAYS + 1):
        game.refresh_from_db()
        mover = selectors.player_to_move(game)
        movers.append(mover.pk)
        page, touch = pages[mover.pk]
        play_a_turn(page, touch)
        expect(watcher.page.locator(".move-log li")).to_have_count(  # pushed to the watcher
            number, timeout=3 * TIMEOUT
        )
        page.screenshot(path=str(artifacts / f"online-match-play-{number}.png"), full_page=True)
    assert movers[::2] == [movers[0]] * 2 and movers[1::2] == [movers[1]] * 2  # alternating
    assert {movers[0], movers[1]} == {alice.pk, bob.pk}

    # The API's game: its turns are the watcher's move log, its clock the pages' clocks.
    answer = logged_in(alice).get(reverse("games:game-detail", kwargs={"pk": game.pk})).json()
    plays = [turn for turn in answer["turns"] if turn["moves"] is not None]
    assert len(plays) == PLAYS
    shown = watcher.page.locator(".move-log li .moves")  # whitespace normalised
    expect(shown).to_have_text([" ".join(turn["moves"]) for turn in plays], use_inner_text=True)
    game.refresh_from_db()
    assert answer["ply"] == game.ply == plays[-1]["ply"] + 1  # the next ply, as the server has it
    clock = answer["clock"]
    running = clock["running"]
    to_move = answer["player_to_move"]["id"]
    assert running == {alice.pk: "player_one", bob.pk: "player_two"}[to_move]
    for page in (watcher.page, desktop, phone):
        page.wait_for_selector(f'.clock-side.running[data-clock-side="{running}"]')
        sides = clock_sides(page)
        waiting = next(side for side in sides if side != running)
        bank = clock["remaining"][waiting]
        assert abs(sides[waiting]["seconds"] - bank) <= 1  # whole seconds, rounded up
        left = clock["remaining"][running] + clock["delay_left"]
        assert left - 20 <= sides[running]["seconds"] <= left + 1
    assert_the_clock_runs(phone, running, figure="bank")  # the bank itself runs

    assert len(watcher.sockets) == 1 and not watcher.sockets[0].is_closed()
    assert watcher.polled() == []  # every play came over the socket
    watcher.page.screenshot(path=str(artifacts / "online-match-watcher.png"), full_page=True)
    # The watcher's replay, put together from the frames each push's fragment added (D160), is
    # a page loaded now's, and its log's buttons step to their turns.
    named = [bool(key) for key in held]  # from the first turn on, none asked for whole again
    assert named == sorted(named) and sum(named) >= PLAYS - 1
    fresh, fresh_console = new_page()
    fresh.goto(asgi_url() + url)
    assert replay_captions(watcher.page) == replay_captions(fresh)
    turns = watcher.page.locator(".move-log li").count()
    watcher.page.click(f".move-log li:nth-child({turns}) button")
    expect(watcher.page.locator("[data-replay-range]")).to_have_value(str(turns))
    watcher.page.click("[data-replay-step=last]")
    assert watcher.console.errors == desktop_console.errors == phone_console.errors == []
    assert fresh_console.errors == []


def replay_captions(page: Any) -> list[str]:
    """Each frame's caption, stepping the page's replay from the start to the live position."""
    page.click("[data-replay-step=first]")
    frames = int(page.locator("[data-replay-range]").get_attribute("max"))
    captions = []
    for index in range(frames + 1):
        expect(page.locator("[data-replay-range]")).to_have_value(str(index))
        captions.append(page.locator("[data-replay-caption]").inner_text())
        page.click("[data-replay-step=next]")
    return captions


LATE = 2.5  # seconds the live part's answer is held back after the server built it


def test_a_late_answer_does_not_show_the_running_side_more_time(
    pushed, new_page, alice, bob, organiser
):
    """The live part's clock is as of the moment the server built it; an answer that reaches the
    page late (a slow phone network, a loaded server) must not show the running side the time
    it spent on the way as time it still has: the page counts from its request."""
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, clock={"preset": "standard"}
    )
    game = match.games.get()
    page, console = new_page()
    page.goto(f"{asgi_url()}/matches/{match.pk}/")
    expect(page.locator("[data-clock-side].running")).to_have_count(1)

    def late(route: Any) -> None:
        answer = route.fetch()  # built by the server now
        time.sleep(LATE)  # and on its way for a while: a slow network, not a check
        route.fulfill(response=answer)

    page.route(f"**/matches/{match.pk}/live/", late)
    decide(game)  # the roll
    decide(game)  # the play: the other side's clock runs
    expect(page.locator(".move-log li")).to_have_count(1, timeout=3 * TIMEOUT)
    game.refresh_from_db()
    mover = selectors.player_to_move(game)
    side = "player_one" if mover == alice else "player_two"
    expect(page.locator("[data-clock-side].running")).to_have_attribute("data-clock-side", side)
    clock = (
        logged_in(alice).get(reverse("games:game-detail", kwargs={"pk": game.pk})).json()["clock"]
    )
    running = clock["running"]
    left = clock["remaining"][running] + clock["delay_left"]
    shown = clock_sides(page)[running]["seconds"]
    assert shown <= left + 1, f"the page shows {shown} s, the server has {left:.1f} s left"
    assert console.errors == []
