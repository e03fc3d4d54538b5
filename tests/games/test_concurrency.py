"""Two submissions for the same ply at the same moment: exactly one applies, the other gets 409.

Needs real row locks (select_for_update), so it runs on PostgreSQL only; .ci/run runs the suite
a second time on a throw-away PostgreSQL.
"""

import threading

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from games import selectors, services
from games.models import Game, Match, Turn


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks; SQLite serialises whole-database writes instead")


def submit_together(
    game: Game | Match,
    user,
    body: dict,
    count: int = 2,
    routes: tuple[str, ...] = ("play-submit",),
) -> list[int]:
    """``count`` posts at once, each to the next of ``routes`` in turn (on ``game``, or on a
    match for a match's route)."""
    barrier = threading.Barrier(count)
    statuses: list[int] = []

    def submit(route: str) -> None:
        client = APIClient()
        client.force_authenticate(user=user)
        url = reverse(f"games:{route}", kwargs={"pk": game.pk})
        try:
            barrier.wait(timeout=10)
            statuses.append(client.post(url, body, format="json").status_code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=submit, args=(routes[index % len(routes)],))
        for index in range(count)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(statuses)


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_for_one_ply_apply_exactly_once(postgres_only, alice, bob):
    match = services.match_create(creator=alice.user, player_one=alice, player_two=bob)
    game = match.games.get()
    for _ in range(4):
        player = selectors.player_to_move(game)
        if selectors.is_roll_due(game):
            game = services.dice_roll(game=game, player=player).game
        if game.is_over or selectors.is_roll_due(game):
            continue
        ply = game.ply
        moves = selectors.game_legal_plays(game)[0].play.to_json()

        statuses = submit_together(game, player.user, {"ply": ply, "moves": moves})

        assert statuses == [200, 409]
        assert Turn.objects.filter(game=game, ply=ply).count() == 1
        game.refresh_from_db()
        assert game.ply > ply
        assert selectors.game_replay_problems(game) == []


@pytest.mark.django_db(transaction=True)
def test_a_take_and_a_drop_at_the_same_moment_apply_exactly_once(postgres_only, alice, bob):
    match = services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, options={"cube": "tabla_only"}
    )
    game = services.cube_double(game=match.games.get(), player=match.games.get().white).game
    taker = game.black

    statuses = submit_together(game, taker.user, {}, routes=("cube-take", "cube-drop"))

    assert statuses == [200, 409]
    assert Turn.objects.filter(game=game, kind__in=["take", "drop"]).count() == 1
    game.refresh_from_db()
    assert selectors.game_replay_problems(game) == []


@pytest.mark.django_db(transaction=True)
def test_a_match_resigned_twice_at_the_same_moment_is_resigned_once(postgres_only, alice, bob):
    """A double click on "Resign the match" (docs/decisions.md D166): the second waits for the
    first's lock and finds the match over."""
    match = services.match_create(creator=alice.user, player_one=alice, player_two=bob)

    statuses = submit_together(match, alice.user, {}, routes=("match-resign",))

    assert statuses == [200, 409]
    match.refresh_from_db()
    assert match.ended_by == Match.EndedBy.RESIGNATION and match.winner == bob
    assert (match.score_one, match.score_two) == (0, match.target_score)
    assert match.games.filter(resigned_by=alice).count() == 1
    assert match.games.count() == 1
