"""The open desk over its tournament's socket (issue 22 §2), with uvicorn serving the site
(tests/web/asgi_server.py) and Redis carrying the news: a report made from a phone shows on the
Results tab within 2 s, its badge too, while the socket stays open."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import services as games_services
from tests.web.asgi_server import asgi_url
from tests.web.helpers import Watcher, log_in
from tests.web.test_desk_play import row, running

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_report_is_pushed_to_the_open_desk(pushed, new_page):
    cup = running(4, format="single_elimination")
    first = row(cup, "W1-1")
    desk = Watcher(new_page)
    path = reverse("tournaments_web:desk", kwargs={"pk": cup.pk}) + "?tab=results"
    log_in(desk.page, asgi_url(), cup.created_by.username, path)
    desk.wait(lambda: desk.frames)  # the hello: the socket is open
    desk.page.evaluate("window.deskMarker = 1")
    del desk.requests[:]
    hello = len(desk.frames)

    reported = time.monotonic()
    report = games_services.result_report(
        match=first.match, user=first.entry_two.player.user, scope="match", score_one=1,
        score_two=3,
    )  # fmt: skip
    item = desk.page.locator(f'li.desk-report[data-report="{report.pk}"]')
    expect(item).to_contain_text("pending", use_inner_text=True, timeout=2000)
    print(f"pushed: the report on the desk {time.monotonic() - reported:.2f} s after it was made")
    expect(desk.page.locator("[data-desk-badge]")).to_have_text("1", timeout=2000)
    games_services.result_confirm(report=report, user=first.entry_one.player.user)
    expect(desk.page.locator("[data-queue-empty]")).to_be_visible(timeout=2000)
    expect(desk.page.locator("[data-desk-badge]")).to_be_hidden(timeout=2000)
    done = desk.page.locator('.desk-finished li.desk-match[data-key="W1-1"]')
    expect(done).to_contain_text("1–3", use_inner_text=True)

    # One socket follows the tournament, kept open (the header's badge has its own, per user).
    followed = [socket for socket in desk.sockets if "/ws/tournaments/" in socket.url]
    assert len(followed) == 1 and not followed[0].is_closed()
    assert len(desk.frames) > hello  # the report and the confirmation came as messages
    assert any("fragment=results" in url for url in desk.requests)
    assert desk.page.evaluate("window.deskMarker") == 1
    assert desk.console.errors == []
