"""Issue 22, tested as a user would, counting the organiser's actions in the test itself: an
8-player double elimination from an empty site to the podium, every result typed at the desk,
in at most 40 actions and with no page load once the desk is open (a); six results of the same
tournament coming from the tables with the slips' codes, on two phones, one pair disagreeing and
the desk overriding, each shown on the open desk within 2 s without a reload (b); a 12-player
Swiss of 3 rounds with each round's pairings and slips opened for printing, in at most 70
actions (c).
Every click, fill, key press, selection, address typed, dialog answered and tab closed counts
one: ``Actions`` counts them for every page, locator and keyboard of Playwright while it is on
(what the test cannot count, a script's own clicks or events, it refuses). The counts are
printed, and written in the README's organiser section (D119-D121)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Dialog, ElementHandle, Frame, Keyboard, Locator, Mouse, Page, expect

from tests.tournaments.factories import ClubFactory, UserFactory
from tests.web.asgi_server import asgi_url
from tests.web.helpers import Loads, log_in
from tests.web.test_desk_play import running
from tournaments.management.commands.demo_setup import rated_organisers_group
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db

DESKTOP = (1280, 800)
PHONE = (390, 844)
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

USER_ACTIONS = (
    *("click", "dblclick", "tap", "fill", "type", "press", "press_sequentially"),
    *("select_option", "check", "uncheck", "set_checked", "set_input_files", "clear"),
)
COUNTED: dict[type, tuple[str, ...]] = {
    Page: (*USER_ACTIONS, "goto", "go_back", "go_forward", "reload", "close"),
    Frame: (*USER_ACTIONS, "goto"),
    Locator: USER_ACTIONS,
    ElementHandle: USER_ACTIONS,
    Keyboard: ("press", "type", "insert_text", "down"),
    Mouse: ("click", "dblclick", "down"),
    Dialog: ("accept", "dismiss"),
}
# What a user cannot do: the test may not do it behind the count's back.
REFUSED: dict[type, tuple[str, ...]] = {
    Page: ("dispatch_event", "set_content", "add_script_tag", "evaluate_handle"),
    Frame: ("dispatch_event", "set_content", "add_script_tag", "evaluate_handle"),
    Locator: ("dispatch_event", "evaluate", "evaluate_all", "evaluate_handle"),
    ElementHandle: ("dispatch_event", "evaluate", "evaluate_handle"),
}
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"
READS = {  # the only scripts the test runs in the page: they read, change nothing
    "window.deskMarker",
    SIDEWAYS,
    "window.deskMarker = 1",  # a mark a page load would wipe out
}


class Actions:
    """Counts every user action of Playwright's sync API while on (``with actions.on():``):
    patched on the classes, so no page, frame, locator or keyboard escapes it."""

    def __init__(self) -> None:
        self.done: list[str] = []

    @contextlib.contextmanager
    def on(self) -> Iterator[Actions]:
        saved: list[tuple[type, str, Any]] = []
        for cls, names in COUNTED.items():
            for name in names:
                if not hasattr(cls, name):  # e.g. a page has no press_sequentially
                    continue
                original = getattr(cls, name)
                saved.append((cls, name, original))
                setattr(cls, name, self._counted(cls.__name__, name, original))
        for cls, names in REFUSED.items():
            for name in names:
                if not hasattr(cls, name):
                    continue
                saved.append((cls, name, getattr(cls, name)))
                setattr(cls, name, self._refused(cls.__name__, name))
        for cls in (Page, Frame):
            original = cls.evaluate
            saved.append((cls, "evaluate", original))
            cls.evaluate = self._reads(original)  # type: ignore[method-assign]
        try:
            yield self
        finally:
            for cls, name, original in reversed(saved):
                setattr(cls, name, original)

    def _counted(self, owner: str, name: str, original: Any) -> Any:
        def action(target: Any, *args: Any, **kwargs: Any) -> Any:
            what = ", ".join(str(a).replace("\n", " / ")[:40] for a in args)
            self.done.append(f"{owner}.{name}({what})")
            return original(target, *args, **kwargs)

        return action

    @staticmethod
    def _refused(owner: str, name: str) -> Any:
        def refused(*_args: Any, **_kwargs: Any) -> Any:
            raise AssertionError(f"{owner}.{name} is no user's action: the count cannot see it")

        return refused

    @staticmethod
    def _reads(original: Any) -> Any:
        def evaluate(target: Any, expression: str, *args: Any, **kwargs: Any) -> Any:
            assert expression in READS, f"not a read of the page: {expression}"
            return original(target, expression, *args, **kwargs)

        return evaluate

    @property
    def count(self) -> int:
        return len(self.done)


@pytest.fixture
def organiser(db):
    """An organiser as staff make one: in the group of rated tournaments' organisers, with the
    permission to enter players (as the demo's organisers have), no player of their own."""
    user = UserFactory(username="club-organiser")
    user.groups.add(rated_organisers_group())
    return user


def log_in_and_new(page: Page, base: str, username: str) -> None:
    """From the site's tournaments page, logged out, to the new-tournament form."""
    page.goto(f"{base}/tournaments/")
    page.locator(".site-nav").get_by_role("link", name="Log in").click()
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill("password")
    page.locator("input[name=password]").press("Enter")
    page.wait_for_url(f"{base}/tournaments/")
    page.get_by_role("link", name="New tournament").click()
    page.wait_for_url(f"{base}/tournaments/new/")


def create_and_start(page: Page, name: str, fmt: str, players: list[str], **numbers: int) -> None:
    page.locator("input[name=name]").fill(name)
    page.locator("select[name=format]").select_option(fmt)
    for field, value in numbers.items():
        page.locator(f"input[name={field}]").fill(str(value))
    page.locator("textarea[name=players]").fill("\n".join(players))
    page.get_by_role("button", name="Create and start").click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+/desk/$"))


FOCUSED = "form[data-score] input[name=score]:focus"


def type_score(page: Page, won: int, lost: int) -> str:
    """Type a score in the field where the cursor is (the desk put it on the next open table)
    and press Enter; wait until the desk shows the match among the finished ones."""
    field = page.locator(FOCUSED)
    expect(field).to_have_count(1)
    key = field.locator("xpath=ancestor::li[@data-key]").get_attribute("data-key")
    field.fill(f"{won}-{lost}")
    page.keyboard.press("Enter")
    page.locator(f'.desk-finished li.desk-match.done[data-key="{key}"]').wait_for()
    return str(key)


def report(name: str, size: tuple[int, int], actions: Actions, limit: int, **more: Any) -> None:
    label = "phone" if size == PHONE else "desktop"
    extra = "".join(f", {k.replace('_', ' ')}: {v}" for k, v in more.items())
    print(
        f"\n{name} at {label} {size[0]}x{size[1]}: {actions.count} actions (at most {limit}){extra}"
    )
    for number, action in enumerate(actions.done, start=1):
        print(f"  {number:2d}. {action}")


# --- (a) an 8-player double elimination -------------------------------------------------------

DOUBLE_LIST = [
    "Ilija Stojanov, 1750",
    "Marija Dimitrova, 1700",
    "Nikola Jovanov, 1650",
    "Elena Kostova, 1600",
    "Petar Novak, 1550",
    "Sara Kovač, 1500",
    "Ana Petrovska, 1800",
    "Boris Ivanov, 1300",
]


@pytest.mark.parametrize("size", SIZES)
def test_a_double_elimination_from_an_empty_site_to_the_podium_in_40_actions(
    live_server, new_page, artifacts, organiser, size
):
    ClubFactory(name="Struga Tabla Club")  # the only club: the new tournament's club
    page, console = new_page(*size)
    loads = Loads(page)
    actions = Actions()
    with actions.on():
        log_in_and_new(page, live_server.url, organiser.username)
        create_and_start(page, "Friday Double", "double_elimination", DOUBLE_LIST)
        cup = Tournament.objects.get(name="Friday Double")
        assert (cup.status, cup.entries.count(), cup.grand_final_reset) == ("running", 8, True)
        top = TournamentMatch.objects.get(tournament=cup, key="W1-1")
        assert top.entry_one.player.display_name == "Ana Petrovska", "seeded by rating"
        assert top.entry_two.player.display_name == "Boris Ivanov"
        loads.start()

        entered = []
        while page.locator(".desk-open form[data-score]").count():
            entered.append(type_score(page, cup.match_length, len(entered) % cup.match_length))
        podium = page.locator(".desk [data-podium]")
        podium.wait_for()

    cup.refresh_from_db()
    assert cup.status == "finished" and len(entered) == 14 and entered[-1] == "GF"
    champion = TournamentMatch.objects.get(tournament=cup, key="GF").winner.player.display_name
    expect(podium.locator('[data-place="1"] .podium-names')).to_have_text(champion)
    expect(page.locator("[data-desk-status]")).to_have_text("finished")
    expect(page.locator("[data-next-step]").get_by_role("link")).to_have_attribute(
        "href", f"/tournaments/{cup.pk}/"
    )
    assert loads.loads == [] and loads.navigations == [], "no page load once the desk is open"
    assert page.evaluate("window.deskMarker") == 1
    label = "phone" if size == PHONE else "desktop"
    page.screenshot(path=str(artifacts / f"actions-double-{label}-podium.png"))  # as seen
    assert page.evaluate(SIDEWAYS) <= 0, "the finished desk scrolls sideways"
    report("(a) 8-player double elimination", size, actions, 40, page_loads_at_the_desk=0)
    assert actions.count <= 40
    assert console.errors == []


def test_a_wrong_line_of_the_list_stops_create_and_start_before_anything_exists(
    live_server, new_page, organiser
):
    """The list is checked before the tournament is created (D120): a club nobody knows is
    named, nothing is created, and the form says which line."""
    ClubFactory(name="Struga Tabla Club")
    page, console = new_page(*PHONE)
    log_in_and_new(page, live_server.url, organiser.username)
    page.locator("input[name=name]").fill("Typo Cup")
    page.locator("textarea[name=players]").fill("Ana Petrovska, 1800\nBoris Ivanov, Nowhere, 1500")
    page.get_by_role("button", name="Create and start").click()
    error = page.locator(".form-submit [data-error]:not([hidden])")
    expect(error).to_contain_text("line 2 (Boris Ivanov): unknown club “Nowhere”")
    assert not Tournament.objects.filter(name="Typo Cup").exists()
    assert page.url.endswith("/tournaments/new/")
    # Without the club the list goes in, and the tournament starts with both players.
    page.locator("textarea[name=players]").fill("Ana Petrovska, 1800\nBoris Ivanov, 1500")
    page.get_by_role("button", name="Create and start").click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+/desk/$"))
    cup = Tournament.objects.get(name="Typo Cup")
    assert (cup.status, cup.entries.count()) == ("running", 2)
    assert console.errors == []


def test_the_players_box_is_for_those_who_may_enter_players(client, organiser):
    """Only an organiser of players gets the list and Create and start; another user's form
    is as before (the desk's list is theirs alone, too)."""
    new = reverse("tournaments_web:new")
    client.force_login(UserFactory(username="member"))
    html = client.get(new).content.decode()
    assert 'name="players"' not in html and "Create and start" not in html
    client.force_login(organiser)
    html = client.get(new).content.decode()
    assert 'name="players"' in html and "data-create-start" in html
    assert 'id="new-tournament-players"' in html and "tournament-new.js" in html


# --- (b) six results from the tables, on the open desk ----------------------------------------

PHONE_CONTEXT = {"has_touch": True, "is_mobile": True}
SHOWN_WITHIN = 2.0  # seconds: a result from the tables on the open desk


def print_codes(desk: Page, link: Locator) -> dict[str, list[str]]:
    """Open a round's print page from the desk (a tab of its own), read each slip's two codes
    as a player reads theirs, and close it."""
    with desk.context.expect_page() as opened:
        link.click()
    sheet = opened.value
    slips = sheet.locator("article.slip[data-slip]")
    slips.first.wait_for()
    codes = {}
    for i in range(slips.count()):
        slip = slips.nth(i)
        codes[str(slip.get_attribute("data-slip"))] = slip.locator(
            ".report-code-value"
        ).all_inner_texts()
    sheet.close()
    return codes


def on_desk(desk: Page, locator: Locator, what: str, timings: list[str]) -> None:
    """``locator`` shows on the open desk within SHOWN_WITHIN of now."""
    began = time.monotonic()
    expect(locator).to_be_visible(timeout=SHOWN_WITHIN * 1000)
    timings.append(f"{what}: {time.monotonic() - began:.2f} s")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", SIZES)
def test_b_results_from_the_tables_show_on_the_open_desk(pushed, new_page, size):
    cup = running(8, format="double_elimination")
    base = asgi_url()
    desk, desk_console = new_page(*size)
    hello: list[Any] = []  # the frames of the tournament's socket: the first is its hello

    def follow(socket: Any) -> None:
        if "/ws/tournaments/" in socket.url:
            socket.on("framereceived", lambda payload: hello.append(payload))

    desk.on("websocket", follow)
    path = reverse("tournaments_web:desk", kwargs={"pk": cup.pk}) + "?tab=results"
    log_in(desk, base, cup.created_by.username, path)
    for _ in range(200):  # the desk follows its tournament over its socket, once subscribed
        if hello:
            break
        desk.wait_for_timeout(50)  # Playwright hands over the events while it waits
    assert hello, "the desk's socket said hello"
    loads = Loads(desk)
    loads.start()
    codes = print_codes(desk, desk.locator('[data-print-round="1"]'))
    assert sorted(codes) == ["W1-1", "W1-2", "W1-3", "W1-4"]

    first, first_console = new_page(*PHONE, **PHONE_CONTEXT)  # the slip's first player
    second, second_console = new_page(*PHONE, **PHONE_CONTEXT)  # the second player
    timings: list[str] = []
    queue = desk.locator(".desk-queue")
    finished = desk.locator(".desk-finished")

    def from_the_tables(key: str, one: int, two: int, seen: tuple[int, int] | None = None) -> None:
        code_one, code_two = codes[key]
        first.goto(f"{base}/r/{code_one}/")
        form = first.locator("[data-report-form]")
        form.locator("input[name=score_one]").fill(str(one))
        form.locator("input[name=score_two]").fill(str(two))
        form.get_by_role("button", name="Report the score").click()
        first.locator("[data-waiting]").wait_for()
        item = queue.locator("li.desk-report", has=desk.locator(f'.desk-key:text-is("{key}")'))
        on_desk(desk, item, f"{key} reported", timings)
        second.goto(f"{base}/r/{code_two}/")
        if seen is None:
            second.get_by_role("button", name="Confirm").click()
            second.locator("[data-done]").wait_for()
            on_desk(
                desk,
                finished.locator(f'li.desk-match[data-key="{key}"]'),
                f"{key} confirmed",
                timings,
            )
            return
        second.locator("summary", has_text="not right").click()
        dispute = second.locator("[data-dispute-form]")
        dispute.locator("input[name=score_one]").fill(str(seen[0]))
        dispute.locator("input[name=score_two]").fill(str(seen[1]))
        dispute.get_by_role("button", name="Send to the desk").click()
        second.locator("[data-disputed]").wait_for()
        on_desk(desk, item.locator(".badge.status-disputed"), f"{key} disputed", timings)
        expect(item.locator("[data-disputed-score]")).to_contain_text(f"{seen[0]}–{seen[1]}")

    from_the_tables("W1-1", 3, 1)
    from_the_tables("W1-2", 0, 3)
    from_the_tables("W1-3", 3, 2)
    from_the_tables("W1-4", 3, 0, seen=(1, 3))  # one pair disagrees: the desk decides
    item = queue.locator("li.desk-report")
    item.locator("summary", has_text="Override").click()
    override = item.locator("form[data-override]")
    override.locator('input[name="score_one"]').fill("1")
    override.locator('input[name="score_two"]').fill("3")
    override.get_by_role("button", name="Count this result").click()
    desk.locator("[data-queue-empty]").wait_for()
    expect(finished.locator('li.desk-match[data-key="W1-4"] .desk-final')).to_have_text("1–3")

    # The next round's slips, printed from the open desk; two more results from the tables.
    for link in desk.locator(".desk-open [data-print-round]").all():
        codes |= print_codes(desk, link)
    from_the_tables("W2-1", 3, 1)
    from_the_tables("L1-1", 1, 3)

    done = TournamentMatch.objects.filter(tournament=cup, status="done")
    assert sorted(done.values_list("key", flat=True)) == [
        "L1-1",
        "W1-1",
        "W1-2",
        "W1-3",
        "W1-4",
        "W2-1",
    ]
    assert [(m.score_one, m.score_two) for m in done.order_by("key")] == [
        (1, 3), (3, 1), (0, 3), (3, 2), (1, 3), (3, 1)
    ]  # fmt: skip
    label = "phone" if size == PHONE else "desktop"
    print(f"\n(b) results from the tables on the open desk at {label}: " + "; ".join(timings))
    assert loads.loads == [] and loads.navigations == [], "the desk was never reloaded"
    assert desk.evaluate("window.deskMarker") == 1
    assert desk_console.errors == [] and first_console.errors == []
    assert second_console.errors == []


# --- (c) a 12-player Swiss of 3 rounds, printed -----------------------------------------------

SWISS_LIST = [f"Swiss Player {i:02d}, {1900 - 25 * i}" for i in range(1, 13)]


@pytest.mark.parametrize("size", SIZES)
def test_a_swiss_of_three_rounds_printed_in_70_actions(live_server, new_page, organiser, size):
    ClubFactory(name="Struga Tabla Club")
    page, console = new_page(*size)
    loads = Loads(page)
    actions = Actions()
    with actions.on():
        log_in_and_new(page, live_server.url, organiser.username)
        create_and_start(page, "Thursday Swiss", "swiss", SWISS_LIST, swiss_rounds=3)
        swiss = Tournament.objects.get(name="Thursday Swiss")
        assert (swiss.status, swiss.entries.count(), swiss.swiss_rounds) == ("running", 12, 3)
        loads.start()

        for number in (1, 2, 3):
            with page.context.expect_page() as opened:
                page.locator(f'[data-print-round="{number}"]').click()
            sheet = opened.value
            sheet.wait_for_load_state()
            expect(sheet.locator("[data-pairings] tbody tr")).to_have_count(6)
            expect(sheet.locator("[data-slip]")).to_have_count(6)
            expect(sheet.get_by_role("button", name="Print")).to_be_visible()
            sheet.close()  # printed: back to the desk, still open in its own tab

            for _table in range(6):
                type_score(page, swiss.match_length, 1)
            if number < 3:
                page.locator("[data-pair-here]").get_by_role(
                    "button", name=f"Pair round {number + 1}"
                ).click()
                page.locator(f'[data-print-round="{number + 1}"]').wait_for()
        page.locator(".desk [data-podium]").wait_for()

    swiss.refresh_from_db()
    assert swiss.status == "finished" and swiss.current_round == 3
    assert loads.loads == [] and loads.navigations == [], "the desk stayed open throughout"
    report("(c) 12-player Swiss of 3 rounds, printed", size, actions, 70, page_loads_at_the_desk=0)
    assert actions.count <= 70
    assert console.errors == []
