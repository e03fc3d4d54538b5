"""GET /api/v1/me/: who the logged-in user is, and the matches waiting for them to act: a
challenge to answer, their turn, a double to answer and a reported result to confirm."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from rest_framework.test import APIClient

from games import selectors, services
from games.models import Match
from tests.games.factories import MatchFactory, PlayerFactory, UserFactory
from tests.games.helpers import game_url

pytestmark = pytest.mark.django_db

ME = reverse("games:me")


def me(client_for, user_or_player) -> dict:
    response = client_for(user_or_player).get(ME)
    assert response.status_code == 200, response.json()
    return response.json()


def waiting(client_for, player) -> list[tuple[str, int]]:
    return [(item["reason"], item["match"]) for item in me(client_for, player)["awaiting"]]


def test_anonymous_gets_a_401(db):
    response = APIClient().get(ME)
    assert response.status_code == 401 and "detail" in response.json()


def test_a_player_sees_their_user_and_player(client_for, alice):
    assert me(client_for, alice) == {
        "id": alice.user.pk,
        "username": "alice",
        "player": {"id": alice.pk, "display_name": "Alice"},
        "may_enter_players": False,
        "awaiting": [],
        "awaiting_count": 0,
    }


def test_a_user_without_a_player_sees_no_player_and_nothing_waiting(client_for, organiser):
    body = me(client_for, organiser)
    assert body["player"] is None and body["awaiting"] == []
    assert body["username"] == "organiser" and body["id"] == organiser.pk


def test_organisers_and_staff_may_enter_players(client_for, organiser, staff):
    assert me(client_for, staff)["may_enter_players"] is True
    organiser.user_permissions.add(
        Permission.objects.get(content_type__app_label="players", codename="add_player")
    )
    assert me(client_for, organiser)["may_enter_players"] is True


def test_a_challenge_waits_for_the_challenged_player_only(alice, bob, client_for):
    created = client_for(alice).post(
        reverse("games:match-list"), {"player_one": alice.pk, "player_two": bob.pk}, format="json"
    )
    match_id = created.json()["id"]
    [item] = me(client_for, bob)["awaiting"]
    assert item == {
        "match": match_id,
        "reason": "accept_challenge",
        "game": None,
        "report": None,
        "opponent": {"id": alice.pk, "display_name": "Alice"},
    }
    assert waiting(client_for, alice) == []
    client_for(bob).post(reverse("games:match-accept", kwargs={"pk": match_id}))
    assert ("accept_challenge", match_id) not in waiting(client_for, bob)


def test_an_online_game_waits_for_the_player_to_move(online_match, client_for):
    game = selectors.current_game(online_match)
    mover = selectors.player_to_move(game)
    other = online_match.player_two if mover == online_match.player_one else online_match.player_one
    [item] = me(client_for, mover)["awaiting"]
    assert (item["reason"], item["match"], item["game"]) == ("turn", online_match.pk, game.pk)
    assert item["opponent"]["id"] == other.pk
    assert waiting(client_for, other) == []


def test_a_double_waits_for_the_answer_of_the_opponent(alice, bob, organiser, client_for):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = selectors.current_game(match)
    doubler, taker = game.white, game.black
    offered = client_for(doubler).post(game_url("cube-double", game.pk), {}, format="json")
    assert offered.status_code == 200, offered.json()
    assert waiting(client_for, taker) == [("answer_double", match.pk)]
    assert waiting(client_for, doubler) == []


def test_a_reported_result_waits_for_the_opponent_to_confirm(alice, bob, organiser, client_for):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    url = reverse("games:result-list", kwargs={"pk": match.pk})
    report = client_for(alice).post(url, {"winner": alice.pk, "points": 1}, format="json").json()
    [item] = me(client_for, bob)["awaiting"]
    assert (item["reason"], item["match"], item["report"]) == (
        "confirm_result",
        match.pk,
        report["id"],
    )
    assert waiting(client_for, alice) == []
    confirm = reverse("games:result-confirm", kwargs={"pk": match.pk, "rid": report["id"]})
    client_for(bob).post(confirm)
    assert waiting(client_for, bob) == []


def test_an_organisers_report_waits_for_no_one(alice, bob, organiser, client_for):
    match = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    url = reverse("games:result-list", kwargs={"pk": match.pk})
    client_for(organiser).post(url, {"winner": alice.pk, "points": 1}, format="json")
    assert waiting(client_for, alice) == waiting(client_for, bob) == []


def test_finished_and_other_players_matches_wait_for_no_one(alice, bob, client_for):
    MatchFactory(player_one=alice, player_two=bob, status=Match.Status.FINISHED)
    services.match_create(
        creator=UserFactory(), player_one=PlayerFactory(), player_two=PlayerFactory()
    )
    assert waiting(client_for, alice) == waiting(client_for, bob) == []


def test_several_waiting_matches_come_oldest_first(alice, bob, organiser, client_for):
    carol = PlayerFactory(display_name="Carol")
    first = MatchFactory(player_one=alice, player_two=bob, organiser=organiser)
    report_url = reverse("games:result-list", kwargs={"pk": first.pk})
    client_for(alice).post(report_url, {"winner": alice.pk, "points": 1}, format="json")
    challenge = client_for(carol).post(
        reverse("games:match-list"), {"player_one": carol.pk, "player_two": bob.pk}, format="json"
    )
    assert waiting(client_for, bob) == [
        ("confirm_result", first.pk),
        ("accept_challenge", challenge.json()["id"]),
    ]


def test_me_embeds_at_most_the_limit_and_counts_the_rest(alice, client_for, settings):
    """Issue 19: 1,500 challenges made one player's /me/ 174 KB. It lists the oldest
    ME_AWAITING_LIMIT and says how many wait in all (docs/decisions.md D54)."""
    settings.ME_AWAITING_LIMIT = 3
    challengers = [PlayerFactory() for _ in range(5)]
    matches = [
        MatchFactory(
            player_one=other, player_two=alice, created_by=other.user, status=Match.Status.INVITED
        )
        for other in challengers
    ]
    body = me(client_for, alice)
    assert body["awaiting_count"] == 5
    assert [item["match"] for item in body["awaiting"]] == [m.pk for m in matches[:3]]
