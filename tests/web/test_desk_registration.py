"""The desk's own Registration tab without a page load (docs/decisions.md D149): Open
registration, Enter the players (a pasted list), By rating and Start each swap in a tab's
fragment; after Start the Results tab comes in with round 1's tables. A refusal (too few players
to start, a bad line of the list) shows its message in place, what was typed kept. Neither
``load`` nor ``framenavigated`` of the desk's page happens, and a mark set in the page survives.
Screenshots of the tab after each action go to tests/artifacts/."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.tournaments.factories import ClubFactory, UserFactory
from tests.web.helpers import Loads, log_in
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DESKTOP = (1280, 800)
PHONE = (390, 844)
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"
FOCUSED = "() => document.activeElement && document.activeElement.outerHTML.slice(0, 80)"

PLAYERS = [
    "Ilija Stojanov, 1750",
    "Marija Dimitrova, 1700",
    "Nikola Jovanov, 1650",
    "Ana Petrovska, 1800",
]


@pytest.fixture
def organiser(db):
    user = UserFactory(username="desk-organiser")
    user.user_permissions.add(Permission.objects.get(codename="add_player"))
    return user


@pytest.fixture
def draft(organiser) -> Tournament:
    """A new single elimination, matches to 3, over the board: a draft, nobody entered."""
    club = ClubFactory(name="Ohrid Tabla Club")
    return services.tournament_create(
        user=organiser,
        name="Ohrid Cup",
        format="single_elimination",
        match_length=3,
        match_mode="over_the_board",
        club=club,
    )


def desk_path(tournament: Tournament, query: str = "") -> str:
    return reverse("tournaments_web:desk", kwargs={"pk": tournament.pk}) + query


def open_desk(new_page, live_server, organiser, path: str, size=DESKTOP) -> tuple[Page, object]:
    page, console = new_page(*size)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, live_server.url, organiser.username, path)
    return page, console


def focused(page: Page, selector: str) -> None:
    """The cursor is on ``selector`` (waited for: the swap puts it there)."""
    expect(page.locator(f"{selector}:focus")).to_have_count(1)


@pytest.mark.parametrize("size", SIZES)
def test_the_registration_tab_runs_to_the_start_without_a_page_load(
    live_server, new_page, organiser, draft, size
):
    page, console = open_desk(new_page, live_server, organiser, desk_path(draft), size)
    label = "phone" if size == PHONE else "desktop"
    loads = Loads(page)
    loads.start()

    timings: list[str] = []

    def after(what: str, began: float) -> None:
        timings.append(f"{what} {time.monotonic() - began:.2f} s")

    def shot(step: str) -> None:
        page.screenshot(path=f"/tmp/deskreg_{label}_{step}.png", full_page=True)
        assert page.evaluate(SIDEWAYS) <= 0, f"{step}: the page scrolls sideways"

    shot("0_draft")
    badge = page.locator("[data-desk-status]")
    expect(badge).to_have_text("draft")
    began = time.monotonic()
    page.get_by_role("button", name="Open registration").click()
    expect(page.get_by_text("Registration is open.")).to_be_visible()
    after("opened", began)
    expect(badge).to_have_text("registration")
    public = page.locator("[data-desk-public]").get_by_role("link", name="Public page")
    expect(public).to_be_visible()
    focused(page, "[data-player-search]")
    draft.refresh_from_db()
    assert (draft.status, draft.registration_open) == ("registration", True)
    shot("1_opened")

    # Too few players to start: the refusal beside the button, nothing else changes.
    page.get_by_role("button", name="Start the tournament").click()
    refusal = page.locator(".desk-actions [data-error]:not([hidden])")
    expect(refusal).to_contain_text("at least 2 entries")
    shot("2_start_refused")

    # A bad line of the list: marked on its line, the list kept as typed, nothing entered.
    area = page.locator("[data-player-list] textarea")
    typed = "\n".join([*PLAYERS[:3], "Boris Ivanov, Nowhere, 1500", PLAYERS[3]])
    area.fill(typed)
    page.get_by_role("button", name="Check the list").click()
    bad = page.locator('[data-list-preview] tbody tr[data-line="4"]')
    expect(bad).to_contain_text("unknown club “Nowhere”", use_inner_text=True)
    expect(page.locator("[data-player-list] [data-error]")).to_contain_text("Correct the lines")
    expect(page.locator("[data-list-enter]")).to_be_hidden()
    expect(area).to_have_value(typed)
    assert draft.entries.count() == 0
    shot("3_bad_line")

    area.fill("\n".join(PLAYERS))
    page.get_by_role("button", name="Check the list").click()
    began = time.monotonic()
    page.get_by_role("button", name="Enter the players: 4, new: 4").click()
    rows = page.locator("table.desk-entries tbody tr")
    expect(rows).to_have_count(4)
    after("entered", began)
    expect(page.get_by_text("4 players entered")).to_be_visible()
    focused(page, "[data-player-list] textarea")
    expect(page.locator("[data-player-list] textarea")).to_have_value("")
    assert draft.entries.count() == 4
    shot("4_entered")

    began = time.monotonic()
    page.get_by_role("button", name="By rating").click()
    seeds = page.locator("[data-entry-seed]")
    for i in range(4):  # the rows in seed order: Ana (1800) first
        expect(seeds.nth(i)).to_have_value(str(i + 1))
    after("seeded", began)
    expect(rows.first.locator("td.name")).to_contain_text("Ana Petrovska")
    focused(page, "[data-start]")
    shot("5_seeded")

    began = time.monotonic()
    page.get_by_role("button", name="Start the tournament").click()
    nav = page.locator("nav.desk-tabs")
    expect(page.locator(".desk-open form[data-score]")).to_have_count(2)
    after("started", began)
    expect(nav.locator('a[aria-current="page"]')).to_have_attribute("data-tab", "results")
    expect(badge).to_have_text("running")
    focused(page, ".desk-open form[data-score] input[name=score]")
    draft.refresh_from_db()
    assert draft.status == "running"
    shot("6_started")

    # The Results tab works as it does when it is opened: a score saves in place.
    page.keyboard.type("3-1")
    page.keyboard.press("Enter")
    expect(page.locator(".desk-finished li.desk-match.done")).to_have_count(1)

    print(f"\nRegistration tab at {label}, shown after the click: " + "; ".join(timings))
    assert loads.loads == [] and loads.navigations == [], "no page load on the Registration tab"
    assert page.evaluate("window.deskMarker") == 1
    assert page.url == f"{live_server.url}{desk_path(draft)}"
    # The refused start is the only error the browser saw (it logs every 4xx answer).
    assert [e for e in console.errors if "409 (Conflict)" not in e] == []


def test_a_start_from_the_tab_named_in_the_address_names_the_results_tab(
    live_server, new_page, organiser, draft
):
    """Opened at ?tab=registration, the started desk shows the Results tab and its address
    says so (replaced, not a new history entry), so a reload shows the same tab."""
    services.registration_open(tournament=draft, user=organiser)
    page, console = open_desk(
        new_page, live_server, organiser, desk_path(draft, "?tab=registration"), PHONE
    )
    loads = Loads(page)
    loads.start()
    page.locator("[data-player-list] textarea").fill("Ana Petrovska\nBoris Ivanov")
    page.get_by_role("button", name="Check the list").click()
    page.get_by_role("button", name="Enter the players: 2, new: 2").click()
    expect(page.locator("table.desk-entries tbody tr")).to_have_count(2)
    page.get_by_role("button", name="Start the tournament").click()
    expect(page.locator(".desk-open form[data-score]")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"/desk/\?tab=results$"))
    # No load: the one navigation is the address replaced within the page (history API).
    assert loads.loads == [] and page.evaluate("window.deskMarker") == 1
    assert loads.navigations == [f"{live_server.url}{desk_path(draft, '?tab=results')}"]
    history = page.evaluate("window.history.length")
    page.reload()
    expect(page.locator('nav.desk-tabs a[aria-current="page"]')).to_have_attribute(
        "data-tab", "results"
    )
    assert page.evaluate("window.history.length") == history
    assert console.errors == []


def test_a_fragment_that_cannot_be_fetched_falls_back_to_loading_the_page(
    live_server, new_page, organiser, draft
):
    page, console = open_desk(new_page, live_server, organiser, desk_path(draft))
    page.route(re.compile(r".*fragment=registration.*"), lambda route: route.abort())
    with page.expect_navigation():
        page.get_by_role("button", name="Open registration").click()
    expect(page.get_by_text("Registration is open.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/desk/\?tab=registration$"))
    draft.refresh_from_db()
    assert draft.registration_open
