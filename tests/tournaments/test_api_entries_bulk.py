"""Entering several players at once (POST /tournaments/{id}/entries/bulk/, the desk's pasted
list): organisers only, all of them or none, and the same rules as one entry at a time
(docs/decisions.md D36)."""

import pytest
from auditlog.models import LogEntry
from django.urls import reverse

from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.helpers import play_all, tournament_running
from tournaments.models import Entry
from tournaments.services.lifecycle import MAX_BULK_ENTRIES

pytestmark = pytest.mark.django_db


def bulk(api, tournament_id, players, status, **extra):
    body = {"players": [getattr(p, "pk", p) for p in players], **extra}
    return api.post("tournaments:entry-bulk", body, status=status, pk=tournament_id)


@pytest.fixture
def cup(organiser):
    return TournamentFactory(created_by=organiser, name="Bulk Cup")


def test_an_organiser_enters_a_list_in_the_order_given(org_api, cup, players):
    answer = bulk(org_api, cup.pk, [players[2], players[0], players[5]], 201)
    assert [row["player"] for row in answer] == [players[2].pk, players[0].pk, players[5].pk]
    assert [row["player_name"] for row in answer] == ["P3", "P1", "P6"]
    assert all(row["status"] == "active" and row["seed"] is None for row in answer)
    assert set(cup.entries.values_list("player_id", flat=True)) == {
        players[2].pk, players[0].pk, players[5].pk
    }  # fmt: skip
    actions = LogEntry.objects.filter(additional_data__action="register")
    assert actions.count() == 3


def test_a_player_already_entered_refuses_the_whole_list_naming_them(org_api, cup, players):
    bulk(org_api, cup.pk, players[:2], 201)
    answer = bulk(org_api, cup.pk, [players[3], players[1], players[0]], 409)
    assert answer["detail"] == (
        f"already entered: P1 (player {players[0].pk}), P2 (player {players[1].pk})"
    )
    assert cup.entries.count() == 2  # nothing of the list was entered


def test_a_player_named_twice_or_unknown_is_a_400(org_api, cup, players):
    answer = bulk(org_api, cup.pk, [players[0], players[1], players[0]], 400)
    assert answer["detail"] == f"players[2]: player {players[0].pk} (P1) twice"
    answer = bulk(org_api, cup.pk, [players[0], 999_999], 400)
    assert answer == {"players": ["no such player: 999999"]}
    assert bulk(org_api, cup.pk, [], 400)["players"]
    too_many = list(range(1, MAX_BULK_ENTRIES + 2))
    assert "no more than" in str(bulk(org_api, cup.pk, too_many, 400)["players"])
    assert bulk(org_api, cup.pk, [0], 400)["players"]
    assert bulk(org_api, cup.pk, players[:1], 400, late=True) == {"late": ["unknown field"]}
    assert cup.entries.count() == 0


def test_a_list_larger_than_the_places_left_is_refused(org_api, cup, players):
    cup.max_entries = 4
    cup.save()
    bulk(org_api, cup.pk, players[:2], 201)
    answer = bulk(org_api, cup.pk, players[2:5], 409)
    assert answer["detail"] == "only 2 of the 4 places are left, not the 3 asked for"
    bulk(org_api, cup.pk, players[2:4], 201)
    assert (
        bulk(org_api, cup.pk, players[4:5], 409)["detail"] == "the tournament is full (4 entries)"
    )


def test_registration_must_be_open(org_api, cup, players):
    org_api.post("tournaments:registration-close", pk=cup.pk)
    assert bulk(org_api, cup.pk, players[:2], 409)["detail"] == "registration is closed"


def test_only_the_organisers_enter_a_list(api_as, cup, players):
    for user in (players[0].user, UserFactory(username="somebody")):
        answer = bulk(api_as(user), cup.pk, players[:2], 403)
        assert answer["detail"] == "only the tournament's organisers may do this"
    assert bulk(api_as(None), cup.pk, players[:2], 401)
    assert cup.entries.count() == 0
    co_organiser = UserFactory(username="co")
    cup.organisers.add(co_organiser)
    bulk(api_as(co_organiser), cup.pk, players[:2], 201)
    response = api_as(co_organiser).client.post(
        reverse("tournaments:entry-bulk", kwargs={"pk": 999_999}),
        {"players": [players[3].pk]},
        format="json",
    )
    assert response.status_code == 404


def test_a_running_swiss_takes_a_list_as_late_entries(org_api, players):
    pk = tournament_running(
        org_api, players[:4], format="swiss", swiss_rounds=2, late_entry_until_round=2
    )["id"]
    late = bulk(org_api, pk, players[4:6], 201, late_bye_points=0.5)
    assert [row["joined_round"] for row in late] == [2, 2]
    assert [row["seed"] for row in late] == [5, 6]
    missed = Entry.objects.get(pk=late[0]["id"])
    row = missed.tournament.matches.get(key=f"R1-late-{missed.pk}")
    assert row.status == "missed" and row.bye_points == 0.5
    play_all(org_api, pk)
    org_api.post("tournaments:round-pair", {}, status=201, pk=pk)
    answer = bulk(org_api, pk, players[6:7], 409)
    assert "late entry closed: round 2 is already paired" in answer["detail"]


def test_an_elimination_that_started_takes_no_list(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    answer = bulk(org_api, pk, [PlayerFactory()], 409)
    assert answer["detail"] == "registration is closed"
