"""The player list and entering players through the API: who may read and enter, the list's
search and filters, the duplicate check and the all-or-nothing bulk entry."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from players.models import Player
from players.selectors import name_key
from players.services import MAX_BULK_PLAYERS
from tests.games.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

LIST = reverse("players:player-list")
BULK = reverse("players:player-bulk")


def detail(player: Player) -> str:
    return reverse("players:player-detail", kwargs={"pk": player.pk})


# --- reading --------------------------------------------------------------------------------


def test_anyone_reads_the_list_with_club_rating_and_account(client_for, club_players, alice):
    response = client_for(None).get(LIST)
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3 and len(body["results"]) == 3
    rows = {row["display_name"]: row for row in body["results"]}
    ilija = club_players[0]
    assert rows["Ilija Stojanov"] == {
        "id": ilija.pk,
        "display_name": "Ilija Stojanov",
        "club": {"id": ilija.club_id, "name": "Skopje Tabla Club"},
        "country": "MK",
        "rating": 1500.0,
        "experience": 0,
        "has_account": False,
        "created_at": rows["Ilija Stojanov"]["created_at"],
    }
    assert rows["Alice"]["has_account"] is True


def test_the_list_searches_names_and_filters_by_club_and_account(client_for, club_players, alice):
    client = client_for(None)
    found = client.get(LIST, {"search": "dimit"}).json()["results"]
    assert [row["display_name"] for row in found] == ["Marija Dimitrova"]
    in_club = client.get(LIST, {"club": club_players[0].club_id}).json()["results"]
    assert {row["id"] for row in in_club} == {p.pk for p in club_players}
    assert client.get(LIST, {"club": 999_999}).json()["count"] == 0
    without = client.get(LIST, {"has_account": "false"}).json()["results"]
    assert {row["id"] for row in without} == {p.pk for p in club_players}
    assert client.get(LIST, {"has_account": "true"}).json()["results"][0]["id"] == alice.pk


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"club": "x"}, "club"),
        ({"club": "0"}, "club"),
        ({"club": str(2**63)}, "club"),
        ({"search": "x" * 81}, "search"),
        ({"search": "a\x00b"}, "search"),
    ],
)
def test_a_bad_filter_is_a_400_naming_it(client_for, query, field):
    response = client_for(None).get(LIST, query)
    assert response.status_code == 400 and field in response.json(), response.json()


def test_the_list_is_paginated(client_for, db):
    PlayerFactory.create_batch(51, user=None)
    first = client_for(None).get(LIST).json()
    assert first["count"] == 51 and len(first["results"]) == 50 and first["next"]
    assert len(client_for(None).get(LIST, {"page": 2}).json()["results"]) == 1
    assert client_for(None).get(LIST, {"page": 3}).status_code == 404


def test_anyone_reads_one_player(client_for, club_players):
    response = client_for(None).get(detail(club_players[1]))
    assert response.status_code == 200 and response.json()["display_name"] == "Marija Dimitrova"
    assert client_for(None).get("/api/v1/players/999999/").status_code == 404


# --- entering one player ------------------------------------------------------------------------


def test_an_organiser_enters_a_player_without_an_account(client_for, organiser, club):
    body = {"display_name": "  Elena Kostova ", "club": club.pk, "country": "mk", "rating": 1620}
    response = client_for(organiser).post(LIST, body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["display_name"] == "Elena Kostova" and created["country"] == "MK"
    assert created["rating"] == 1620.0 and created["has_account"] is False
    assert created["club"] == {"id": club.pk, "name": club.name}
    player = Player.objects.get(pk=created["id"])
    assert player.user is None and player.created_by == organiser


def test_staff_enter_a_player_with_only_a_name(client_for, staff):
    response = client_for(staff).post(LIST, {"display_name": "Zoran"}, format="json")
    assert response.status_code == 201
    assert response.json()["club"] is None and response.json()["rating"] == 1500.0
    assert Player.objects.get(display_name="Zoran").created_by == staff


def test_the_permission_may_come_through_a_group(client_for, stranger):
    group = Group.objects.create(name="Club organisers")
    group.permissions.add(
        Permission.objects.get(content_type__app_label="players", codename="add_player")
    )
    stranger.groups.add(group)
    response = client_for(stranger).post(LIST, {"display_name": "Zoran"}, format="json")
    assert response.status_code == 201


def test_only_organisers_enter_players(client_for, stranger, alice):
    body = {"display_name": "Zoran"}
    assert client_for(None).post(LIST, body, format="json").status_code == 401
    for user in (stranger, alice.user):
        response = client_for(user).post(LIST, body, format="json")
        assert response.status_code == 403
        assert "players.add_player" in response.json()["detail"]
    assert not Player.objects.filter(display_name="Zoran").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "display_name"),
        ({"display_name": "   "}, "display_name"),
        ({"display_name": "x" * 81}, "display_name"),
        ({"display_name": "Zoran", "club": 999_999}, "club"),
        ({"display_name": "Zoran", "club": 2**63}, "club"),
        ({"display_name": "Zoran", "country": "MKD"}, "country"),
        ({"display_name": "Zoran", "country": "1!"}, "country"),
        ({"display_name": "Zoran", "rating": -1}, "rating"),
        ({"display_name": "Zoran", "rating": 10**6}, "rating"),
        ({"display_name": "Zoran", "rating": "high"}, "rating"),
        ({"display_name": "Zoran", "user": 1}, "user"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client_for, organiser, body, field):
    response = client_for(organiser).post(LIST, body, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()


def test_a_player_of_the_same_name_in_the_club_is_refused_unless_allowed(
    client_for, organiser, club_players
):
    ilija = club_players[0]
    body = {"display_name": "ilija  STOJANOV ", "club": ilija.club_id}
    response = client_for(organiser).post(LIST, body, format="json")
    assert response.status_code == 409
    detail_text = response.json()["detail"]
    assert f"player {ilija.pk} (Ilija Stojanov)" in detail_text and "allow_duplicate" in detail_text
    assert Player.objects.filter(display_name__iexact="ilija stojanov").count() == 1

    allowed = client_for(organiser).post(LIST, {**body, "allow_duplicate": True}, format="json")
    assert allowed.status_code == 201 and allowed.json()["display_name"] == "ilija STOJANOV"


def test_the_same_name_in_another_club_or_without_a_club_is_another_player(
    client_for, organiser, club_players
):
    other = ClubFactory()
    client = client_for(organiser)
    for body in ({"display_name": "Ilija Stojanov", "club": other.pk},
                 {"display_name": "Ilija Stojanov"}):  # fmt: skip
        assert client.post(LIST, body, format="json").status_code == 201
    again = client.post(LIST, {"display_name": "ILIJA STOJANOV"}, format="json")
    assert again.status_code == 409 and "without a club" in again.json()["detail"]


def test_names_are_compared_in_any_alphabet():
    assert name_key("Јован  ЈОВАНОВ") == name_key(" јован јованов")
    assert name_key("Straße") == name_key("STRASSE")


def test_a_name_in_another_alphabets_capitals_is_a_duplicate(client_for, organiser, club):
    PlayerFactory(user=None, club=club, display_name="Јован Јованов")
    body = {"display_name": "ЈОВАН ЈОВАНОВ", "club": club.pk}
    assert client_for(organiser).post(LIST, body, format="json").status_code == 409


# --- entering a list of players -----------------------------------------------------------------


def test_an_organiser_enters_a_list_of_players_at_once(client_for, organiser, club):
    rows = [
        {"display_name": "Ana", "club": club.pk, "rating": 1550},
        {"display_name": "Boris"},
        {"display_name": "Vesna", "club": club.pk, "country": "mk"},
    ]
    response = client_for(organiser).post(BULK, {"players": rows}, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert [row["display_name"] for row in created] == ["Ana", "Boris", "Vesna"]
    assert [row["rating"] for row in created] == [1550.0, 1500.0, 1500.0]
    assert created[2]["country"] == "MK" and created[1]["club"] is None
    assert set(Player.objects.values_list("created_by", flat=True)) == {organiser.pk}


def test_a_duplicate_row_refuses_the_whole_list_naming_the_row(client_for, organiser, club_players):
    ilija = club_players[0]
    rows = [
        {"display_name": "Ana", "club": ilija.club_id},
        {"display_name": "Boris", "club": ilija.club_id},
        {"display_name": "Ilija Stojanov", "club": ilija.club_id},
    ]
    response = client_for(organiser).post(BULK, {"players": rows}, format="json")
    assert response.status_code == 409
    assert response.json()["detail"].startswith(f"players[2]: player {ilija.pk} (Ilija Stojanov)")
    assert Player.objects.count() == 2  # none of the list was entered

    rows[2]["allow_duplicate"] = True
    assert client_for(organiser).post(BULK, {"players": rows}, format="json").status_code == 201
    assert Player.objects.count() == 5


def test_a_name_twice_in_one_list_is_refused_naming_both_rows(client_for, organiser, club):
    rows = [{"display_name": "Ana", "club": club.pk}, {"display_name": "Boris"},
            {"display_name": " ana", "club": club.pk}]  # fmt: skip
    response = client_for(organiser).post(BULK, {"players": rows}, format="json")
    assert response.status_code == 409
    assert response.json()["detail"].startswith("players[2]: the same name as players[0] in club")
    assert not Player.objects.exists()


def test_a_bad_row_is_a_400_naming_its_index(client_for, organiser):
    rows = [{"display_name": "Ana"}, {"display_name": "Boris", "rating": -5}]
    response = client_for(organiser).post(BULK, {"players": rows}, format="json")
    assert response.status_code == 400
    errors = response.json()["players"]
    assert list(errors) == ["1"] and list(errors["1"]) == ["rating"]
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"players": []},
        {"players": [{"display_name": f"P{i}"} for i in range(MAX_BULK_PLAYERS + 1)]},
        {"players": {"display_name": "Ana"}},
        [{"display_name": "Ana"}],
        {"players": [{"display_name": "Ana"}], "club": 1},
    ],
    ids=["empty", "too-many", "not-a-list", "bare-list", "unknown-field"],
)
def test_a_bad_list_is_a_400(client_for, organiser, body):
    response = client_for(organiser).post(BULK, body, format="json")
    assert response.status_code == 400, response.json()
    assert not Player.objects.exists()


def test_the_largest_list_is_entered(client_for, organiser):
    rows = [{"display_name": f"Player {i}"} for i in range(MAX_BULK_PLAYERS)]
    response = client_for(organiser).post(BULK, {"players": rows}, format="json")
    assert response.status_code == 201 and len(response.json()) == MAX_BULK_PLAYERS


def test_only_organisers_enter_lists(client_for, stranger, alice, staff):
    body = {"players": [{"display_name": "Ana"}]}
    assert client_for(None).post(BULK, body, format="json").status_code == 401
    assert client_for(stranger).post(BULK, body, format="json").status_code == 403
    assert client_for(alice).post(BULK, body, format="json").status_code == 403
    assert client_for(staff).post(BULK, body, format="json").status_code == 201


def test_a_list_of_one_names_its_row_too(client_for, organiser, club_players):
    body = {"players": [{"display_name": "Ilija Stojanov", "club": club_players[0].club_id}]}
    response = client_for(organiser).post(BULK, body, format="json")
    assert response.status_code == 409 and response.json()["detail"].startswith("players[0]: ")
