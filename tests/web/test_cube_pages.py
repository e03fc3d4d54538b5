"""The doubling cube on the match page (docs/rules.md §6.6): the cube on the board, the Double,
Take and
Drop controls for the player who may use them, cube actions in the move log and the replay, and
the notes for a pending double, a dropped double and the Crawford game."""

import pytest
from django.conf import settings
from django.test import Client

from games import selectors, services
from tests.web.helpers import logged_in, match_url

pytestmark = pytest.mark.django_db

DOUBLE = b'data-action="double"'
TAKE = b'data-action="take"'
DROP = b'data-action="drop"'
ROLL = b'data-action="roll"'


def cube_match(alice, bob, organiser, **options):
    options = {"cube": "tabla_only", **options}
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options=options
    )


@pytest.fixture
def match(alice, bob, organiser):
    return cube_match(alice, bob, organiser)


@pytest.fixture
def doubled(match):
    """Game 1 with white's double waiting for black's answer."""
    game = selectors.current_game(match)
    return services.cube_double(game=game, player=game.white).game


def test_the_player_to_move_may_double_and_the_opponent_may_not(match):
    game = selectors.current_game(match)
    mover = logged_in(game.white).get(match_url(match))
    assert mover.context["can_double"] is True
    assert DOUBLE in mover.content and ROLL in mover.content and TAKE not in mover.content
    assert mover.context["client"]["double_url"] == f"/api/v1/games/{game.pk}/double/"
    other = logged_in(game.black).get(match_url(match))
    assert other.context["can_double"] is False
    assert DOUBLE not in other.content and ROLL not in other.content


def test_the_middle_cube_shows_64_in_the_tray(match):
    html = Client().get(match_url(match)).content.decode()
    assert 'data-cube="64" data-cube-owner=""' in html
    assert "Doubling cube at 1, in the middle" in html
    assert DOUBLE not in html.encode()  # spectators get no controls


def test_a_double_asks_the_opponent_to_take_or_drop(doubled):
    game = doubled
    answer = logged_in(game.black).get(match_url(game.match))
    assert answer.context["can_answer"] is True
    assert TAKE in answer.content and DROP in answer.content
    assert ROLL not in answer.content and DOUBLE not in answer.content
    html = answer.content.decode()
    white, black = game.white.display_name, game.black.display_name
    assert f"{white} doubles to 2: {black} to take or drop" in html
    assert 'class="cube offered"' in html and 'data-cube="2"' in html  # the value offered
    assert '<span class="cube-badge">64</span>' in html  # the cube itself is still at 1
    assert answer.context["turn_colour"] == "b"  # the answer is black's
    assert answer.context["log"][-1] == {
        "ply": game.ply - 1,
        "side": "w",
        "player": white,
        "dice": "",
        "pending": False,
        "cube": "double",
        "moves": "doubles to 2",
        "move_list": [],
    }
    assert 'data-cube-action="double"' in html
    doubler = logged_in(game.white).get(match_url(game.match))
    assert TAKE not in doubler.content and ROLL not in doubler.content
    assert f"Waiting for {black}." in doubler.content.decode()


def test_a_taken_double_puts_the_cube_at_2_on_the_takers_side(doubled):
    game = services.cube_take(game=doubled, player=doubled.black).game
    response = Client().get(match_url(game.match))
    html = response.content.decode()
    assert 'data-cube="2" data-cube-owner="b"' in html
    assert f"Doubling cube at 2, owned by {game.black.display_name}" in html
    assert [row["moves"] for row in response.context["log"][-2:]] == ["doubles to 2", "takes"]
    cube = response.context["cube"]
    assert cube["value"] == 2 and cube["owner"] == game.black
    mover = logged_in(game.white).get(match_url(game.match))
    assert ROLL in mover.content and DOUBLE not in mover.content  # the cube is black's now


def test_the_replay_captions_cube_actions_and_keeps_the_position(doubled):
    game = services.cube_take(game=doubled, player=doubled.black).game
    frames = Client().get(match_url(game.match)).context["replay"]
    assert len(frames) == game.turns.count() + 1
    before, offered, taken = frames[-3:]
    undiced = [piece for piece in before["pieces"] if piece["kind"] != "die"]
    assert offered["pieces"] == taken["pieces"] == undiced  # the position as it was
    assert offered["caption"] == f"White ({game.white.display_name}) doubles to 2"
    assert taken["caption"] == f"Black ({game.black.display_name}) takes: the cube is at 2"
    assert [f["cube"]["face"] for f in (before, offered, taken)] == [64, 2, 2]
    assert (offered["cube"]["offered"], taken["cube"]["owner"]) == (True, "b")


def test_a_dropped_double_ends_the_game(doubled):
    game = services.cube_drop(game=doubled, player=doubled.black).game
    response = Client().get(match_url(game.match, game=1))
    html = response.content.decode()
    assert response.context["game"] == game and game.is_over
    assert "The double was dropped." in html and "double dropped" in html
    assert f"{game.white.display_name} won this game" in html
    assert response.context["log"][-1]["moves"] == "drops"
    assert response.context["replay"][-1]["caption"].endswith("drops the double: the game is over")
    assert TAKE not in logged_in(game.black).get(match_url(game.match, game=1)).content


def test_the_crawford_game_says_no_doubling(alice, bob, organiser):
    match = cube_match(alice, bob, organiser, cube="all_games", crawford=True, match_length=2)
    first = selectors.current_game(match)
    services.cube_double(game=first, player=first.white)
    services.cube_drop(game=first, player=first.black)  # 1-0 in a match to 2
    game = selectors.current_game(match)
    assert game.crawford
    response = logged_in(selectors.player_to_move(game)).get(match_url(match))
    assert "Crawford game: no doubling" in response.content.decode()
    assert response.context["can_double"] is False and DOUBLE not in response.content


def test_a_match_without_the_cube_shows_no_cube(online_match):
    game = online_match.games.get()
    response = logged_in(game.white).get(match_url(online_match))
    assert response.context["cube"] is None and response.context["can_double"] is False
    html = response.content.decode()
    assert 'data-cube="' not in html and "Doubling cube" not in html and "doubles" not in html
    assert DOUBLE not in response.content and TAKE not in response.content
    assert all(frame["cube"] is None for frame in response.context["replay"])


def test_a_gul_bara_game_of_a_tabla_only_cube_match_has_no_cube(doubled):
    services.cube_drop(game=doubled, player=doubled.black)
    game = selectors.current_game(doubled.match)
    assert game.variant != "tabla"
    response = logged_in(selectors.player_to_move(game)).get(match_url(doubled.match))
    assert response.context["cube"] is None and DOUBLE not in response.content


def test_the_cube_speaks_macedonian(doubled):
    client = logged_in(doubled.black)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "mk"
    html = client.get(match_url(doubled.match)).content.decode()
    assert "удвојува на 2: " in html and ">Прифати<" in html and ">Одбиј<" in html
