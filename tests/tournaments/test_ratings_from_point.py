"""A correction's recompute from the corrected match's point in the history onward
(docs/decisions.md D137): each player restarts from their history row just before that point and
only the later rows are rewritten, giving exactly what the whole recompute gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Game, Match, RatingHistory
from games.services import ratings as service
from games.services.matches import match_correct
from tests.tournaments.test_ratings_incremental import Club, play_randomly, snapshot
from tests.tournaments.test_ratings_recompute import (
    ONE_TRANSACTION,
    assert_numbered_in_order,
    restore,
    saved,
)

pytestmark = pytest.mark.django_db


def club_with_history(seed: int) -> tuple[Club, list[Match]]:
    """Six players' rated matches (about 200 results, every variant), some games finished out
    of order, rated as they ended; the matches in the order the overall history rated them."""
    rng = random.Random(seed)
    club = Club(size=6)
    play_randomly(club, rng, matches=80, disorder=0.2)
    service.ratings_recompute()
    order = RatingHistory.objects.filter(variant="").order_by("sequence").values_list("match_id")
    matches = {m.pk: m for m in Match.objects.all()}
    return club, list(dict.fromkeys(matches[pk] for (pk,) in order))


def other(match: Match) -> Any:
    return match.player_two if match.winner_id == match.player_one_id else match.player_one


def changed(match: Match, how: str) -> None:
    if how == "winner":
        match.winner = other(match)
        match.save()
    elif how == "game":  # a game's winner: the match's overall result stays
        game = Game.objects.filter(match=match).order_by("number").last()
        assert game is not None
        winner = game.black_id if game.result_winner_id == game.white_id else game.white_id
        Game.objects.filter(pk=game.pk).update(result_winner_id=winner)
    else:  # no longer rated: its rows go and everybody's later rows move up
        Match.objects.filter(pk=match.pk).update(rated=False)


def assert_equals_the_whole_recompute(match: Match, chunk: int) -> None:
    before = saved()
    stale = snapshot()
    rated = service.ratings_recompute(from_match=match.pk, chunk=chunk)
    partial = snapshot()
    restore(before)
    service.ratings_recompute(chunk=ONE_TRANSACTION)
    assert partial == snapshot()
    assert partial != stale
    assert rated < RatingHistory.objects.count() // 2  # only the results from the point on
    assert_numbered_in_order()


@pytest.mark.parametrize("how", ["winner", "game", "unrated"])
@pytest.mark.parametrize("seed", range(2))
def test_a_recompute_from_a_point_equals_the_whole_recompute(seed, how):
    _, matches = club_with_history(seed)
    assert RatingHistory.objects.count() // 2 >= 200
    middle = matches[len(matches) // 2]
    changed(middle, how)
    assert_equals_the_whole_recompute(middle, chunk=7)


def test_a_recompute_from_a_point_in_one_chunk_and_run_again_changes_nothing():
    _, matches = club_with_history(5)
    changed(matches[len(matches) // 3], "winner")
    assert_equals_the_whole_recompute(matches[len(matches) // 3], chunk=ONE_TRANSACTION)
    after = snapshot()
    service.ratings_recompute(from_match=matches[len(matches) // 3].pk)
    assert snapshot() == after


def test_a_correction_of_the_newest_result_recomputes_from_it(
    monkeypatch, django_capture_on_commit_callbacks
):
    club, matches = club_with_history(3)
    newest = matches[-1]
    before = saved()
    calls: list[dict[str, Any]] = []
    recompute = service.ratings_recompute

    def recorded(**kwargs: Any) -> int:
        calls.append(kwargs)
        return recompute(**kwargs)

    monkeypatch.setattr(service, "ratings_recompute", recorded)
    with django_capture_on_commit_callbacks(execute=True):
        match_correct(
            match=newest, user=club.organiser, winner=other(newest),
            score_one=newest.score_two, score_two=newest.score_one,
        )  # fmt: skip
    monkeypatch.undo()
    assert calls == [{"from_match": newest.pk}]
    last = RatingHistory.objects.filter(variant="").order_by("-sequence").first()
    assert last is not None and last.match_id == newest.pk
    winner = RatingHistory.objects.get(variant="", match=newest, change__gt=0)
    assert winner.player_id == other(newest).pk
    corrected = snapshot()

    state = saved()
    restore(before)
    restore(state)  # the corrected match, the history as the correction left it
    service.ratings_recompute()
    assert snapshot() == corrected


def test_results_rated_meanwhile_queue_behind_a_recompute_from_a_point(monkeypatch):
    club, matches = club_with_history(8)
    corrected = matches[-1]  # the late match's players were not rated from its point on:
    changed(corrected, "winner")  # they start from their rows before it
    one, two = [p for p in club.players if p.pk not in (corrected.winner_id, other(corrected).pk)][
        :2
    ]
    late = club.match(one, two, 1)
    variant = Game.objects.filter(match=corrected).values_list("variant", flat=True)[0]
    club.game(late, variant, one, 10_000)
    write = service._history_write
    calls: list[int] = []

    def a_match_ends_between_chunks(*args: Any) -> None:
        write(*args)
        calls.append(1)
        if len(calls) == 1:  # the match's end, rated by its update between two chunks
            club.finish(late, one)
            assert service.ratings_update(match_id=late.pk) == 2

    monkeypatch.setattr(service, "_history_write", a_match_ends_between_chunks)
    service.ratings_recompute(from_match=corrected.pk, chunk=3)
    monkeypatch.undo()

    after = snapshot()
    last = RatingHistory.objects.filter(variant="").order_by("-sequence").first()
    assert last is not None and last.match_id == late.pk  # queued behind the others
    assert_numbered_in_order()
    service.ratings_recompute()
    assert snapshot() == after  # what a recompute of everything gives
