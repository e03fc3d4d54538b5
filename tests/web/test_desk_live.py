"""The desk that keeps up (issue 22 §2): a score saved without a page load, its Undo, the
cursor on the next table, and a report made elsewhere shown on the open desk with the Results
tab's badge. Django's live server has no sockets: the desk polls its state URL here."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games import services as games_services
from tests.web.test_desk_play import SIZES, finish, open_desk, print_url, row, running

pytestmark = pytest.mark.django_db

NAVIGATIONS = 'performance.getEntriesByType("navigation").length'


def test_a_score_saved_with_enter_stays_on_the_page_and_can_be_undone(live_server, new_page):
    cup = running(4, format="single_elimination")
    first, second = row(cup, "W1-1"), row(cup, "W1-2")
    page, console = open_desk(live_server, new_page, cup, "results", (1280, 900))
    page.evaluate("window.deskMarker = 1")

    one = page.locator('li.desk-match[data-key="W1-1"] input[name="score_one"]')
    one.fill("3")
    one.press("Enter")  # on to the second score
    two = page.locator('li.desk-match[data-key="W1-1"] input[name="score_two"]')
    expect(two).to_be_focused()
    two.fill("1")
    two.press("Enter")

    saved = page.locator('li.desk-match[data-key="W1-1"] [data-saved]')
    names = (first.entry_one.player.display_name, first.entry_two.player.display_name)
    expect(saved).to_contain_text(f"{names[0]} 3–1 {names[1]} · saved", use_inner_text=True)
    expect(saved.get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator('li.desk-match[data-key="W1-2"] input[name="score_one"]')).to_be_focused()
    assert page.evaluate("window.deskMarker") == 1
    assert page.evaluate(NAVIGATIONS) == 1
    assert row(cup, "W1-1").status == "done"

    # Undo opens the row again with the saved score; a new score goes through the correction.
    saved.get_by_role("button", name="Undo").click()
    form = page.locator('.desk-open li.desk-match[data-key="W1-1"] form[data-correct]')
    expect(form.locator('input[name="score_one"]')).to_have_value("3")
    expect(form.locator('input[name="score_two"]')).to_have_value("1")
    form.locator('input[name="score_one"]').fill("1")
    form.locator('input[name="score_two"]').fill("3")
    form.locator('input[name="score_two"]').press("Enter")
    expect(page.locator('li.desk-match[data-key="W1-1"] [data-saved]')).to_contain_text(
        f"{names[0]} 1–3 {names[1]} · corrected", use_inner_text=True
    )
    stored = row(cup, "W1-1")
    assert (stored.winner_id, stored.score_one, stored.score_two) == (first.entry_two_id, 1, 3)

    # The second result draws the final, which appears as a row of its own, no page load.
    page.locator('li.desk-match[data-key="W1-2"] input[name="score_one"]').fill("0")
    last = page.locator('li.desk-match[data-key="W1-2"] input[name="score_two"]')
    last.fill("3")
    last.press("Enter")
    final = page.locator('li.desk-match[data-key="W2-1"] form[data-score]')
    expect(final).to_contain_text(stored.entry_two.player.display_name, use_inner_text=True)
    expect(final).to_contain_text(second.entry_two.player.display_name, use_inner_text=True)
    expect(final.locator('input[name="score_one"]')).to_be_focused()
    assert page.evaluate("window.deskMarker") == 1
    assert console.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_a_report_made_elsewhere_shows_on_the_open_desk_with_the_badge(
    live_server, new_page, size
):
    cup = running(4, format="single_elimination")
    first = row(cup, "W1-1")
    page, console = open_desk(live_server, new_page, cup, "results", size)
    page.evaluate("window.deskMarker = 1")
    badge = page.locator("[data-desk-badge]")
    expect(badge).to_be_hidden()

    reporter = first.entry_two.player
    reported = time.monotonic()
    report = games_services.result_report(
        match=first.match, user=reporter.user, scope="match", score_one=1, score_two=3
    )
    item = page.locator(f'li.desk-report[data-report="{report.pk}"]')
    expect(item).to_contain_text("pending", use_inner_text=True)
    print(f"polled: the report on the desk {time.monotonic() - reported:.2f} s after it was made")
    expect(badge).to_have_text("1")
    games_services.result_dispute(report=report, user=first.entry_one.player.user, reason="3-2")
    expect(item).to_contain_text("disputed", use_inner_text=True)

    # Another tab keeps the badge live too.
    page.get_by_role("link", name="Rounds").click()
    expect(page.locator("[data-desk-badge]")).to_have_text("1")
    assert page.evaluate("window.deskMarker") is None  # the tab was a page load of its own
    assert console.errors == []


def test_a_swiss_round_is_paired_from_the_results_tab(live_server, new_page):
    swiss = running(4, format="swiss", swiss_rounds=2)
    finish(swiss, "R1-1")
    page, console = open_desk(live_server, new_page, swiss, "results", (1280, 900))
    page.evaluate("window.deskMarker = 1")
    expect(page.locator("[data-pair-here]")).to_have_count(0)

    last = page.locator('li.desk-match[data-key="R1-2"]')
    last.locator('input[name="score_one"]').fill("1")
    last.locator('input[name="score_two"]').fill("3")
    last.locator('input[name="score_two"]').press("Enter")
    pair = page.locator("[data-pair-here]").get_by_role("button", name="Pair round 2")
    pair.click()

    expect(page.locator(".desk-open li.desk-match form[data-score]")).to_have_count(2)
    top = row(swiss, "R2-1")
    first_table = page.locator('.desk-open li.desk-match[data-key="R2-1"]')
    expect(first_table).to_contain_text(top.entry_one.player.display_name, use_inner_text=True)
    expect(first_table.locator('input[name="score_one"]')).to_be_focused()
    expect(page.locator('[data-print-round="2"]')).to_have_attribute(
        "href", print_url(swiss, 2)
    )
    assert page.evaluate("window.deskMarker") == 1
    assert console.errors == []
