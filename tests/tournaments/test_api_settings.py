"""Every format setting is checked before anything is drawn: a 400 naming the setting at
creation or edit, a 409 at the start for what depends on the field, never a 500."""

import pytest
from django.urls import reverse

from tests.tournaments.helpers import play_all, tournament_running
from tournaments import admin
from tournaments.api.serializers import SETTINGS_FIELDS
from tournaments.services import TournamentSettings

pytestmark = pytest.mark.django_db


def patch(api, pk, data, status):
    response = api.client.patch(
        reverse("tournaments:tournament-detail", args=[pk]), data, format="json"
    )
    assert response.status_code == status, response.content
    return response.json()


def create(api, status, **fields):
    body = {"name": "Cup", "match_length": 1, **fields}
    return api.post("tournaments:tournament-list", body, status=status)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"format": "consolation", "consolation_rounds": 0}, "consolation_rounds must be from 1"),
        ({"format": "consolation", "consolation_rounds": 9}, "consolation_rounds must be from 1"),
        ({"format": "consolation", "consolation_match_length": 0}, "greater than or equal"),
        ({"format": "round_robin", "groups": 0}, "greater than or equal"),
        ({"format": "round_robin", "knockout_per_group": 1}, "at least 2 qualifiers"),
        ({"format": "round_robin", "knockout_per_group": 40}, "knockout_per_group must be"),
        ({"format": "round_robin", "groups": 3, "max_entries": 5}, "at least 6 entries"),
        ({"format": "swiss", "swiss_rounds": 0}, "swiss_rounds must be from 1"),
        ({"format": "swiss", "swiss_rounds": 6, "max_entries": 8}, "at most 4"),
        ({"format": "swiss", "swiss_rounds": 2, "max_entries": 2}, "swiss_rounds (2) cannot"),
        ({"format": "swiss", "bye_points": 3}, "bye_points must be from 0 to 1"),
        ({"format": "swiss", "max_entries": 1}, "max_entries must be from 2"),
        ({"format": "swiss", "swiss_rounds": 2, "late_entry_until_round": 5}, "after the last"),
    ],
)
def test_a_setting_no_tournament_can_run_with_is_refused_at_creation(org_api, fields, words):
    answer = create(org_api, 400, **fields)
    assert words in str(answer)


def test_an_edit_is_checked_against_the_stored_settings(org_api):
    pk = create(org_api, 201, format="swiss", swiss_rounds=3)["id"]
    answer = patch(org_api, pk, {"late_entry_until_round": 4}, 400)
    assert "after the last round (3)" in answer["detail"]
    patch(org_api, pk, {"late_entry_until_round": 3}, 200)


def test_more_groups_than_the_field_holds_refuses_the_start_and_can_be_fixed(org_api, players):
    pk = create(org_api, 201, format="round_robin", groups=5)["id"]
    org_api.post("tournaments:registration-open", pk=pk)
    for player in players[:4]:
        org_api.post("tournaments:entry-list", {"player": player.pk}, status=201, pk=pk)
    answer = org_api.post("tournaments:start", pk=pk, status=409)
    assert "5 groups need at least 10 entries, not 4" in answer["detail"]
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "registration"
    patch(org_api, pk, {"groups": 2}, 200)
    org_api.post("tournaments:start", pk=pk)
    assert play_all(org_api, pk) == 2
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"


def test_swiss_rounds_beyond_what_the_field_can_pair_refuse_the_start(org_api, players):
    pk = create(org_api, 201, format="swiss", swiss_rounds=3)["id"]
    org_api.post("tournaments:registration-open", pk=pk)
    for player in players[:4]:
        org_api.post("tournaments:entry-list", {"player": player.pk}, status=201, pk=pk)
    answer = org_api.post("tournaments:start", pk=pk, status=409)
    assert "at most 2" in answer["detail"]


def test_consolation_rounds_beyond_a_small_draw_are_fewer_not_a_crash(org_api, players):
    pk = tournament_running(org_api, players[:4], format="consolation", consolation_rounds=3)["id"]
    play_all(org_api, pk)
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "finished"


def test_the_api_and_the_admin_edit_the_settings_the_services_take():
    settable = set(TournamentSettings.__annotations__)
    assert set(SETTINGS_FIELDS) == settable
    assert set(admin.SETTINGS) - {"organisers"} <= settable


def test_manual_seeding_with_an_unseeded_entry_refuses_the_start_until_seeded(org_api, players):
    pk = create(org_api, 201, format="single_elimination", seed_method="manual")["id"]
    org_api.post("tournaments:registration-open", pk=pk)
    entries = [
        org_api.post("tournaments:entry-list", {"player": p.pk}, status=201, pk=pk)
        for p in players[:3]
    ]
    answer = org_api.post("tournaments:start", pk=pk, status=409)
    assert "seeding is manual" in answer["detail"] and "P1" in answer["detail"]
    seeds = {str(e["id"]): 3 - i for i, e in enumerate(entries)}
    org_api.post("tournaments:seed", {"method": "manual", "seeds": seeds}, pk=pk)
    org_api.post("tournaments:entry-list", {"player": players[3].pk}, status=201, pk=pk)
    answer = org_api.post("tournaments:start", pk=pk, status=409)  # P4 came after the seeding
    assert "P4 have no seed" in answer["detail"]
    assert org_api.get("tournaments:tournament-detail", pk=pk)["status"] == "registration"
    late = [e for e in org_api.get("tournaments:entry-list", pk=pk) if e["seed"] is None]
    seeds[str(late[0]["id"])] = 4
    org_api.post("tournaments:seed", {"method": "manual", "seeds": seeds}, pk=pk)
    org_api.post("tournaments:start", pk=pk)
    assert play_all(org_api, pk) == 3
