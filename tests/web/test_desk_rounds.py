"""Issue 22, the desk without page loads on its Rounds tab and for corrections, and the printed
pairings' points: "Pair round N" on the Rounds tab swaps in the tab's fragment (the new round's
tables and its print link), a finished match's correction updates its row in place, refusals
show in place; the print page of a round outside a bracket shows each player's match points
before the round, and a bracket's shows seeds as seeds (docs/decisions.md D122, D123)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.web.test_desk_play import SIZES, desk, finish, open_desk, print_url, row, running
from tournaments import selectors, services
from tournaments.draw.brackets import Section
from tournaments.models import Stage, Tournament
from tournaments.services.standings import section_standings

pytestmark = pytest.mark.django_db


def printed(tournament: Tournament, number: int, **query: Any) -> str:
    client = Client()
    client.force_login(tournament.created_by)
    response = client.get(print_url(tournament, number), query)
    assert response.status_code == 200
    return response.content.decode()


def points_cells(html: str, key: str) -> list[str]:
    """The two points cells of the pairings' row of match ``key``."""
    line = re.search(rf'<tr data-key="{key}">(.*?)</tr>', html, re.S)
    assert line, f"no row {key}"
    return re.findall(r'<td class="points-col" data-points>([^<]*)</td>', line.group(1))


# --- pages ------------------------------------------------------------------------------------


def test_the_points_before_a_round_are_the_standings_after_the_last():
    swiss = running(5, format="swiss", swiss_rounds=3)  # five players: a bye each round
    finish(swiss, "R1-1")
    finish(swiss, "R1-2", (1, 3))
    services.swiss_round_pair(tournament=swiss, user=swiss.created_by)
    finish(swiss, "R2-1", (0, 3))
    finish(swiss, "R2-2")
    services.swiss_round_pair(tournament=swiss, user=swiss.created_by)
    swiss.refresh_from_db()

    assert selectors.points_before(swiss, Stage.MAIN, 1) == {}
    # The standings of the rounds before (round 3's bye already counts in the live table).
    rows = list(swiss.matches.filter(round__lt=3))
    table = section_standings(swiss, Section.MAIN, Stage.MAIN, rows)
    before_three = selectors.points_before(swiss, Stage.MAIN, 3)
    assert {r.player: r.match_points for r in table if r.match_points} == before_three
    assert sum(before_three.values()) == 6.0, "two rounds: four wins and two byes"
    assert sum(selectors.points_before(swiss, Stage.MAIN, 2).values()) == 3.0


def test_the_printed_swiss_pairings_show_the_points_before_the_round_not_the_seeds():
    swiss = running(5, format="swiss", swiss_rounds=3)
    html = printed(swiss, 1)
    assert "Pts" in html and "data-points-legend" in html
    assert "match points before this round" in html
    assert points_cells(html, "R1-1") == ["0", "0"]
    assert 'class="seed"' not in html, "a seed in brackets read as points"

    finish(swiss, "R1-1")  # the top seed wins
    finish(swiss, "R1-2", (1, 3))
    bye = row(swiss, "R1-bye").entry_one
    services.swiss_round_pair(tournament=swiss, user=swiss.created_by)
    html = printed(swiss, 2)
    before = selectors.points_before(swiss, Stage.MAIN, 2)
    assert before[bye.pk] == 1.0
    for t in swiss.matches.filter(round=2).exclude(entry_two=None):
        wanted = [f"{before.get(e, 0):g}" for e in (t.entry_one_id, t.entry_two_id)]
        assert points_cells(html, t.key) == wanted
    # Two winners and the bye have a point; the bye of round 2 goes to one of the other two.
    cells = points_cells(html, "R2-1") + points_cells(html, "R2-2")
    assert sorted(cells) == ["0", "1", "1", "1"]
    # Round 1 printed again still shows the points before it.
    assert points_cells(printed(swiss, 1), "R1-1") == ["0", "0"]


def test_a_printed_bracket_round_names_its_seeds_and_has_no_points():
    cup = running(4, format="single_elimination")
    html = printed(cup, 1)
    first = row(cup, "W1-1")
    assert "data-points" not in html and "Pts" not in html
    assert f'<span class="seed">seed {first.entry_one.seed}</span>' in html
    assert f"({first.entry_one.seed})" not in html


def test_the_rounds_tab_pairs_in_place_and_has_a_fragment_of_its_own():
    swiss = running(4, format="swiss", swiss_rounds=2)
    finish(swiss, "R1-1")
    finish(swiss, "R1-2")
    html = desk(swiss, "rounds")
    form = re.search(r"<form[^>]*data-pair-rounds[^>]*>", html)
    assert form, "the pairing form swaps the tab in"
    assert 'data-next="none"' in form.group(0)
    assert 'data-fragment-url="?tab=rounds&amp;round=2&amp;fragment=rounds"' in form.group(0)
    assert 'data-page-url="?tab=rounds&amp;round=2"' in form.group(0)

    services.swiss_round_pair(tournament=swiss, user=swiss.created_by)
    fragment = desk(swiss, "rounds", round="2", fragment="rounds")
    assert "<html" not in fragment and "desk-tabs" not in fragment
    assert 'section class="card desk-round" data-round="2"' in fragment
    assert print_url(swiss, 2) in fragment and "data-print-link" in fragment
    player = Client()
    player.force_login(row(swiss, "R1-1").entry_one.player.user)
    url = reverse("tournaments_web:desk", kwargs={"pk": swiss.pk})
    assert player.get(url, {"tab": "rounds", "fragment": "rounds"}).status_code == 403


def test_a_finished_matchs_correction_stays_on_the_page():
    cup = running(4, format="single_elimination")
    finish(cup, "W1-1")
    html = desk(cup, "results")
    correct = reverse("tournaments:result-correct", args=[cup.pk, row(cup, "W1-1").pk])
    form = re.search(rf'<form[^>]*data-api="{correct}"[^>]*>', html)
    assert form and 'data-next="none"' in form.group(0) and "data-correct" in form.group(0)
    assert 'class="card desk-finished" data-corrected="corrected"' in html


# --- in the browser ---------------------------------------------------------------------------


class Navigations:
    """The main frame's navigations of a page from now on (a page load, a reload)."""

    def __init__(self, page: Any) -> None:
        self.urls: list[str] = []
        page.on(
            "framenavigated",
            lambda frame: self.urls.append(frame.url) if frame == page.main_frame else None,
        )


@pytest.mark.parametrize("size", SIZES)
def test_pairing_on_the_rounds_tab_shows_the_new_round_without_a_page_load(
    live_server, new_page, size
):
    swiss = running(4, format="swiss", swiss_rounds=2)
    finish(swiss, "R1-1")
    finish(swiss, "R1-2", (1, 3))
    page, console = open_desk(live_server, new_page, swiss, "rounds", size)
    page.evaluate("window.deskMarker = 1")
    navigations = Navigations(page)

    clicked = time.monotonic()
    page.get_by_role("button", name="Pair round 2").click()
    round_two = page.locator('section.desk-round[data-round="2"]')
    expect(round_two.locator(".desk-table")).to_have_count(2)
    print(f"paired: round 2's tables shown {time.monotonic() - clicked:.2f} s after the click")
    top = row(swiss, "R2-1")
    expect(round_two.locator('.desk-table[data-key="R2-1"]')).to_contain_text(
        top.entry_one.player.display_name, use_inner_text=True
    )
    print_link = round_two.locator("a[data-print-link]")
    expect(print_link).to_have_attribute("href", print_url(swiss, 2))
    expect(print_link).to_be_focused()
    expect(page.locator("[data-pair-blocked]")).to_have_text(
        re.compile("^All 2 rounds are paired"), use_inner_text=True
    )
    expect(page.locator('nav.desk-round-picker a[aria-current="true"]')).to_contain_text(
        "Round 2", use_inner_text=True
    )
    assert navigations.urls == [] and page.evaluate("window.deskMarker") == 1
    assert console.errors == []


def test_a_refused_pairing_is_shown_in_place(live_server, new_page):
    swiss = running(6, format="swiss", swiss_rounds=3)
    for key in ("R1-1", "R1-2", "R1-3"):
        finish(swiss, key)
    page, console = open_desk(live_server, new_page, swiss, "rounds", (1280, 900))
    navigations = Navigations(page)
    # A co-organiser pairs round 2 meanwhile: this desk's button is out of date.
    services.swiss_round_pair(tournament=swiss, user=swiss.created_by)

    page.get_by_role("button", name="Pair round 2").click()
    error = page.locator("[data-pair-rounds] [data-error]")
    expect(error).to_be_visible()
    expect(error).to_contain_text("round 2 is not finished: R2-1, R2-2, R2-3", use_inner_text=True)
    assert navigations.urls == []
    assert swiss.matches.filter(round=3).count() == 0
    assert [e for e in console.errors if "(Conflict)" not in e] == []


@pytest.mark.parametrize("size", SIZES)
def test_a_correction_updates_its_row_in_place_and_refusals_show_there(live_server, new_page, size):
    cup = running(4, format="single_elimination")
    finish(cup, "W1-1")
    first = row(cup, "W1-1")
    one, two = first.entry_one.player.display_name, first.entry_two.player.display_name
    page, console = open_desk(live_server, new_page, cup, "results", size)
    page.evaluate("window.deskMarker = 1")
    navigations = Navigations(page)

    item = page.locator('li.desk-match.done[data-key="W1-1"]')
    item.locator("summary", has_text="Correct").click()
    form = item.locator("form[data-correct]")
    form.locator('input[name="score_one"]').fill("2")
    form.locator('input[name="score_two"]').fill("2")
    form.get_by_role("button", name="Save the correction").click()
    error = form.locator("[data-error]")
    expect(error).to_have_text(re.compile("^cannot correct W1-1 to 2-2"), use_inner_text=True)
    expect(item.locator(".desk-final")).to_have_text("3–0", use_inner_text=True)

    form.locator('input[name="score_one"]').fill("1")
    form.locator('input[name="score_two"]').fill("3")
    clicked = time.monotonic()
    form.get_by_role("button", name="Save the correction").click()
    expect(item.locator(".desk-final")).to_have_text("1–3", use_inner_text=True)
    print(f"corrected: the row shows 1–3 {time.monotonic() - clicked:.2f} s after the click")
    expect(item.locator(".desk-names .winner")).to_have_text(two, use_inner_text=True)
    expect(item.locator("[data-corrected-note]")).to_contain_text("corrected", use_inner_text=True)
    expect(item.locator("details")).not_to_have_attribute("open", "")
    expect(item.locator("summary")).to_be_focused()
    stored = row(cup, "W1-1")
    assert (stored.score_one, stored.score_two, stored.winner_id) == (1, 3, first.entry_two_id)
    # The swapped-in tab agrees: the winner's name and the score come from the server.
    expect(page.locator(".desk-finished")).to_contain_text(f"{one} 1–3 {two}", use_inner_text=True)
    assert navigations.urls == [] and page.evaluate("window.deskMarker") == 1
    assert [e for e in console.errors if "(Bad Request)" not in e] == []
