"""Fairness over the socket (docs/decisions.md D129): with an evaluator installed, the match
socket tells a player exactly what it tells a spectator, the match's version and the turn, and
never a chance; the chances come only from the endpoint, which refuses the players."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.analysis.encode import input_size
from games.analysis.net import Network
from tests.games.factories import UserFactory
from tests.sockets import IN_MEMORY, communicator, decide

pytestmark = pytest.mark.django_db(transaction=True)

CHANCE_KEYS = {"chances", "points", "current", "win", "win_mars", "lose_mars", "bar", "behind"}


def keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys(item)}
    return set()


def test_the_socket_carries_no_chance_to_a_player(settings, tmp_path, online_match, alice):
    settings.CHANNEL_LAYERS = IN_MEMORY
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path
    for seed, variant in enumerate(("tabla", "gul_bara", "tapa"), start=1):
        Network.create(input_size(variant), hidden=8, seed=seed).save(tmp_path / f"{variant}.npz")
    game = online_match.games.get()
    path = f"/ws/matches/{online_match.pk}/"
    player = communicator(path, user=alice.user)
    spectator = communicator(path, user=UserFactory(username="spectator"))

    async def scenario():
        assert (await player.connect())[0] and (await spectator.connect())[0]
        heard: dict[str, list] = {"player": [], "spectator": []}
        for name, socket in (("player", player), ("spectator", spectator)):
            heard[name].append(await socket.receive_json_from(timeout=5))
        for _ in range(2):  # the roll, then the play
            await database_sync_to_async(decide)(game)
            for name, socket in (("player", player), ("spectator", spectator)):
                heard[name].append(await socket.receive_json_from(timeout=3))
        await player.disconnect()
        await spectator.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert heard["player"] == heard["spectator"]
    assert len(heard["player"]) == 3
    assert not keys(heard["player"]) & CHANCE_KEYS, json.dumps(heard["player"])
