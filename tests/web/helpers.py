"""Helpers shared by the web test modules (test modules import from here, not each other)."""

from typing import Any

from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Frame, Page, expect

from games import selectors, services

TIMEOUT = 10_000  # ms: Playwright's default timeout for the browser tests
STATE = "/state.json"  # how a match page's state endpoint ends (the page polls it)


class Console:
    """Collects console errors and uncaught exceptions of a page."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))


def log_in(page: Any, base_url: str, username: str, next_path: str) -> None:
    """Log in through the login form of a browser page and wait for ``next_path``."""
    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "password")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{base_url}{next_path}")


def in_macedonian(page: Any, base: str) -> None:
    """The page's later loads in Macedonian (the language cookie, as the switcher sets it)."""
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "mk", "url": base}])


def cancel_by_keyboard(page: Any, opener: Any, dialog: Any, screenshot: Any = None) -> None:
    """Open a confirming ``dialog`` from ``opener`` by the keyboard (a ``screenshot`` path of it
    open, if given): its Cancel (the form's submit) is focused first, so Esc closes it and so
    does Enter straight away."""
    opener.focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    cancel = dialog.locator("button[type=submit]")
    expect(cancel).to_be_focused()  # Enter straight away does not resign
    if screenshot is not None:
        page.screenshot(path=str(screenshot))
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    opener.focus()
    page.keyboard.press("Enter")
    expect(cancel).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()


def refusal_said_in_dialog(page: Any, dialog: Any) -> None:
    """Resign in the open ``dialog`` after the game or match ended meanwhile: the refusal (409)
    is said in the dialog, the page is not redrawn under it, and closing it shows the match
    over, with no Resign left."""
    dialog.locator('[data-action="resign"]').tap()
    error = dialog.locator("[data-resign-error]")
    expect(error).to_be_visible()
    expect(error).to_contain_text("over")
    expect(dialog).to_be_visible()  # the page was not redrawn under the open dialog
    dialog.locator("button[type=submit]").tap()
    expect(page.locator("[data-match-status]")).to_have_attribute("data-match-status", "finished")
    expect(page.locator("[data-resign]")).to_have_count(0)


def match_url(match: Any, **query: Any) -> str:
    url = reverse("web:match", kwargs={"pk": match.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def logged_in(player: Any) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


class Watcher:
    """A watcher's page (of ``new_page``), with what it requested and the frames its sockets
    received."""

    def __init__(self, new_page: Any) -> None:
        self.page, self.console = new_page()
        self.requests: list[str] = []
        self.frames: list[str] = []
        self.sockets: list = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on("framereceived", lambda payload: self.frames.append(payload))

    def wait(self, check: Any, seconds: float = 10) -> None:
        for _ in range(int(seconds * 20)):
            if check():
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"gave up after {seconds} s; console: {self.console.errors}")

    def polled(self) -> list[str]:
        return [url for url in self.requests if url.endswith(STATE)]


class Loads:
    """The main frame's navigations and page loads of ``page`` from ``start()`` on."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.navigations: list[str] = []
        self.loads: list[str] = []
        self.counting = False
        page.on("framenavigated", self._navigated)
        page.on("load", lambda _page: self.counting and self.loads.append(page.url))

    def _navigated(self, frame: Frame) -> None:
        if self.counting and frame == self.page.main_frame:
            self.navigations.append(frame.url)

    def start(self) -> None:
        self.counting = True
        self.page.evaluate("window.deskMarker = 1")


def your_dice_to_choose(match: Any, alice: Any) -> None:
    """Rolls (and plays a forced play) for Alice until she has a choice of plays to make: the
    computer answers each of her turns at once (D132)."""
    for _ in range(40):
        game = selectors.current_game(match)
        if selectors.is_roll_due(game):
            services.dice_roll(game=game, player=alice)
            continue
        legal = selectors.game_legal_plays(game)
        if len(legal) > 1:
            return
        services.play_submit(game=game, player=alice, ply=game.ply, moves=legal[0].play.to_json())
    raise AssertionError("no choice of plays in 40 decisions")
