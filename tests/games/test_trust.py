"""Who may create, start, report, forfeit and import a match, and which matches are rated
(README, "Trust"). Each route is tried as a stranger, as each player, as the organiser and as
staff."""

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import services
from games.demo import match_play_random
from games.models import Match, RatingHistory
from games.services.ratings import ratings_recompute
from players.models import Player
from tests.games.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

MATCHES = reverse("games:match-list")


def url(name: str, match_id: int, **kwargs: int) -> str:
    return reverse(f"games:{name}", kwargs={"pk": match_id, **kwargs})


@pytest.fixture
def stranger(db):
    """A logged-in user who plays in none of the matches (with a player profile of their own)."""
    return PlayerFactory(user=UserFactory(username="mallory"), display_name="Mallory").user


def challenge(client: APIClient, one: Player, two: Player, **body: object) -> dict:
    response = client.post(
        MATCHES, {"player_one": one.pk, "player_two": two.pk, **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


# --- creating a match --------------------------------------------------------------------------


def test_nobody_may_create_a_match_between_two_other_players(alice, bob, stranger, client_for):
    body = {"player_one": alice.pk, "player_two": bob.pk}
    response = client_for(stranger).post(MATCHES, body, format="json")
    assert response.status_code == 403
    assert "one of its players" in response.json()["detail"]
    no_profile = UserFactory(username="visitor")
    assert client_for(no_profile).post(MATCHES, body, format="json").status_code == 403
    assert APIClient().post(MATCHES, body, format="json").status_code == 401
    assert not Match.objects.exists()


def test_a_players_match_is_a_challenge_that_waits_unrated(alice, bob, client_for):
    created = challenge(client_for(alice), alice, bob)

    assert created["status"] == "invited" and created["rated"] is False
    assert created["awaiting"] == bob.pk and created["current_game"] is None
    assert created["games"] == [] and created["organiser"] is None
    assert created["created_by"] == alice.user.pk


def test_a_player_may_not_file_a_match_under_a_tournament(alice, bob, client_for):
    body = {"player_one": alice.pk, "player_two": bob.pk, "tournament_slot": "tournament-1"}
    response = client_for(alice).post(MATCHES, body, format="json")
    assert response.status_code == 403 and "tournament_slot" in response.json()["detail"]


def test_staff_create_a_rated_match_between_any_players_that_starts_at_once(
    alice, bob, staff, client_for
):
    created = challenge(client_for(staff), alice, bob)

    assert created["status"] == "in_progress" and created["rated"] is True
    assert created["organiser"] == staff.pk and created["created_by"] == staff.pk
    assert created["awaiting"] is None and created["current_game"] is not None


# --- accepting or declining a challenge --------------------------------------------------------


def test_only_the_challenged_player_accepts_and_then_the_match_starts_rated(
    alice, bob, stranger, staff, client_for
):
    created = challenge(client_for(alice), alice, bob)
    accept = url("match-accept", created["id"])

    assert APIClient().post(accept).status_code == 401
    assert client_for(stranger).post(accept).status_code == 403
    assert client_for(alice).post(accept).status_code == 403, "the challenger cannot accept"
    assert client_for(staff).post(accept).status_code == 403, "staff do not accept for bob"
    response = client_for(bob).post(accept)

    assert response.status_code == 200
    match = response.json()
    assert match["status"] == "in_progress" and match["rated"] is True
    assert match["accepted_at"] and match["current_game"] is not None
    assert client_for(bob).post(accept).status_code == 409


def test_an_accepted_over_the_board_challenge_opens_for_reports(alice, bob, client_for):
    created = challenge(client_for(alice), alice, bob, mode="over_the_board")
    match = client_for(bob).post(url("match-accept", created["id"])).json()
    assert match["status"] == "in_progress" and match["rated"] is True


@pytest.mark.parametrize("who", ["challenger", "challenged"])
def test_either_player_may_call_a_challenge_off(alice, bob, stranger, client_for, who):
    created = challenge(client_for(alice), alice, bob)
    decline = url("match-decline", created["id"])
    assert client_for(stranger).post(decline).status_code == 403

    response = client_for(alice if who == "challenger" else bob).post(decline)

    assert response.status_code == 200 and response.json()["status"] == "declined"
    assert client_for(bob).post(url("match-accept", created["id"])).status_code == 409
    assert client_for(bob).post(decline).status_code == 409


def test_pending_challenges_are_bounded_per_challenger_and_per_challenged_player(
    alice, bob, client_for, settings
):
    """Issue 19: nothing bounded the challenges waiting for an answer (docs/decisions.md D54).
    A refusal is a 409 naming the limit; a challenge answered or called off frees its place."""
    settings.CHALLENGES_PENDING_PER_CHALLENGER = 2
    settings.CHALLENGES_PENDING_PER_PLAYER = 3
    first = challenge(client_for(alice), alice, bob)
    challenge(client_for(alice), alice, PlayerFactory())
    response = client_for(alice).post(
        MATCHES, {"player_one": alice.pk, "player_two": bob.pk}, format="json"
    )
    assert response.status_code == 409
    assert "CHALLENGES_PENDING_PER_CHALLENGER = 2" in response.json()["detail"]
    client_for(alice).post(url("match-decline", first["id"]))
    challenge(client_for(alice), alice, bob)

    for _ in range(2):
        other = PlayerFactory()
        challenge(client_for(other), other, bob)
    late = PlayerFactory()
    response = client_for(late).post(
        MATCHES, {"player_one": late.pk, "player_two": bob.pk}, format="json"
    )
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert f"player {bob.pk} has 3 challenges" in detail
    assert "CHALLENGES_PENDING_PER_PLAYER = 3" in detail
    challenge(client_for(bob), bob, late)  # bob's own challenges are not ones sent to him
    assert Match.objects.filter(status="invited").count() == 5


def test_nothing_is_played_or_reported_before_the_challenge_is_accepted(alice, bob, client_for):
    online = challenge(client_for(alice), alice, bob, start=False)
    assert client_for(alice).post(url("match-start", online["id"])).status_code == 409
    assert client_for(bob).post(url("match-start", online["id"])).status_code == 409

    board = challenge(client_for(alice), alice, bob, mode="over_the_board")
    report = {"scope": "match", "score_one": 5, "score_two": 0}
    response = client_for(alice).post(url("result-list", board["id"]), report, format="json")
    assert response.status_code == 409 and "invited" in response.json()["detail"]


# --- reporting results -------------------------------------------------------------------------


def test_results_of_a_challenge_count_only_when_the_opponent_agrees(
    alice, bob, stranger, client_for, django_capture_on_commit_callbacks
):
    created = challenge(client_for(alice), alice, bob, mode="over_the_board")
    client_for(bob).post(url("match-accept", created["id"]))
    results = url("result-list", created["id"])
    report = {"scope": "match", "score_one": 5, "score_two": 2}

    assert client_for(stranger).post(results, report, format="json").status_code == 403
    pending = client_for(alice).post(results, report, format="json").json()
    assert pending["status"] == "pending"
    assert Match.objects.get(pk=created["id"]).status == "in_progress"
    confirm = url("result-confirm", created["id"], rid=pending["id"])
    assert client_for(alice).post(confirm).status_code == 403, "not one's own report"
    assert client_for(stranger).post(confirm).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(bob).post(confirm).status_code == 200

    match = Match.objects.get(pk=created["id"])
    assert match.status == "finished" and match.winner == alice and match.rated
    assert RatingHistory.objects.filter(match=match, variant="").count() == 2


def test_a_stranger_can_neither_forfeit_nor_override(alice, bob, stranger, staff, client_for):
    created = challenge(client_for(alice), alice, bob, mode="over_the_board")
    client_for(bob).post(url("match-accept", created["id"]))
    pending = client_for(alice).post(
        url("result-list", created["id"]),
        {"scope": "match", "score_one": 5, "score_two": 2},
        format="json",
    ).json()
    override = url("result-override", created["id"], rid=pending["id"])
    decision = {"scope": "match", "score_one": 0, "score_two": 5}
    forfeit = url("match-forfeit", created["id"])

    for user in (stranger, alice.user, bob.user):
        assert client_for(user).post(override, decision, format="json").status_code == 403
        assert client_for(user).post(forfeit, {"loser": alice.pk}, format="json").status_code == 403
    assert client_for(staff).post(override, decision, format="json").status_code == 200
    assert Match.objects.get(pk=created["id"]).winner == bob


def test_the_organiser_of_a_staff_match_reports_at_once_and_may_forfeit(
    alice, bob, staff, client_for
):
    board = challenge(client_for(staff), alice, bob, mode="over_the_board")
    report = {"scope": "match", "score_one": 5, "score_two": 1}
    response = client_for(staff).post(url("result-list", board["id"]), report, format="json")
    assert response.status_code == 201 and response.json()["status"] == "confirmed"

    online = challenge(client_for(staff), alice, bob)
    forfeit = url("match-forfeit", online["id"])
    assert client_for(alice).post(forfeit, {"loser": bob.pk}, format="json").status_code == 403
    response = client_for(staff).post(forfeit, {"loser": bob.pk}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "forfeited"


def test_staff_who_play_in_a_match_neither_override_nor_forfeit_it(alice, bob, client_for):
    """docs/decisions.md D39: a party to a match never decides it, staff included; other staff
    do. Their own report waits for the opponent like anyone's."""
    player_staff = UserFactory(username="playing-staff", is_staff=True)
    own = PlayerFactory(user=player_staff, display_name="Staff Player")
    board = challenge(client_for(player_staff), own, bob, mode="over_the_board")
    assert board["status"] == "in_progress", "staff's match starts at once"
    report = {"scope": "match", "score_one": 5, "score_two": 0}
    pending = client_for(player_staff).post(url("result-list", board["id"]), report, format="json")
    assert pending.status_code == 201 and pending.json()["status"] == "pending"
    rid = pending.json()["id"]
    assert client_for(bob).post(url("result-dispute", board["id"], rid=rid)).status_code == 200

    refused = [
        client_for(player_staff).post(url("result-override", board["id"], rid=rid), report,
                                      format="json"),
        client_for(player_staff).post(url("result-confirm", board["id"], rid=rid)),
        client_for(player_staff).post(url("match-forfeit", board["id"]), {"loser": bob.pk},
                                      format="json"),
    ]  # fmt: skip
    for response in refused:
        assert response.status_code == 403
        assert response.json()["detail"] == (
            "you play in this match: a co-organiser or staff decides it"
        )
    assert Match.objects.get(pk=board["id"]).status == "in_progress"

    other_staff = UserFactory(username="other-staff", is_staff=True)
    decision = {"scope": "match", "score_one": 0, "score_two": 5}
    response = client_for(other_staff).post(
        url("result-override", board["id"], rid=rid), decision, format="json"
    )
    assert response.status_code == 200
    assert Match.objects.get(pk=board["id"]).winner == bob


# --- importing ---------------------------------------------------------------------------------


@pytest.fixture
def export_text(alice, bob, organiser):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob)
    match_play_random(match=match, rng=random.Random(4))
    return APIClient().get(url("match-export", match.pk)).content.decode()


def test_nobody_imports_a_match_for_two_other_players(
    alice, bob, stranger, export_text, client_for
):
    for one, two in ((alice, bob), (bob, alice)):
        body = {"player_one": one.pk, "player_two": two.pk, "lines": export_text}
        response = client_for(stranger).post(reverse("games:match-import"), body, format="json")
        assert response.status_code == 403
    assert not Match.objects.filter(mode="imported").exists()


def test_a_players_import_is_unrated_and_a_staff_import_rated(
    alice, bob, staff, export_text, client_for
):
    body = {"player_one": bob.pk, "player_two": alice.pk, "lines": export_text}
    own = client_for(alice).post(reverse("games:match-import"), body, format="json")
    vouched = client_for(staff).post(reverse("games:match-import"), body, format="json")

    assert own.status_code == 201 and own.json()["rated"] is False
    assert own.json()["organiser"] is None and own.json()["created_by"] == alice.user.pk
    assert vouched.status_code == 201 and vouched.json()["rated"] is True
    ratings_recompute()
    rated = set(RatingHistory.objects.values_list("match_id", flat=True))
    assert own.json()["id"] not in rated and vouched.json()["id"] in rated


# --- ratings -----------------------------------------------------------------------------------


def test_unrated_matches_and_their_games_leave_ratings_alone(alice, bob, organiser):
    match = services.match_create(creator=organiser, player_one=alice, player_two=bob, rated=False)
    match_play_random(match=match, rng=random.Random(7))
    assert Match.objects.get(pk=match.pk).status == "finished"

    assert ratings_recompute() == 0
    assert not RatingHistory.objects.exists()
    assert {p.rating for p in Player.objects.all()} == {1500.0}


def test_the_match_list_filters_by_rated(alice, bob, staff, client_for):
    rated = challenge(client_for(staff), alice, bob)
    waiting = challenge(client_for(alice), alice, bob)

    def ids(**params: str) -> set[int]:
        return {m["id"] for m in APIClient().get(MATCHES, params).json()["results"]}

    assert ids(rated="true") == {rated["id"]}
    assert ids(rated="false") == {waiting["id"]}
    assert ids(status="invited") == {waiting["id"]}

