"""Incremental ratings: rating each finished match on top of the stored history gives exactly
what a from-scratch recompute gives, also when a result comes in out of order (it is rated
after the others, docs/decisions.md D63), and changes nothing when run again; its cost does not
grow with the history."""

from __future__ import annotations

import datetime
import random
import threading
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import Options
from games.models import VARIANTS, Game, Match, RatingHistory
from games.services import ratings as service
from players.models import Player, VariantRating
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import play_all, tournament_running
from tournaments.models import Entry, TournamentMatch

pytestmark = pytest.mark.django_db

VARIANT_NAMES = [name for name, _ in VARIANTS]
START = timezone.now() - datetime.timedelta(days=30)  # every game finishes before "now"


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Everything the rating services store, in a comparable form."""
    return {
        "players": sorted(Player.objects.values_list("pk", "rating", "rating_games")),
        "variants": sorted(
            VariantRating.objects.values_list("player", "variant", "rating", "experience", "games")
        ),
        "history": sorted(
            RatingHistory.objects.values_list(
                "variant",
                "sequence",
                "player",
                "match",
                "game",
                "rating",
                "change",
                "experience",
                "rated_at",
            )  # fmt: skip
        ),
    }


def recomputed() -> dict[str, list[tuple[Any, ...]]]:
    service.ratings_recompute()
    return snapshot()


@pytest.fixture
def full_runs(monkeypatch) -> list[int]:
    """Counts the full recomputes that ratings_update falls back to."""
    calls: list[int] = []
    original = service.ratings_recompute

    def counted() -> int:
        calls.append(1)
        return original()

    monkeypatch.setattr(service, "ratings_recompute", counted)
    return calls


class Club:
    """Matches between a few players, made as rows: games finish at given minutes after START."""

    def __init__(self, size: int) -> None:
        self.organiser = UserFactory()
        self.players = [PlayerFactory() for _ in range(size)]

    def match(self, one: Player, two: Player, target: int) -> Match:
        return Match.objects.create(
            player_one=one, player_two=two, organiser=self.organiser, target_score=target,
            mode=Match.Mode.OVER_THE_BOARD, status=Match.Status.IN_PROGRESS,
            options=Options().to_json(), rated=True,
        )  # fmt: skip

    def game(self, match: Match, variant: str, winner: Player, minute: float) -> Game:
        number = match.games.count() + 1
        white, black = (match.player_one, match.player_two)[:: 1 if number % 2 else -1]
        return Game.objects.create(
            match=match, number=number, variant=variant, white=white, black=black, position={},
            status=Game.Status.FINISHED, result_winner=winner, result_kind="single",
            result_points=1, ended_by=Game.EndedBy.REPORT,
            finished_at=START + datetime.timedelta(minutes=minute),
        )  # fmt: skip

    def finish(self, match: Match, winner: Player) -> None:
        match.status, match.winner = Match.Status.FINISHED, winner
        match.save()


def play_randomly(
    club: Club, rng: random.Random, matches: int, disorder: float = 0.0
) -> tuple[int, int]:
    """Play `matches` matches, several at once, rating after each one ends; a game's finishing
    minute goes back in time with probability `disorder`. Returns (matches rated, updates)."""
    open_: list[tuple[Match, dict[int, int]]] = []
    started = finished = updates = 0
    minute = 0.0
    while finished < matches:
        if started < matches and (not open_ or rng.random() < 0.4):
            one, two = rng.sample(club.players, 2)
            open_.append((club.match(one, two, rng.choice([1, 3, 5])), {one.pk: 0, two.pk: 0}))
            started += 1
            continue
        match, score = rng.choice(open_)
        winner = rng.choice([match.player_one, match.player_two])
        minute += 1
        at = minute - rng.uniform(1, 200) if rng.random() < disorder else minute
        club.game(match, rng.choice(VARIANT_NAMES), winner, at)
        score[winner.pk] += 1
        if score[winner.pk] >= min(match.target_score, 2):
            club.finish(match, winner)
            open_.remove((match, score))
            finished += 1
            service.ratings_update(match_id=match.pk)  # what the match_finished receiver enqueues
            updates += 1
    return finished, updates


@pytest.mark.parametrize("seed", range(6))
def test_rating_each_match_as_it_ends_equals_a_full_recompute(seed, full_runs):
    rng = random.Random(seed)
    club = Club(size=rng.randint(3, 7))
    play_randomly(club, rng, matches=rng.randint(8, 20))
    incremental = snapshot()
    assert full_runs == []  # every match was rated incrementally
    assert RatingHistory.objects.filter(variant="").count() > 0
    assert {row[0] for row in incremental["history"]} > {""}  # and some variants
    assert incremental == recomputed()


@pytest.mark.parametrize("seed", range(4))
def test_results_out_of_order_fall_back_and_still_equal_a_full_recompute(seed, full_runs):
    rng = random.Random(100 + seed)
    club = Club(size=5)
    play_randomly(club, rng, matches=15, disorder=0.3)
    incremental = snapshot()
    assert incremental == recomputed()


def test_a_late_result_is_rated_after_the_others_without_a_recompute(full_runs):
    club = Club(size=3)
    a, b, c = club.players
    for minute, (one, two) in enumerate([(a, b), (b, c), (c, a)], start=1):
        match = club.match(one, two, 1)
        club.game(match, "tabla", one, minute * 10)
        club.finish(match, one)
        assert service.ratings_update(match_id=match.pk) == 2  # the match and its game
    late = club.match(a, c, 1)  # reported now, but its game ended before the last rated one
    club.game(late, "tapa", c, 25)
    club.finish(late, c)
    assert service.ratings_update(match_id=late.pk) == 2  # only the late match and its game
    assert full_runs == []
    overall = RatingHistory.objects.filter(variant="").order_by("sequence", "pk")
    assert list(overall.values_list("match_id", flat=True))[::2][3] == late.pk  # rating order
    assert snapshot() == recomputed()  # a recompute keeps that order


def test_an_older_game_of_one_variant_is_rated_after_the_others(full_runs):
    club = Club(size=2)
    a, b = club.players
    first = club.match(a, b, 3)
    club.game(first, "tapa", a, 10)
    club.game(first, "tapa", a, 20)
    club.finish(first, a)
    service.ratings_update(match_id=first.pk)
    second = club.match(b, a, 1)
    late = club.game(second, "tapa", b, 15)  # a tapa game older than the last rated tapa game
    club.finish(second, b)
    service.ratings_update(match_id=second.pk)
    assert full_runs == []
    assert RatingHistory.objects.get(game=late, player=b).sequence == 3
    assert snapshot() == recomputed()


def test_an_update_of_one_match_leaves_the_others_unrated():
    club = Club(size=4)
    a, b, c, d = club.players
    one, two = club.match(a, b, 1), club.match(c, d, 1)
    for match, winner, minute in ((one, a, 1), (two, c, 2)):
        club.game(match, "tabla", winner, minute)
        club.finish(match, winner)
    assert service.ratings_update(match_id=two.pk) == 2
    assert set(RatingHistory.objects.values_list("match_id", flat=True)) == {two.pk}
    assert service.ratings_update(match_id=two.pk) == 0  # rated already
    assert service.ratings_update() == 2  # the owed path: every result not rated yet
    assert snapshot() == recomputed()


def test_rating_a_match_costs_the_same_whatever_the_history():
    """A match end reads the stream's last number and each player's latest row by index:
    the same queries with 2 or 40 results already rated."""
    club = Club(size=4)
    a, b, c, d = club.players

    def rated_match(one: Player, two: Player, minute: float) -> Match:
        match = club.match(one, two, 1)
        club.game(match, "tabla", one, minute)
        club.finish(match, one)
        return match

    service.ratings_update(match_id=rated_match(c, d, 0).pk)  # c and d have a history row each
    counts = []
    for history in (2, 40):
        for minute in range(history):
            service.ratings_update(match_id=rated_match(a, b, minute).pk)
        match = rated_match(c, d, 1000 + history)
        with CaptureQueriesContext(connection) as queries:
            assert service.ratings_update(match_id=match.pk) == 2
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_running_the_update_twice_changes_nothing(full_runs):
    rng = random.Random(7)
    club = Club(size=4)
    play_randomly(club, rng, matches=6)
    before = snapshot()
    rows = sorted(RatingHistory.objects.values_list("pk", flat=True))
    variant_rows = sorted(VariantRating.objects.values_list("pk", flat=True))
    assert service.ratings_update() == 0
    assert service.ratings_update() == 0
    assert snapshot() == before
    assert sorted(RatingHistory.objects.values_list("pk", flat=True)) == rows
    assert sorted(VariantRating.objects.values_list("pk", flat=True)) == variant_rows
    assert full_runs == []


def test_the_update_starts_from_the_history_not_from_a_hand_set_rating():
    club = Club(size=2)
    a, b = club.players
    Player.objects.filter(pk=a.pk).update(rating=1900.0)  # e.g. set in the admin, never rated
    match = club.match(a, b, 1)
    club.game(match, "tabla", a, 1)
    club.finish(match, a)
    service.ratings_update()
    a.refresh_from_db()
    assert (a.rating, a.rating_games) == (1510.0, 1)  # two newcomers: +10


def test_a_cup_played_through_the_api_is_rated_incrementally(org_api, players, full_runs):
    pk = tournament_running(org_api, players[:8], format="single_elimination")["id"]
    play_all(org_api, pk)
    assert full_runs == []
    assert RatingHistory.objects.filter(variant="").count() == 7 * 2
    incremental = snapshot()
    incremental["players"] = [p for p in incremental["players"] if p[2] > 0]  # seeded, unrated
    expected = recomputed()
    expected["players"] = [p for p in expected["players"] if p[2] > 0]
    assert incremental == expected


def test_a_correction_recomputes_everything(org_api, players):
    pk = tournament_running(org_api, players[:2], format="single_elimination")["id"]
    play_all(org_api, pk)
    final = TournamentMatch.objects.get(tournament_id=pk, key="W1-1")
    loser = final.entry_two_id if final.winner_id == final.entry_one_id else final.entry_one_id
    org_api.post("tournaments:result-correct", {"winner": loser}, pk=pk, mid=final.pk)
    # The match was rated already: only a recompute rates it again, with the new winner.
    row = RatingHistory.objects.get(variant="", match_id=final.match_id, change__gt=0)
    assert row.player_id == Entry.objects.get(pk=loser).player_id
    assert snapshot() == recomputed()


@pytest.mark.django_db(transaction=True)
def test_concurrent_updates_and_a_recompute_follow_each_other():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks; SQLite serialises whole-database writes instead")
    club = Club(size=8)
    play_randomly(club, random.Random(3), matches=4)
    for minute, (one, two) in enumerate(
        zip(club.players[::2], club.players[1::2], strict=True), start=1
    ):
        match = club.match(one, two, 1)  # four new results between four different pairs
        club.game(match, VARIANT_NAMES[minute % 3], one, 10_000 + minute)
        club.finish(match, one)
    runs = [service.ratings_update] * 4 + [service.ratings_recompute]
    barrier = threading.Barrier(len(runs))
    errors: list[BaseException] = []

    def run(function) -> None:
        try:
            barrier.wait(timeout=10)
            function()
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(function,)) for function in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    for variant in ["", *VARIANT_NAMES]:
        sequences = RatingHistory.objects.filter(variant=variant).values_list("sequence", flat=True)
        assert sorted(set(sequences)) == list(range(1, len(sequences) // 2 + 1))
    assert snapshot() == recomputed()
