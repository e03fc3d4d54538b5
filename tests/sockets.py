"""Helpers of the WebSocket tests: a communicator on the project's ASGI application (Origin,
Host, a user's session cookie or an API token in its handshake), one write in a game, and the
state endpoints' JSON that a socket's messages must agree with."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
ORIGIN = "http://testserver"


def communicator(
    path: str, *, user: Any = None, token: str | None = None, origin: str | None = ORIGIN
) -> WebsocketCommunicator:
    """A socket to ``path``; call from sync code (a session is made for ``user``), then
    connect in the async part of the test."""
    from config.asgi import application

    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    if token is not None:
        headers.append((b"authorization", f"Token {token}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def decide(game: Any) -> None:
    """One write of the player to move: the roll when one is due, else the first legal play."""
    from games import selectors, services

    game.refresh_from_db()
    player = selectors.player_to_move(game)
    if selectors.is_roll_due(game):
        services.dice_roll(game=game, player=player)
    else:
        play = selectors.game_legal_plays(game)[0].play
        services.play_submit(game=game, player=player, ply=game.ply, moves=play.to_json())


def match_state(match_id: int) -> dict[str, Any]:
    """What the match's state endpoint answers a staff member (any match)."""
    return _state("web:match-state", match_id)


def tournament_state(tournament_id: int) -> dict[str, Any]:
    return _state("tournaments_web:tournament-state", tournament_id)


def _state(name: str, pk: int) -> dict[str, Any]:
    from tests.games.factories import UserFactory

    client = Client()
    client.force_login(UserFactory(is_staff=True))
    response = client.get(reverse(name, kwargs={"pk": pk}))
    assert response.status_code == 200
    return response.json()
