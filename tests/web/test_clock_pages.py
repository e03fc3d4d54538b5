"""The match clock on the match page: both banks with the running side marked, the data
static/js/clock.js counts down from (no inline script), a time-out ended by the page or by its
poll, and in the browser the countdown of the delay and then of the bank. Without a clock, the
waiting player's claim after the opponent's inactivity: when it opens, then its button."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import selectors, services
from games.models import Match
from tests.web.helpers import log_in, logged_in, match_url

pytestmark = pytest.mark.django_db

ONE_POINT_CLOCK = {"per_point_seconds": 90, "delay_seconds": 5}  # a 1:30 bank on a 1-point match


@pytest.fixture
def clocked(alice, bob, organiser):
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=1, clock=ONE_POINT_CLOCK
    )


def test_the_page_shows_both_banks_and_the_running_side(fake_clock, clocked):
    fake_clock.advance(2)
    response = Client().get(match_url(clocked))
    html = response.content.decode()
    assert html.count("data-clock-side=") == 2
    sides = {side["side"]: side for side in response.context["clock"]["sides"]}
    running = clocked.clock_running
    assert sides[running]["running"] and sides[running]["delay"] == "+3"
    assert sides[running]["text"] == "1:30" and not sides[running]["flagged"]
    assert 'id="clock-data"' in html and "js/clock.js" in html
    assert "clock: 1:30 each + 5 s a turn" in html
    assert response.context["clock"]["data"]["delay_left"] == 3.0


def test_a_match_without_a_clock_has_no_clock_on_its_page(online_match):
    html = Client().get(match_url(online_match)).content.decode()
    assert "data-clock" not in html and "clock-data" not in html


def test_the_page_of_a_match_out_of_time_ends_it_and_shows_who_lost(fake_clock, clocked):
    loser = clocked.clock_running
    fake_clock.advance(5 + 90)
    response = Client().get(match_url(clocked))
    html = response.content.decode()
    assert "(on time)" in html
    sides = {side["side"]: side for side in response.context["clock"]["sides"]}
    assert sides[loser]["flagged"] and sides[loser]["text"] == "0:00"
    assert Match.objects.get(pk=clocked.pk).ended_by == Match.EndedBy.TIME


def test_the_live_state_poll_ends_a_match_out_of_time(fake_clock, clocked):
    url = reverse("web:match-state", kwargs={"pk": clocked.pk})
    before = Client().get(url)
    assert before.json()["status"] == "in_progress"
    fake_clock.advance(5 + 90)
    after = Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.json()["status"] == "finished"


@pytest.mark.django_db(transaction=True)
def test_the_clock_counts_down_in_the_browser_and_shows_the_time_out(
    live_server, new_page, fake_clock, clocked, artifacts
):
    page, console = new_page()
    page.goto(live_server.url + match_url(clocked))
    running = page.locator(".clock-side.running")
    expect(running).to_have_count(1)
    delay = running.locator("[data-clock-delay]")
    expect(delay).to_have_text(re.compile(r"^\+[54]$"), use_inner_text=True)  # +5 or +4
    # the delay runs out first (5 s), then the bank: the browser counts with its own clock
    expect(running.locator("[data-clock-time]")).to_have_text("1:29", timeout=10_000)
    expect(delay).to_have_text("", use_inner_text=True)
    page.screenshot(path=str(artifacts / "match-clock-running.png"), full_page=True)

    fake_clock.advance(5 + 90)  # the server's time is up: the next poll ends the match
    page.wait_for_selector(".clock-side.flagged", timeout=10_000)
    expect(page.locator(".match-header")).to_contain_text("(on time)", use_inner_text=True)
    page.screenshot(path=str(artifacts / "match-clock-flagged.png"), full_page=True)
    assert console.errors == []


# --- the claim after inactivity (a match without a clock) --------------------------------------


def _waiting_and_to_move(match):
    to_move = selectors.player_to_move(match.games.get())
    one, two = match.players
    return (two if to_move == one else one), to_move


def test_the_waiting_player_sees_when_the_claim_opens_and_then_its_button(fake_clock, online_match):
    waiting, to_move = _waiting_and_to_move(online_match)
    claim_url = reverse("games:match-claim", kwargs={"pk": online_match.pk})
    fake_clock.advance(70 * 3600)
    early = logged_in(waiting).get(match_url(online_match))
    html = early.content.decode()
    assert "data-claim-wait" in html and 'data-action="claim"' not in html
    assert f"If {to_move.display_name} does not play, you may claim the match in 2\xa0hours" in html
    assert early.context["claim"]["open"] is False

    fake_clock.advance(2 * 3600 + 1)
    html = logged_in(waiting).get(match_url(online_match)).content.decode()
    assert f'data-action="claim" data-url="{claim_url}"' in html
    assert "data-claim-wait" not in html
    answer = logged_in(waiting).post(claim_url)  # what the button posts
    assert answer.status_code == 200
    html = logged_in(waiting).get(match_url(online_match)).content.decode()
    assert "data-claim" not in html and "(claimed after the opponent's inactivity)" in html


def test_nobody_else_gets_the_claim(fake_clock, online_match, organiser, alice, bob):
    _waiting, to_move = _waiting_and_to_move(online_match)
    fake_clock.advance(73 * 3600)
    staff = Client()
    staff.force_login(organiser)
    for client in (logged_in(to_move), Client(), staff):
        response = client.get(match_url(online_match))
        assert response.context["claim"] is None
        assert "data-claim" not in response.content.decode()
    clocked = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=1, clock=ONE_POINT_CLOCK
    )
    for player in (alice, bob):
        assert logged_in(player).get(match_url(clocked)).context["claim"] is None


@pytest.mark.django_db(transaction=True)
def test_the_claim_button_ends_the_match_in_the_browser(
    live_server, new_page, fake_clock, online_match
):
    waiting, _to_move = _waiting_and_to_move(online_match)
    fake_clock.advance(72 * 3600 + 1)
    page, console = new_page()
    log_in(page, live_server.url, waiting.user.username, match_url(online_match))
    page.get_by_role("button", name="Claim the match").click()
    expect(page.locator(".match-header")).to_contain_text(
        "(claimed after the opponent's inactivity)", use_inner_text=True
    )
    expect(page.locator("[data-claim]")).to_have_count(0)
    assert Match.objects.get(pk=online_match.pk).winner_id == waiting.pk
    assert console.errors == []
