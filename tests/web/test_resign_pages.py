"""The Resign control of the match page (templates/games/_match_live.html, docs/decisions.md D16)
through Django's test client: shown to the two players of an online game in progress only, with
the kinds the service takes and their points, the cube counted; and nobody else may resign the
game through the API the page posts to."""

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors, services
from games.models import Game, Match
from tests.games.factories import PlayerFactory, UserFactory
from tests.web.helpers import logged_in, match_url

pytestmark = pytest.mark.django_db


def resign_url(game: Game) -> str:
    return reverse("games:game-resign", kwargs={"pk": game.pk})


def test_both_players_get_the_resign_control_whoever_is_to_move(online_match):
    game = online_match.games.get()
    to_move = selectors.player_to_move(game)
    for player in (game.white, game.black):
        response = logged_in(player).get(match_url(online_match))
        html = response.content.decode()
        assert 'data-action="resign-open"' in html, player
        assert f'data-url="{resign_url(game)}"' in html
        choices = response.context["resign"]["kinds"]
        assert choices == [{"kind": "single", "points": 1}, {"kind": "mars", "points": 2}]
        assert response.context["resign"]["opponent"] != player
    assert to_move in (game.white, game.black)


def test_spectators_and_strangers_get_no_resign_control(online_match, organiser):
    stranger = PlayerFactory(user=UserFactory(username="carol"), display_name="Carol")
    for client in (Client(), logged_in(stranger)):
        response = client.get(match_url(online_match))
        assert response.status_code == 200
        assert response.context["resign"] is None
        assert b"data-resign" not in response.content
    organiser_client = Client()
    organiser_client.force_login(organiser)
    assert organiser_client.get(match_url(online_match)).context["resign"] is None


def test_no_resign_control_once_the_game_is_over(online_match):
    game = online_match.games.get()
    services.game_resign(game=game, kind="single", player=game.black)
    client = logged_in(game.white)
    shown = client.get(match_url(online_match, game=game.number))
    assert shown.context["resign"] is None
    online_match.refresh_from_db()
    if online_match.status == Match.Status.IN_PROGRESS:  # the next game offers it again
        followed = client.get(match_url(online_match)).context
        assert followed["game"].number == 2 and followed["resign"] is not None


def test_the_points_offered_count_the_cube(alice, bob, organiser):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = selectors.current_game(match)
    doubler, taker = game.white, game.black
    services.cube_double(game=game, player=doubler)
    # During the offer the stake is the one before the double (D16).
    offered = logged_in(taker).get(match_url(match)).context["resign"]["kinds"]
    assert [c["points"] for c in offered] == [1, 2]
    services.cube_take(game=game, player=taker)
    response = logged_in(doubler).get(match_url(match))
    assert [c["points"] for c in response.context["resign"]["kinds"]] == [2, 4]
    assert "single: 2 points" in response.content.decode()


def test_the_resign_control_speaks_macedonian(online_match):
    game = online_match.games.get()
    client = logged_in(game.white)
    client.cookies["django_language"] = "mk"
    response = client.get(match_url(online_match))
    html = response.content.decode()
    assert 'data-action="resign-open"' in html
    assert "обична" in html and "марс" in html  # the kinds by their Macedonian names


def test_someone_else_s_game_cannot_be_resigned(online_match, organiser):
    """Neither a player who is not in the game nor a stranger nor an organiser resigns it: 403
    (401 without a session), and the game goes on untouched."""
    game = online_match.games.get()
    stranger = PlayerFactory(user=UserFactory(username="carol"), display_name="Carol")
    organiser_client = Client(enforce_csrf_checks=False)
    organiser_client.force_login(organiser)
    answers = [
        logged_in(stranger).post(resign_url(game), {"kind": "single"}, "application/json"),
        organiser_client.post(resign_url(game), {"kind": "mars"}, "application/json"),
        Client().post(resign_url(game), {"kind": "single"}, "application/json"),
    ]
    assert [a.status_code for a in answers] == [403, 403, 401], [a.content for a in answers]
    assert "only a player of this game" in answers[0].json()["detail"]
    game.refresh_from_db()
    online_match.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.resigned_by is None
    assert (online_match.score_one, online_match.score_two) == (0, 0)


def test_a_finished_game_cannot_be_resigned_again(online_match):
    game = online_match.games.get()
    services.game_resign(game=game, kind="single", player=game.black)
    answer = logged_in(game.white).post(resign_url(game), {"kind": "single"}, "application/json")
    assert answer.status_code == 409 and "over" in answer.json()["detail"]


# --- resigning the match (docs/decisions.md D166) ---------------------------------------------


def match_resign_url(match: Match) -> str:
    return reverse("games:match-resign", kwargs={"pk": match.pk})


def test_the_players_of_a_longer_match_may_also_resign_the_match(online_match):
    assert online_match.target_score > 1
    game = online_match.games.get()
    for player in (game.white, game.black):
        response = logged_in(player).get(match_url(online_match))
        html = response.content.decode()
        assert response.context["resign"]["match_url"] == match_resign_url(online_match)
        assert "data-resign-match-open" in html and "Resign the match…" in html
        assert f'data-url="{match_resign_url(online_match)}"' in html
        opponent = response.context["resign"]["opponent"].display_name
        assert f"{opponent} wins the match: this game counts as your resignation" in html


def test_a_one_point_match_offers_only_the_game(alice, bob, organiser):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=1
    )
    response = logged_in(alice).get(match_url(match))
    assert response.context["resign"]["match_url"] is None
    html = response.content.decode()
    assert 'data-action="resign-open"' in html  # the game's
    assert "data-resign-match" not in html and match_resign_url(match) not in html


def test_nobody_else_sees_the_match_s_resign(online_match, organiser):
    stranger = PlayerFactory(user=UserFactory(username="carol"), display_name="Carol")
    organiser_client = Client()
    organiser_client.force_login(organiser)
    for client in (Client(), logged_in(stranger), organiser_client):
        response = client.get(match_url(online_match))
        assert response.status_code == 200
        assert b"data-resign-match" not in response.content
        assert match_resign_url(online_match).encode() not in response.content


def test_a_resigned_match_says_so_and_offers_no_resign(online_match, alice, bob):
    services.match_resign(match=online_match, user=alice.user)
    for client in (logged_in(bob), Client()):
        response = client.get(match_url(online_match))
        html = response.content.decode()
        assert response.context["resign"] is None and "data-resign" not in html
        assert "Bob wins the match</strong> (the opponent resigned)" in html


def test_the_match_s_resign_speaks_macedonian(online_match, alice):
    client = logged_in(alice)
    client.cookies["django_language"] = "mk"
    html = client.get(match_url(online_match)).content.decode()
    assert "data-resign-match-open" in html
    assert "Resign the match" not in html and "wins the match" not in html
