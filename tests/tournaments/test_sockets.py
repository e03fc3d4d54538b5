"""The tournament socket (/ws/tournaments/{id}/): a result, the pairing it draws and the
standings recomputed after it reach a spectator once they commit, the last message with the
version the state endpoint then answers; a draft tournament refuses sockets, as its page."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.models import Match
from tests.sockets import IN_MEMORY, communicator, tournament_state
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.helpers import match_win, tournament_running
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY


async def messages_until_quiet(socket, quiet: float = 0.5) -> list[dict]:
    received = []
    while not await socket.receive_nothing(timeout=quiet):
        received.append(await socket.receive_json_from(timeout=5))
    return received


async def messages_through(socket, last: str, timeout: float = 20.0) -> list[dict]:
    """The messages up to the first of type ``last`` (waiting up to ``timeout`` for each, as a
    loaded machine may take a while), then any that follow it closely."""
    received = [await socket.receive_json_from(timeout=timeout)]
    while received[-1]["type"] != last:
        received.append(await socket.receive_json_from(timeout=timeout))
    return received + await messages_until_quiet(socket)


def test_a_result_its_pairing_and_the_standings_reach_the_tournament_socket(org_api, players):
    pk = tournament_running(org_api, players[:4], format="single_elimination")["id"]
    first = Match.objects.get(tournament_match__key="W1-1")
    winner = first.player_one_id
    socket = communicator(f"/ws/tournaments/{pk}/")

    async def scenario():
        assert (await socket.connect())[0]
        hello = await socket.receive_json_from(timeout=5)
        await database_sync_to_async(match_win)(org_api, first.pk, winner)
        pushed = await messages_through(socket, "standings")
        await socket.disconnect()
        return hello, pushed

    hello, pushed = async_to_sync(scenario)()
    assert hello["type"] == "hello" and hello["decided"] == 0
    kinds = [message["type"] for message in pushed]
    assert "result" in kinds and kinds[-1] == "standings"
    state = tournament_state(pk)
    assert pushed[-1]["version"] == state["version"] and state["decided"] == 1
    assert TournamentMatch.objects.get(tournament_id=pk, key="W2-1").entry_one is not None


def test_a_draft_tournament_refuses_sockets(db):
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    socket = communicator(f"/ws/tournaments/{draft.pk}/")

    async def scenario():
        connected, _code = await socket.connect()
        await socket.disconnect()
        return connected

    assert async_to_sync(scenario)() is False
