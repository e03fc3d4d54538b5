"""The play services own their transaction: they take a game or its id and the acting player
or user, load and lock the game themselves, and return what they did (PlayResult)."""

from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser

from common.errors import NotAllowedError
from games import selectors, services
from games.errors import GameNotFoundError
from games.models import Game, Turn
from games.services.play import PlayResult
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def _roll_and_play(game: Game) -> tuple[PlayResult, PlayResult]:
    rolled = services.dice_roll(game=game, player=selectors.player_to_move(game))
    while rolled.game.dice is None:  # passes, or rolled for: roll again as the next player
        rolled = services.dice_roll(game=rolled.game, player=selectors.player_to_move(rolled.game))
    outcome = selectors.game_legal_plays(rolled.game)[0]
    played = services.play_submit(
        game=rolled.game.pk,
        player=selectors.player_to_move(rolled.game),
        ply=rolled.game.ply,
        moves=outcome.play.to_json(),
    )
    return rolled, played


def test_a_play_returns_the_game_and_exactly_the_turns_it_appended(game):
    rolled, played = _roll_and_play(game)
    assert isinstance(played, PlayResult)
    before = rolled.game.ply
    stored = list(Turn.objects.filter(game=game, ply__gte=before).order_by("ply"))
    assert played.turns == stored and stored[0].ply == before
    assert played.game.ply == before + len(stored)
    assert Game.objects.get(pk=game.pk).ply == played.game.ply


def test_the_game_passed_in_is_left_as_it_was(game):
    ply, position = game.ply, game.position
    rolled, _ = _roll_and_play(game)
    assert rolled.game is not game
    assert (game.ply, game.position, game.dice) == (ply, position, None)


def test_a_user_acts_as_their_player_in_the_game(game):
    to_move = selectors.player_to_move(game)
    result = services.dice_roll(game=game.pk, user=to_move.user)
    assert result.game.dice is not None or result.turns
    other = game.black if to_move == game.white else game.white
    with pytest.raises(NotAllowedError, match="not your turn"):
        services.cube_double(game=game.pk, user=other.user)


@pytest.mark.parametrize("who", ["stranger", "anonymous", "missing"])
def test_a_game_the_user_may_not_see_is_not_found_and_nothing_is_written(game, who):
    game.match.is_public = False
    game.match.save(update_fields=["is_public"])
    user = AnonymousUser() if who == "anonymous" else UserFactory(username="stranger")
    pk = game.pk + 1000 if who == "missing" else game.pk
    with pytest.raises(GameNotFoundError):
        services.dice_roll(game=pk, user=user)
    with pytest.raises(GameNotFoundError):
        services.game_resign(game=pk, user=user, kind="single")
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ply, stored.dice, stored.status) == (game.ply, None, game.status)


def test_a_trusted_caller_with_a_missing_game_id_gets_not_found(game):
    with pytest.raises(GameNotFoundError):
        services.dice_roll(game=game.pk + 1000, player=game.white)


def test_the_selectors_only_read():
    """The writes of parsed state and the JSON-lines export live elsewhere (games/state.py,
    games/services/exchange.py); no selector keeps a cache on an instance itself."""
    for name in ("game_position_put", "game_cube_put", "match_export", "_parsed"):
        assert not hasattr(selectors, name), name
    source = Path(selectors.__file__).read_text()
    assert "__dict__" not in source and ".save(" not in source


WRITE_ROUTES = ["dice-roll", "play-submit", "game-resign", "cube-double", "cube-take", "cube-drop"]


@pytest.mark.parametrize("route", WRITE_ROUTES)
def test_every_game_write_answers_404_for_a_hidden_game_even_with_bad_input(
    game, client_for, route
):
    from tests.games.test_api_play import game_url

    game.match.is_public = False
    game.match.save(update_fields=["is_public"])
    stranger = client_for(UserFactory(username="stranger"))
    url = game_url(route, game.pk)
    for body in ({}, {"ply": "x", "moves": 7, "kind": "none"}):
        response = stranger.post(url, body, format="json")
        assert response.status_code == 404 and response.json() == {"detail": "Not found."}
    if route != "dice-roll":  # a player's bad input is a 400
        response = client_for(game.white).post(url, {"ply": "x", "kind": "none"}, format="json")
        assert response.status_code == 400


@pytest.mark.parametrize("route", ["dice-roll", "play-submit"])
def test_a_roll_or_play_through_the_api_loads_the_game_once(game, client_for, route):
    """The hot path: the service's one (locked) query loads the game with its match and
    players; the view loads nothing itself."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.games.test_api_play import game_url

    player = selectors.player_to_move(game)
    body = {}
    if route == "play-submit":
        game = services.dice_roll(game=game, player=player).game
        while game.dice is None:
            player = selectors.player_to_move(game)
            game = services.dice_roll(game=game, player=player).game
        player = selectors.player_to_move(game)
        body = {"ply": game.ply, "moves": selectors.game_legal_plays(game)[0].play.to_json()}
    client = client_for(player)
    with CaptureQueriesContext(connection) as captured:
        response = client.post(game_url(route, game.pk), body, format="json")
    assert response.status_code == 200, response.json()
    loads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    game_loads = [sql for sql in loads if 'FROM "games_game"' in sql]
    assert len(game_loads) == 1 and '"games_match"' in game_loads[0]
