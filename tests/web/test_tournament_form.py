"""Creating a tournament from the site (/tournaments/new/) and editing its settings at the desk
(the Settings tab): only the chosen format's settings show, the rule presets by name, "rated"
only for those who may run rated tournaments, and the API's refusals shown by the form."""

import json
import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from playwright.sync_api import expect

from games.engine import PRESETS
from tests.tournaments.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.web.helpers import log_in
from tournaments.models import Tournament
from tournaments.web import desk_settings

pytestmark = pytest.mark.django_db

NEW = reverse("tournaments_web:new")


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def trusted(db):
    """An organiser staff trust with rated tournaments."""
    user = UserFactory(username="trusted")
    user.user_permissions.add(Permission.objects.get(codename="run_rated_tournament"))
    return user


def settings_url(tournament) -> str:
    return reverse("tournaments_web:desk", kwargs={"pk": tournament.pk}) + "?tab=settings"


def shown_fields(html: str) -> set[str]:
    """The names of the form's inputs that are not disabled (those a submit sends)."""
    names = set()
    for tag in re.findall(r"<(?:input|select)\b[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        if name and " disabled" not in tag:
            names.add(name.group(1))
    return names


def test_the_form_is_for_logged_in_users_and_linked_from_the_list():
    assert Client().get(NEW)["Location"].startswith("/accounts/login/")
    index = reverse("tournaments_web:index")
    assert f'href="{NEW}"' not in Client().get(index).content.decode()
    user = UserFactory(username="member")
    assert f'href="{NEW}"' in client_of(user).get(index).content.decode()
    assert client_of(user).get(NEW).status_code == 200


def test_the_form_shows_the_chosen_formats_settings_and_the_presets_by_name(trusted):
    html = client_of(trusted).get(NEW).content.decode()
    assert f'data-api="{reverse("tournaments:tournament-list")}"' in html
    assert 'data-next="/tournaments/{id}/desk/"' in html
    # A single elimination by default: its own setting is sent, the other formats' are not.
    names = shown_fields(html)
    assert {"name", "format", "match_length", "match_mode", "options", "rated"} <= names
    assert "third_place" in names
    assert not names & {"swiss_rounds", "groups", "grand_final_reset", "consolation_rounds"}
    assert 'data-formats="swiss"' in html and 'data-formats="double_elimination"' in html
    # The presets by name, each with its line; no raw JSON of options to type.
    for name, (label, description) in desk_settings.PRESET_LABELS.items():
        assert f"<strong>{label}</strong>" in html and escape(str(description)) in html
        assert f'value="{{&quot;preset&quot;: &quot;{name}&quot;}}"' in html
    assert "<textarea" not in html
    assert 'value="5"' in html  # the match length
    assert re.search(r'<option value="over_the_board" selected>', html)


def test_every_preset_has_a_name_and_a_description():
    assert set(desk_settings.PRESET_LABELS) == set(PRESETS)


def test_rated_is_offered_only_to_those_who_may_run_rated_tournaments(trusted):
    html = client_of(UserFactory(username="member")).get(NEW).content.decode()
    assert 'name="rated"' not in html and "A friendly tournament" in html
    html = client_of(trusted).get(NEW).content.decode()
    assert re.search(r'name="rated" data-type="bool"[^>]* checked', html)


def test_a_new_tournament_is_for_the_users_club():
    player = PlayerFactory(display_name="Club Member")
    html = client_of(player.user).get(NEW).content.decode()
    assert f'<option value="{player.club_id}" selected>' in html


def test_the_settings_tab_edits_while_registration_is_open(trusted):
    tournament = TournamentFactory(
        created_by=trusted, format="swiss", swiss_rounds=4, options={"preset": "greek_tavli"}
    )
    html = client_of(trusted).get(settings_url(tournament)).content.decode()
    assert f'data-api="{reverse("tournaments:tournament-detail", args=[tournament.pk])}"' in html
    assert 'data-method="PATCH"' in html and "Save the settings" in html
    assert {"swiss_rounds", "late_entry_until_round", "bye_points"} <= shown_fields(html)
    assert "third_place" not in shown_fields(html)
    assert re.search(r'value="{&quot;preset&quot;: &quot;greek_tavli&quot;}"[^>]* checked', html)
    assert re.search(r'name="swiss_rounds" value="4"', html)


def test_options_set_through_the_api_are_kept_by_the_form(trusted):
    options = {"preset": "bulgarian_nit", "cube": "all_games"}
    tournament = TournamentFactory(created_by=trusted, options=options)
    html = client_of(trusted).get(settings_url(tournament)).content.decode()
    kept = re.search(r'<input type="radio" name="options" value="([^"]+)"[^>]* checked', html)
    assert json.loads(kept.group(1).replace("&quot;", '"')) == options
    assert "cube=all_games" in html


def test_a_started_tournaments_settings_are_read_only(trusted):
    tournament = TournamentFactory(created_by=trusted, status="running")
    html = client_of(trusted).get(settings_url(tournament)).content.decode()
    assert "can no longer be changed" in html
    assert '<fieldset class="plain" disabled>' in html and "Save the settings" not in html


def test_only_the_organisers_reach_the_settings(trusted):
    tournament = TournamentFactory(created_by=trusted)
    player = PlayerFactory()
    tournament.entries.create(player=player)
    assert client_of(player.user).get(settings_url(tournament)).status_code == 403
    response = Client().get(settings_url(tournament))
    assert response.status_code == 302


# --- in the browser --------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_creating_a_swiss_through_the_form(live_server, new_page, trusted, size):
    club = ClubFactory(name="Bitola Tabla Club")
    page, console = new_page(*size)
    log_in(page, live_server.url, trusted.username, reverse("tournaments_web:index"))
    page.get_by_role("link", name="New tournament").click()
    page.wait_for_url(f"{live_server.url}{NEW}")
    page.fill("input[name=name]", "Thursday Swiss")
    expect(page.locator("input[name=swiss_rounds]")).to_be_hidden()
    expect(page.locator("input[name=third_place]")).to_be_visible()
    page.select_option("select[name=format]", "swiss")
    expect(page.locator("input[name=swiss_rounds]")).to_be_visible()
    expect(page.locator("input[name=third_place]")).to_be_hidden()
    expect(page.get_by_text("nobody is knocked out")).to_be_visible()
    page.select_option("select[name=club]", str(club.pk))
    page.get_by_text("Greek Tavli").click()
    page.fill("input[name=match_length]", "7")
    page.fill("input[name=swiss_rounds]", "5")
    page.fill("input[name=late_entry_until_round]", "2")
    page.select_option("select[name=match_mode]", "online")
    page.select_option("select[name=clock]", label="2 minutes a point + 12 s a turn")
    page.fill("input[name=claim_after_hours]", "48")
    page.uncheck("input[name=rated]")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+/desk/$"))
    tournament = Tournament.objects.get(name="Thursday Swiss")
    assert page.url.endswith(f"/tournaments/{tournament.pk}/desk/")
    assert (tournament.format, tournament.club, tournament.match_length) == ("swiss", club, 7)
    assert (tournament.swiss_rounds, tournament.late_entry_until_round) == (5, 2)
    assert tournament.options == {"preset": "greek_tavli"} and tournament.match_mode == "online"
    assert tournament.rated is False and tournament.status == "draft"
    assert tournament.third_place is False  # a hidden setting is not sent
    assert tournament.clock["preset"] == "standard" and tournament.claim_after_hours == 48
    assert list(tournament.organisers.all()) == [trusted]
    assert console.errors == []


def test_the_settings_tab_shows_the_apis_refusal_and_saves(live_server, new_page, trusted):
    tournament = TournamentFactory(created_by=trusted, format="swiss", swiss_rounds=3)
    page, console = new_page()
    log_in(page, live_server.url, trusted.username, settings_url(tournament))
    page.fill("input[name=late_entry_until_round]", "4")
    page.get_by_role("button", name="Save the settings").click()
    error = page.locator("form [data-error]:not([hidden])")
    error.wait_for()
    expect(error).to_have_text(
        "“Late entry until round” (4) is after the last round (3)", use_inner_text=True
    )
    page.fill("input[name=late_entry_until_round]", "3")
    page.select_option("select[name=format]", "round_robin")
    page.fill("input[name=groups]", "2")
    with page.expect_navigation():  # the page reloads with the saved settings
        page.get_by_role("button", name="Save the settings").click()
    expect(page.locator("select[name=format]")).to_have_value("round_robin")
    tournament.refresh_from_db()
    assert (tournament.format, tournament.groups) == ("round_robin", 2)
    assert tournament.late_entry_until_round == 0  # the Swiss setting was hidden: not sent
    assert [e for e in console.errors if "400 (Bad Request)" not in e] == []
