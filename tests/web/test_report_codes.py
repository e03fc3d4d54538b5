"""Results from the tables (issue 22 §1, docs/decisions.md D83): the desk prints a round whose
slips carry each player's code; on two phones, without an account, one player reports the
final score with their code, the other confirms it with theirs, and the desk shows it done."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import MatchReportCode
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.web.helpers import log_in
from tournaments import services
from tournaments.models import TournamentMatch

pytestmark = pytest.mark.django_db

SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"
PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}


def test_two_phones_report_and_confirm_with_the_slips_codes(live_server, new_page):
    organiser = UserFactory(username="slip-organiser")
    cup = services.tournament_create(
        user=organiser,
        name="Slip Cup",
        format="single_elimination",
        match_length=3,
        match_mode="over_the_board",
    )
    services.registration_open(tournament=cup, user=organiser)
    for i, name in enumerate(["Ana Petrova", "Boris Ilić", "Cveta Nikolova", "Dragan Mitrev"]):
        player = PlayerFactory(display_name=name, rating=1800.0 - 10 * i)
        services.entry_register(tournament=cup, user=organiser, player=player)
    services.tournament_start(tournament=cup, user=organiser)

    desk, desk_console = new_page(1280, 900)
    print_path = reverse("tournaments_web:desk-print-round", kwargs={"pk": cup.pk, "number": 1})
    log_in(desk, live_server.url, organiser.username, print_path)
    slip = desk.locator('article.slip[data-slip="W1-1"]')
    expect(slip.locator("svg.qr")).to_have_count(2)
    codes = slip.locator(".report-code-value").all_inner_texts()
    assert all(re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code) for code in codes)
    row = TournamentMatch.objects.select_related("match").get(tournament=cup, key="W1-1")
    one, two = (
        MatchReportCode.objects.get(match=row.match, player=player).code
        for player in (row.match.player_one, row.match.player_two)
    )
    assert [code.replace("-", "") for code in codes] == [one, two]

    ana, dragan = row.match.player_one.display_name, row.match.player_two.display_name

    # At phone size, on screen and in print, with the codes on the pairings too, nothing
    # makes the page scroll sideways.
    sheet, _ = new_page(390, 844)
    log_in(sheet, live_server.url, organiser.username, print_path)
    sheet.goto(f"{live_server.url}{print_path}?qr=1")
    expect(sheet.locator(".pairings svg.qr")).to_have_count(4)
    for media in ("screen", "print"):
        sheet.emulate_media(media=media)
        assert sheet.evaluate(SIDEWAYS) <= 0, media

    first, first_console = new_page(**PHONE)
    first.goto(f"{live_server.url}/r/{one.lower()}/")
    first.get_by_label(ana).fill("3")
    first.get_by_label(dragan).fill("1")
    first.get_by_role("button", name="Report the score").click()
    expect(first.locator("[data-waiting]")).to_contain_text(f"Waiting for {dragan} to confirm")

    second, second_console = new_page(**PHONE)
    second.goto(f"{live_server.url}/r/{two[:4]}-{two[4:]}/")
    expect(second.locator("[data-reported]")).to_contain_text(f"{ana} reported")
    second.get_by_role("button", name="Confirm").click()
    expect(second.locator("[data-done]")).to_contain_text(f"{ana} 3–1 {dragan}")

    row.refresh_from_db()
    assert (row.status, row.score_one, row.score_two) == ("done", 3, 1)
    first.reload()
    expect(first.locator("[data-report-code]")).to_contain_text("This code opens no match")
    assert desk_console.errors == [] and second_console.errors == []
    assert all("404" in error for error in first_console.errors)  # the reload's answer
