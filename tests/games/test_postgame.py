"""The review of a finished match (games/postgame.py; docs/analysis.md "After the game"): nobody
sees it while the match is on, its numbers are the network's, it is cached, and the match page
shows it once the match is over."""

import dataclasses
import json
import random
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import postgame
from games.analysis.net import Network, equity
from games.analysis.player import evaluate_plays
from games.demo import game_play_random, match_play_random
from games.engine import Position, legal_plays, start_position
from games.models import Match, OwedTask, Turn
from games.services import _steps
from games.state import match_options
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def spectator(db):
    return UserFactory(username="spectator")


@pytest.fixture
def finished(online_match):
    match = match_play_random(match=online_match, rng=random.Random(11))
    assert postgame.is_over(match)
    return match


def review_url(match) -> str:
    return reverse("games:match-review", kwargs={"pk": match.pk})


def expected(match, weights) -> dict[int, tuple[int, float, float]]:
    """Per player: decisions with a choice, total error and the largest error, from the stored
    turns and the networks read afresh (each turn's position before is the one stored after
    the turn before it)."""
    options = match_options(match)
    found = {match.player_one.pk: [0, 0.0, 0.0], match.player_two.pk: [0, 0.0, 0.0]}
    for game in match.games.order_by("number"):
        network = Network.load(weights[game.variant])
        before = start_position(game.variant, "w")
        for turn in Turn.objects.filter(game=game).order_by("ply"):
            after = Position.from_json(turn.position_after)
            if turn.kind in ("roll", "pending"):
                dice = None if turn.kind == "pending" else turn.dice
                outcomes = legal_plays(game.variant, before, dice, options)
                if len(outcomes) > 1:
                    values = equity(
                        evaluate_plays(network, game.variant, before, outcomes, options).chances
                    )
                    made = next(i for i, o in enumerate(outcomes) if o.position == after)
                    error = float(max(values) - values[made])
                    row = found[game.player_of(before.turn).pk]
                    row[0] += 1
                    row[1] += error
                    row[2] = max(row[2], error)
            before = after
    return {pk: tuple(row) for pk, row in found.items()}


def test_nobody_sees_the_review_while_the_match_is_on(
    weights, online_match, alice, bob, spectator, client_for
):
    game_play_random(game=online_match.games.get(number=1), rng=random.Random(3), max_decisions=6)
    for user in (alice, bob, spectator):
        answer = client_for(user).get(review_url(online_match))
        assert answer.status_code == 403
        assert answer.json()["detail"] == postgame.NOT_OVER


def test_no_evaluator_is_a_404_with_the_reason(no_weights, finished, spectator, client_for):
    answer = client_for(spectator).get(review_url(finished))
    assert answer.status_code == 404
    assert "no evaluator is installed for" in answer.json()["detail"]


def test_the_review_of_a_finished_match_is_the_networks(
    weights, finished, alice, bob, spectator, client_for
):
    data = client_for(spectator).get(review_url(finished)).json()
    assert data["match"] == finished.pk
    assert [p["player"] for p in data["players"]] == [alice.pk, bob.pk]
    want = expected(finished, weights)
    for player in data["players"]:
        decisions, total, largest = want[player["player"]]
        assert player["decisions"] == decisions > 0
        assert player["total_error"] == pytest.approx(total, abs=1e-3)
        assert player["average_error"] == pytest.approx(total / decisions, abs=1e-3)
        mistakes = player["mistakes"]
        assert 0 < len(mistakes) <= postgame.MISTAKES_SHOWN
        errors = [m["error"] for m in mistakes]
        assert errors == sorted(errors, reverse=True) and all(e > 0 for e in errors)
        assert errors[0] == pytest.approx(largest, abs=1e-3)
        for mistake in mistakes:
            assert mistake["made"] != mistake["best"]
    # the players see the same once it is over
    assert client_for(alice).get(review_url(finished)).json() == data


def test_the_review_is_cached_and_the_queries_are_bounded(
    weights, finished, spectator, client_for, django_assert_max_num_queries
):
    client = client_for(spectator)
    first = client.get(review_url(finished)).json()
    with django_assert_max_num_queries(5):  # the user, the match, its games and last turns
        again = client.get(review_url(finished))
    assert again.json() == first


def test_the_page_shows_the_review_of_a_finished_match_only(
    weights, online_match, alice, spectator
):
    url = reverse("web:match", kwargs={"pk": online_match.pk})
    game_play_random(game=online_match.games.get(number=1), rng=random.Random(3), max_decisions=6)
    for user in (spectator, alice.user):
        client = Client()
        client.force_login(user)
        assert 'id="review"' not in client.get(url).content.decode()
    match = match_play_random(match=online_match, rng=random.Random(11))
    client = Client()
    client.force_login(alice.user)
    page = client.get(url).content.decode()
    assert 'id="review"' in page and "data-review-mistake" in page
    assert 'class="review-board"' in page  # the better play of the biggest mistake, on a board
    assert client_for_json(match, spectator) in page


def client_for_json(match, user) -> str:
    client = Client()
    client.force_login(user)
    data = client.get(review_url(match)).json()
    return data["players"][0]["mistakes"][0]["best"]


def test_no_evaluator_no_section(no_weights, finished, alice):
    client = Client()
    client.force_login(alice.user)
    page = client.get(reverse("web:match", kwargs={"pk": finished.pk})).content.decode()
    assert 'id="review"' not in page


def test_the_section_costs_two_queries_once_cached(weights, finished, alice, settings, tmp_path):
    client = Client()
    client.force_login(alice.user)
    url = reverse("web:match", kwargs={"pk": finished.pk})
    assert 'id="review"' in client.get(url).content.decode()
    with CaptureQueriesContext(connection) as with_review:
        client.get(url)
    settings.ANALYSIS_WEIGHTS_DIR = tmp_path / "none"
    with CaptureQueriesContext(connection) as without:
        assert 'id="review"' not in client.get(url).content.decode()
    # the match's variants (also asked without an evaluator) and its games with their last turns
    assert len(with_review) <= len(without) + 1


def test_a_match_over_before_a_move_has_no_section(weights, online_match, alice, client_for):
    Match.objects.filter(pk=online_match.pk).update(status=Match.Status.FORFEITED)
    assert online_match.games.exists() and not Turn.objects.filter(game__match=online_match)
    data = client_for(alice).get(review_url(online_match)).json()
    assert [p["decisions"] for p in data["players"]] == [0, 0]
    assert [p["average_error"] for p in data["players"]] == [None, None]
    client = Client()
    client.force_login(alice.user)
    page = client.get(reverse("web:match", kwargs={"pk": online_match.pk})).content.decode()
    assert 'id="review"' not in page


# --- the review computed when the match ends (docs/decisions.md D138) --------------------------


@pytest.fixture
def queued(settings, monkeypatch):
    """The match's end queues its review, as where a broker runs the tasks (here eagerly, on the
    commit); the names of the tasks queued on commit, in order."""
    settings.REVIEW_AT_MATCH_END = True
    names = []
    enqueue = _steps.task_enqueue_on_commit

    def recording(task, *args):
        names.append(task)
        enqueue(task, *args)

    monkeypatch.setattr(_steps, "task_enqueue_on_commit", recording)
    return names


def play_to_the_end(match, capture):
    with capture(execute=True):
        match = match_play_random(match=match, rng=random.Random(11))
    assert postgame.is_over(match)
    return match


def test_the_end_of_a_match_reviews_it_into_the_cache(
    weights,
    queued,
    online_match,
    spectator,
    client_for,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    match = play_to_the_end(online_match, django_capture_on_commit_callbacks)
    assert queued.count(_steps.REVIEW_WARM_TASK) == 1
    assert postgame.review_warm(match=match.pk) == 0  # every game is cached: nothing to do

    def fails(*args):
        raise AssertionError("the review was computed on reading")

    monkeypatch.setattr(postgame, "_review_game", fails)
    data = client_for(spectator).get(review_url(match)).json()
    want = expected(match, weights)
    for player in data["players"]:
        decisions, total, _ = want[player["player"]]
        assert player["decisions"] == decisions > 0
        assert player["total_error"] == pytest.approx(total, abs=1e-3)


def test_a_failing_review_does_not_fail_the_end_of_the_match(
    weights,
    queued,
    online_match,
    spectator,
    client_for,
    monkeypatch,
    caplog,
    django_capture_on_commit_callbacks,
):
    def fails(*args):
        raise RuntimeError("broken")

    monkeypatch.setattr(postgame, "_review_game", fails)
    match = play_to_the_end(online_match, django_capture_on_commit_callbacks)
    assert queued.count(_steps.REVIEW_WARM_TASK) == 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert "the review of match" in caplog.text
    assert not OwedTask.objects.exists()  # logged and skipped, not retried
    monkeypatch.undo()
    assert client_for(spectator).get(review_url(match)).status_code == 200  # read computes it


def test_no_review_queued_without_an_evaluator(
    no_weights, queued, online_match, django_capture_on_commit_callbacks
):
    play_to_the_end(online_match, django_capture_on_commit_callbacks)
    assert _steps.REVIEW_WARM_TASK not in queued


def test_no_review_queued_where_tasks_run_eagerly(
    weights, queued, settings, online_match, django_capture_on_commit_callbacks
):
    settings.REVIEW_AT_MATCH_END = False  # the default without a broker: read computes it
    play_to_the_end(online_match, django_capture_on_commit_callbacks)
    assert _steps.REVIEW_WARM_TASK not in queued


def test_the_task_does_nothing_for_a_match_that_is_on(weights, online_match):
    game_play_random(game=online_match.games.get(number=1), rng=random.Random(3), max_decisions=6)
    assert postgame.review_warm(match=online_match.pk) == 0
    assert postgame.review_warm(match=0) == 0


# --- the depth: 1-ply by the task, 0-ply on a reader's first look (docs/decisions.md D151) -----


def game_errors(match, game, weights, depth) -> dict[int, float]:
    """Per player, the total error of ``game``'s decisions judged at ``depth``, worked out from
    the stored turns with the 0-ply player or the 1-ply search."""
    from games.analysis.ply import search_plays

    options = match_options(match)
    network = Network.load(weights[game.variant])
    totals = {match.player_one.pk: 0.0, match.player_two.pk: 0.0}
    before = start_position(game.variant, "w")
    for turn in Turn.objects.filter(game=game).order_by("ply"):
        after = Position.from_json(turn.position_after)
        if turn.kind in ("roll", "pending"):
            dice = None if turn.kind == "pending" else turn.dice
            outcomes = legal_plays(game.variant, before, dice, options)
            if len(outcomes) > 1:
                made = next(i for i, o in enumerate(outcomes) if o.position == after)
                if depth:
                    searched = search_plays(
                        network, game.variant, before, outcomes, options, include=[made]
                    )
                    values = equity(searched.chances)
                    best = values[searched.best()]
                else:
                    values = equity(
                        evaluate_plays(network, game.variant, before, outcomes, options).chances
                    )
                    best = max(values)
                totals[game.player_of(before.turn).pk] += float(max(0.0, best - values[made]))
        before = after
    return totals


def test_the_task_reviews_at_1_ply_and_a_reader_sees_the_deepest_review(
    weights, finished, spectator, client_for, settings, monkeypatch
):
    client = client_for(spectator)
    first = client.get(review_url(finished)).json()
    assert first["lookahead"] == "0-ply"  # a reader before the task: 0-ply at once
    settings.REVIEW_TASK_DEPTH = 1
    monkeypatch.setattr(postgame, "REVIEW_WARM_GAMES", 1)
    assert postgame.review_warm(match=finished.pk) == 1  # game 1 again, 1 ply deep
    assert postgame.review_warm(match=finished.pk) == 0  # idempotent
    data = client.get(review_url(finished)).json()
    games = list(finished.games.order_by("number"))
    assert data["lookahead"] == ("1-ply" if len(games) == 1 else "0-ply and 1-ply")
    want = {pk: 0.0 for pk in (finished.player_one.pk, finished.player_two.pk)}
    for game in games:
        for pk, total in game_errors(finished, game, weights, int(game.number == 1)).items():
            want[pk] += total
    for player in data["players"]:
        assert player["total_error"] == pytest.approx(want[player["player"]], abs=1e-3)
    assert data != first
    page = Client()
    page.force_login(spectator)
    html = page.get(reverse("web:match", kwargs={"pk": finished.pk})).content.decode()
    assert f'data-review-lookahead="{data["lookahead"]}"' in html


# --- the card's links and bands (docs/decisions.md D168, D169) --------------------------------


def page_of(match, user, query="") -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("web:match", kwargs={"pk": match.pk}) + query).content.decode()


def test_each_mistake_links_to_its_turn_in_the_replay(weights, finished, alice, client_for):
    data = client_for(alice.user).get(review_url(finished)).json()
    page = page_of(finished, alice.user)
    path = reverse("web:match", kwargs={"pk": finished.pk})
    mistakes = [m for player in data["players"] for m in player["mistakes"]]
    for mistake in mistakes:
        assert f'href="{path}?game={mistake["game"]}#ply-{mistake["turn"]}"' in page
    assert page.count("data-review-replay") == len(mistakes)
    # the linked page shows that game, and its replay has the turn's frame: the play made
    for mistake in mistakes[:2]:
        linked = page_of(finished, alice.user, f"?game={mistake['game']}")
        found = re.search(
            r'<script id="replay-data" type="application/json">(.*?)</script>', linked
        )
        frame = next(f for f in json.loads(found.group(1)) if f["ply"] == mistake["turn"])
        shown = frame["caption"].rsplit(": ", 1)[1]
        assert sorted(shown.replace("*", "").split()) == sorted(mistake["made"].split())


def test_each_player_has_the_band_of_their_average_and_the_card_lists_the_bands(
    weights, finished, alice, client_for
):
    data = client_for(alice.user).get(review_url(finished)).json()
    page = page_of(finished, alice.user)
    for player in data["players"]:
        assert player["band"] == postgame.band_of(player["average_error"])
        assert f'data-review-band="{player["band"]}"' in page
    assert data["lookahead"] == "0-ply"  # the tests review at 0-ply: its bands are listed
    assert [key for key, _bound in postgame.BANDS[0]] == re.findall(r'<tr data-band="(\w+)"', page)
    assert "points a play" in page and "World class" in page and "under 0.027" in page


def test_the_bands_are_in_the_players_language(weights, finished, alice):
    client = Client()
    client.force_login(alice.user)
    client.cookies["django_language"] = "mk"
    page = client.get(reverse("web:match", kwargs={"pk": finished.pk})).content.decode()
    assert "Светска класа" in page and "World class" not in page


def test_a_band_runs_up_to_its_bound():
    for depth, bands in postgame.BANDS.items():
        bounds = [bound for _key, bound in bands]
        assert bounds == sorted(bounds) and bounds[-1] == float("inf")
        for (key, bound), (after, _next) in zip(bands, bands[1:], strict=False):
            assert postgame.band_of(bound - 1e-9, depth) == key
            assert postgame.band_of(bound, depth) == after
        assert postgame.band_of(0.0, depth) == "world_class"


def test_a_review_is_read_on_1_plys_bands_only_when_all_of_it_is_1_ply():
    assert postgame.bands_depth(frozenset({1})) == 1
    assert postgame.bands_depth(frozenset({0})) == 0
    assert postgame.bands_depth(frozenset({0, 1})) == 0  # the less flattering


def test_a_review_all_at_1_ply_lists_and_reads_1_plys_bands(weights, finished, alice, monkeypatch):
    real = postgame.review_for(match=finished)
    sides = [dataclasses.replace(side, bands=1) for side in real.players]
    judged = dataclasses.replace(real, players=sides, depths=frozenset({1}))
    monkeypatch.setattr(postgame, "review_for", lambda *, match: judged)
    bands = tuple((key, bound * 2) for key, bound in postgame.BANDS[1])  # apart from 0-ply's
    monkeypatch.setitem(postgame.BANDS, 1, bands)
    page = page_of(finished, alice.user)
    assert f"under {bands[0][1]:.3f}" in page
    for side in sides:
        assert side.band == postgame.band_of(side.average_error, 1)
        assert f'data-review-band="{side.band}"' in page


def test_a_practice_computer_has_no_band_as_the_judge_shares_its_values():
    """D170: the computers' plays are drawn from the judge's own values, so by it even the
    beginner would read World class; a person's band is read as ever."""
    from players.models import Player

    computer = postgame.PlayerReview(
        player=Player(display_name="Computer (beginner)", computer="beginner"),
        decisions=40,
        total_error=40 * 0.0247,
        mistakes=[],
    )
    person = postgame.PlayerReview(
        player=Player(display_name="Alice"), decisions=40, total_error=40 * 0.0247, mistakes=[]
    )
    assert computer.band is None and computer.to_json()["band"] is None
    assert computer.average_error == pytest.approx(0.0247)
    assert person.band == "world_class"
