"""Broadcasting on commit (common/push.py) through Redis, as in production: a play's commit
reaches a socket through a real redis-server; a dead Redis, or one that never answers, fails
no play and makes none wait, and is then left alone for a while."""

import socket as sockets
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from common import push
from config.layers import channel_layer_from_url
from games import selectors, services
from tests.sockets import communicator, match_state


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    """Each test starts with Redis taken for alive."""
    monkeypatch.setattr(push, "_down_until", 0.0)


def roll(game) -> None:
    game.refresh_from_db()
    services.dice_roll(game=game, player=selectors.player_to_move(game))


def roll_and_time(game, capture) -> float:
    started = time.monotonic()
    with capture(execute=True):
        roll(game)
    return time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_a_play_reaches_a_socket_through_redis(settings, redis_server, online_match):
    settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(redis_server)}
    game = online_match.games.get()
    socket = communicator(f"/ws/matches/{online_match.pk}/")

    async def scenario():
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=5)
        await database_sync_to_async(roll)(game)
        pushed = await socket.receive_json_from(timeout=3)
        await socket.disconnect()
        return pushed

    pushed = async_to_sync(scenario)()
    assert pushed["type"] == "turn"
    assert pushed["version"] == match_state(online_match.pk)["version"]


@pytest.mark.django_db
def test_a_dead_redis_fails_no_play_and_is_skipped_for_a_while(
    settings, online_match, django_capture_on_commit_callbacks
):
    with sockets.socket() as sock:  # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(f"redis://127.0.0.1:{port}/0")}
    game = online_match.games.get()

    assert roll_and_time(game, django_capture_on_commit_callbacks) < 0.5
    push.pushes_wait_until_sent()
    assert push._down_until > time.monotonic()  # refused: no pushes for a while

    with django_capture_on_commit_callbacks() as callbacks:
        services.game_resign(game=game, player=game.white, kind="single")
    assert not any(isinstance(callback, push._Batch) for callback in callbacks)
    game.refresh_from_db()
    assert game.is_over


@pytest.mark.django_db
def test_a_redis_that_never_answers_makes_no_play_wait(
    settings, online_match, django_capture_on_commit_callbacks
):
    silent = sockets.socket()  # accepts connections (the kernel's backlog), never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    try:
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(url)}
        assert roll_and_time(online_match.games.get(), django_capture_on_commit_callbacks) < 0.5
        push.pushes_wait_until_sent(push.SEND_TIMEOUT_SECONDS + 2)
        assert push._down_until > time.monotonic()  # timed out: no pushes for a while
    finally:
        silent.close()


@pytest.mark.django_db
def test_the_pushed_version_is_the_state_endpoints(alice, bob, online_match, organiser):
    from games.models import Match
    from games.web_selectors import match_live_version, match_version
    from tests.games.factories import MatchFactory, UserFactory

    roll(online_match.games.get())  # dice on the table
    reported = MatchFactory(player_one=alice, player_two=bob, mode=Match.Mode.OVER_THE_BOARD)
    services.result_report(match=reported, user=alice.user, winner=alice, points=1)
    invited = MatchFactory(player_one=alice, player_two=bob, status=Match.Status.INVITED)
    staff = UserFactory(username="staff", is_staff=True)
    for match in (online_match, reported, invited):
        assert match_version(pk=match.pk) == match_live_version(user=staff, pk=match.pk)
    assert match_version(pk=10**9) is None
