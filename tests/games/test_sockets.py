"""The match socket (/ws/matches/{id}/): who is let in (as on the page: private matches only for
their players, organiser and staff; the site's own origin; a session or an API token), the hello
with the current version, and every committed write of the match pushed once it commits, with
the version the state endpoint then answers. Refused writes push nothing."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from common.errors import ConflictError
from games import services
from games.models import Match
from tests.games.factories import MatchFactory, PlayerFactory, UserFactory
from tests.sockets import IN_MEMORY, communicator, decide, match_state

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY


def path(match: Match) -> str:
    return f"/ws/matches/{match.pk}/"


def admitted(socket) -> bool:
    """Whether ``socket`` is let in (and then closed again)."""

    async def scenario():
        connected, _code = await socket.connect()
        await socket.disconnect()
        return connected

    return async_to_sync(scenario)()


def test_a_spectator_is_told_the_version_at_once_then_every_turn_as_it_commits(online_match):
    game = online_match.games.get()
    socket = communicator(path(online_match))
    before = match_state(online_match.pk)

    async def scenario():
        assert (await socket.connect())[0]
        hello = await socket.receive_json_from(timeout=5)
        await database_sync_to_async(decide)(game)
        pushed = await socket.receive_json_from(timeout=3)
        assert await socket.receive_nothing()
        await socket.disconnect()
        return hello, pushed

    hello, pushed = async_to_sync(scenario)()
    assert hello == {"type": "hello", **before}
    after = match_state(online_match.pk)
    assert pushed["type"] == "turn" and pushed["version"] == after["version"] != before["version"]
    assert (pushed["game"], pushed["ply"]) == (game.pk, after["ply"])
    assert isinstance(pushed["at"], float)


def test_a_refused_play_pushes_nothing(online_match):
    game = online_match.games.get()
    socket = communicator(path(online_match))

    def stale_play():
        with pytest.raises(ConflictError):
            services.play_submit(game=game, player=game.white, ply=game.ply + 5, moves="")

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=5)
        await database_sync_to_async(stale_play)()
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()

    async_to_sync(scenario)()


def test_writes_in_one_transaction_push_one_message_of_the_most_telling_kind(online_match):
    game = online_match.games.get()
    socket = communicator(path(online_match))

    def resign_in_one_transaction():
        with transaction.atomic():
            decide(game)
            services.game_resign(game=game, player=game.white, kind="single")

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=5)
        await database_sync_to_async(resign_in_one_transaction)()
        pushed = await socket.receive_json_from(timeout=3)
        assert await socket.receive_nothing()
        await socket.disconnect()
        return pushed

    pushed = async_to_sync(scenario)()
    assert pushed["type"] == "result"
    assert pushed["version"] == match_state(online_match.pk)["version"]


def test_a_private_match_refuses_a_stranger_and_lets_its_players_in(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob, is_public=False)
    stranger = PlayerFactory(user=UserFactory(username="stranger"))
    assert not admitted(communicator(path(match)))
    assert not admitted(communicator(path(match), user=stranger.user))
    assert admitted(communicator(path(match), user=alice.user))
    assert admitted(communicator(path(match), user=UserFactory(username="staff", is_staff=True)))


def test_an_api_client_logs_in_with_its_token_and_a_bad_token_is_refused(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob, is_public=False)
    token = Token.objects.create(user=bob.user)
    assert admitted(communicator(path(match), token=token.key))
    assert not admitted(communicator(path(match), token="not-a-token"))


def test_a_socket_from_another_origin_or_none_is_refused(online_match):
    assert not admitted(communicator(path(online_match), origin="https://evil.example"))
    assert not admitted(communicator(path(online_match), origin=None))


def test_an_unknown_match_is_refused(db):
    assert not admitted(communicator("/ws/matches/999999/"))


def test_the_page_names_its_socket(online_match):
    html = Client().get(f"/matches/{online_match.pk}/").content.decode()
    assert f'data-socket-url="{path(online_match)}"' in html


def test_without_a_channel_layer_sockets_are_refused_and_pages_open_none(settings, online_match):
    settings.CHANNEL_LAYERS = {}
    assert not admitted(communicator(path(online_match)))
    html = Client().get(f"/matches/{online_match.pk}/").content.decode()
    assert 'data-socket-url=""' in html
