"""A request and the deadline task of a clock that has just run out, at the same moment: the
match ends on time once, the request is refused with 409, and neither deadlocks (the time-out
locks the game before the match, as a play does). Needs real row locks: PostgreSQL only."""

import threading

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from games import selectors, services, tasks
from games.models import Match


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks; SQLite serialises whole-database writes instead")


def roll_and_time_out_together(match: Match, game, mover) -> list[object]:
    """A roll by ``mover`` through the API and the deadline task, at the same moment."""
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def roll() -> None:
        client = APIClient()
        client.force_authenticate(user=mover.user)
        try:
            barrier.wait(timeout=10)
            url = reverse("games:dice-roll", kwargs={"pk": game.pk})
            outcomes.append(client.post(url).status_code)
        finally:
            connection.close()

    def time_out() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(tasks.match_time_out(match.pk))
        except Exception as error:  # a deadlock would surface here
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=roll), threading.Thread(target=time_out)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_roll_and_the_time_out_at_the_same_moment(postgres_only, fake_clock, alice, bob):
    for _ in range(5):
        match = services.match_create(
            creator=alice.user,
            player_one=alice,
            player_two=bob,
            target_score=1,
            clock={"per_point_seconds": 10, "delay_seconds": 0},
        )
        game = selectors.current_game(match)
        mover = selectors.player_to_move(game)
        fake_clock.advance(10)
        outcomes = roll_and_time_out_together(match, game, mover)
        assert 409 in outcomes and len(outcomes) == 2, outcomes
        assert all(outcome in (409, True, False) for outcome in outcomes), outcomes
        ended = Match.objects.get(pk=match.pk)
        assert ended.ended_by == Match.EndedBy.TIME and ended.winner_id != mover.pk
