"""/api/v1/challenges/: list, post, take and withdraw open challenges."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Match, OpenChallenge
from tests.games.factories import PlayerFactory

pytestmark = pytest.mark.django_db

LIST = reverse("games:challenge-list")


def take_url(pk: int) -> str:
    return reverse("games:challenge-take", kwargs={"pk": pk})


def test_post_list_and_take(client_for, alice, bob):
    posted = client_for(alice).post(
        LIST,
        {"target_score": 3, "options": {"preset": "greek_tavli"}, "clock": {"preset": "relaxed"}},
        format="json",
    )
    assert posted.status_code == 201, posted.json()
    body = posted.json()
    assert body["status"] == "open"
    assert body["created_by"] == {"id": alice.pk, "display_name": "Alice"}
    assert body["rated"] is True and body["clock"]["preset"] == "relaxed"

    listed = APIClient().get(LIST).json()
    assert [c["id"] for c in listed["results"]] == [body["id"]]

    taken = client_for(bob).post(take_url(body["id"]))
    assert taken.status_code == 201, taken.json()
    match = taken.json()
    assert match["status"] == "in_progress" and match["target_score"] == 3
    again = client_for(PlayerFactory()).post(take_url(body["id"]))
    assert again.status_code == 409
    assert APIClient().get(LIST).json()["results"] == []


def test_anonymous_may_not_post_or_take(client_for, alice):
    assert APIClient().post(LIST, {}, format="json").status_code in (401, 403)
    pk = client_for(alice).post(LIST, {}, format="json").json()["id"]
    assert APIClient().post(take_url(pk)).status_code in (401, 403)
    assert not Match.objects.exists()


def test_withdraw_by_the_poster_only(client_for, alice, bob):
    pk = client_for(alice).post(LIST, {}, format="json").json()["id"]
    url = reverse("games:challenge-withdraw", kwargs={"pk": pk})
    assert client_for(bob).post(url).status_code == 403
    answer = client_for(alice).post(url)
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"
    assert client_for(bob).post(take_url(pk)).status_code == 409


def test_the_cap_is_a_409_and_bad_input_a_400(client_for, alice):
    client = client_for(alice)
    assert client.post(LIST, {"target_score": 0}, format="json").status_code == 400
    assert client.post(LIST, {"clock": {"preset": "blitz"}}, format="json").status_code == 400
    for _ in range(3):
        assert client.post(LIST, {}, format="json").status_code == 201
    refused = client.post(LIST, {}, format="json")
    assert refused.status_code == 409 and "OPEN_CHALLENGES_PER_PLAYER" in refused.json()["detail"]
    assert OpenChallenge.objects.count() == 3


def test_an_unknown_challenge_is_a_404(client_for, alice):
    assert client_for(alice).post(take_url(999)).status_code == 404
