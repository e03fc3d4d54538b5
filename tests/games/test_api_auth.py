"""Token authentication with the per-process cache (common/api/authentication.py)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from common.api.authentication import CachedTokenAuthentication

pytestmark = pytest.mark.django_db


def token_client(token: Token) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def create_match(client: APIClient, alice, bob):
    body = {"player_one": alice.pk, "player_two": bob.pk, "start": False}
    return client.post(reverse("games:match-list"), body, format="json")


def test_a_known_token_is_not_read_from_the_database_again(alice, bob):
    client = token_client(Token.objects.create(user=alice.user))
    url = reverse(
        "games:match-detail", kwargs={"pk": create_match(client, alice, bob).json()["id"]}
    )
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert not [q for q in captured.captured_queries if "authtoken_token" in q["sql"]]


def test_a_deleted_token_is_refused_at_once(alice, bob):
    token = Token.objects.create(user=alice.user)
    client = token_client(token)
    assert create_match(client, alice, bob).status_code == 201
    token.delete()
    response = create_match(client, alice, bob)
    assert response.status_code == 401 and "token" in response.json()["detail"].lower()


def test_a_deactivated_user_is_refused_at_once(alice, bob):
    client = token_client(Token.objects.create(user=alice.user))
    assert create_match(client, alice, bob).status_code == 201
    alice.user.is_active = False
    alice.user.save()
    assert create_match(client, alice, bob).status_code == 401


def test_requests_do_not_share_one_user_object(alice, bob):
    """Each request gets its own copy of the remembered user (threads never share one)."""
    token = Token.objects.create(user=alice.user)
    first, _ = CachedTokenAuthentication().authenticate_credentials(token.key)
    second, _ = CachedTokenAuthentication().authenticate_credentials(token.key)
    assert first == second and first is not second
