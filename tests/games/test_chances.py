"""The chances of a match (games/chances.py; docs/analysis.md "On the site"): who sees them when,
that they are the network's own numbers, the query budget, and the match page's bar."""

import random

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from games import chances, services
from games.analysis.bearoff import build, file_name
from games.analysis.encode import encode_positions
from games.analysis.match_table import GameChances, MatchTable, match_chance
from games.analysis.net import Network, flip
from games.analysis.rates import RATES_FILE, Rates
from games.demo import game_play_random, match_play_random
from games.models import Match
from games.state import game_position, match_options
from tests.games.factories import UserFactory
from tests.networks import write_networks

pytestmark = pytest.mark.django_db

VARIANTS = ("tabla", "gul_bara", "tapa")


@pytest.fixture
def spectator(db):
    return UserFactory(username="spectator")


def chances_url(match) -> str:
    return reverse("games:match-chances", kwargs={"pk": match.pk})


def unrated(alice, bob, organiser) -> Match:
    return services.match_create(creator=organiser, player_one=alice, player_two=bob, rated=False)


def played(match: Match, decisions: int, seed: int = 3) -> Match:
    game = match.games.get(number=1)
    game_play_random(game=game, rng=random.Random(seed), max_decisions=decisions)
    match.refresh_from_db()
    return match


def expected_one(match: Match, weights) -> list[float]:
    """Player one's P(win), P(win mars), P(lose mars) in the current game, from the network."""
    game = match.games.order_by("-number").first()
    position = game_position(game)
    network = Network.load(weights[game.variant])
    values = network.forward(encode_positions(game.variant, [position], match_options(match)))[0]
    one = game.colour_of(match.player_one)
    return list(values if position.turn == one else flip(values))


def test_the_players_get_403_while_the_match_is_on(weights, online_match, alice, bob, client_for):
    played(online_match, 6)
    for player in (alice, bob):
        answer = client_for(player).get(chances_url(online_match))
        assert answer.status_code == 403
        assert answer.json()["detail"] == chances.PLAYERS_WAIT


def test_a_spectator_of_an_unrated_match_sees_it_live(
    weights, alice, bob, organiser, spectator, client_for
):
    match = played(unrated(alice, bob, organiser), 8)
    data = client_for(spectator).get(chances_url(match)).json()
    turns = list(match.games.get(number=1).turns.order_by("ply").values_list("ply", flat=True))
    assert data["behind"] == 0
    assert [p["turn"] for p in data["points"]] == [0, *turns]
    assert {p["game"] for p in data["points"]} == {1}
    current = data["current"]
    assert current["turn"] == turns[-1]
    one = expected_one(match, weights)
    assert current["player_one"]["win"] == pytest.approx(one[0], abs=1e-4)
    assert current["player_one"]["win_mars"] == pytest.approx(one[1], abs=1e-4)
    assert current["player_one"]["lose_mars"] == pytest.approx(one[2], abs=1e-4)
    assert data["points"][-1]["win"] == pytest.approx(one[0], abs=1e-4)
    # The bar is the chance of winning the match: the game's outcomes times the match table (D130).
    table = MatchTable(Rates.load(RATES_FILE), match_options(match))
    expected = match_chance(
        table, GameChances(*one), match.target_score, match.target_score, 0, cube=1
    )
    assert current["bar"] == {"player": alice.pk, "chance": pytest.approx(expected, abs=1e-4)}
    assert data["points"][-1]["match"] == pytest.approx(expected, abs=1e-4)
    mover = current["to_move"]
    game = match.games.get(number=1)
    assert mover["player"] == game.player_of(game_position(game).turn).pk
    mover_win = one[0] if mover["player"] == alice.pk else 1 - one[0]
    assert mover["win"] == pytest.approx(mover_win, abs=1e-4)


def test_a_spectator_of_a_rated_match_is_one_move_behind(
    weights, online_match, spectator, client_for, settings
):
    assert online_match.rated
    match = played(online_match, 8)
    behind = client_for(spectator).get(chances_url(match)).json()
    settings.CHANCES_SPECTATOR_DELAY_TURNS = 0  # the site's setting: live
    ahead = client_for(spectator).get(chances_url(match)).json()
    assert ahead["behind"] == 0 and ahead["current"]["turn"] == ahead["points"][-1]["turn"]
    assert behind["behind"] == 1
    assert behind["points"] == ahead["points"][:-1]
    assert behind["current"]["turn"] == ahead["points"][-2]["turn"]
    assert behind["current"]["player_one"]["win"] == ahead["points"][-2]["win"]


def test_a_tournament_match_is_behind_even_unrated(
    weights, alice, bob, organiser, spectator, client_for
):
    match = unrated(alice, bob, organiser)
    Match.objects.filter(pk=match.pk).update(tournament_slot="tournament-1")
    match = played(match, 4)
    assert client_for(spectator).get(chances_url(match)).json()["behind"] == 1


def test_a_finished_match_shows_everything_to_everyone(
    weights, online_match, alice, spectator, client_for, api_client
):
    match = match_play_random(match=online_match, rng=random.Random(5))
    assert match.status == Match.Status.FINISHED
    answers = [client_for(user).get(chances_url(match)) for user in (alice, spectator)]
    answers.append(api_client.get(chances_url(match)))
    assert [a.status_code for a in answers] == [200, 200, 200]
    data = answers[0].json()
    assert all(a.json() == data for a in answers)
    assert data["behind"] == 0
    games = list(match.games.order_by("number"))
    assert [p["game"] for p in data["points"] if p["turn"] == 0] == [g.number for g in games]
    assert len(data["points"]) == sum(g.turns.count() + 1 for g in games)
    last = games[-1]
    assert data["points"][-1]["win"] == float(last.result_winner_id == match.player_one_id)
    assert data["current"]["to_move"] is None


def test_no_evaluator_is_a_404_with_its_message_and_no_bar(
    no_weights, online_match, spectator, client_for
):
    answer = client_for(spectator).get(chances_url(online_match))
    assert answer.status_code == 404
    assert answer.json()["detail"] == "no evaluator is installed for tabla"
    page = Client()
    page.force_login(spectator)
    html = page.get(reverse("web:match", kwargs={"pk": online_match.pk})).content.decode()
    assert 'id="chances"' not in html and "chances.js" not in html


def test_a_missing_variant_is_no_evaluator_and_a_broken_file_too(tmp_path, settings):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path
    write_networks(tmp_path, ("tabla",))
    (tmp_path / "tapa.npz").write_bytes(b"not a network")
    assert chances.evaluator("tabla") is not None
    assert chances.evaluator("tabla") is chances.evaluator("tabla")  # loaded once
    assert chances.evaluator("gul_bara") is None
    assert chances.evaluator("tapa") is None


def test_bear_off_tables_beside_the_weights_ride_with_the_networks(tmp_path, settings):
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path
    write_networks(tmp_path, ("tabla", "gul_bara"))
    assert chances.evaluator("tabla").races is None  # none built: the network answers races
    chances.forget_evaluators()
    build("standard", 3).save(tmp_path / file_name("standard"))
    tabla, gul_bara = chances.evaluator("tabla"), chances.evaluator("gul_bara")
    assert tabla.races is not None and tabla.races is gul_bara.races  # read once a folder
    assert set(tabla.races.tables) == {"standard"}  # no cascade table: Gjul Bara's network
    _, version = chances.evaluator_and_version("tabla")
    assert "standard-" in version  # a new table is a new cache key of the series


def test_the_series_is_cached_per_game_and_the_queries_are_bounded(
    weights, alice, bob, organiser, spectator, client_for, django_assert_max_num_queries
):
    match = played(unrated(alice, bob, organiser), 10)
    client = client_for(spectator)
    first = client.get(chances_url(match)).json()
    with django_assert_max_num_queries(6):  # the user, the match, its games and last turns
        again = client.get(chances_url(match))
    assert again.json() == first
    match = played(match, 2, seed=4)
    after = client.get(chances_url(match)).json()
    assert len(after["points"]) == len(first["points"]) + 2
    assert after["points"][: len(first["points"])] == first["points"]


def test_the_points_are_capped_to_the_newest(
    weights, alice, bob, organiser, spectator, client_for, settings
):
    settings.CHANCES_MAX_POINTS = 3
    match = played(unrated(alice, bob, organiser), 8)
    data = client_for(spectator).get(chances_url(match)).json()
    assert data["truncated"] is True and len(data["points"]) == 3
    assert data["points"][-1]["turn"] == data["current"]["turn"]


def test_the_page_has_the_bar_for_a_spectator_and_none_for_a_player(
    weights, online_match, alice, spectator
):
    played(online_match, 4)
    url = reverse("web:match", kwargs={"pk": online_match.pk})
    pages = {}
    for user in (spectator, alice.user):
        client = Client()
        client.force_login(user)
        pages[user.username] = client.get(url).content.decode()
    assert 'id="chances"' in pages["spectator"] and "js/chances.js" in pages["spectator"]
    assert chances_url(online_match) in pages["spectator"]
    assert 'id="chances"' not in pages["alice"] and "chances" not in pages["alice"].lower()


def test_a_log_that_breaks_the_rules_stops_the_series_there(
    weights, alice, bob, organiser, spectator, client_for
):
    match = played(unrated(alice, bob, organiser), 8)
    turns = list(match.games.get(number=1).turns.order_by("ply"))
    broken = turns[3]
    broken.moves = ["1/0", "1/0"]
    broken.save(update_fields=["moves"])
    answer = client_for(spectator).get(chances_url(match))
    assert answer.status_code == 200
    assert [p["turn"] for p in answer.json()["points"]] == [0, *(t.ply for t in turns[:3])]


def test_a_database_made_again_is_not_served_the_old_games_chances(
    weights, alice, bob, organiser, spectator, client_for
):
    """The cache outlives the database (a folder in /dev/shm, or Redis), and a database made
    again hands out game 1 and turn 1 again: the key holds the game's start too. Here a match is
    played and its chances cached, then rolled back, and another is played with other dice;
    SQLite gives it the same ids, as a new database would."""

    class Undo(Exception):
        pass

    try:
        with transaction.atomic():
            old = played(unrated(alice, bob, organiser), 8)
            old_ids = (old.games.get().pk, list(old.games.get().turns.values_list("pk", flat=True)))
            stale = client_for(spectator).get(chances_url(old)).json()
            raise Undo
    except Undo:
        pass
    match = played(unrated(alice, bob, organiser), 8, seed=9)
    game = match.games.get()
    if connection.vendor == "sqlite":  # PostgreSQL's sequences do not go back
        assert (game.pk, list(game.turns.values_list("pk", flat=True))) == old_ids
    data = client_for(spectator).get(chances_url(match)).json()
    assert data["current"] != stale["current"]
    assert data["current"]["player_one"]["win"] == pytest.approx(
        expected_one(match, weights)[0], abs=1e-4
    )
