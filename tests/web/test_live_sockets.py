"""Pushed updates in Debian's chromium, with uvicorn serving the site (tests/web/asgi_server.py)
and Redis carrying the news, as in production: a watcher's page shows a move without asking the
state endpoint while its socket is open; a page whose socket is refused polls, and stops polling
once its socket is let in on a later try."""

from typing import Any

import pytest
from django.http import Http404
from playwright.sync_api import expect

from games.consumers import MatchConsumer
from tests.sockets import decide
from tests.web.asgi_server import asgi_url
from tests.web.helpers import Watcher

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_watcher_sees_a_move_pushed_without_polling(pushed, new_page, online_match, artifacts):
    game = online_match.games.get()
    watcher = Watcher(new_page)
    watcher.page.goto(f"{asgi_url()}/matches/{online_match.pk}/")
    watcher.wait(lambda: watcher.frames)  # the hello: the socket is open
    expect(watcher.page.locator(".move-log li")).to_have_count(0)
    del watcher.requests[:]

    decide(game)  # the roll
    decide(game)  # the play
    watcher.page.wait_for_selector(".move-log li")
    watcher.page.wait_for_timeout(2000)  # longer than the poll interval (1.5 s)

    assert len(watcher.sockets) == 1 and not watcher.sockets[0].is_closed()
    assert len(watcher.frames) >= 2 and watcher.polled() == []
    assert any("/live/" in url for url in watcher.requests)
    watcher.page.screenshot(path=str(artifacts / "match-watcher-pushed.png"), full_page=True)
    assert watcher.console.errors == []


def test_a_refused_socket_falls_back_to_polling_until_a_later_try_is_let_in(
    pushed, new_page, online_match, monkeypatch
):
    game = online_match.games.get()

    def refuse(self, user, pk):
        raise Http404("refused for the test")

    monkeypatch.setattr(MatchConsumer, "current", refuse)
    watcher = Watcher(new_page)
    watcher.page.goto(f"{asgi_url()}/matches/{online_match.pk}/")
    decide(game)
    decide(game)
    watcher.page.wait_for_selector(".move-log li")  # by polling
    assert watcher.polled() and watcher.frames == []

    monkeypatch.undo()  # a later try (1, 2, 4 ... s after the last) is let in
    watcher.wait(lambda: watcher.frames, seconds=20)
    tries = len(watcher.sockets)
    del watcher.requests[:]
    watcher.page.wait_for_timeout(2000)
    assert tries >= 2 and watcher.polled() == []
    refused = [error for error in watcher.console.errors if "WebSocket" in error]
    assert len(refused) == tries - 1 == len(watcher.console.errors)


def test_an_open_socket_sends_a_heartbeat_every_minute(pushed, new_page, online_match):
    """The server closes a socket whose client sent nothing for SOCKET_IDLE_SECONDS (D60): the
    page sends "ping" every 60 s while its socket is open (the page's clock run forward)."""
    watcher = Watcher(new_page)
    sent: list[str] = []

    def listen(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(payload))

    watcher.page.on("websocket", listen)
    watcher.page.clock.install()
    watcher.page.goto(f"{asgi_url()}/matches/{online_match.pk}/")
    watcher.wait(lambda: watcher.frames)  # the hello: the socket is open
    watcher.page.clock.run_for(59_000)
    assert sent == []
    watcher.page.clock.run_for(2_000)
    watcher.wait(lambda: sent)
    watcher.page.clock.run_for(60_000)
    watcher.wait(lambda: len(sent) == 2)
    assert sent == ["ping", "ping"]
    assert len(watcher.sockets) == 1 and not watcher.sockets[0].is_closed()
