"""The organiser's desk: only a tournament's organisers (and staff) reach it; its actions are
API calls declared in the page (static/js/desk.js), and an error answer is shown, not lost."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.web.helpers import log_in
from tournaments.management.commands.demo_setup import rated_organisers_group
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(db):
    organiser = UserFactory(username="desk-organiser")
    tournament = TournamentFactory(
        name="Desk Cup",
        created_by=organiser,
        status="registration",
        format="single_elimination",
        check_in_required=True,
    )
    for i in range(1, 4):
        player = PlayerFactory(display_name=f"D{i}", rating=1700.0 - i)
        tournament.entries.create(player=player)
    return tournament


def desk_url(tournament, tab=None) -> str:
    url = reverse("tournaments_web:desk", kwargs={"pk": tournament.pk})
    return f"{url}?tab={tab}" if tab else url


def test_the_desk_is_for_the_organisers_and_staff_only(cup):
    anonymous = Client().get(desk_url(cup))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]

    player = Client()
    player.force_login(cup.entries.first().player.user)
    assert player.get(desk_url(cup)).status_code == 403

    stranger = Client()
    stranger.force_login(UserFactory(username="somebody"))
    assert stranger.get(desk_url(cup)).status_code == 403

    for user in (cup.created_by, UserFactory(username="staff", is_staff=True)):
        client = Client()
        client.force_login(user)
        response = client.get(desk_url(cup))
        assert response.status_code == 200
        html = response.content.decode()
        assert "D1" in html and "Start the tournament" in html

    co_organiser = UserFactory(username="co")
    cup.organisers.add(co_organiser)
    client = Client()
    client.force_login(co_organiser)
    assert client.get(desk_url(cup)).status_code == 200


def test_running_a_tournament_gives_no_desk_of_another(cup):
    """An organiser in the demo's group "Rated tournament organisers", with a tournament of
    their own, reaches its desk but neither the tabs nor the print page of someone else's."""
    other = UserFactory(username="other-organiser")
    other.groups.add(rated_organisers_group())
    theirs = TournamentFactory(created_by=other, name="Theirs")
    client = Client()
    client.force_login(other)
    assert client.get(desk_url(theirs)).status_code == 200
    for tab in (None, "registration", "rounds", "results", "settings"):
        assert client.get(desk_url(cup, tab)).status_code == 403, tab
    printed = reverse("tournaments_web:desk-print-round", kwargs={"pk": cup.pk, "number": 1})
    assert client.get(printed).status_code == 403
    page = client.get(reverse("tournaments_web:tournament", kwargs={"pk": cup.pk}))
    assert desk_url(cup) not in page.content.decode()


def test_the_demos_organiser_logs_in_and_finds_the_desks():
    """`make run` loads the demo: its organiser logs in with the demo password and finds the
    desk of each demo tournament under "Your tournaments" (README, "Running a tournament")."""
    output = StringIO()
    call_command("demo_setup", stdout=output)
    assert "log in as organiser (password tabla-demo)" in output.getvalue()
    client = Client()
    assert client.login(username="organiser", password="tabla-demo")
    html = client.get(reverse("tournaments_web:index")).content.decode()
    assert "Your tournaments" in html and 'href="/tournaments/new/"' in html
    demos = Tournament.objects.filter(created_by__username="organiser").order_by("pk")
    assert [t.name for t in demos] == ["Demo Club Cup", "Demo Swiss Night"]
    for tournament in demos:
        assert f'href="{desk_url(tournament)}"' in html
        assert f"desk {desk_url(tournament)}" in output.getvalue()
        for tab in ("registration", "rounds", "results", "settings"):
            assert client.get(desk_url(tournament, tab)).status_code == 200


def test_the_tournament_page_links_the_desk_for_its_organisers_only(cup):
    page = reverse("tournaments_web:tournament", kwargs={"pk": cup.pk})
    organiser = Client()
    organiser.force_login(cup.created_by)
    assert desk_url(cup) in organiser.get(page).content.decode()
    player = Client()
    player.force_login(cup.entries.first().player.user)
    assert desk_url(cup) not in player.get(page).content.decode()
    assert desk_url(cup) not in Client().get(page).content.decode()


def test_an_unknown_tournament_is_404(cup):
    client = Client()
    client.force_login(cup.created_by)
    assert client.get(reverse("tournaments_web:desk", kwargs={"pk": 999_999})).status_code == 404


def test_desk_actions_call_the_api_and_show_its_errors(cup, live_server, new_page):
    page, console = new_page()
    cup.created_by.set_password("password")
    cup.created_by.save()
    path = desk_url(cup)
    log_in(page, live_server.url, cup.created_by.username, path)
    page.on("dialog", lambda dialog: dialog.accept())

    entry = cup.entries.order_by("pk").first()
    page.locator(f'tr[data-entry="{entry.pk}"]').get_by_role("button", name="Check in").click()
    page.wait_for_selector(f'tr[data-entry="{entry.pk}"] >> text=checked in')
    entry.refresh_from_db()
    assert entry.checked_in

    page.get_by_role("button", name="Close registration").click()
    page.wait_for_selector("text=Registration is closed.")
    cup.refresh_from_db()
    assert cup.registration_open is False

    for other in cup.entries.exclude(pk=entry.pk):  # one entry left: the start is refused
        page.locator(f'tr[data-entry="{other.pk}"]').get_by_role("button", name="Withdraw").click()
        page.wait_for_selector(f'tr[data-entry="{other.pk}"].muted')
    page.get_by_role("button", name="Start the tournament").click()
    error = page.locator("[data-error]:not([hidden])")
    error.wait_for()
    expect(error).to_contain_text("at least 2 entries", use_inner_text=True)
    cup.refresh_from_db()
    assert cup.status == "registration"
    # The refused start is the only error the browser saw (it logs every 4xx answer).
    assert [e for e in console.errors if "409 (Conflict)" not in e] == []


def test_a_lone_organiser_who_plays_adds_a_co_organiser_at_the_desk(cup, live_server, new_page):
    """docs/decisions.md D39: the desk tells an organiser who plays, alone, that someone else
    decides their matches and lets them add a co-organiser on the Settings tab."""
    organiser = cup.created_by
    organiser.set_password("password")
    organiser.save()
    cup.entries.create(player=PlayerFactory(display_name="Desk Organiser", user=organiser))
    UserFactory(username="vesna")
    page, console = new_page()
    log_in(page, live_server.url, organiser.username, desk_url(cup))
    note = page.locator("[data-alone]")
    expect(note).to_contain_text("only organiser")
    note.get_by_role("link", name="Add a co-organiser on the Settings tab.").click()
    form = page.locator("#organisers form")
    form.locator("input[name=username]").fill("nobody")
    form.get_by_role("button", name="Add a co-organiser").click()
    expect(form.locator("[data-error]")).to_contain_text("there is no user 'nobody'")

    form.locator("input[name=username]").fill("vesna")
    form.get_by_role("button", name="Add a co-organiser").click()
    expect(page.locator("[data-organisers]")).to_have_text("desk-organiser, vesna")
    expect(page.locator("[data-alone]")).to_have_count(0)
    assert cup.organisers.filter(username="vesna").exists()
    assert [e for e in console.errors if "400 (Bad Request)" not in e] == []
