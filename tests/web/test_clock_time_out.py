"""A clock that runs out ends the match on every open page within 2 s, with no reload and no
beat (issue 21 §4, scenario (c)): uvicorn serves the site as ``make run`` does (Celery eager,
no beat, no deadline task that could run, the in-process sweep off as in the tests: the lifespan
is not run), the channel layer in memory as under ``make run`` or on Redis as in production.
The player to move lets their time run out; their page, the opponent's and a signed-out
watcher's show the time-out: the pages ask the server at 0:00 (static/js/match.js), the server
ends the match (games.services.clock.match_time_out) and pushes the news to every socket of the
match, which alone brings it to pages that did not ask (docs/decisions.md D95)."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from common import push
from config.layers import channel_layer_from_url
from games import clock, services
from games.models import Match
from tests.web.asgi_server import asgi_url
from tests.web.helpers import Watcher, log_in, match_url

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = {"per_point_seconds": 90, "delay_seconds": 5}
PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
LEFT = 6  # seconds: the runner's time left once every page is open
WITHIN_MS = 2_000  # every page shows the time-out this long after the deadline at the latest


@pytest.fixture(params=["memory", "redis"])
def layer(request, settings, monkeypatch):
    """The channel layer: in memory in the server's process (``make run``), or Redis."""
    if request.param == "redis":
        request.getfixturevalue("pushed")
    else:
        settings.CHANNEL_LAYERS = {"default": channel_layer_from_url("")}
        monkeypatch.setattr(push, "_down_until", 0.0)
    return request.param


def run_out_of_time(new_page, alice, bob, organiser, artifacts, *, only_runner_asks: bool) -> None:
    """Both players and a watcher open the match; the runner's time runs out. With
    ``only_runner_asks`` the other pages' reads of state.json answer 304 (the browser's own
    route), so only the push can tell them."""
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=1, clock=CLOCK
    )
    runner = match.clock_running
    runner_name = "alice" if runner == Match.ClockSide.PLAYER_ONE else "bob"
    players = {"alice": new_page(), "bob": new_page(**PHONE)}  # Bob on a phone
    for name, (page, _console) in players.items():
        log_in(page, asgi_url(), name, "/")
    watcher = Watcher(new_page)
    runner_page = players[runner_name][0]
    if only_runner_asks:
        for page in [page for page, _c in players.values() if page is not runner_page]:
            page.route("**/state.json", lambda route: route.fulfill(status=304))
        watcher.page.route("**/state.json", lambda route: route.fulfill(status=304))

    # The runner has LEFT seconds of bank and no delay left (set in the database: no preset is
    # this short); the deadline task is never published (eager Celery, as under make run).
    now = clock.now()
    started = now - datetime.timedelta(seconds=CLOCK["delay_seconds"])
    deadline = now + datetime.timedelta(seconds=LEFT)
    bank = {"clock_one_ms" if runner == "player_one" else "clock_two_ms": LEFT * 1000}
    Match.objects.filter(pk=match.pk).update(
        clock_turn_started_at=started, clock_deadline=deadline, **bank
    )
    url = asgi_url() + match_url(match)
    pages = [page for page, _console in players.values()] + [watcher.page]
    for page in pages:
        page.goto(url)
        expect(page.locator("[data-match-status]")).to_have_attribute(
            "data-match-status", "in_progress"
        )
    watcher.wait(lambda: watcher.frames)  # the watcher's socket is open
    expect(runner_page.locator("#play-panel")).to_be_visible()
    left_ms = (deadline - clock.now()).total_seconds() * 1000
    assert left_ms > 1000, "the pages took too long to open for the test to mean anything"

    for page in pages:  # each page shows it 2 s after the deadline at the latest
        left = (deadline - clock.now()).total_seconds() * 1000 + WITHIN_MS
        expect(page.locator("[data-match-status]")).to_have_attribute(
            "data-match-status", "finished", timeout=max(left, 1)
        )
        expect(page.locator(".match-header")).to_contain_text("(on time)", use_inner_text=True)
        expect(page.locator(f'.clock-side.flagged[data-clock-side="{runner}"]')).to_have_count(1)
    expect(runner_page.locator("#play-panel")).to_have_count(0)  # no "Your turn" left

    ended = Match.objects.get(pk=match.pk)
    assert ended.status == Match.Status.FINISHED and ended.ended_by == Match.EndedBy.TIME
    assert ended.winner_id == (bob.pk if runner_name == "alice" else alice.pk)
    assert len(watcher.sockets) == 1 and not watcher.sockets[0].is_closed()
    shot = "match-time-out-pushed.png" if only_runner_asks else "match-time-out-watcher.png"
    watcher.page.screenshot(path=str(artifacts / shot), full_page=True)
    for _page, console in players.values():
        assert console.errors == []
    assert watcher.console.errors == []


def test_every_page_shows_the_time_out_within_two_seconds(
    layer, new_page, alice, bob, organiser, artifacts
):
    run_out_of_time(new_page, alice, bob, organiser, artifacts, only_runner_asks=False)


def test_the_push_alone_brings_the_time_out_to_the_pages_that_did_not_ask(
    layer, new_page, alice, bob, organiser, artifacts
):
    run_out_of_time(new_page, alice, bob, organiser, artifacts, only_runner_asks=True)
