"""The series of a game's chances extended turn by turn (games/chances.py, docs/decisions.md
D158): what a new turn adds to the cached entry is exactly what replaying and evaluating the
whole log gives, on whole games of each variant, with the cube, after a log that breaks the
rules and after a rollback; and the chances endpoint's queries do not grow with the turns."""

import random

import numpy as np
import pytest
from django.db import transaction
from django.db.models import Max
from django.urls import reverse

from games import chances, replay, selectors, services
from games.analysis.net import flip
from games.analysis.player import position_chances
from games.demo import game_play_random
from games.engine import start_position
from games.models import Game, Match, Turn
from games.state import match_options
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def spectator(db):
    return UserFactory(username="spectator")


def chances_url(match) -> str:
    return reverse("games:match-chances", kwargs={"pk": match.pk})


def unrated(alice, bob, organiser, **options) -> Match:
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, rated=False, options=options or None
    )


def cached_points(match: Match, game: Game) -> list[chances.Point]:
    """The game's points as chances_for reads them (the cached entry, extended if need be)."""
    last = Turn.objects.filter(game=game).aggregate(pk=Max("pk"), made=Max("created_at"))
    return chances.game_points(match, game, last["pk"], last["made"])


def full_points(match: Match, game: Game) -> list[chances.Point]:
    """The same points computed from nothing: the whole log replayed and evaluated."""
    network = chances.evaluator(game.variant)
    turns = list(Turn.objects.filter(game=game).order_by("ply"))
    return chances._extend(match, game, network, chances._start(game), turns).points()


def reference(match: Match, game: Game) -> list[tuple[int, float, bool | None]]:
    """An independent computation as the series was first written: one replay of the whole log
    and one batch (the floats may differ from the series' in the last bits: other batches)."""
    options = match_options(match)
    turns = list(Turn.objects.filter(game=game).order_by("ply"))
    positions, plies, results = [start_position(game.variant, "w")], [0], [None]
    try:
        steps = replay.replay_log(game.variant, options, turns, crawford=game.crawford)
        for turn, step in zip(turns, steps, strict=False):
            positions.append(step.position_after)
            plies.append(turn.ply)
            results.append(step.game_result)
    except replay.ReplayError:
        pass
    live = [p for p, r in zip(positions, results, strict=True) if r is None]
    values = iter(position_chances(chances.evaluator(game.variant), game.variant, live, options))
    one = game.colour_of(match.player_one)
    out = []
    for ply, position, result in zip(plies, positions, results, strict=True):
        if result is not None:
            out.append((ply, 0.5 if result.winner is None else float(result.winner == one), None))
            continue
        value = next(values)
        seen = value if position.turn == one else flip(value)
        out.append((ply, float(seen[0]), position.turn == one))
    return out


def decide(game: Game, rng: random.Random, double: bool) -> Game:
    """One decision of ``game``: a double and its take when ``double`` and the roll is due
    (the cube's turns), else a random play (rolling first)."""
    if double and selectors.is_roll_due(game):
        mover = selectors.player_to_move(game)
        game = services.cube_double(game=game, player=mover).game
        other = game.match.player_two if mover == game.match.player_one else game.match.player_one
        return services.cube_take(game=game, player=other).game
    return game_play_random(game=game, rng=rng, max_decisions=1)


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("tabla", 1), ("tabla", 2), ("gul_bara", 3), ("gul_bara", 4), ("tapa", 5), ("tapa", 6)],
)
def test_a_series_extended_turn_by_turn_is_the_full_one(
    weights, alice, bob, organiser, variant, seed, monkeypatch
):
    """Whole games played decision by decision, the series read after each one: every answer is
    the full recomputation's, float for float, and only the first read replays from the start."""
    cube = {"cube": "all_games"} if variant == "tabla" else {}
    match = unrated(alice, bob, organiser, cycle=[variant], **cube)
    game = match.games.get(number=1)
    assert game.variant == variant
    starts = []
    start = chances._start
    monkeypatch.setattr(chances, "_start", lambda g: starts.append(g.pk) or start(g))
    rng = random.Random(seed)
    doubles = {12, 40} if variant == "tabla" else set()
    decisions = from_start = 0
    while not game.is_over:
        game = decide(game, rng, decisions in doubles)
        decisions += 1
        read = len(starts)
        points = cached_points(match, game)
        from_start += len(starts) - read
        assert points == full_points(match, game), f"decision {decisions}"
    assert from_start == 1  # one full replay (the first read); every later read extended it
    turns = list(game.turns.order_by("ply"))
    assert len(turns) > 2 * chances.CHUNK
    assert [p.turn for p in points] == [0, *(t.ply for t in turns)]
    if variant == "tabla":
        assert {"double", "take"} <= {t.kind for t in turns}
    assert points[-1].one_to_move is None and points[-1].win in (0.0, 0.5, 1.0)
    expected = reference(match, game)
    assert [(p.turn, p.one_to_move) for p in points] == [(t, o) for t, _, o in expected]
    assert np.allclose([p.win for p in points], [w for _, w, _ in expected], rtol=0, atol=1e-12)


def test_the_series_read_now_and_then_is_the_full_one(weights, alice, bob, organiser):
    """Reads several turns apart (the cached entry extended by many turns at once, across
    batches) give the full series too."""
    match = unrated(alice, bob, organiser)
    game = match.games.get(number=1)
    rng = random.Random(11)
    gaps = iter([1, 17, 3, 15, 16, 2, 40, 5] * 10)
    while not game.is_over:
        game = game_play_random(game=game, rng=rng, max_decisions=next(gaps))
        assert cached_points(match, game) == full_points(match, game)


def test_a_turn_that_breaks_the_rules_after_the_cached_ones_stops_the_series(
    weights, alice, bob, organiser
):
    match = unrated(alice, bob, organiser)
    game = game_play_random(game=match.games.get(), rng=random.Random(3), max_decisions=20)
    before = cached_points(match, game)
    game = game_play_random(game=game, rng=random.Random(4), max_decisions=6)
    turns = list(game.turns.order_by("ply"))
    broken = turns[len(before) + 1]  # the second turn after the cached ones
    Turn.objects.filter(pk=broken.pk).update(moves=["1/0", "1/0"])
    points = cached_points(match, game)
    assert [p.turn for p in points] == [0, *(t.ply for t in turns if t.ply < broken.ply)]
    assert points[: len(before)] == before
    assert points == full_points(match, game)
    game = game_play_random(game=game, rng=random.Random(5), max_decisions=2)
    assert cached_points(match, game) == points  # the series stays stopped there


def test_turns_rolled_back_and_played_again_are_not_served_from_the_cache(
    weights, alice, bob, organiser
):
    """The cached entry ends at turns that were rolled back; the turns played instead (with the
    same ids on SQLite, as a database made again would) replay the log from the start."""

    class Undo(Exception):
        pass

    match = unrated(alice, bob, organiser)
    game = game_play_random(game=match.games.get(), rng=random.Random(3), max_decisions=20)
    cached_points(match, game)
    try:
        with transaction.atomic():
            ahead = game_play_random(game=game, rng=random.Random(7), max_decisions=3)
            stale = cached_points(match, ahead)
            raise Undo
    except Undo:
        pass
    game = Game.objects.get(pk=game.pk)
    game = game_play_random(game=game, rng=random.Random(8), max_decisions=3)
    points = cached_points(match, game)
    assert points == full_points(match, game)
    assert points != stale
    assert [p.turn for p in points] == [
        0,
        *game.turns.order_by("ply").values_list("ply", flat=True),
    ]


def test_a_new_turn_costs_the_endpoint_the_same_queries_early_and_late(
    weights, alice, bob, organiser, spectator, client_for, django_assert_num_queries
):
    """A read after one new turn: the hit path's queries and one for the turns after the
    cached entry's last, whether the game has 5 turns or 150."""
    client = client_for(spectator)
    for decisions in (5, 150):
        match = unrated(alice, bob, organiser)
        game = match.games.get()
        for seed in range(20):  # a game that lasts past ``decisions`` + 1 decisions
            played = game_play_random(game=game, rng=random.Random(seed), max_decisions=decisions)
            if not played.is_over:
                break
            match = unrated(alice, bob, organiser)
            game = match.games.get()
        game = played
        assert client.get(chances_url(match)).status_code == 200
        game = game_play_random(game=game, rng=random.Random(99), max_decisions=1)
        assert not game.is_over
        with django_assert_num_queries(4):  # the user, the match, its games with their last
            # turns, the turns from the cached entry's last on
            answer = client.get(chances_url(match))
        data = answer.json()
        assert data["points"][-1]["turn"] == game.turns.order_by("-ply").first().ply
        assert len(data["points"]) == game.turns.count() + 1
        with django_assert_num_queries(3):  # cached: no turn read
            assert client.get(chances_url(match)).json() == data


def test_a_rated_match_stays_one_turn_behind_as_its_series_is_extended(
    weights, online_match, spectator, client_for, settings
):
    assert online_match.rated
    client = client_for(spectator)
    game = game_play_random(game=online_match.games.get(), rng=random.Random(3), max_decisions=20)
    client.get(chances_url(online_match))
    game = game_play_random(game=game, rng=random.Random(4), max_decisions=3)
    behind = client.get(chances_url(online_match)).json()
    settings.CHANCES_SPECTATOR_DELAY_TURNS = 0
    ahead = client.get(chances_url(online_match)).json()
    assert behind["behind"] == 1 and ahead["behind"] == 0
    assert behind["points"] == ahead["points"][:-1]
    full = full_points(online_match, game)
    assert [(p["turn"], p["win"]) for p in ahead["points"]] == [
        (p.turn, round(p.win, 4)) for p in full
    ]


def test_an_older_entry_stored_last_by_a_slower_read_is_only_extended_further(
    weights, alice, bob, organiser
):
    """Two reads after turns may both compute (no lock): a slower one that read fewer turns can
    store its entry after a newer one. Every entry is true of the turns it read, so the next read
    extends the older one further, never serves a wrong point."""
    from django.core.cache import cache

    match = unrated(alice, bob, organiser)
    game = game_play_random(game=match.games.get(), rng=random.Random(3), max_decisions=20)
    cached_points(match, game)
    key = chances._series_key(game, chances.evaluator_and_version(game.variant)[1])
    older = cache.get(key)
    game = game_play_random(game=game, rng=random.Random(4), max_decisions=5)
    cached_points(match, game)
    assert cache.get(key) != older
    cache.set(key, older)  # the slower read's entry lands last
    game = game_play_random(game=game, rng=random.Random(5), max_decisions=2)
    assert cached_points(match, game) == full_points(match, game)
    assert chances._Series.from_cache(cache.get(key)).last_turn == game.turns.latest("ply").pk
