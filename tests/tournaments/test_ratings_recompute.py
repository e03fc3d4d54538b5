"""The full ratings recompute (docs/decisions.md D77): in chunks of a few results a transaction,
with the same outcome as one transaction over everything; run again it writes nothing, stopped
half-way the next run finishes it, results rated meanwhile queue behind it; and a correction
made with a broker only publishes it: the request never runs it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from celery.app.task import Task as CeleryTask
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.celery_app import app as celery_app
from games import tasks
from games.models import Match, RatingHistory
from games.services import ratings as service
from players.models import Player, VariantRating
from tests.tournaments.helpers import play_all, tournament_running
from tests.tournaments.test_ratings_incremental import Club, play_randomly, snapshot
from tournaments.models import Entry, TournamentMatch

pytestmark = pytest.mark.django_db

ONE_TRANSACTION = 10**9  # a chunk larger than any history: the recompute in one go


def history_changed_behind_its_back(seed: int) -> Club:
    """A club rated match by match, some results out of order, then changed under the history:
    a rated match's winner corrected, a rated match made unrated (its rows must go) and a
    finished match left unrated (it is rated at the end)."""
    rng = random.Random(seed)
    club = Club(size=5)
    play_randomly(club, rng, matches=12, disorder=0.3)
    rated = list(Match.objects.filter(status=Match.Status.FINISHED).order_by("pk"))
    corrected = rated[2]
    corrected.winner = (
        corrected.player_two if corrected.winner_id == corrected.player_one_id
        else corrected.player_one
    )  # fmt: skip
    corrected.save()
    Match.objects.filter(pk=rated[5].pk).update(rated=False)
    one, two = club.players[:2]
    unrated = club.match(one, two, 1)
    club.game(unrated, "tapa", two, 5)
    club.finish(unrated, two)
    return club


def saved() -> dict[str, list[Any]]:
    return {
        "history": list(RatingHistory.objects.order_by("pk")),
        "players": list(Player.objects.order_by("pk")),
        "variants": list(VariantRating.objects.order_by("pk")),
    }


def restore(state: dict[str, list[Any]]) -> None:
    RatingHistory.objects.all().delete()
    RatingHistory.objects.bulk_create(state["history"])
    Player.objects.bulk_update(state["players"], ["rating", "rating_games"])
    VariantRating.objects.all().delete()
    VariantRating.objects.bulk_create(state["variants"])


def assert_numbered_in_order() -> None:
    for variant in set(RatingHistory.objects.values_list("variant", flat=True)):
        sequences = RatingHistory.objects.filter(variant=variant).values_list("sequence", flat=True)
        assert sorted(sequences) == sorted(list(range(1, len(sequences) // 2 + 1)) * 2)


@pytest.mark.parametrize("chunk", [1, 2, 5])
@pytest.mark.parametrize("seed", range(3))
def test_a_recompute_in_chunks_equals_one_in_one_transaction(seed, chunk):
    history_changed_behind_its_back(seed)
    before = saved()
    stale = snapshot()

    rated = service.ratings_recompute(chunk=chunk)
    chunked = snapshot()
    restore(before)
    assert snapshot() == stale
    assert service.ratings_recompute(chunk=ONE_TRANSACTION) == rated
    assert chunked == snapshot()
    assert chunked != stale  # the recompute did change the history
    assert_numbered_in_order()


def test_a_recompute_run_again_writes_nothing():
    history_changed_behind_its_back(7)
    service.ratings_recompute(chunk=3)
    rows = sorted(RatingHistory.objects.values_list("pk", flat=True))
    before = snapshot()
    with CaptureQueriesContext(connection) as queries:
        service.ratings_recompute(chunk=3)
    writes = [
        q["sql"] for q in queries if q["sql"].split()[0].upper() in ("INSERT", "UPDATE", "DELETE")
    ]
    assert writes == []
    assert snapshot() == before
    assert sorted(RatingHistory.objects.values_list("pk", flat=True)) == rows


def test_a_recompute_stopped_half_way_is_finished_by_the_next_run(monkeypatch):
    history_changed_behind_its_back(11)
    before = saved()
    service.ratings_recompute(chunk=ONE_TRANSACTION)
    expected = snapshot()
    restore(before)

    write = service._history_write
    calls: list[int] = []

    def dies_at_the_third_chunk(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("worker killed")
        write(*args)

    monkeypatch.setattr(service, "_history_write", dies_at_the_third_chunk)
    with pytest.raises(RuntimeError):
        service.ratings_recompute(chunk=2)
    done = set(RatingHistory.objects.filter(variant="", sequence__lte=4).values_list("pk"))
    monkeypatch.undo()

    service.ratings_recompute(chunk=2)
    assert snapshot() == expected
    kept = set(RatingHistory.objects.filter(variant="", sequence__lte=4).values_list("pk"))
    assert kept == done  # the two chunks done were not written again
    assert_numbered_in_order()


def test_results_rated_meanwhile_queue_behind_the_recompute(monkeypatch):
    club = history_changed_behind_its_back(3)
    one, two = club.players[2:4]
    late = club.match(one, two, 1)
    club.game(late, "gjul_bara", one, 10_000)
    write = service._history_write
    calls: list[int] = []

    def a_match_ends_between_chunks(*args: Any) -> None:
        write(*args)
        calls.append(1)
        if len(calls) == 1:  # the match's end, rated by its update between two chunks
            club.finish(late, one)
            assert service.ratings_update(match_id=late.pk) == 2

    monkeypatch.setattr(service, "_history_write", a_match_ends_between_chunks)
    service.ratings_recompute(chunk=2)
    monkeypatch.undo()

    after = snapshot()
    last = RatingHistory.objects.filter(variant="").order_by("-sequence").first()
    assert last is not None and last.match_id == late.pk  # queued behind the others
    assert_numbered_in_order()
    service.ratings_recompute()
    assert snapshot() == after  # what a recompute of everything gives


@pytest.fixture
def broker(monkeypatch):
    """Celery with a broker (not eager), every publish recorded instead of sent."""
    published: list[tuple[str, Any]] = []

    def apply_async(task: Any, args: Any = (), **kwargs: Any) -> None:
        published.append((task.name, tuple(args)))

    monkeypatch.setattr(CeleryTask, "apply_async", apply_async)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.update(task_always_eager=False)
    yield published
    celery_app.conf.update(task_always_eager=eager)


def test_a_correction_with_a_broker_publishes_the_recompute_and_does_not_run_it(
    org_api, players, broker, monkeypatch
):
    pk = tournament_running(org_api, players[:2], format="single_elimination")["id"]
    play_all(org_api, pk)
    final = TournamentMatch.objects.get(tournament_id=pk, key="W1-1")
    service.ratings_update(match_id=final.match_id)  # what the worker did with the match's end
    loser = final.entry_two_id if final.winner_id == final.entry_one_id else final.entry_one_id
    runs: list[int] = []
    broker.clear()

    with monkeypatch.context() as patch, CaptureQueriesContext(connection) as queries:
        patch.setattr(service, "ratings_recompute", lambda **kw: runs.append(1) or 0)
        org_api.post("tournaments:result-correct", {"winner": loser}, pk=pk, mid=final.pk)

    assert runs == []  # not in the request, nor in its on-commit callbacks
    assert ("games.tasks.ratings_recompute", ()) in broker
    assert not any("tournaments_ratinghistory" in q["sql"] for q in queries)
    tasks.ratings_recompute()  # what the worker then runs
    row = RatingHistory.objects.get(variant="", match_id=final.match_id, change__gt=0)
    assert row.player_id == Entry.objects.get(pk=loser).player_id


def test_the_command_recomputes_in_chunks(capsys):
    history_changed_behind_its_back(5)
    before = saved()
    service.ratings_recompute()
    expected = snapshot()
    restore(before)
    call_command("ratings_recompute", "--chunk", "3")
    assert snapshot() == expected
    assert "results rated in" in capsys.readouterr().out
    with pytest.raises(CommandError):
        call_command("ratings_recompute", "--chunk", "0")
