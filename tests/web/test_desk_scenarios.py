"""Issue 12, tested as a user would: an organiser who never used the admin (a user in the demo's
group "Rated tournament organisers", logging in through the login form) runs two whole
tournaments in the browser, all by clicking: an 8-player double elimination with a disputed
result overridden from the Results queue, a refused typo and a correction, and a 12-player Swiss
of 3 rounds with its pairings and result slips printed. Screenshots of the key steps, and a PDF
of one round's print page, go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import ResultReport
from tests.tournaments.factories import ClubFactory, PlayerFactory, UserFactory
from tests.web.helpers import log_in
from tournaments.management.commands.demo_setup import rated_organisers_group
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db

DESKTOP = (1280, 800)
PHONE = (390, 844)
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

FITS = """() => document.documentElement.scrollWidth - window.innerWidth"""


@pytest.fixture
def organiser(db):
    """An organiser as staff make one: in the group, no player of their own, never in the
    admin (no staff flag)."""
    user = UserFactory(username="club-organiser")
    user.groups.add(rated_organisers_group())
    return user


@pytest.fixture
def club(db):
    return ClubFactory(name="Struga Tabla Club")


class Desk:
    """The organiser's browser page, with the steps the scenarios repeat."""

    def __init__(self, page: Any, console: Any, base: str, artifacts: Any, name: str) -> None:
        self.page, self.console, self.base = page, console, base
        self.artifacts, self.name = artifacts, name
        self.shots = 0
        page.on("dialog", lambda dialog: dialog.accept())

    def shot(self, step: str) -> None:
        """A screenshot of the whole page; at phone size the page must not scroll sideways."""
        self.shots += 1
        path = self.artifacts / f"scenario-{self.name}-{self.shots:02d}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert self.page.evaluate(FITS) <= 0, f"{step}: the page scrolls sideways"

    def click_and_reload(self, locator: Any) -> None:
        with self.page.expect_navigation():
            locator.click()

    def tab(self, name: str) -> None:
        self.click_and_reload(self.page.locator("nav.desk-tabs").get_by_role("link", name=name))

    def create(self, name: str, club: Any, fmt: str, **numbers: int) -> Tournament:
        page = self.page
        page.get_by_role("link", name="New tournament").click()
        page.wait_for_url(f"{self.base}/tournaments/new/")
        page.fill("input[name=name]", name)
        page.select_option("select[name=format]", fmt)
        page.select_option("select[name=club]", str(club.pk))
        for field, value in numbers.items():
            page.fill(f"input[name={field}]", str(value))
        expect(page.locator("input[name=rated]"), "the group runs rated ones").to_be_checked()
        self.shot("new-tournament")
        page.get_by_role("button", name="Create the tournament").click()
        page.wait_for_url(re.compile(r".*/tournaments/\d+/desk/$"))
        return Tournament.objects.get(name=name)

    def enter_list(self, lines: list[str], new: int) -> None:
        page = self.page
        # The Registration tab's actions swap in its fragment, no page load (D149).
        page.get_by_role("button", name="Open registration").click()
        expect(page.get_by_text("Registration is open.")).to_be_visible()
        page.locator("[data-player-list] textarea").fill("\n".join(lines) + "\n")
        page.get_by_role("button", name="Check the list").click()
        page.locator("[data-list-preview] table").wait_for()
        self.shot("list-checked")
        button = page.get_by_role("button", name=f"Enter the players: {len(lines)}, new: {new}")
        button.click()
        expect(page.locator("table.desk-entries tbody tr")).to_have_count(len(lines))

    def seed_and_start(self) -> None:
        page = self.page
        page.get_by_role("button", name="By rating").click()
        seeds = page.locator("[data-entry-seed]")
        for i in range(seeds.count()):  # seeds 1, 2, 3, ... in the order of the rows
            expect(seeds.nth(i)).to_have_value(str(i + 1))
        self.shot("seeded")
        page.get_by_role("button", name="Start the tournament").click()
        page.locator(".badge.status-running").wait_for()  # the Results tab, swapped in

    def enter_score(self, key: str, one: int, two: int) -> None:
        """Type a match's final score on the Results tab, in its one field, and save it with
        Enter (no page load: the tab's fragment comes in with the match among the finished
        ones, D103, D119)."""
        form = self.page.locator(f'li.desk-match[data-key="{key}"] form[data-score]')
        form.locator('input[name="score"]').fill(f"{one}-{two}")
        form.locator('input[name="score"]').press("Enter")
        self.page.locator(f'li.desk-match.done[data-key="{key}"]').wait_for()

    def open_keys(self) -> list[str]:
        forms = self.page.locator("li.desk-match:has(form[data-score])")
        return [forms.nth(i).get_attribute("data-key") for i in range(forms.count())]

    def errors(self, *expected: str) -> list[str]:
        return [e for e in self.console.errors if not any(x in e for x in expected)]


def desk_for(live_server, new_page, artifacts, organiser, size, name) -> Desk:
    page, console = new_page(*size)
    label = "phone" if size == PHONE else "desktop"
    desk = Desk(page, console, live_server.url, artifacts, f"{name}-{label}")
    log_in(page, live_server.url, organiser.username, "/tournaments/")
    return desk


def row(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related(
        "entry_one__player", "entry_two__player", "winner__player"
    ).get(tournament=tournament, key=key)


def player_session(new_page, live_server, username: str, path: str):
    """A player's own browser, logged in through the form, on ``path``."""
    page, console = new_page(*PHONE)
    log_in(page, live_server.url, username, path)
    return page, console


def public_finish(desk: Desk, entries: int) -> tuple[str, list[str]]:
    """From the Results tab's last word to the public page: the champion of the podium and the
    standings' names."""
    page = desk.page
    page.locator("[data-next-step]").get_by_role("link", name="See the podium").click()
    podium = page.locator("[data-podium]")
    podium.wait_for()
    champion = podium.locator('[data-place="1"] .podium-names').inner_text()
    table = page.locator('table[data-section="main"] tbody tr')
    expect(table).to_have_count(entries)
    names = [table.nth(i).locator("td a").first.inner_text() for i in range(entries)]
    places = page.locator('table[data-section="main"] td[data-place]')
    expect(places.first).to_have_text("1", use_inner_text=True)
    desk.shot("public-finish")
    return champion, names


# --- (a) an 8-player double elimination -------------------------------------------------------

DOUBLE_LIST = [
    "Ana Petrovska",  # known players with accounts: seeds 1 and 8, they meet in W1-1
    "Boris Ivanov",
    "Ilija Stojanov, 1750",
    "Marija Dimitrova, 1700",
    "Nikola Jovanov, 1650",
    "Elena Kostova, 1600",
    "Petar Novak, 1550",
    "Sara Kovač, 1500",
]


@pytest.mark.parametrize("size", SIZES)
def test_a_double_elimination_run_from_the_desk(
    live_server, new_page, artifacts, organiser, club, size
):
    ana = PlayerFactory(
        user=UserFactory(username="ana"), display_name="Ana Petrovska", club=club, rating=1800
    )
    boris = PlayerFactory(
        user=UserFactory(username="boris"), display_name="Boris Ivanov", club=club, rating=1300
    )
    desk = desk_for(live_server, new_page, artifacts, organiser, size, "double")
    page = desk.page

    cup = desk.create("Friday Double", club, "double_elimination", match_length=3)
    assert (cup.format, cup.match_length, cup.rated) == ("double_elimination", 3, True)
    assert cup.grand_final_reset and cup.match_mode == "over_the_board"
    desk.enter_list(DOUBLE_LIST, new=6)
    assert cup.entries.filter(player__user=None).count() == 6
    desk.seed_and_start()
    desk.shot("started")
    first = row(cup, "W1-1")
    assert (first.entry_one.player, first.entry_two.player) == (ana, boris)

    # Boris reports on the match page that he won; Ana disputes it on hers.
    match_path = f"/matches/{first.match_id}/"
    boris_page, boris_console = player_session(new_page, live_server, "boris", match_path)
    form = boris_page.locator("#match-report-form")
    form.locator("input[name=score_one]").fill("1")
    form.locator("input[name=score_two]").fill("3")
    form.get_by_role("button", name="Report the match score").click()
    boris_page.locator("#results .reports .badge.status-pending").wait_for()
    boris_page.screenshot(path=str(artifacts / f"scenario-{desk.name}-boris-reported.png"))
    ana_page, ana_console = player_session(new_page, live_server, "ana", match_path)
    ana_page.fill("#results [data-dispute-reason]", "I won 3-1")
    ana_page.locator("#results").screenshot(path=str(artifacts / f"scenario-{desk.name}-ana.png"))
    ana_page.locator("#results").get_by_role("button", name="Dispute").click()
    ana_page.locator("#results .reports .badge.status-disputed").wait_for()
    ana_page.screenshot(path=str(artifacts / f"scenario-{desk.name}-ana-disputed.png"))
    assert boris_console.errors == [] and ana_console.errors == []

    # The organiser overrides it from the queue: Ana won 3-1.
    desk.tab("Results")
    report = ResultReport.objects.get(match_id=first.match_id)
    item = page.locator(f'li.desk-report[data-report="{report.pk}"]')
    expect(item).to_contain_text("reported by Boris Ivanov", use_inner_text=True)
    expect(item).to_contain_text("Disputed: “I won 3-1”", use_inner_text=True)
    desk.shot("dispute-in-queue")
    item.locator("summary", has_text="Override").click()
    override = item.locator("form[data-override]")
    override.locator('input[name="score_one"]').fill("3")
    override.locator('input[name="score_two"]').fill("1")
    override.get_by_role("button", name="Count this result").click()  # no page load (D121)
    page.locator("[data-queue-empty]").wait_for()
    report.refresh_from_db()
    assert (report.status, report.responded_by) == ("overridden", organiser)
    assert row(cup, "W1-1").winner.player == ana

    # A typo is refused with the API's message, and nothing counts.
    form = page.locator('li.desk-match[data-key="W1-2"] form[data-score]')
    form.locator('input[name="score"]').fill("3-3")
    form.get_by_role("button", name="Save").click()
    error = form.locator("[data-error]:not([hidden])")
    error.wait_for()
    expect(error).to_contain_text("exactly one player at 3 points or more", use_inner_text=True)
    assert row(cup, "W1-2").status == "ready"
    desk.enter_score("W1-2", 3, 0)

    # The slip said 3-2: a correction, before the next match of either player has begun.
    done = page.locator('li.desk-match.done[data-key="W1-2"]')
    done.locator("summary", has_text="Correct").click()
    done.locator('form[data-correct] input[name="score_two"]').fill("2")
    done.get_by_role("button", name="Save the correction").click()  # no page load (D123)
    expect(done.locator(".desk-final")).to_have_text("3–2", use_inner_text=True)
    assert (row(cup, "W1-2").score_one, row(cup, "W1-2").score_two) == (3, 2)

    # The other over-the-board results of the slips handed in, one by one, to the end.
    entered = ["W1-2"]
    while keys := desk.open_keys():
        key = keys[0]
        if key == "GF":  # the losers' bracket player wins: the reset is played
            desk.enter_score(key, 1, 3)
            assert "GF2" in desk.open_keys()
        else:
            desk.enter_score(key, 3, len(entered) % 3)
        entered.append(key)
        if len(entered) == 3:
            desk.shot("three-results-entered")
    assert len(entered) == 14 and entered[-2:] == ["GF", "GF2"]
    cup.refresh_from_db()
    assert cup.status == "finished"
    desk.shot("results-finished")

    champion, names = public_finish(desk, 8)
    winner = row(cup, "GF2").winner.player.display_name
    assert champion == winner == names[0]
    assert desk.errors("400 (Bad Request)") == []


# --- (b) a 12-player Swiss of 3 rounds, printed ------------------------------------------------

SWISS_LIST = [f"Swiss Player {i:02d}, {1900 - 25 * i}" for i in range(1, 13)]


@pytest.mark.parametrize("size", SIZES)
def test_a_swiss_of_three_rounds_printed_and_run_from_the_desk(
    live_server, new_page, artifacts, organiser, club, size
):
    desk = desk_for(live_server, new_page, artifacts, organiser, size, "swiss")
    page = desk.page
    swiss = desk.create("Thursday Swiss", club, "swiss", match_length=3, swiss_rounds=3)
    assert (swiss.format, swiss.swiss_rounds) == ("swiss", 3)
    desk.enter_list(SWISS_LIST, new=12)
    desk.seed_and_start()

    for number in (1, 2, 3):
        desk.tab("Rounds")
        round_card = page.locator(f'section.desk-round[data-round="{number}"]')
        tables = round_card.locator(".desk-table .table-number")
        expect(tables).to_have_text([str(t) for t in range(1, 7)], use_inner_text=True)
        desk.shot(f"round-{number}")

        round_card.get_by_role("link", name="Print pairings and slips").click()
        page.wait_for_url(f"**/desk/print/round/{number}/")
        expect(page.locator("[data-pairings] tbody tr")).to_have_count(6)
        slips = page.locator("[data-slip]")
        expect(slips).to_have_count(6)
        expect(slips.first).to_contain_text("Table 1", use_inner_text=True)
        expect(slips.first).to_contain_text("Signature", use_inner_text=True)
        for t in swiss.matches.filter(round=number).select_related("entry_one__player"):
            table = page.locator(f'[data-pairings] tr[data-key="{t.key}"] .table-col')
            slip = page.locator(f'[data-slip="{t.key}"]')
            expect(slip).to_contain_text(t.entry_one.player.display_name, use_inner_text=True)
            expect(slip).to_contain_text(f"Table {table.inner_text()}", use_inner_text=True)
        page.emulate_media(media="print")
        expect(page.locator(".print-toolbar")).to_be_hidden()
        desk.shot(f"print-round-{number}")
        if number == 1:
            pdf = artifacts / f"scenario-{desk.name}-round-1.pdf"
            page.pdf(path=str(pdf), prefer_css_page_size=True)  # A4, as the stylesheet says
            assert pdf.read_bytes().startswith(b"%PDF")
        page.emulate_media(media="screen")
        desk.click_and_reload(page.get_by_role("link", name="← Back to the desk"))

        desk.tab("Results")
        keys = desk.open_keys()
        assert len(keys) == 6
        for index, key in enumerate(keys):
            desk.enter_score(key, *((3, 1) if index % 2 else (0, 3)))
        desk.shot(f"round-{number}-results")
        if number < 3:  # the Results tab says what comes next
            desk.click_and_reload(page.get_by_role("link", name=f"Pair round {number + 1} on"))
            page.get_by_role("button", name=f"Pair round {number + 1}").click()  # in place
            page.locator(f'section.desk-round[data-round="{number + 1}"]').wait_for()

    swiss.refresh_from_db()
    assert swiss.status == "finished"
    champion, names = public_finish(desk, 12)
    assert champion == names[0]
    assert desk.errors() == []
