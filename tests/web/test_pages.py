"""The web pages through Django's test client: status, key content, permissions, the live
state endpoint with ETags, and Macedonian rendering."""

import datetime
import random
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services, web_selectors
from games.demo import game_play_random, match_play_random
from games.models import Match, RatingHistory
from tests.games.factories import MatchFactory, PlayerFactory
from tests.web.helpers import logged_in, match_url
from tests.web.positions import TAPA_PINS, game_with_position

pytestmark = pytest.mark.django_db


def test_home_lists_live_and_recent_matches(online_match, alice, bob):
    finished = MatchFactory(status=Match.Status.FINISHED, winner=None)
    response = Client().get(reverse("web:home"))
    assert response.status_code == 200
    live = response.context["live"]
    assert online_match in live and finished in response.context["recent"]
    assert b"Alice" in response.content and b'id="live-matches"' in response.content


def test_private_matches_are_hidden_from_strangers(alice, bob, organiser):
    private = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, is_public=False
    )
    assert Client().get(match_url(private)).status_code == 404
    assert logged_in(alice).get(match_url(private)).status_code == 200
    assert private not in Client().get(reverse("web:home")).context["live"]


def test_match_page_draws_the_board_log_and_dice_commitment(online_match):
    game = game_play_random(game=online_match.games.get(), rng=random.Random(2), max_decisions=4)
    response = Client().get(match_url(online_match))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="point ') == 24
    assert html.count('class="checker ') >= 28
    assert game.seed_commitment in html and game.seed not in html
    assert len(response.context["log"]) == game.turns.count()
    assert len(response.context["replay"]) == game.turns.count() + 1
    assert 'id="replay-data"' in html and "play-form" not in html


def test_player_to_move_gets_the_roll_button_or_the_legal_plays(online_match):
    game = online_match.games.get()
    response = logged_in(game.white).get(match_url(online_match))
    context = response.context
    assert context["can_play"] is True
    if context["roll_due"]:
        assert b'data-action="roll"' in response.content
    else:
        assert context["legal_plays"] and b'id="play-form"' in response.content
    other = logged_in(game.black).get(match_url(online_match))
    assert other.context["can_play"] is False and b"Waiting for" in other.content


def test_finished_game_reveals_the_seed_and_the_proof_checks_out(online_match):
    match = match_play_random(match=online_match, rng=random.Random(1), max_games=1)
    first = match.games.get(number=1)
    response = Client().get(match_url(match, game=1))
    assert response.context["game"] == first
    assert response.context["proof"]["verified"] is True
    assert first.seed in response.content.decode()


def test_live_state_answers_304_until_the_game_moves(online_match):
    client = Client()
    url = reverse("web:match-state", kwargs={"pk": online_match.pk})
    first = client.get(url)
    assert first.status_code == 200 and first.json()["match"] == online_match.pk
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    game_play_random(game=online_match.games.get(), rng=random.Random(4), max_decisions=1)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_live_fragment_is_the_match_without_the_page_around_it(online_match):
    response = Client().get(reverse("web:match-live", kwargs={"pk": online_match.pk}))
    assert response.status_code == 200
    assert b"<html" not in response.content and b"data-board" in response.content


def test_live_fragment_names_the_version_it_shows(online_match):
    """The page holds the fragment's version, so its next poll answers 304 (D157)."""
    client = Client()
    live = reverse("web:match-live", kwargs={"pk": online_match.pk})
    state = reverse("web:match-state", kwargs={"pk": online_match.pk})
    fragment = client.get(live)
    assert fragment["ETag"] == client.get(state)["ETag"]
    assert fragment["Cache-Control"] == "no-cache"
    assert client.get(state, HTTP_IF_NONE_MATCH=fragment["ETag"]).status_code == 304
    game_play_random(game=online_match.games.get(), rng=random.Random(4), max_decisions=1)
    moved = client.get(live)
    assert moved["ETag"] != fragment["ETag"]
    assert moved["ETag"] == client.get(state)["ETag"]


def test_tapa_pins_are_drawn_under_the_pinner():
    match = MatchFactory()
    game_with_position(match, "tapa", TAPA_PINS)
    html = Client().get(match_url(match)).content.decode()
    assert html.count("checker b pinned") == 1 and html.count("checker w pinned") == 1
    assert 'class="pin-ring"' in html


def test_over_the_board_match_offers_report_and_confirm(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob)
    page = logged_in(alice).get(match_url(match))
    assert page.context["can_report"] and b'id="report-form"' in page.content
    assert not Client().get(match_url(match)).context["can_report"]
    services.result_report(match=match, user=alice.user, winner=alice, points=1)
    rows = logged_in(bob).get(match_url(match)).context["reports"]
    assert rows[0]["can_answer"] is True
    assert logged_in(alice).get(match_url(match)).context["reports"][0]["can_answer"] is False


def test_an_over_the_board_match_asks_for_the_final_score_first_and_draws_no_empty_board(
    alice, bob
):
    """Issue 22 §2: clubs report final scores; the game-by-game record is behind a disclosure."""
    match = MatchFactory(player_one=alice, player_two=bob)
    html = logged_in(alice).get(match_url(match)).content.decode()
    final, games = html.index('id="match-report-form"'), html.index("data-game-reports")
    assert final < games < html.index('id="report-form"')
    assert "The final score of the match (to 5):" in html
    details = html[games : html.index(">", games)]
    assert " open" not in details  # closed: the final score is what a club reports
    assert 'class="primary">Report the match score' in html
    for empty in ("board-card", "No game has been played yet.", "data-board"):
        assert empty not in html
    watched = Client().get(match_url(match)).content.decode()
    assert "the result shows here once it is reported" in watched
    assert "board-card" not in watched and "match-report-form" not in watched


def test_the_result_forms_close_once_reported_and_say_what_happens_next(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob)
    report = services.result_report(
        match=match, user=alice.user, scope="match", score_one=5, score_two=2
    )
    mine = logged_in(alice).get(match_url(match))
    theirs = logged_in(bob).get(match_url(match))
    for page in (mine, theirs):
        html = page.content.decode()
        assert not page.context["can_report"] and "report-form" not in html
        assert "data-game-reports" not in html and "board-card" not in html
    assert 'data-report-next="reported"' in mine.content.decode()
    assert "It counts once Bob confirms it" in mine.content.decode()
    assert 'data-report-next="answer"' in theirs.content.decode()
    assert 'data-action="confirm"' in theirs.content.decode()
    services.result_dispute(report=report, user=bob.user, reason="5-3")
    for player in (alice, bob):
        html = logged_in(player).get(match_url(match)).content.decode()
        assert 'data-report-next="disputed"' in html and "report-form" not in html


def test_game_by_game_the_form_comes_back_open_for_the_next_game(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob)
    report = services.result_report(match=match, user=alice.user, winner=alice, points=1)
    assert 'data-report-next="reported"' in logged_in(alice).get(match_url(match)).content.decode()
    services.result_confirm(report=report, user=bob.user)
    page = logged_in(alice).get(match_url(match))
    html = page.content.decode()
    assert page.context["can_report"] and page.context["report_waiting"] is None
    assert "data-game-reports open" in html and 'id="report-form"' in html
    assert html.index('id="match-report-form"') < html.index('id="report-form"')


def test_over_the_board_game_without_a_record_shows_its_result_not_a_board(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob)
    report = services.result_report(match=match, user=alice.user, winner=alice, points=2)
    services.result_confirm(report=report, user=bob.user)
    response = Client().get(match_url(match))
    html = response.content.decode()
    assert response.context["game"].number == 1 and response.context["unrecorded"] is True
    assert "data-board" not in html and "data-replay" not in html and "replay-data" not in html
    assert "Played over the board, with no move record" in html
    assert "Alice won this game: mars, 2 points." in html
    assert "ply 1" not in html and "No moves yet." not in html


def test_player_page_shows_profile_rating_chart_and_matches(online_match, alice):
    alice.rating, alice.rating_games = 1540.0, 3
    alice.save()
    response = Client().get(reverse("web:player", kwargs={"pk": alice.pk}))
    assert response.status_code == 200
    assert response.context["chart"]["polyline"]
    assert [row["match"] for row in response.context["matches"]] == [online_match]
    assert b"Rating 1540" in response.content and b'class="chart"' in response.content


def test_player_page_lists_50_matches_a_page_in_the_same_queries_whatever_the_history(alice):
    def page(number: str = "") -> tuple[int, Any]:
        url = reverse("web:player", kwargs={"pk": alice.pk}) + (f"?page={number}" if number else "")
        with CaptureQueriesContext(connection) as queries:
            response = Client().get(url)
        assert response.status_code == 200
        return len(queries), response

    MatchFactory.create_batch(3, player_one=alice)
    few, _ = page()
    newest = MatchFactory.create_batch(117, player_one=alice)[-1]
    many, first = page()
    assert few == many
    rows = first.context["matches"]
    assert len(rows) == 50 and rows[0]["match"] == newest  # newest first
    assert "Page 1" in first.content.decode() and 'rel="next"' in first.content.decode()
    _, last = page("3")
    assert len(last.context["matches"]) == 20 and 'rel="prev"' in last.content.decode()
    assert 'rel="next"' not in last.content.decode()
    _, odd = page("²")  # not a page number: the first page, never a 500
    assert odd.context["page"].number == 1
    _, past = page("9")  # past the last page: no rows, a link back
    assert past.context["matches"] == [] and 'rel="prev"' in past.content.decode()


def test_the_rating_chart_shows_the_last_200_rated_matches(alice, bob):
    match = MatchFactory(player_one=alice, player_two=bob)
    start = timezone.now()
    RatingHistory.objects.bulk_create(
        RatingHistory(
            player=alice, match=match, variant="", sequence=n, rating=1500.0 + n, change=1.0,
            experience=n, rated_at=start + datetime.timedelta(minutes=n),
        )  # fmt: skip
        for n in range(1, 206)
    )
    history = web_selectors.player_rating_history(alice, user=AnonymousUser())
    assert len(history) == 201  # where the 200 began, then one point each
    assert [rating for _at, rating in history[:2]] == [1505.0, 1506.0]
    assert history[-1] == (start + datetime.timedelta(minutes=205), 1705.0)


def test_unknown_player_is_404():
    assert Client().get(reverse("web:player", kwargs={"pk": 999})).status_code == 404


def test_login_and_logout_pages(alice):
    client = Client()
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "alice", "password": "password"})
    assert response.status_code == 302
    assert b"Log out" in client.get(reverse("web:home")).content
    assert client.post(reverse("logout")).status_code == 302
    assert b"Log in" in client.get(reverse("web:home")).content


def test_pages_render_in_macedonian_with_the_language_cookie(online_match, alice):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "mk"
    home = client.get(reverse("web:home")).content.decode()
    assert 'lang="mk"' in home and "Мечеви во живо" in home
    match = client.get(match_url(online_match)).content.decode()
    assert "Потези" in match and "Табла" in match
    player = client.get(reverse("web:player", kwargs={"pk": alice.pk})).content.decode()
    assert "Историја на рејтингот" in player


def test_language_switcher_sets_the_cookie():
    client = Client()
    response = client.post(reverse("set_language"), {"language": "mk", "next": "/"})
    assert response.status_code == 302
    assert "Мечеви во живо" in client.get(reverse("web:home")).content.decode()


def test_api_stays_in_english_by_default(online_match):
    response = Client().get(reverse("games:match-detail", kwargs={"pk": 999}))
    assert response.status_code == 404 and response.json()["detail"]


def test_players_without_a_user_profile_can_view_pages():
    stranger = PlayerFactory()
    client = Client()
    client.force_login(stranger.user)
    assert client.get(reverse("web:home")).status_code == 200


def test_player_page_counts_rated_matches_and_names_experience_apart(online_match, alice, bob):
    from django.utils import timezone

    from games.models import RatingHistory

    alice.rating, alice.rating_games = 1540.0, 5  # one rated match to 5: experience 5
    alice.save()
    RatingHistory.objects.create(
        player=alice, match=online_match, variant="", sequence=1, rating=1540.0, change=40.0,
        experience=5, rated_at=timezone.now(),
    )  # fmt: skip
    html = Client().get(reverse("web:player", kwargs={"pk": alice.pk})).content.decode()
    assert "1 rated match," in html and "experience 5" in html
    assert "rated games" not in html and "5 rated" not in html
