"""Socket limits and failures (issue 19): open sockets per client address and per user, idle
sockets closed, and no 500 for a handshake to an unknown path or during a database or
channel-layer outage (refused, or closed with 1013 "try again later")."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.authtoken.models import Token

from common import sockets
from games.consumers import MatchConsumer
from tests.games.factories import PlayerFactory
from tests.sockets import IN_MEMORY, communicator

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY
    yield
    # Every socket gave its places back, however it ended.
    for counts in (sockets.by_address, sockets.by_user):
        assert counts.counts == {} and counts.refusing == set()


def from_address(socket: Any, address: str, forwarded: str | None = None) -> Any:
    socket.scope["client"] = (address, 50000)
    if forwarded is not None:
        socket.scope["headers"].append((b"x-forwarded-for", forwarded.encode()))
    return socket


def path(match: Any) -> str:
    return f"/ws/matches/{match.pk}/"


def open_all(sockets_: list[Any]) -> list[bool]:
    """Connect each socket in turn, keeping the admitted ones open; then close them all."""

    async def scenario():
        results = []
        for socket in sockets_:
            connected, _ = await socket.connect()
            results.append(connected)
            if connected:
                await socket.receive_json_from(timeout=5)  # the hello
        for socket, connected in zip(sockets_, results, strict=True):
            if connected:
                await socket.disconnect()
        return results

    return async_to_sync(scenario)()


def test_sockets_per_address_are_limited_and_the_place_comes_back(online_match, settings):
    settings.SOCKETS_PER_ADDRESS = 3
    many = [from_address(communicator(path(online_match)), "203.0.113.7") for _ in range(4)]
    other = from_address(communicator(path(online_match)), "203.0.113.8")
    assert open_all([*many, other]) == [True, True, True, False, True]
    # Closed, they count no more.
    again = [from_address(communicator(path(online_match)), "203.0.113.7") for _ in range(3)]
    assert open_all(again) == [True, True, True]


def test_an_ipv6_client_is_counted_by_its_64(online_match, settings):
    settings.SOCKETS_PER_ADDRESS = 2
    addresses = ["2001:db8::1", "2001:db8::2", "2001:db8::3", "2001:db8:0:1::1"]
    many = [from_address(communicator(path(online_match)), a) for a in addresses]
    assert open_all(many) == [True, True, False, True]


def test_behind_a_trusted_proxy_the_forwarded_address_counts(online_match, settings):
    settings.SOCKETS_PER_ADDRESS = 1
    settings.TRUST_X_FORWARDED_FOR = 1
    proxy = "10.0.0.1"
    many = [
        from_address(communicator(path(online_match)), proxy, "198.51.100.1"),
        from_address(communicator(path(online_match)), proxy, "198.51.100.2"),
        from_address(communicator(path(online_match)), proxy, "1.2.3.4, 198.51.100.2"),
    ]
    assert open_all(many) == [True, True, False]


def test_sockets_per_user_are_limited_from_any_address(online_match, settings):
    settings.SOCKETS_PER_USER = 2
    user = online_match.player_one.user
    token = Token.objects.create(user=user).key
    stranger = PlayerFactory().user
    many = [
        from_address(communicator(path(online_match), user=user), "203.0.113.1"),
        from_address(communicator(path(online_match), token=token), "203.0.113.2"),
        from_address(communicator(path(online_match), user=user), "203.0.113.3"),
        from_address(communicator(path(online_match), user=stranger), "203.0.113.3"),
    ]
    assert open_all(many) == [True, True, False, True]


def test_a_socket_whose_client_sends_nothing_is_closed_when_idle(online_match, settings):
    settings.SOCKET_IDLE_SECONDS = 1
    quiet = communicator(path(online_match))
    talking = communicator(path(online_match))

    async def scenario():
        for socket in (quiet, talking):
            assert (await socket.connect())[0]
            await socket.receive_json_from(timeout=5)
        for _ in range(3):  # 1.5 s of the page's heartbeat, scaled down
            await talking.send_to(text_data="ping")
            await asyncio.sleep(0.5)
        closed = await quiet.receive_output(timeout=1)
        assert await talking.receive_nothing(timeout=0.1)
        await talking.disconnect()
        await quiet.wait()
        return closed

    closed = async_to_sync(scenario)()
    assert closed == {"type": "websocket.close", "code": sockets.IDLE_CLOSE_CODE}


@pytest.mark.parametrize("unknown", ["/ws/nothing/", "/ws/matches/x/", "/ws/", "/elsewhere"])
def test_a_socket_to_an_unknown_path_is_refused(db, unknown):
    async def scenario():
        return await communicator(unknown).connect()

    connected, _code = async_to_sync(scenario)()
    assert not connected


def closed_to_retry(socket: Any) -> bool:
    """Whether ``socket`` is accepted and at once closed with 1013 "try again later"."""

    async def scenario():
        connected, _ = await socket.connect()
        message = await socket.receive_output(timeout=1)
        await socket.wait()
        return connected and message == {"type": "websocket.close", "code": 1013}

    return async_to_sync(scenario)()


def test_a_database_outage_during_the_handshake_asks_to_retry(online_match):
    down = OperationalError("could not connect to server: Connection refused")
    with mock.patch.object(MatchConsumer, "current", side_effect=down):
        assert closed_to_retry(communicator(path(online_match)))
    token = Token.objects.create(user=online_match.player_one.user).key
    with mock.patch.object(sockets, "_token_user", side_effect=down):
        assert closed_to_retry(communicator(path(online_match), token=token))


def test_a_channel_layer_outage_during_the_handshake_asks_to_retry(online_match):
    down = RedisConnectionError("Error 111 connecting to localhost:6379. Connection refused.")
    with mock.patch.object(InMemoryChannelLayer, "group_add", side_effect=down):
        assert closed_to_retry(communicator(path(online_match)))
    with mock.patch.object(InMemoryChannelLayer, "new_channel", side_effect=OSError("down")):
        assert closed_to_retry(communicator(path(online_match)))


def test_open_counts_take_and_give_back() -> None:
    counts = sockets.OpenCounts()
    assert counts.take("a", 2) and counts.take("a", 2) and not counts.take("a", 2)
    assert counts.first_refusal("a") and not counts.first_refusal("a")  # a flood logs once
    counts.give_back("a")
    assert counts.take("a", 2) and not counts.take("a", 2) and counts.first_refusal("a")
    assert all(counts.take("b", 0) for _ in range(100))  # 0: no limit
    counts.give_back("a"), counts.give_back("a")
    assert "a" not in counts.counts
    assert sockets.idle_seconds_left(10.0, 12.0, 5) == 3.0
    assert sockets.idle_seconds_left(10.0, 20.0, 5) == 0.0
