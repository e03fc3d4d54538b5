"""The socket of a signed-in user's pages (/ws/users/{id}/, the header's badge): only that user
is let in; it is told at once how many matches wait, then hears the changes of the user's
matches (a turn) and of matches new to them (a challenge, a match taken from the lobby)."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games import services
from games.models import Match
from tests.sockets import IN_MEMORY, communicator, decide

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY


def path(user) -> str:
    return f"/ws/users/{user.pk}/"


def test_only_the_user_is_let_in(alice, bob):
    async def scenario(socket):
        connected, _code = await socket.connect()
        await socket.disconnect()
        return connected

    assert not async_to_sync(scenario)(communicator(path(alice.user)))
    assert not async_to_sync(scenario)(communicator(path(alice.user), user=bob.user))
    assert async_to_sync(scenario)(communicator(path(alice.user), user=alice.user))


def test_the_badge_hears_turns_and_new_matches(alice, bob, online_match):
    game = online_match.games.get()
    socket = communicator(path(bob.user), user=bob.user)

    def challenge():
        poster = services.open_challenge_post(user=alice.user)
        return services.open_challenge_take(challenge=poster, user=bob.user).pk

    async def scenario():
        assert (await socket.connect())[0]
        hello = await socket.receive_json_from(timeout=5)
        await database_sync_to_async(decide)(game)
        turn = await socket.receive_json_from(timeout=10)
        match_id = await database_sync_to_async(challenge)()
        new = await socket.receive_json_from(timeout=10)
        # From then on the socket follows the new match too.
        new_game = await database_sync_to_async(
            lambda: Match.objects.get(pk=match_id).games.get()
        )()
        await database_sync_to_async(decide)(new_game)
        later = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return hello, turn, match_id, new, later

    hello, turn, match_id, new, later = async_to_sync(scenario)()
    assert hello["type"] == "hello" and isinstance(hello["awaiting"], int)
    assert turn["type"] == "turn" and turn["match"] == online_match.pk
    assert new["new_match"] == match_id
    assert later["type"] == "turn" and later["match"] == match_id


def test_the_lobby_socket_hears_challenges_posted_and_taken(alice, bob):
    socket = communicator("/ws/lobby/")

    async def scenario():
        assert (await socket.connect())[0]
        hello = await socket.receive_json_from(timeout=5)
        challenge = await database_sync_to_async(services.open_challenge_post)(user=alice.user)
        posted = await socket.receive_json_from(timeout=10)
        await database_sync_to_async(services.open_challenge_take)(
            challenge=challenge, user=bob.user
        )
        taken = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return hello, posted, taken

    hello, posted, taken = async_to_sync(scenario)()
    assert hello["type"] == "hello"
    assert len({hello["version"], posted["version"], taken["version"]}) == 3
