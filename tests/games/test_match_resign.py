"""Resigning the whole match (games/services/play.py ``match_resign``, POST
/api/v1/matches/{id}/resign/; docs/decisions.md D166): the game in progress is recorded as the
player's resignation of a single, the opponent wins the match at its length through the end a
time-out takes (the signal, the rating, no next game); only a player of an online match in
progress may, and a second resignation finds the match over."""

import json

import pytest
from django.dispatch import receiver
from django.urls import reverse

from common.errors import ConflictError, NotAllowedError
from games import selectors, services
from games.models import Game, Match, RatingHistory
from games.services.ratings import ratings_recompute
from games.signals import match_finished
from tests.games.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def resign_url(match: Match) -> str:
    return reverse("games:match-resign", kwargs={"pk": match.pk})


def five_points(alice, bob, organiser, **fields) -> Match:
    return services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=5, **fields
    )


def test_the_opponent_wins_at_the_match_length_and_the_game_is_the_resigner_s(
    alice, bob, organiser
):
    match = five_points(alice, bob, organiser)
    first = selectors.current_game(match)
    services.game_resign(game=first, player=alice, kind="mars")  # bob 2-0
    second = selectors.current_game(match)
    services.game_resign(game=second, player=bob, kind="single")  # bob 2, alice 1
    game = selectors.current_game(match)
    ended = services.match_resign(match=match, user=bob.user)

    assert ended.status == Match.Status.FINISHED and ended.ended_by == Match.EndedBy.RESIGNATION
    assert ended.winner == alice
    assert (ended.score_one, ended.score_two) == (5, 2)  # the resigner keeps what they scored
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_by == Game.EndedBy.RESIGNATION
    assert game.resigned_by == bob and game.result_winner == alice
    assert (game.result_kind, game.result_points) == ("single", 1)
    assert match.games.count() == 3  # no next game
    stored = Match.objects.get(pk=match.pk)
    assert (stored.score_one, stored.score_two, stored.winner_id) == (5, 2, alice.pk)
    assert stored.ended_by == Match.EndedBy.RESIGNATION


def test_the_single_counts_the_cube_and_may_itself_reach_the_length(alice, bob, organiser):
    """A 2-point match with the cube taken at 2: the single Bob resigns is worth 2 and ends the
    match by itself; it is still his resignation of the match."""
    match = services.match_create(
        creator=organiser,
        player_one=alice,
        player_two=bob,
        target_score=2,
        options={"cube": "tabla_only"},
    )
    game = selectors.current_game(match)
    services.cube_double(game=game, player=game.white)
    services.cube_take(game=game, player=game.black)
    ended = services.match_resign(match=match, user=bob.user)
    assert ended.winner == alice and ended.ended_by == Match.EndedBy.RESIGNATION
    assert (ended.score_one, ended.score_two) == (2, 0)
    game.refresh_from_db()
    assert game.result_points == 2 and game.resigned_by == bob
    assert Match.objects.get(pk=match.pk).ended_by == Match.EndedBy.RESIGNATION


def test_it_ends_the_match_once_the_match_finished_signal_and_the_rating_included(
    alice, bob, organiser
):
    match = five_points(alice, bob, organiser)
    heard: list[tuple[int, int | None, str]] = []

    @receiver(match_finished, weak=False)
    def hear(sender, match, **kwargs):
        heard.append((match.pk, match.winner_id, match.status))

    try:
        services.match_resign(match=match, user=alice.user)
    finally:
        match_finished.disconnect(hear)
    assert heard == [(match.pk, bob.pk, Match.Status.FINISHED)]
    ratings_recompute()
    rows = RatingHistory.objects.filter(match=match, variant="")
    assert rows.get(player=bob).change > 0 and rows.get(player=alice).change < 0


def test_only_a_player_of_the_match_may_resign_it(alice, bob, organiser):
    match = five_points(alice, bob, organiser)
    carol = PlayerFactory(user=UserFactory(username="carol"), display_name="Carol")
    for user in (carol.user, organiser, UserFactory(username="staff", is_staff=True)):
        with pytest.raises(NotAllowedError, match="only a player of the match may resign it"):
            services.match_resign(match=match, user=user)
    match.refresh_from_db()
    game = selectors.current_game(match)
    assert match.status == Match.Status.IN_PROGRESS and match.ended_by == ""
    assert game is not None and game.resigned_by is None


def test_resigning_twice_applies_once(alice, bob, organiser):
    """The second submission (a double click, a second tab) waits for the first's lock and then
    finds the match over: 409, and nothing more is written."""
    match = five_points(alice, bob, organiser)
    services.match_resign(match=match, user=alice.user)
    with pytest.raises(ConflictError, match=r"the match is over \(finished\)"):
        services.match_resign(match=match, user=alice.user)
    with pytest.raises(ConflictError, match="over"):
        services.match_resign(match=match, user=bob.user)
    match.refresh_from_db()
    assert match.winner == bob and (match.score_one, match.score_two) == (0, 5)
    assert match.games.filter(resigned_by__isnull=False).count() == 1


def test_only_an_online_match_in_progress_may_be_resigned(alice, bob, organiser):
    invited = services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, invitation=True
    )
    with pytest.raises(ConflictError, match=r"not in progress \(invited\)"):
        services.match_resign(match=invited, user=alice.user)
    board = five_points(alice, bob, organiser, mode=Match.Mode.OVER_THE_BOARD)
    with pytest.raises(ConflictError, match="over the board, report its result"):
        services.match_resign(match=board, user=bob.user)
    forfeited = five_points(alice, bob, organiser)
    services.match_concede(match=forfeited, user=bob.user)
    with pytest.raises(ConflictError, match=r"over \(forfeited\)"):
        services.match_resign(match=forfeited, user=alice.user)


def test_a_resignation_after_the_clock_ran_out_comes_too_late(alice, bob, organiser, fake_clock):
    match = five_points(alice, bob, organiser, clock={"preset": "standard"})
    runner = selectors.player_to_move(selectors.current_game(match))
    waiting = bob if runner == alice else alice
    fake_clock.advance(12 + 600 + 1)
    with pytest.raises(ConflictError, match="ran out of time"):
        services.match_resign(match=match, user=runner.user)
    match.refresh_from_db()
    assert match.ended_by == Match.EndedBy.TIME and match.winner == waiting
    assert not match.games.filter(resigned_by__isnull=False).exists()


def test_the_clock_stops_when_the_match_is_resigned(alice, bob, organiser, fake_clock):
    match = five_points(alice, bob, organiser, clock={"preset": "standard"})
    fake_clock.advance(30)
    ended = services.match_resign(match=match, user=alice.user)
    stored = Match.objects.get(pk=ended.pk)
    assert stored.clock_running == "" and stored.clock_deadline is None


# --- the API --------------------------------------------------------------------------------


def test_the_api_resigns_the_match_for_its_player(online_match, client_for, alice, bob):
    response = client_for(alice).post(resign_url(online_match))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["ended_by"] == "resignation"
    assert body["winner"] == bob.pk
    assert (body["score_one"], body["score_two"]) == (0, online_match.target_score)
    again = client_for(bob).post(resign_url(online_match))
    assert again.status_code == 409 and "over" in again.json()["detail"]


def test_the_api_refuses_everyone_else(online_match, client_for, organiser, spectator, api_client):
    answers = [
        client_for(organiser).post(resign_url(online_match)),
        client_for(spectator).post(resign_url(online_match)),
        api_client.post(resign_url(online_match)),
    ]
    assert [a.status_code for a in answers] == [403, 403, 401], [a.json() for a in answers]
    assert "only a player of the match" in answers[0].json()["detail"]
    online_match.refresh_from_db()
    assert online_match.status == Match.Status.IN_PROGRESS


def test_the_api_hides_a_match_the_user_may_not_see(alice, bob, client_for, spectator):
    private = services.match_create(
        creator=alice.user, player_one=alice, player_two=bob, is_public=False
    )
    assert client_for(spectator).post(resign_url(private)).status_code == 404
    missing = reverse("games:match-resign", kwargs={"pk": private.pk + 1000})
    assert client_for(alice).post(missing).status_code == 404


@pytest.mark.parametrize("target", [5, 1])
def test_an_export_keeps_a_resigned_match_and_its_import_ends_the_same_way(
    alice, bob, organiser, staff, target
):
    match = services.match_create(
        creator=organiser, player_one=alice, player_two=bob, target_score=target
    )
    services.match_resign(match=match, user=alice.user)
    match.refresh_from_db()
    lines = services.match_export(match)
    assert lines[0]["ended_by"] == "resignation" and lines[-1]["type"] == "end"
    imported = services.match_import(
        text="\n".join(json.dumps(line) for line in lines),
        creator=staff,
        player_one=alice,
        player_two=bob,
    )
    assert imported.status == Match.Status.FINISHED
    assert imported.ended_by == Match.EndedBy.RESIGNATION and imported.winner == bob
    assert (imported.score_one, imported.score_two) == (0, target)
    imported_game = imported.games.get()
    assert imported_game.ended_by == Game.EndedBy.RESIGNATION and imported_game.resigned_by == alice
