"""What spectators see of a tournament match's chances is its organisers' setting (issue 23 §3,
docs/decisions.md D135): hidden until the match is over, one move behind (the default) or
live; the players never while it is on. Set from the desk's Settings tab through the API, also
while the tournament runs (the only setting that may change then)."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from games import chances
from games import services as games_services
from games.demo import game_play_random
from games.models import Match
from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import tournament_running
from tournaments.models import Tournament, TournamentMatch
from tournaments.web.desk_settings import settings_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def spectator(db):
    return UserFactory(username="spectator")


def detail(pk):
    return reverse("tournaments:tournament-detail", args=[pk])


def patch(org_api, pk, data, status=200):
    response = org_api.client.patch(detail(pk), data, format="json")
    assert response.status_code == status, response.content
    return response.json()


def running_match(org_api, players, organiser, **fields) -> tuple[int, Match]:
    """A running online tournament of four and its first match, started and a few turns in."""
    pk = tournament_running(
        org_api, players[:4], format="single_elimination", match_mode="online", **fields
    )["id"]
    row = TournamentMatch.objects.filter(tournament_id=pk, round=1).order_by("index").first()
    match = games_services.match_start(match=row.match, user=organiser)
    game = match.games.get(number=1)
    game_play_random(game=game, rng=random.Random(3), max_decisions=6)
    match.refresh_from_db()
    return pk, match


def chances_of(user, match):
    client = Client()
    client.force_login(user)
    return client.get(reverse("games:match-chances", kwargs={"pk": match.pk}))


def page_of(user, match) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("web:match", kwargs={"pk": match.pk})).content.decode()


def test_the_default_is_one_move_behind(weights, org_api, players, organiser, spectator):
    pk, match = running_match(org_api, players, organiser)
    assert Tournament.objects.get(pk=pk).spectator_chances == "delayed"
    answer = chances_of(spectator, match)
    assert answer.status_code == 200 and answer.json()["behind"] == 1


def test_live_shows_every_point(weights, org_api, players, organiser, spectator):
    _pk, match = running_match(org_api, players, organiser, spectator_chances="live")
    data = chances_of(spectator, match).json()
    assert data["behind"] == 0 and data["current"]["turn"] == data["points"][-1]["turn"]
    assert len(data["points"]) == match.games.get(number=1).turns.count() + 1


def test_hidden_is_a_403_naming_the_organisers_choice_and_no_bar_until_the_end(
    weights, org_api, players, organiser, spectator
):
    _pk, match = running_match(org_api, players, organiser, spectator_chances="hidden")
    answer = chances_of(spectator, match)
    assert answer.status_code == 403
    assert answer.json()["detail"] == chances.hidden_message(chances.Policy("hidden", "Cup"))
    assert "Cup" in answer.json()["detail"]
    assert 'id="chances"' not in page_of(spectator, match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    over = chances_of(spectator, match)
    assert over.status_code == 200 and over.json()["behind"] == 0


@pytest.mark.parametrize("setting", ["hidden", "delayed", "live"])
def test_the_players_are_refused_whatever_the_setting(
    weights, org_api, players, organiser, setting
):
    _pk, match = running_match(org_api, players, organiser, spectator_chances=setting)
    for player in (match.player_one, match.player_two):
        answer = chances_of(player.user, match)
        assert answer.status_code == 403
        assert answer.json()["detail"] == chances.PLAYERS_WAIT


def test_the_setting_changes_while_the_tournament_runs_and_nothing_else_does(
    weights, org_api, players, organiser, spectator
):
    pk, match = running_match(org_api, players, organiser)
    assert patch(org_api, pk, {"spectator_chances": "hidden"})["spectator_chances"] == "hidden"
    assert chances_of(spectator, match).status_code == 403
    patch(org_api, pk, {"spectator_chances": "live"})
    assert chances_of(spectator, match).json()["behind"] == 0
    refused = patch(org_api, pk, {"spectator_chances": "hidden", "match_length": 3}, 409)
    assert "running" in str(refused)
    assert Tournament.objects.get(pk=pk).spectator_chances == "live"
    assert "not a valid choice" in str(patch(org_api, pk, {"spectator_chances": "later"}, 400))


def test_the_desk_offers_the_setting_before_and_during_the_tournament(org_api, players, organiser):
    draft = org_api.post(
        "tournaments:tournament-list", {"name": "Cup", "format": "swiss"}, status=201
    )
    before = settings_form(user=organiser, tournament=Tournament.objects.get(pk=draft["id"]))
    rows = {row["name"]: row for section in before["sections"] for row in section["fields"]}
    choices = [choice["value"] for choice in rows["spectator_chances"]["choices"]]
    assert sorted(choices) == ["delayed", "hidden", "live"] and not before["running"]
    assert [c["value"] for c in rows["spectator_chances"]["choices"] if c["selected"]] == [
        "delayed"
    ]
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    during = settings_form(user=organiser, tournament=Tournament.objects.get(pk=pk))
    names = {row["name"] for section in during["sections"] for row in section["fields"]}
    assert during["read_only"] and "spectator_chances" not in names
    assert [row["name"] for row in during["running"]] == ["spectator_chances"]
    client = Client()
    client.force_login(organiser)
    desk = client.get(reverse("tournaments_web:desk", kwargs={"pk": pk}) + "?tab=settings")
    desk = desk.content.decode()
    assert 'id="running-settings"' in desk and 'name="spectator_chances"' in desk


def test_a_spectators_request_stays_in_its_query_budget(
    weights, org_api, players, organiser, spectator, django_assert_max_num_queries
):
    _pk, match = running_match(org_api, players, organiser)
    client = Client()
    client.force_login(spectator)
    url = reverse("games:match-chances", kwargs={"pk": match.pk})
    first = client.get(url).json()
    # the session, the user, the match, the spectator's player, the tournament's setting, the
    # games with their last turns (measured: 6)
    with django_assert_max_num_queries(6):
        again = client.get(url)
    assert again.json() == first


def test_the_admin_changes_it_while_the_tournament_runs(admin_client, org_api, players, organiser):
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    url = reverse("admin:tournaments_tournament_change", args=[pk])
    form = admin_client.get(url).context["adminform"].form
    assert list(form.fields) == ["organisers", "spectator_chances"]
    body = {"organisers": [organiser.pk], "spectator_chances": "hidden"}
    for inline in ("entries", "rounds"):
        body |= {f"{inline}-TOTAL_FORMS": 0, f"{inline}-INITIAL_FORMS": 0}
    response = admin_client.post(url, body)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Tournament.objects.get(pk=pk).spectator_chances == "hidden"
